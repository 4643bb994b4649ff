package org.nectl.planning;

import org.nectl.core.model.RobotModel;

/**
 * Plans a rest-to-rest motion: builds the {@link SplineProblem}, finds a feasible start, solves it
 * with {@link SqpSolver} and checks the result on a grid ten times denser than the constraint grid
 * with the plain inverse dynamics.
 *
 * <p>Not thread safe.
 */
public final class TrajectoryPlanner
{
    /** Accepted: the dense-grid check may exceed a limit by at most this fraction. */
    public static final double LIMIT_TOLERANCE = 0.01;
    /** Longest starting duration tried, s. */
    private static final double MAX_START_DURATION_S = 600.0;

    /** Why a plan could not be made: a message for the user. */
    public static final class PlanningException extends Exception
    {
        private static final long serialVersionUID = 1L;
        private final boolean badInput;

        /**
         * @param message what went wrong, with the values involved.
         * @param badInput true if the request itself is at fault (settings, start and end, limits),
         *        false if the solve failed on a valid request.
         */
        public PlanningException(final String message, final boolean badInput)
        {
            super(message);
            this.badInput = badInput;
        }

        /** @return true if the request itself is at fault, false if the solve failed. */
        public boolean badInput()
        {
            return badInput;
        }
    }

    /**
     * A plan.
     *
     * @param trajectory the motion.
     * @param problem the problem solved.
     * @param solution the solver's report.
     * @param check the dense-grid check.
     */
    public record Plan(SplineTrajectory trajectory, SplineProblem problem, TrajectoryOptimizer.Solution solution, PlanCheck.Result check)
    {
    }

    private TrajectoryPlanner()
    {
    }

    /**
     * @param model the robot.
     * @param start start positions by coordinate.
     * @param end end positions by coordinate.
     * @param settings the problem settings.
     * @return the plan, checked.
     * @throws PlanningException on infeasible limits, start equal to end, or a solve that did not
     *         converge or whose result exceeds a limit by more than {@link #LIMIT_TOLERANCE}.
     */
    public static Plan plan(final RobotModel model, final double[] start, final double[] end, final PlanningSettings settings)
        throws PlanningException
    {
        final String problemWithSettings = settings.check();
        if (problemWithSettings != null)
        {
            throw new PlanningException(problemWithSettings, true);
        }
        final int dof = model.dof();
        if (start.length != dof || end.length != dof)
        {
            throw new PlanningException("start and end need " + dof + " values (one per coordinate of " + model.name()
                + "), got " + start.length + " and " + end.length, true);
        }
        double distance = 0.0;
        for (int j = 0; j < dof; j++)
        {
            distance = Math.max(distance, Math.abs(end[j] - start[j]));
        }
        if (distance < 1e-9)
        {
            throw new PlanningException("start equals end: there is no motion to plan", true);
        }
        final PlanningDynamics dynamics = new PlanningDynamics(model, settings.gravity());
        final SplineProblem problem = new SplineProblem(dynamics, start, end, settings);
        final double[] x0 = problem.feasibleStart(MAX_START_DURATION_S);
        if (x0 == null)
        {
            throw new PlanningException("no motion of up to " + MAX_START_DURATION_S + " s along the eased straight line "
                + "satisfies the limits (95 % of each): the limits are infeasible for this start and end "
                + "(e.g. gravity alone needs more torque than the effort limit)", true);
        }
        final TrajectoryOptimizer.Solution solution = TrajectoryOptimizer.solve(problem, x0, settings.maxIterations());
        if (!solution.converged())
        {
            throw new PlanningException("the solve did not converge in " + solution.iterations() + " iterations ("
                + solution.failure() + "); try fewer control points or more iterations", false);
        }
        final SplineTrajectory trajectory = problem.trajectory(solution.x());
        final PlanCheck.Result check = PlanCheck.check(trajectory, dynamics, problem, 10);
        if (check.worstRatio() > 1.0 + LIMIT_TOLERANCE)
        {
            throw new PlanningException(String.format(
                "the solution exceeds a limit between constraint samples by %.1f %% (effort %.4f, velocity %.4f, "
                    + "acceleration %.4f, torque rate %.4f of the limit); raise the samples per span",
                100.0 * (check.worstRatio() - 1.0), check.effortRatio(), check.velocityRatio(), check.accelerationRatio(),
                check.torqueRateRatio()), false);
        }
        return new Plan(trajectory, problem, solution, check);
    }
}
