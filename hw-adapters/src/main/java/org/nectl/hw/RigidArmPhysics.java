package org.nectl.hw;

import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;

/** Rigid-body physics of a {@link SimulatedArm} ({@link ArmSimulator}). Real-time safe after construction; not thread safe. */
final class RigidArmPhysics implements ArmPhysics
{
    private final ArmSimulator simulator;

    RigidArmPhysics(final RobotModel model, final SimulatedArmConfig config)
    {
        simulator = new ArmSimulator(model, config.periodNs(), config.substeps());
        final double[] gravity = config.gravity();
        simulator.gravity(gravity[0], gravity[1], gravity[2]);
        simulator.reset(config.initialQ(), new double[model.dof()]);
    }

    @Override
    public void command(final double[] commandNm)
    {
        simulator.torque(commandNm);
    }

    @Override
    public int step()
    {
        return simulator.step();
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
    public void motorPositions(final double[] out)
    {
        // No elastic joints: no motor-side state.
    }

    @Override
    public void motorVelocities(final double[] out)
    {
        // No elastic joints: no motor-side state.
    }

    @Override
    public int elasticMask()
    {
        return 0;
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
