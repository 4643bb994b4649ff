package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * Kinetic and potential energy of a robot, from the bodies' poses and velocities in the base frame
 * (independent of the Newton-Euler recursion, hence usable as its oracle: with friction off,
 * tau . qd = d/dt (kinetic + potential)). Kinetic energy includes the rotors as modelled by
 * Khalil 2010 eq. 31: 1/2 Ia qd^2 per joint. Test code: the energy-balance tests of every module
 * (through the test jar) are its only users.
 *
 * <p>Not thread safe: use one instance per thread. Both energy methods are real-time safe.
 */
public final class MechanicalEnergy
{
    private final WorldKinematics kinematics;
    /** Gravity of the compiled model ({@link CompiledModel#of(org.nectl.core.model.RobotModel, double, double, double)}), base frame, m/s^2. */
    private final double[] gravity;
    private final double[] angular = new double[3];
    private final double[] linear = new double[3];
    private final double[] scratch = new double[3];

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public MechanicalEnergy(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot.
     */
    public MechanicalEnergy(final CompiledModel model)
    {
        kinematics = new WorldKinematics(model);
        gravity = model.gravity.clone();
    }

    /**
     * Sum over bodies of 1/2 m v.v + v.(omega x MS) + 1/2 omega.J omega (body frame, about the origin),
     * plus 1/2 Ia qd^2 per joint. Real-time safe.
     *
     * @param q joint positions by coordinate.
     * @param qd joint velocities by coordinate.
     * @return kinetic energy, J.
     */
    public double kineticEnergyJoules(final double[] q, final double[] qd)
    {
        kinematics.positions(q);
        kinematics.velocities(qd);
        final CompiledModel model = kinematics.model;
        double energy = 0.0;
        for (int j = 0; j < model.bodyCount; j++)
        {
            Vec3.multiplyTransposed(kinematics.rotation, 9 * j, kinematics.angularVelocity, 3 * j, angular, 0);
            Vec3.multiplyTransposed(kinematics.rotation, 9 * j, kinematics.originVelocity, 3 * j, linear, 0);
            Vec3.cross(angular, 0, model.firstMoment, 3 * j, scratch, 0);
            energy += 0.5 * model.mass[j] * Vec3.dot(linear, 0, linear, 0) + Vec3.dot(linear, 0, scratch, 0);
            Vec3.multiply(model.inertia, 9 * j, angular, 0, scratch, 0);
            energy += 0.5 * Vec3.dot(angular, 0, scratch, 0);
        }
        for (int k = 0; k < model.dof; k++)
        {
            energy += 0.5 * model.rotorInertia[k] * qd[k] * qd[k];
        }
        return energy;
    }

    /**
     * Sum over bodies of -g . (m p + 0R MS), zero at the base origin. Real-time safe.
     *
     * @param q joint positions by coordinate.
     * @return potential energy, J.
     */
    public double potentialEnergyJoules(final double[] q)
    {
        kinematics.positions(q);
        final CompiledModel model = kinematics.model;
        double energy = 0.0;
        for (int j = 0; j < model.bodyCount; j++)
        {
            Vec3.multiply(kinematics.rotation, 9 * j, model.firstMoment, 3 * j, scratch, 0);
            Vec3.addScaled(model.mass[j], kinematics.origin, 3 * j, scratch, 0);
            energy -= Vec3.dot(gravity, 0, scratch, 0);
        }
        return energy;
    }
}
