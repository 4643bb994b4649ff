package org.nectl.core.closedloop;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.RobotModel;

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
     * @param tree the tree structure.
     */
    public TreeDynamics(final RobotModel tree)
    {
        final CompiledModel compiled = CompiledModel.of(tree);
        inverse = new InverseDynamics(compiled);
        loads = new AppliedLoads(compiled);
        mass = new MassMatrix(compiled);
    }

    /**
     * Gravity in the base frame (default 0, 0, -9.81). Real-time safe.
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
