package org.nectl.core.control;

import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;

/**
 * The simulated rigid arm of the closed-loop tests: an {@link ArmSimulator} (torque held over each
 * control period, RK4 sub-steps of the forward dynamics) whose state the tests read as arrays, the
 * way a controller receives it. Not thread safe.
 */
final class RigidArmPlant
{
    private final ArmSimulator simulator;
    private final double[] q;
    private final double[] qd;
    private boolean solvable = true;

    RigidArmPlant(final RobotModel model, final double periodS, final int subSteps)
    {
        simulator = new ArmSimulator(model, Math.round(periodS * 1e9), subSteps);
        q = new double[model.dof()];
        qd = new double[model.dof()];
    }

    void state(final double[] position, final double[] velocity)
    {
        simulator.reset(position, velocity);
        simulator.positions(q);
        simulator.velocities(qd);
    }

    double[] q()
    {
        return q;
    }

    double[] qd()
    {
        return qd;
    }

    /** Applies a wrench on a body from now on: force, then moment about the body origin, body frame. */
    void externalWrench(final int body, final double[] wrench6)
    {
        simulator.externalWrench(body, wrench6);
    }

    /** Switches the plant's joint friction on or off. */
    void jointFriction(final boolean enabled)
    {
        simulator.jointFriction(enabled);
    }

    /** @return false if any period failed to integrate. */
    boolean solvable()
    {
        return solvable;
    }

    /** Advances one control period under tauNm. */
    void advance(final double[] tauNm)
    {
        simulator.torque(tauNm);
        solvable &= simulator.step() == ArmSimulator.STEP_OK;
        simulator.positions(q);
        simulator.velocities(qd);
    }
}
