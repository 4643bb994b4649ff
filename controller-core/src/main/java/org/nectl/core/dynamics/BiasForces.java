package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * The bias forces h(q, qd) of tau = M(q) qdd + h(q, qd): Coriolis, centrifugal and gravity
 * torques, minus the joint torques of the external wrenches, plus joint friction when it is on.
 * Computed as the recursive Newton-Euler algorithm with qdd = 0 (Khalil, "Dynamic modeling of
 * robots using recursive Newton-Euler techniques", ICINCO 2010, §3.3.1: "H equals Gamma if
 * qdd = 0"), in base coordinates (see {@link BaseFrameNewtonEuler}). Gravity, external wrench
 * and friction conventions are those of {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class BiasForces
{
    private final BaseFrameNewtonEuler newtonEuler;
    private final double[] zeroAcceleration;

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public BiasForces(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public BiasForces(final CompiledModel model)
    {
        newtonEuler = new BaseFrameNewtonEuler(model);
        zeroAcceleration = new double[model.dof()];
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        newtonEuler.loads.gravity(gx, gy, gz);
    }

    /**
     * Sets the wrench applied ON a body BY the environment, kept until changed or cleared.
     * Real-time safe.
     *
     * @param body body index.
     * @param fx force x, N, body frame.
     * @param fy force y, N, body frame.
     * @param fz force z, N, body frame.
     * @param mx moment x about the body-frame origin, N m, body frame.
     * @param my moment y about the body-frame origin, N m, body frame.
     * @param mz moment z about the body-frame origin, N m, body frame.
     */
    public void externalWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        newtonEuler.loads.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        newtonEuler.loads.clearExternalWrenches();
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on). Real-time safe.
     *
     * @param enabled true to include Fs sign(qd) + Fv qd in h.
     */
    public void jointFriction(final boolean enabled)
    {
        newtonEuler.loads.friction = enabled;
    }

    /**
     * Computes h(q, qd). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param bias output by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] bias)
    {
        newtonEuler.compute(q, qd, zeroAcceleration, bias);
    }
}
