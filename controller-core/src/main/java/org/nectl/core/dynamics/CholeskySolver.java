package org.nectl.core.dynamics;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.chol.CholeskyDecompositionInner_DDRM;
import org.ejml.dense.row.linsol.chol.LinearSolverChol_DDRM;

/**
 * Solves A x = b for a symmetric positive definite n x n matrix by EJML's Cholesky decomposition
 * A = L L^T, factorised in place in storage preallocated at construction: the dense solve of the
 * inertia-matrix routes of forward dynamics. The caller fills {@link #matrix()} and {@link #rhs()},
 * calls {@link #solve()} and reads {@link #solution()}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #solve} is real-time safe.
 */
public final class CholeskySolver
{
    private final DMatrixRMaj matrix;
    private final DMatrixRMaj rhs;
    private final DMatrixRMaj solution;
    private final LinearSolverChol_DDRM solver;

    /** Not real-time safe: allocates the n x n system and the decomposition. */
    public CholeskySolver(final int n)
    {
        matrix = new DMatrixRMaj(n, n);
        rhs = new DMatrixRMaj(n, 1);
        solution = new DMatrixRMaj(n, 1);
        final CholeskyDecompositionInner_DDRM decomposition = new CholeskyDecompositionInner_DDRM(true);
        decomposition.setExpectedMaxSize(n, n);
        solver = new LinearSolverChol_DDRM(decomposition);
    }

    /** @return A, row-major n x n, for the caller to fill before {@link #solve()}. */
    public double[] matrix()
    {
        return matrix.data;
    }

    /** @return b, length n, for the caller to fill before {@link #solve()}. */
    public double[] rhs()
    {
        return rhs.data;
    }

    /** @return x after a successful {@link #solve()}. */
    public double[] solution()
    {
        return solution.data;
    }

    /**
     * Factorises A (in place) and solves for x. Real-time safe: allocates nothing (EJML's
     * decomposition and triangular solves work in the storage sized at construction).
     *
     * @return false if A is not positive definite; x is then unchanged.
     */
    public boolean solve()
    {
        if (!solver.setA(matrix))
        {
            return false;
        }
        solver.solve(rhs, solution);
        return true;
    }
}
