package org.nectl.hw;

import org.nectl.core.model.RobotModel;
import org.nectl.hw.mujoco.MujocoPlant;

/**
 * Physics of a {@link SimulatedArm} by MuJoCo ({@link MujocoPlant}): rigid joints, contacts with the
 * scene. Real-time safe after construction; not thread safe.
 */
final class MujocoArmPhysics implements ArmPhysics
{
    private final MujocoPlant plant;

    /** Sets the plant's period, substeps and gravity from the configuration and puts it at rest at the initial positions. */
    MujocoArmPhysics(final RobotModel model, final MujocoPlant plant, final SimulatedArmConfig config)
    {
        this.plant = plant;
        plant.options(config.periodNs(), config.substeps(), config.gravity(), 0, model);
        plant.reset(config.initialQ(), new double[model.dof()]);
    }

    @Override
    public void command(final double[] commandNm)
    {
        plant.torque(commandNm);
    }

    @Override
    public int step()
    {
        return plant.step();
    }

    @Override
    public void stepBraked()
    {
        plant.stepBraked();
    }

    @Override
    public void positions(final double[] out)
    {
        plant.positions(out);
    }

    @Override
    public void velocities(final double[] out)
    {
        plant.velocities(out);
    }

    @Override
    public long stepCount()
    {
        return plant.stepCount();
    }

    @Override
    public long timeNs()
    {
        return plant.timeNs();
    }
}
