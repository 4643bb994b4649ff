package org.nectl.hw;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;

/** Rigid-body physics of a {@link SimulatedArm} ({@link ArmSimulator}). Real-time safe after construction; not thread safe. */
final class RigidArmPhysics implements ArmPhysics
{
    private final ArmSimulator simulator;
    private final AppliedWrench[] wrenches;
    /** The wrenches' components (6 each), read once so that a step allocates nothing. */
    private final double[] wrenchComponents;
    /** Sum of the active wrenches per body, 6 per body. */
    private final double[] bodyWrench;
    private final double[] oneBody = new double[6];

    /** @param compiled the robot, compiled under any gravity: the configuration's replaces it. */
    RigidArmPhysics(final CompiledModel compiled, final SimulatedArmConfig config)
    {
        final RobotModel model = compiled.robot();
        simulator = new ArmSimulator(compiled, config.periodNs(), config.substeps());
        wrenches = config.externalWrenches().toArray(new AppliedWrench[0]);
        wrenchComponents = new double[6 * wrenches.length];
        for (int w = 0; w < wrenches.length; w++)
        {
            if (wrenches[w].body() >= model.bodyCount())
            {
                throw new IllegalArgumentException("external wrench on body " + wrenches[w].body() + ", but "
                    + model.name() + " has " + model.bodyCount() + " bodies");
            }
            System.arraycopy(wrenches[w].wrench(), 0, wrenchComponents, 6 * w, 6);
        }
        bodyWrench = new double[6 * model.bodyCount()];
        final double[] gravity = config.gravity();
        simulator.gravity(gravity[0], gravity[1], gravity[2]);
        simulator.reset(config.initialQ(), new double[model.dof()]);
        config.baseMotion().ifPresent(simulator::baseMotion);
    }

    @Override
    public void baseMotion(final BaseMotion out)
    {
        simulator.baseMotionAt(simulator.timeNs() * 1e-9, out);
    }

    @Override
    public void command(final double[] commandNm)
    {
        simulator.torque(commandNm);
    }

    @Override
    public int step()
    {
        if (wrenches.length > 0)
        {
            applyWrenches(simulator.timeNs());
        }
        return simulator.step();
    }

    /** Sets on each body the sum of the wrenches whose window contains the start of this period. */
    private void applyWrenches(final long timeNs)
    {
        Arrays.fill(bodyWrench, 0.0);
        for (int w = 0; w < wrenches.length; w++)
        {
            if (wrenches[w].activeAt(timeNs))
            {
                final int b = 6 * wrenches[w].body();
                for (int c = 0; c < 6; c++)
                {
                    bodyWrench[b + c] += wrenchComponents[6 * w + c];
                }
            }
        }
        simulator.clearExternalWrenches();
        for (int body = 0; 6 * body < bodyWrench.length; body++)
        {
            System.arraycopy(bodyWrench, 6 * body, oneBody, 0, 6);
            simulator.externalWrench(body, oneBody);
        }
    }

    @Override
    public void stepBraked()
    {
        simulator.stepBraked();
    }

    @Override
    public void positions(final double[] out)
    {
        simulator.positions(out);
    }

    @Override
    public void velocities(final double[] out)
    {
        simulator.velocities(out);
    }

    @Override
    public long stepCount()
    {
        return simulator.stepCount();
    }

    @Override
    public long timeNs()
    {
        return simulator.timeNs();
    }
}
