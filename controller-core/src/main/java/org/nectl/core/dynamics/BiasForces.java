package org.nectl.core.dynamics;

/**
 * The bias forces h(q, qd) of tau = M(q) qdd + h(q, qd): Coriolis, centrifugal and gravity
 * torques, minus the joint torques of the external wrenches, plus joint friction when it is on.
 * Computed as the recursive Newton-Euler algorithm with qdd = 0 (Khalil, "Dynamic modeling of
 * robots using recursive Newton-Euler techniques", ICINCO 2010, §3.3.1: "H equals Gamma if
 * qdd = 0"), by the same Newton-Euler passes ({@link NewtonEulerPasses}). Gravity, external wrench
 * and friction conventions are those of {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class BiasForces
{
    private final NewtonEulerPasses passes;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    private final double[] zeroAcceleration;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public BiasForces(final CompiledModel model)
    {
        passes = new NewtonEulerPasses(model);
        noLoads = new AppliedLoads(model);
        zeroAcceleration = new double[model.dof()];
    }

    /** Switches Coulomb and viscous joint friction Fs sign(qd) + Fv qd in h on or off (default on). Real-time safe. */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /**
     * Computes h(q, qd) under the model's gravity, no wrench. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param bias output by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] bias)
    {
        compute(q, qd, noLoads, bias);
    }

    /** As {@link #compute(double[], double[], double[])} under the given gravity and external wrenches. */
    public void compute(final double[] q, final double[] qd, final AppliedLoads loads, final double[] bias)
    {
        passes.compute(q, qd, zeroAcceleration, loads, null, bias);
    }

    /**
     * Computes h(q, qd; base) on a carried (moving) base: the base's measured motion is the root
     * initial condition ({@link InverseDynamics#compute(double[], double[], double[], AppliedLoads,
     * BaseMotion, double[])} at qdd = 0). Real-time safe: allocates nothing.
     *
     * @param qd joint velocities relative to the base, rad/s or m/s.
     * @param loads external wrenches (world-fixed ones in base coordinates); their gravity is not used.
     * @param base the base's motion, base coordinates.
     */
    public void compute(final double[] q, final double[] qd, final AppliedLoads loads, final BaseMotion base,
        final double[] bias)
    {
        passes.compute(q, qd, zeroAcceleration, loads, base, bias);
    }
}
