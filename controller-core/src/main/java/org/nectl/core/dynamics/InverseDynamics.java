package org.nectl.core.dynamics;

/**
 * Inverse dynamics of a tree by the recursive Newton-Euler algorithm, O(n) (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs. 13-31): a forward
 * pass over bodies in index order for velocities, accelerations and link wrenches, a backward pass
 * summing child wrenches into the parent, then projection on the joint axes plus rotor inertia and
 * friction. Gravity enters as base acceleration; fixed joints transmit wrenches and add no torque.
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
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to add Fs sign(qd) + Fv qd to each joint torque.
     */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /**
     * Computes the joint forces that produce the given motion. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param tau output joint torques or forces by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        passes.compute(q, qd, qdd, noLoads, null, tau);
    }

    /**
     * Computes the joint forces that produce the given motion under the given loads. Real-time
     * safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param loads gravity and the wrenches the environment applies on the bodies.
     * @param tau output joint torques or forces by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final double[] tau)
    {
        passes.compute(q, qd, qdd, loads, null, tau);
    }

    /**
     * Computes the joint forces that produce the given motion on a carried (moving) base: the base's
     * measured motion is the root initial condition of the forward pass (Khalil 2010, §7.1) and its
     * specific force replaces the loads' gravity. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations relative to the base, rad/s^2 or m/s^2.
     * @param loads the wrenches the environment applies on the bodies (world-fixed loads in base
     *        coordinates); their gravity is not used.
     * @param base the base's motion, base coordinates.
     * @param tau output joint torques or forces by coordinate, N m or N.
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
     * wrench the tree exerts on its carrier is its opposite. Real-time safe.
     *
     * @param wrench6 output: force (N) then moment about the base origin (N m), base frame.
     */
    public void baseWrench(final double[] wrench6)
    {
        passes.baseWrench(wrench6);
    }

    /**
     * Reads the reaction wrench of the last {@link #compute}: the wrench the parent exerts on the
     * body through its joint. Real-time safe.
     *
     * @param body body index.
     * @param wrench6 output: force (N) then moment about the body-frame origin (N m), body frame.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        passes.reactionWrench(body, wrench6);
    }
}
