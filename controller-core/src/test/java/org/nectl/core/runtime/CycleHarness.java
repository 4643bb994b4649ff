package org.nectl.core.runtime;

import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;

/**
 * One simulator and one control cycle stepping together in lockstep: the deterministic harness the
 * service's lockstep mode reproduces over Aeron. The simulator applies the commanded torque while
 * the drives are enabled and holds the arm still (engaged brakes) while they are not.
 */
final class CycleHarness
{
    static final long PERIOD_NS = 1_000_000L;

    final RobotModel model;
    final ArmSimulator arm;
    final ControlCycle cycle;
    long timeNs;

    CycleHarness(final RobotModel model, final CycleSettings settings, final SafetySettings safety)
    {
        this.model = model;
        arm = new ArmSimulator(model, PERIOD_NS, 4);
        cycle = new ControlCycle(model, settings, safety);
        arm.reset(new double[model.dof()], new double[model.dof()]);
    }

    CycleHarness(final RobotModel model, final CycleSettings settings, final SafetySettings safety,
        final CollisionSettings collision)
    {
        this.model = model;
        arm = new ArmSimulator(model, PERIOD_NS, 4);
        cycle = new ControlCycle(model, settings, safety, ReferenceTimeScaling.Settings.defaults(),
            MixedLawSettings.defaults(ElasticRobotModel.rigid(model)), ReferenceBlend.Settings.defaults(CompiledModel.of(model), PERIOD_NS),
            collision);
        arm.reset(new double[model.dof()], new double[model.dof()]);
    }

    CycleHarness(final RobotModel model)
    {
        this(model, CycleSettings.defaults(model.dof(), PERIOD_NS), SafetySettings.defaults(model.dof()));
    }

    /** One period: measure, tick, apply the torque (or brake), integrate. */
    void step(final boolean newState, final long heartbeatAgeNs)
    {
        arm.positions(cycle.measuredQ());
        arm.velocities(cycle.measuredQd());
        cycle.tick(timeNs, newState, heartbeatAgeNs, false);
        if (cycle.drivesEnabled())
        {
            arm.torque(cycle.tauCommand());
            arm.step();
        }
        else
        {
            arm.stepBraked();
        }
        timeNs += PERIOD_NS;
    }

    void run(final int ticks)
    {
        for (int i = 0; i < ticks; i++)
        {
            step(true, 0L);
        }
    }

    /** Out by {@code amplitude} (odd joints the other way) and back to 0 in {@code durationS}. */
    TrajectorySampler move(final double amplitude, final double durationS)
    {
        final int n = model.dof();
        final double[][] positions = new double[3][n];
        for (int j = 0; j < n; j++)
        {
            positions[1][j] = amplitude * (j % 2 == 0 ? 1 : -1);
        }
        return new TrajectorySampler(model, new JointWaypoints(new double[] {0, durationS / 2, durationS}, positions));
    }
}
