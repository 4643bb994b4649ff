package org.nectl.core.closedloop;

import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.RobotModel;

/**
 * The only place where closed-loop and parallel-robot code calls the tree's dynamics: the recursive
 * Newton-Euler inverse dynamics and the mass matrix of the equivalent tree, used as black boxes.
 * Not thread safe; {@link #inverseDynamics} and {@link #massMatrix} are real-time safe.
 */
final class TreeDynamics
{
    private final InverseDynamics inverse;
    private final MassMatrix mass;

    /** Not real-time safe: allocates the algorithms' workspaces. */
    TreeDynamics(final RobotModel tree)
    {
        inverse = new InverseDynamics(tree);
        mass = new MassMatrix(tree);
    }

    /** Gravity in the base frame, m/s^2 (default 0, 0, -9.81). */
    void gravity(final double gx, final double gy, final double gz)
    {
        inverse.gravity(gx, gy, gz);
    }

    /** Joint friction on or off (default on). */
    void jointFriction(final boolean enabled)
    {
        inverse.jointFriction(enabled);
    }

    /** Gamma_tree = NE(q, qd, qdd) (Khalil 2010 eq. 12), gravity and friction included. */
    void inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        inverse.compute(q, qd, qdd, tau);
    }

    /** A(q), row-major n x n, rotor inertia included. */
    void massMatrix(final double[] q, final double[] a)
    {
        mass.compute(q, a);
    }
}
