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
 * Units are those of {@link InverseDynamics}; qddd in rad/s^3 or m/s^3, tauDot in N m/s or N/s.
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
     * Switches the joint friction on or off (default on); rotor inertia is always included. The
     * Coulomb term's derivative is taken as zero (exact away from qd = 0). Real-time safe.
     */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /** Computes the joint forces tau and their time derivatives tauDot. Real-time safe: allocates nothing. */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        compute(q, qd, qdd, qddd, noLoads, tau, tauDot);
    }

    /**
     * As {@link #compute(double[], double[], double[], double[], double[], double[])} under the given
     * gravity (constant in time), external wrenches and their rates. Real-time safe: allocates nothing.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final AppliedLoads loads, final double[] tau, final double[] tauDot)
    {
        passes.compute(q, qd, qdd, qddd, loads, null, tau, tauDot);
    }
}
