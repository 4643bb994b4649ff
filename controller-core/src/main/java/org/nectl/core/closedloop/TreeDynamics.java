package org.nectl.core.closedloop;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;

/**
 * The only place where closed-loop and parallel-robot code calls the tree's dynamics: the recursive
 * Newton-Euler inverse dynamics and the mass matrix of the equivalent tree, used as black boxes.
 * Not thread safe; {@link #inverseDynamics} and {@link #massMatrix} are real-time safe.
 */
public final class TreeDynamics
{
    private final InverseDynamics inverse;
    /** Gravity of the inverse-dynamics calls. */
    private final AppliedLoads loads;
    private final MassMatrix mass;

    /**
     * Not real-time safe: allocates the algorithms' workspaces.
     *
     * @param tree the compiled tree structure, shared with every other user of that tree; its
     *     gravity is this instance's until {@link #gravity(double, double, double)} overrides it.
     */
    public TreeDynamics(final CompiledModel tree)
    {
        inverse = new InverseDynamics(tree);
        loads = new AppliedLoads(tree);
        mass = new MassMatrix(tree);
    }

    /**
     * Overrides the compiled tree's gravity in the base frame for this instance's calls. Real-time safe.
     *
     * @param gx x, m/s^2.
     * @param gy y, m/s^2.
     * @param gz z, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        loads.gravity(gx, gy, gz);
    }

    /**
     * Real-time safe.
     *
     * @param axis 0 for x, 1 for y, 2 for z.
     * @return that component of the gravity of this instance's calls, base frame, m/s^2.
     */
    public double gravity(final int axis)
    {
        return loads.gravity(axis);
    }

    /**
     * Joint friction on or off (default on). Real-time safe.
     *
     * @param enabled true to include Coulomb and viscous friction.
     */
    public void jointFriction(final boolean enabled)
    {
        inverse.jointFriction(enabled);
    }

    /**
     * Gamma_tree = NE(q, qd, qdd) (Khalil 2010 eq. 12), gravity and friction included. Real-time safe.
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tau output torques or forces.
     */
    public void inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        inverse.compute(q, qd, qdd, loads, tau);
    }

    /**
     * A(q), rotor inertia included. Real-time safe.
     *
     * @param q positions.
     * @param a output, row-major n x n.
     */
    public void massMatrix(final double[] q, final double[] a)
    {
        mass.compute(q, a);
    }
}
