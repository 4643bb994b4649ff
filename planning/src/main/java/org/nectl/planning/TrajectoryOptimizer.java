package org.nectl.planning;

/**
 * Solves a {@link SplineProblem} with {@link SqpSolver}, the analytic gradients supplied.
 *
 * <p>Not thread safe.
 */
public final class TrajectoryOptimizer
{
    private TrajectoryOptimizer()
    {
    }

    /**
     * The raw solve: the solver's point, its iteration count and wall time. Whether the result
     * respects the limits on a denser grid is for the caller to check (see the plan check).
     *
     * @param x the solution variables.
     * @param iterations SQP iterations used.
     * @param solveTimeS wall time of the solve, s.
     * @param converged true if the solver met its tolerances.
     * @param failure null, or why the solver stopped.
     */
    public record Solution(double[] x, int iterations, double solveTimeS, boolean converged, String failure)
    {
    }

    /**
     * @param problem the problem.
     * @param x0 the starting point (e.g. {@link SplineProblem#feasibleStart}).
     * @param maxIterations iteration limit.
     * @return the solution.
     */
    public static Solution solve(final SplineProblem problem, final double[] x0, final int maxIterations)
    {
        final double[] scale = new double[x0.length];
        java.util.Arrays.fill(scale, 1.0);
        // T in units of the starting duration, so that every variable is of order one
        scale[x0.length - 1] = x0[x0.length - 1];
        final long startNs = System.nanoTime();
        final SqpSolver.Result result = new SqpSolver(1e-7, 1e-6, maxIterations).solve(problem, x0, scale);
        final double seconds = (System.nanoTime() - startNs) * 1e-9;
        return new Solution(result.x(), result.iterations(), seconds, result.converged(), result.failure());
    }
}
