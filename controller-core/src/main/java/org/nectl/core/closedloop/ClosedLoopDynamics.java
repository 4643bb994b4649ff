package org.nectl.core.closedloop;

import org.nectl.core.dynamics.CholeskySolver;
import org.nectl.core.dynamics.CompiledModel;

/**
 * Inverse and direct dynamics of a closed-loop robot by projecting the equivalent tree's
 * Newton-Euler dynamics onto the active joints (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §4): {@code Gamma_c = G^T Gamma_tree(q, qd, qdd)} (eqs.
 * 55-57) with the tree's motion made consistent with the loops, and
 * {@code Gamma_c = A_c qdd_a + H_c} with {@code A_c = G^T A G} and
 * {@code H_c = G^T Gamma_tree(q, qd, qdd)|qdd_a = 0} (eq. 58), solved by Cholesky.
 *
 * <p>Positions are tree coordinates that close the loops (see {@link LoopGeometry#solvePassive});
 * velocities, accelerations and torques are of the active joints, in the model's active order.
 * Results are codes: false when J_p or A_c is singular. Not thread safe; every method but the
 * constructor is real-time safe (allocates nothing).
 */
public final class ClosedLoopDynamics
{
    private final int n;
    private final int activeCount;
    private final LoopGeometry geometry;
    private final TreeDynamics tree;
    private final double[] qdTree;
    private final double[] qddTree;
    private final double[] tauTree;
    private final double[] zeroActive;
    private final double[] massMatrix;
    private final double[] massTimesG;
    private final CholeskySolver cholesky;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the closed-loop robot.
     * @param tree {@code model.tree()} compiled, shared with every other user of that tree; its gravity
     *     is this instance's until {@link #gravity(double, double, double)} overrides it.
     * @throws IllegalArgumentException if {@code tree} was not compiled from {@code model.tree()}.
     */
    public ClosedLoopDynamics(final ClosedLoopModel model, final CompiledModel tree)
    {
        if (tree.robot() != model.tree())
        {
            throw new IllegalArgumentException("the compiled model " + tree.robot().name()
                + " is not the equivalent tree of the closed-loop robot " + model.tree().name());
        }
        n = model.treeDof();
        activeCount = model.activeCount();
        geometry = new LoopGeometry(model);
        this.tree = new TreeDynamics(tree);
        qdTree = new double[n];
        qddTree = new double[n];
        tauTree = new double[n];
        zeroActive = new double[activeCount];
        massMatrix = new double[n * n];
        massTimesG = new double[n * activeCount];
        cholesky = new CholeskySolver(activeCount);
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
        tree.gravity(gx, gy, gz);
    }

    /**
     * Switches the tree joints' Coulomb and viscous friction on or off (default on). Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void jointFriction(final boolean enabled)
    {
        tree.jointFriction(enabled);
    }

    /**
     * Gamma_c = G^T Gamma_tree (eqs. 55-56). Real-time safe.
     *
     * @param q tree positions closing the loops.
     * @param qdActive active velocities.
     * @param qddActive active accelerations.
     * @param gammaActive output: active joint torques or forces, N m or N.
     * @return false if the passive joints are not determined at q (J_p singular).
     */
    public boolean inverseDynamics(
        final double[] q, final double[] qdActive, final double[] qddActive, final double[] gammaActive)
    {
        if (!geometry.update(q))
        {
            return false;
        }
        inverseDynamicsAtGeometry(q, qdActive, qddActive, gammaActive);
        return true;
    }

    /**
     * Gamma_c = G^T Gamma_tree at the positions {@link #geometry()} was last evaluated at, without
     * evaluating it again: for a caller that has just solved the passive joints with
     * {@code geometry().solvePassive(q)} (which leaves G and J_p's factors at the solution). Real-time safe.
     *
     * @param q the tree positions {@link #geometry()} last converged or was updated at.
     * @param qdActive active velocities.
     * @param qddActive active accelerations.
     * @param gammaActive output: active joint torques or forces, N m or N.
     */
    public void inverseDynamicsAtGeometry(
        final double[] q, final double[] qdActive, final double[] qddActive, final double[] gammaActive)
    {
        geometry.treeVelocities(qdActive, qdTree);
        geometry.treeAccelerations(qdTree, qddActive, qddTree);
        tree.inverseDynamics(q, qdTree, qddTree, tauTree);
        projectTorques(gammaActive);
    }

    /**
     * qdd_a = A_c^-1 (Gamma_c - H_c) (eq. 58). Real-time safe.
     *
     * @param q tree positions closing the loops.
     * @param qdActive active velocities.
     * @param gammaActive active joint torques or forces.
     * @param qddActive output: active accelerations.
     * @return false if J_p or A_c is singular at q.
     */
    public boolean forwardDynamics(
        final double[] q, final double[] qdActive, final double[] gammaActive, final double[] qddActive)
    {
        if (!geometry.update(q))
        {
            return false;
        }
        geometry.treeVelocities(qdActive, qdTree);
        geometry.treeAccelerations(qdTree, zeroActive, qddTree);
        tree.inverseDynamics(q, qdTree, qddTree, tauTree);
        final double[] rhs = cholesky.rhs();
        projectTorques(rhs);
        for (int a = 0; a < activeCount; a++)
        {
            rhs[a] = gammaActive[a] - rhs[a];
        }
        tree.massMatrix(q, massMatrix);
        projectMassMatrix(cholesky.matrix());
        if (!cholesky.solve())
        {
            return false;
        }
        System.arraycopy(cholesky.solution(), 0, qddActive, 0, activeCount);
        return true;
    }

    /**
     * The loop geometry this instance evaluates with: after a call, its G, tree velocities and
     * residuals are those of that call's state.
     *
     * @return the geometry workspace.
     */
    public LoopGeometry geometry()
    {
        return geometry;
    }

    /** @return tree velocities of the last call, the array itself. */
    public double[] treeVelocities()
    {
        return qdTree;
    }

    /** @return tree accelerations of the last call (with qdd_a = 0 after forward dynamics), the array itself. */
    public double[] treeAccelerations()
    {
        return qddTree;
    }

    /** out = G^T tauTree. */
    private void projectTorques(final double[] out)
    {
        final double[] g = geometry.g();
        for (int a = 0; a < activeCount; a++)
        {
            double sum = 0.0;
            for (int i = 0; i < n; i++)
            {
                sum += g[i * activeCount + a] * tauTree[i];
            }
            out[a] = sum;
        }
    }

    /** out = G^T A G, row-major N x N. */
    private void projectMassMatrix(final double[] out)
    {
        final double[] g = geometry.g();
        for (int i = 0; i < n; i++)
        {
            for (int a = 0; a < activeCount; a++)
            {
                double sum = 0.0;
                for (int k = 0; k < n; k++)
                {
                    sum += massMatrix[i * n + k] * g[k * activeCount + a];
                }
                massTimesG[i * activeCount + a] = sum;
            }
        }
        for (int a = 0; a < activeCount; a++)
        {
            for (int b = 0; b < activeCount; b++)
            {
                double sum = 0.0;
                for (int i = 0; i < n; i++)
                {
                    sum += g[i * activeCount + a] * massTimesG[i * activeCount + b];
                }
                out[a * activeCount + b] = sum;
            }
        }
    }
}
