package org.nectl.core.dynamics;

/**
 * Joint torques and their time derivatives in one call: the generalized-force-derivative algorithm
 * of Guarino Lo Bianco ("Evaluation of generalized force derivatives by means of a recursive
 * Newton-Euler approach", IEEE 2009, eqs. 3-21), generalised to trees and written about the body
 * origins with Khalil's standard inertial parameters. It runs the Newton-Euler step of
 * {@link NewtonEulerPasses} in its rate build (NewtonEulerRatePasses, the same source with the
 * rate terms on): jerks forward (eqs. 5, 8), wrench rates forward (12-13) and backward (16-17), in
 * the same loop bodies as RNEA's step, so tau is RNEA's to the bit.
 *
 * <p>Convention (as in the paper): a "rate" is the time derivative in the inertial frame, expressed
 * in the body frame; angular and linear jerk are the inertial derivatives of angular and linear
 * acceleration. The external wrench rate, in contrast, is given as the derivative of its body-frame
 * components (what a body-mounted sensor differentiates); it is converted with d/dt = rate + omega x.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class TorqueDerivative
{
    private final NewtonEulerRatePasses passes;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot, shared with other algorithms.
     */
    public TorqueDerivative(final CompiledModel model)
    {
        passes = new NewtonEulerRatePasses(model);
        noLoads = new AppliedLoads(model);
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. The Coulomb term's derivative is taken as zero (exact away from qd = 0).
     * Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /**
     * Computes joint torques and their time derivatives. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities.
     * @param qdd joint accelerations.
     * @param qddd joint jerks, rad/s^3 or m/s^3.
     * @param tau output joint torques or forces by coordinate, N m or N.
     * @param tauDot output their time derivatives, N m/s or N/s.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        compute(q, qd, qdd, qddd, noLoads, tau, tauDot);
    }

    /**
     * Computes joint torques and their time derivatives under the given loads and load rates.
     * Gravity is constant in time. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities.
     * @param qdd joint accelerations.
     * @param qddd joint jerks, rad/s^3 or m/s^3.
     * @param loads gravity, external wrenches and their rates.
     * @param tau output joint torques or forces by coordinate, N m or N.
     * @param tauDot output their time derivatives, N m/s or N/s.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final AppliedLoads loads, final double[] tau, final double[] tauDot)
    {
        passes.compute(q, qd, qdd, qddd, loads, null, tau, tauDot);
    }
}
