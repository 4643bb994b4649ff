package org.nectl.core.closedloop;

import org.nectl.core.control.LawDynamics;
import org.nectl.core.dynamics.CompiledModel;

/**
 * {@link LawDynamics} of a closed-loop robot in its active coordinates: the passive joints solved
 * from the active ones by Newton (from the previous solution, from home if that fails), then
 * Gamma_c = G^T Gamma_tree ({@link ClosedLoopDynamics}, Khalil 2010 eqs. 55-57). Gamma_c's time
 * derivative along a motion is the central difference of Gamma_c over +/- {@link #RATE_STEP_S} of
 * the motion's Taylor expansion to the jerk: the tree's jerk recursion does not carry through the
 * projection (G depends on q), and the difference costs two more evaluations, each a Newton
 * iteration or two from the current solution. Its error is O(h^2): on random closed-loop robots the
 * rate integrated over a 0.1 s motion gives Gamma_c's change to within 1e-8 of |Gamma_c|
 * (ClosedLoopLawDynamicsTest).
 *
 * <p>Not thread safe; every method but the constructor is real-time safe (allocates nothing).
 */
public final class ClosedLoopLawDynamics implements LawDynamics
{
    /** Half the time span of the central difference that gives the torque rate, s. */
    public static final double RATE_STEP_S = 1e-4;

    private final ClosedLoopModel model;
    private final ClosedLoopDynamics dynamics;
    private final LoopGeometry geometry;
    private final int na;
    private final double[] home;
    /** Tree positions of the last solved configuration: Newton's starting point. */
    private final double[] qTree;
    private final double[] shifted;
    private final double[] zero;
    private final double[] qA;
    private final double[] qdA;
    private final double[] qddA;
    private final double[] tauAfter;
    /** The array whose positions the geometry was last solved at (loops closed), or null. */
    private double[] solvedArray;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the closed-loop robot.
     * @param tree {@code model.tree()} compiled under the gravity of the laws, shared by every
     *     instance on that robot.
     * @throws IllegalArgumentException if {@code tree} was not compiled from {@code model.tree()}.
     */
    public ClosedLoopLawDynamics(final ClosedLoopModel model, final CompiledModel tree)
    {
        this.model = model;
        dynamics = new ClosedLoopDynamics(model, tree);
        geometry = dynamics.geometry();
        na = model.activeCount();
        home = model.home();
        qTree = model.home();
        shifted = new double[qTree.length];
        zero = new double[na];
        qA = new double[na];
        qdA = new double[na];
        qddA = new double[na];
        tauAfter = new double[na];
    }

    @Override
    public int dof()
    {
        return na;
    }

    @Override
    public void jointFriction(final boolean enabled)
    {
        dynamics.jointFriction(enabled);
    }

    @Override
    public boolean inverseDynamics(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        if (!close(q, qTree))
        {
            return false;
        }
        dynamics.inverseDynamicsAtGeometry(qTree, qd, qdd, tau);
        return true;
    }

    @Override
    public boolean torqueAndRate(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauRate)
    {
        if (!inverseDynamics(q, qd, qdd, tau) || !shiftedTorque(q, qd, qdd, qddd, RATE_STEP_S, tauAfter))
        {
            return false;
        }
        System.arraycopy(tauAfter, 0, tauRate, 0, na);
        if (!shiftedTorque(q, qd, qdd, qddd, -RATE_STEP_S, tauAfter))
        {
            return false;
        }
        for (int a = 0; a < na; a++)
        {
            tauRate[a] = (tauRate[a] - tauAfter[a]) / (2.0 * RATE_STEP_S);
        }
        return true;
    }

    @Override
    public boolean gravityTorques(final double[] q, final double[] tau)
    {
        return inverseDynamics(q, zero, zero, tau);
    }

    /** @return tree positions of the last configuration solved, loops closed; the array itself, do not modify. */
    public double[] treePositions()
    {
        return qTree;
    }

    /** Gamma_c at time h along the motion's Taylor expansion to the jerk, solved from the current configuration. */
    private boolean shiftedTorque(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double h, final double[] tau)
    {
        for (int a = 0; a < na; a++)
        {
            qA[a] = q[a] + h * (qd[a] + h / 2.0 * (qdd[a] + h / 3.0 * qddd[a]));
            qdA[a] = qd[a] + h * (qdd[a] + h / 2.0 * qddd[a]);
            qddA[a] = qdd[a] + h * qddd[a];
        }
        if (solvedArray == shifted)
        {
            // Its positions are about to change under the geometry evaluated at them.
            solvedArray = null;
        }
        System.arraycopy(qTree, 0, shifted, 0, shifted.length);
        if (!close(qA, shifted))
        {
            return false;
        }
        dynamics.inverseDynamicsAtGeometry(shifted, qdA, qddA, tau);
        return true;
    }

    /**
     * Puts the active positions into tree, solves the passive ones from tree's (from home if that
     * fails), leaving the geometry evaluated at the solution. Positions equal to the last ones solved
     * into the same array reuse that solution: the trajectory clock evaluates a path point three times.
     */
    private boolean close(final double[] q, final double[] tree)
    {
        if (tree == solvedArray && sameActive(q, tree))
        {
            return true;
        }
        solvedArray = null;
        for (int a = 0; a < na; a++)
        {
            if (!Double.isFinite(q[a]))
            {
                return false;
            }
            tree[model.activeCoordinate(a)] = q[a];
        }
        if (geometry.solvePassive(tree) == LoopGeometry.CONVERGED)
        {
            solvedArray = tree;
            return true;
        }
        System.arraycopy(home, 0, tree, 0, tree.length);
        for (int a = 0; a < na; a++)
        {
            tree[model.activeCoordinate(a)] = q[a];
        }
        if (geometry.solvePassive(tree) != LoopGeometry.CONVERGED)
        {
            return false;
        }
        solvedArray = tree;
        return true;
    }

    private boolean sameActive(final double[] q, final double[] tree)
    {
        for (int a = 0; a < na; a++)
        {
            if (q[a] != tree[model.activeCoordinate(a)])
            {
                return false;
            }
        }
        return true;
    }
}
