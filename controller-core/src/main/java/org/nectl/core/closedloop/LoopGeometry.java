package org.nectl.core.closedloop;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.lu.LUDecompositionAlt_DDRM;
import org.ejml.dense.row.linsol.lu.LinearSolverLu_DDRM;

/**
 * Geometric and kinematic model of the loops of a {@link ClosedLoopModel} (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs. 3-5 and 56): the
 * passive joints from the active ones by Newton's method on the independent closure equations
 * e(q) = 0; with J = de/dq split into the active and passive columns J_a, J_p, the Jacobian
 * G = dq_tree/dq_a = [I; -J_p^-1 J_a] (rows in tree coordinate order) and the passive accelerations
 * qdd_p = -J_p^-1 (J_a qdd_a + Jdot qd), from differentiating J qd = 0 once more.
 *
 * <p>Results are codes ({@link #CONVERGED}, {@link #SINGULAR}, {@link #NOT_CONVERGED}), with the
 * iteration count, residual and pivot ratio of the last call readable afterwards. Not thread safe;
 * every method but the constructor is real-time safe (allocates nothing).
 */
public final class LoopGeometry
{
    /** Newton converged: every independent closure residual is at most {@link #TOLERANCE}. */
    public static final int CONVERGED = 0;
    /** J_p's pivot ratio fell below {@link ClosedLoopModel#SINGULAR_PIVOT_RATIO}. */
    public static final int SINGULAR = 1;
    /** {@link #MAX_ITERATIONS} Newton steps did not reach {@link #TOLERANCE}. */
    public static final int NOT_CONVERGED = 2;
    /** Convergence tolerance on the closure residual, m or rad. */
    public static final double TOLERANCE = 1e-12;
    /** Newton iterations at most. */
    public static final int MAX_ITERATIONS = 30;

    private final int n;
    private final int activeCount;
    private final int passiveCount;
    private final int[] active;
    private final int[] passive;
    private final int[] selected;
    private final LoopKinematics kinematics;
    private final double[] residual;
    private final double[] jacobian;
    /** Velocity-product terms Jdot qd, candidate rows. */
    private final double[] secondDerivative;
    private final DMatrixRMaj passiveJacobian;
    private final DMatrixRMaj activeJacobian;
    private final DMatrixRMaj passiveOfActive;
    private final DMatrixRMaj rhs;
    private final DMatrixRMaj step;
    private final LUDecompositionAlt_DDRM decomposition = new LUDecompositionAlt_DDRM();
    private final LinearSolverLu_DDRM solver = new LinearSolverLu_DDRM(decomposition);
    /** G, row-major n x N. */
    private final double[] g;

    private int iterations;
    private double residualNorm;
    private double pivotRatio;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the closed-loop robot.
     */
    public LoopGeometry(final ClosedLoopModel model)
    {
        n = model.treeDof();
        active = model.activeCoordinates();
        passive = model.passiveCoordinates();
        selected = model.selectedRows();
        activeCount = active.length;
        passiveCount = passive.length;
        kinematics = new LoopKinematics(model.tree(), model.cutJoints());
        residual = new double[kinematics.rows];
        jacobian = new double[kinematics.rows * n];
        secondDerivative = new double[kinematics.rows];
        passiveJacobian = new DMatrixRMaj(passiveCount, passiveCount);
        activeJacobian = new DMatrixRMaj(passiveCount, activeCount);
        passiveOfActive = new DMatrixRMaj(passiveCount, activeCount);
        rhs = new DMatrixRMaj(passiveCount, 1);
        step = new DMatrixRMaj(passiveCount, 1);
        decomposition.setExpectedMaxSize(passiveCount, passiveCount);
        g = new double[n * activeCount];
    }

    /**
     * Solves the closure equations for the passive joints, the active ones held. Real-time safe.
     *
     * @param q tree positions: the active entries are kept, the passive ones are the initial guess
     *     on entry and the solution on return (the last iterate if not converged).
     * @return {@link #CONVERGED}, {@link #SINGULAR} or {@link #NOT_CONVERGED}.
     */
    public int solvePassive(final double[] q)
    {
        for (iterations = 0; ; iterations++)
        {
            kinematics.positions(q);
            kinematics.residual(residual);
            residualNorm = 0.0;
            for (final int row : selected)
            {
                residualNorm = Math.max(residualNorm, Math.abs(residual[row]));
            }
            if (residualNorm <= TOLERANCE)
            {
                return factorise() ? CONVERGED : SINGULAR;
            }
            if (iterations == MAX_ITERATIONS)
            {
                return NOT_CONVERGED;
            }
            if (!factorise())
            {
                return SINGULAR;
            }
            for (int r = 0; r < passiveCount; r++)
            {
                rhs.data[r] = residual[selected[r]];
            }
            solver.solve(rhs, step);
            for (int p = 0; p < passiveCount; p++)
            {
                q[passive[p]] -= step.data[p];
            }
        }
    }

    /**
     * Evaluates the constraint Jacobian and G at q without moving any joint (q must already close
     * the loops). Real-time safe.
     *
     * @param q tree positions.
     * @return false if J_p is singular there (G is then not updated).
     */
    public boolean update(final double[] q)
    {
        kinematics.positions(q);
        kinematics.residual(residual);
        return factorise();
    }

    /** Jacobian at the current positions, LU of J_p, and G; false if singular. */
    private boolean factorise()
    {
        kinematics.jacobian(jacobian);
        for (int r = 0; r < passiveCount; r++)
        {
            final int row = selected[r] * n;
            for (int p = 0; p < passiveCount; p++)
            {
                passiveJacobian.data[r * passiveCount + p] = jacobian[row + passive[p]];
            }
            for (int a = 0; a < activeCount; a++)
            {
                activeJacobian.data[r * activeCount + a] = jacobian[row + active[a]];
            }
        }
        if (!solver.setA(passiveJacobian) || (pivotRatio = computePivotRatio()) < ClosedLoopModel.SINGULAR_PIVOT_RATIO)
        {
            return false;
        }
        solver.solve(activeJacobian, passiveOfActive);
        Arrays.fill(g, 0.0);
        for (int a = 0; a < activeCount; a++)
        {
            g[active[a] * activeCount + a] = 1.0;
        }
        for (int p = 0; p < passiveCount; p++)
        {
            for (int a = 0; a < activeCount; a++)
            {
                g[passive[p] * activeCount + a] = -passiveOfActive.data[p * activeCount + a];
            }
        }
        return true;
    }

    /** @return min |u_ii| / max |u_ii| of the LU factors of J_p, 1 with no passive joint. */
    private double computePivotRatio()
    {
        final DMatrixRMaj lu = decomposition.getLU();
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0.0;
        for (int i = 0; i < passiveCount; i++)
        {
            final double u = Math.abs(lu.data[i * passiveCount + i]);
            smallest = Math.min(smallest, u);
            largest = Math.max(largest, u);
        }
        return passiveCount == 0 ? 1.0 : largest == 0.0 ? 0.0 : smallest / largest;
    }

    /**
     * Tree velocities qd_tree = G qd_a at the positions of the last successful {@link #update} or
     * {@link #solvePassive}. Real-time safe.
     *
     * @param qdActive active joint velocities, N.
     * @param qdTree output, n.
     */
    public void treeVelocities(final double[] qdActive, final double[] qdTree)
    {
        for (int i = 0; i < n; i++)
        {
            double sum = 0.0;
            for (int a = 0; a < activeCount; a++)
            {
                sum += g[i * activeCount + a] * qdActive[a];
            }
            qdTree[i] = sum;
        }
    }

    /**
     * Tree accelerations consistent with the loops: the active ones as given, the passive ones
     * -J_p^-1 (J_a qdd_a + Jdot qd). Real-time safe.
     *
     * @param qdTree tree velocities on the loop (from {@link #treeVelocities}).
     * @param qddActive active joint accelerations, N.
     * @param qddTree output, n.
     */
    public void treeAccelerations(final double[] qdTree, final double[] qddActive, final double[] qddTree)
    {
        kinematics.motion(qdTree, null);
        kinematics.secondDerivative(secondDerivative);
        for (int r = 0; r < passiveCount; r++)
        {
            final int row = selected[r] * n;
            double sum = secondDerivative[selected[r]];
            for (int a = 0; a < activeCount; a++)
            {
                sum += jacobian[row + active[a]] * qddActive[a];
            }
            rhs.data[r] = sum;
        }
        solver.solve(rhs, step);
        for (int a = 0; a < activeCount; a++)
        {
            qddTree[active[a]] = qddActive[a];
        }
        for (int p = 0; p < passiveCount; p++)
        {
            qddTree[passive[p]] = -step.data[p];
        }
    }

    /** @return G = dq_tree/dq_a, row-major n x N, of the last successful update; the array itself, do not modify. */
    public double[] g()
    {
        return g;
    }

    /**
     * Candidate closure residuals at the last positions evaluated. Real-time safe.
     *
     * @return the largest |e| over every candidate equation, m or rad.
     */
    public double closureResidual()
    {
        double worst = 0.0;
        for (final double e : residual)
        {
            worst = Math.max(worst, Math.abs(e));
        }
        return worst;
    }

    /** @return Newton iterations of the last {@link #solvePassive}. */
    public int iterations()
    {
        return iterations;
    }

    /** @return largest independent closure residual at the end of the last {@link #solvePassive}, m or rad. */
    public double residualNorm()
    {
        return residualNorm;
    }

    /** @return pivot ratio of J_p at the last factorisation (see {@link ClosedLoopModel#SINGULAR_PIVOT_RATIO}). */
    public double pivotRatio()
    {
        return pivotRatio;
    }

    /** @return the number of candidate closure equations. */
    int candidateRows()
    {
        return kinematics.rows;
    }

    /** Candidate residual, Jacobian and velocity-product terms for tests: positions, then motion with qdd. */
    void candidateTerms(final double[] q, final double[] qd, final double[] qdd,
        final double[] e, final double[] jac, final double[] second)
    {
        kinematics.positions(q);
        kinematics.residual(e);
        kinematics.jacobian(jac);
        kinematics.motion(qd, qdd);
        kinematics.secondDerivative(second);
    }
}
