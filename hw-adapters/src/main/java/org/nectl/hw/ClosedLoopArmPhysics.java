package org.nectl.hw;

import java.util.Arrays;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.ClosedLoopSimulator;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.simulation.ArmSimulator;

/**
 * Physics of a closed-loop robot for a {@link SimulatedArm}, in its active coordinates: the closed
 * chain's direct dynamics (A_c qdd_a = Gamma_c - H_c) integrated by {@link ClosedLoopSimulator}
 * with classical Runge-Kutta 4 over the configured substeps. Constraint stabilisation is by
 * coordinate partitioning: the passive joints are not integrated but re-solved from the active ones
 * by Newton at every stage (to {@link LoopGeometry#TOLERANCE}), and their velocities are G qd_a, so
 * the loops cannot drift. Commands and states are of the active joints. Real-time safe after
 * construction; not thread safe.
 */
final class ClosedLoopArmPhysics implements ArmPhysics
{
    private final ClosedLoopModel model;
    private final ClosedLoopSimulator simulator;
    private final long periodNs;
    private final int substeps;
    private final double stepS;
    private final double[] torque;
    private final double[] activePositions;
    private final double[] rest;
    private long stepCount;

    /**
     * @throws IllegalArgumentException if the initial active positions do not close the loops.
     */
    ClosedLoopArmPhysics(final ClosedLoopModel model, final SimulatedArmConfig config)
    {
        this.model = model;
        simulator = new ClosedLoopSimulator(model);
        final double[] gravity = config.gravity();
        simulator.dynamics().gravity(gravity[0], gravity[1], gravity[2]);
        periodNs = config.periodNs();
        substeps = config.substeps();
        stepS = periodNs * 1e-9 / substeps;
        final int n = model.activeCount();
        torque = new double[n];
        activePositions = new double[n];
        rest = new double[n];
        if (simulator.reset(config.initialQ(), rest) != LoopGeometry.CONVERGED)
        {
            throw new IllegalArgumentException("the loops of " + model.tree().name() + " do not close at the initial"
                + " active positions " + Arrays.toString(config.initialQ()) + " (Newton from home)");
        }
    }

    @Override
    public void command(final double[] commandNm)
    {
        System.arraycopy(commandNm, 0, torque, 0, torque.length);
    }

    @Override
    public int step()
    {
        stepCount++;
        for (int s = 0; s < substeps; s++)
        {
            if (simulator.step(stepS, torque) != ClosedLoopSimulator.OK)
            {
                return ArmSimulator.STEP_SINGULAR;
            }
        }
        final double[] qd = simulator.activeVelocities();
        for (final double v : qd)
        {
            if (!Double.isFinite(v))
            {
                return ArmSimulator.STEP_NON_FINITE;
            }
        }
        return ArmSimulator.STEP_OK;
    }

    @Override
    public void stepBraked()
    {
        stepCount++;
        positions(activePositions);
        simulator.reset(activePositions, rest);
    }

    @Override
    public void positions(final double[] out)
    {
        final double[] q = simulator.treePositions();
        for (int a = 0; a < out.length; a++)
        {
            out[a] = q[model.activeCoordinate(a)];
        }
    }

    @Override
    public void velocities(final double[] out)
    {
        System.arraycopy(simulator.activeVelocities(), 0, out, 0, out.length);
    }

    @Override
    public double closureResidual()
    {
        return simulator.closureResidual();
    }

    @Override
    public void treePositions(final double[] out)
    {
        System.arraycopy(simulator.treePositions(), 0, out, 0, out.length);
    }

    @Override
    public long stepCount()
    {
        return stepCount;
    }

    @Override
    public long timeNs()
    {
        return stepCount * periodNs;
    }
}
