package org.nectl.core.dynamics;

/**
 * Inverse dynamics of a tree by the recursive Newton-Euler algorithm, O(n) (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs. 13-31): a forward
 * pass over bodies in index order for velocities, accelerations and link wrenches, a backward pass
 * summing child wrenches into the parent, then projection on the joint axes plus rotor inertia and
 * friction. Gravity enters as base acceleration; fixed joints transmit wrenches and add no torque.
 * Arrays are by coordinate: q in rad or m, qd in rad/s or m/s, qdd in rad/s^2 or m/s^2, the joint
 * forces tau in N m or N.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class InverseDynamics
{
    private final NewtonEulerPasses passes;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public InverseDynamics(final CompiledModel model)
    {
        passes = new NewtonEulerPasses(model);
        noLoads = new AppliedLoads(model);
    }

    /**
     * Switches the joint friction Fs sign(qd) + Fv qd on or off (default on); rotor inertia is always
     * included. Real-time safe.
     */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /** Computes the joint forces tau that produce the given motion. Real-time safe: allocates nothing. */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        passes.compute(q, qd, qdd, noLoads, null, tau);
    }

    /**
     * Computes the joint forces tau that produce the given motion under the given loads (gravity and
     * the wrenches the environment applies on the bodies). Real-time safe: allocates nothing.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final double[] tau)
    {
        passes.compute(q, qd, qdd, loads, null, tau);
    }

    /**
     * Computes the joint forces that produce the given motion on a carried (moving) base: the base's
     * measured motion is the root initial condition of the forward pass (Khalil 2010, §7.1) and its
     * specific force replaces the loads' gravity (world-fixed loads are in base coordinates); qdd is
     * relative to the base. Real-time safe: allocates nothing.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final BaseMotion base,
        final double[] tau)
    {
        passes.compute(q, qd, qdd, loads, base, tau);
    }

    /**
     * Reads the wrench the base exerts on the tree in the last {@link #compute}, the backward pass
     * continued to the base (Khalil 2010, §7.1): the sum of the root bodies' reaction wrenches. The
     * wrench the tree exerts on its carrier is its opposite. Written to wrench6: force (N), then
     * moment about the base origin (N m), base frame. Real-time safe.
     */
    public void baseWrench(final double[] wrench6)
    {
        passes.baseWrench(wrench6);
    }

    /**
     * Reads the reaction wrench of the last {@link #compute}: the wrench the parent exerts on the
     * body through its joint. Written to wrench6: force (N), then moment about the body origin (N m),
     * body frame. Real-time safe.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        passes.reactionWrench(body, wrench6);
    }
}
