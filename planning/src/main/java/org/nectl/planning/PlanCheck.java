package org.nectl.planning;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a planned trajectory on a grid denser than the constraint grid with the plain recursive
 * Newton-Euler algorithm (and the torque-derivative recursion for torque rates), independent of the
 * sensitivities the optimiser used: the largest ratio of each quantity to its limit, the intervals
 * where a torque rides its limit (within 1 %), and the joint reaction-force norms.
 *
 * <p>Not thread safe.
 */
public final class PlanCheck
{
    /** A torque or force at its limit over an interval (|tau| &gt;= 99 % of the limit). */
    public record ActiveInterval(int coordinate, String bound, double fromS, double toS)
    {
    }

    /**
     * @param gridPoints number of points checked.
     * @param effortRatio largest |tau| / limit over the grid and joints.
     * @param velocityRatio largest |qd| / limit (0 without limits).
     * @param accelerationRatio largest |qdd| / limit (0 without limits).
     * @param torqueRateRatio largest |tau-dot| / limit (0 without limits).
     * @param peakEffort largest |tau| per coordinate.
     * @param peakTorqueRate largest |tau-dot| per coordinate.
     * @param active intervals at a torque limit.
     * @param times the grid, s.
     * @param torques tau at each grid point, per coordinate.
     * @param reactionForceNorms |f| of each body's joint reaction force at each grid point, N.
     */
    public record Result(
        int gridPoints, double effortRatio, double velocityRatio, double accelerationRatio, double torqueRateRatio,
        double[] peakEffort, double[] peakTorqueRate, List<ActiveInterval> active, double[] times, double[][] torques,
        double[][] reactionForceNorms)
    {
        /** @return the largest of the limit ratios. */
        public double worstRatio()
        {
            return Math.max(Math.max(effortRatio, velocityRatio), Math.max(accelerationRatio, torqueRateRatio));
        }
    }

    private PlanCheck()
    {
    }

    /**
     * @param trajectory the plan.
     * @param dynamics the robot's dynamics.
     * @param problem the problem it solved (for its limits and its constraint grid).
     * @param densityFactor grid density relative to the constraint grid (10 for the report).
     * @return the check.
     */
    public static Result check(
        final SplineTrajectory trajectory, final PlanningDynamics dynamics, final SplineProblem problem, final int densityFactor)
    {
        final int dof = dynamics.dof();
        final int bodies = dynamics.model().bodyCount();
        final int points = (problem.samples().length - 1) * densityFactor + 1;
        final double[] effort = problem.effortLimits();
        final double[] velocity = problem.velocityLimits();
        final double[] acceleration = problem.accelerationLimits();
        final double[] rate = problem.torqueRateLimits();
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        final double[] tau = new double[dof];
        final double[] tauRate = new double[dof];
        final double[] rateTau = new double[dof];
        final double[] peakEffort = new double[dof];
        final double[] peakRate = new double[dof];
        final double[] times = new double[points];
        final double[][] torques = new double[points][];
        final double[][] forces = new double[points][bodies];
        double effortRatio = 0.0;
        double velocityRatio = 0.0;
        double accelerationRatio = 0.0;
        double rateRatio = 0.0;
        final List<ActiveInterval> active = new ArrayList<>();
        final double[] activeSince = new double[2 * dof];
        java.util.Arrays.fill(activeSince, Double.NaN);
        for (int k = 0; k < points; k++)
        {
            final double u = (double)k / (points - 1);
            final double t = u * trajectory.durationS();
            trajectory.evaluate(u, q, qd, qdd, qddd);
            dynamics.torque(q, qd, qdd, tau);
            for (int b = 0; b < bodies; b++)
            {
                forces[k][b] = dynamics.reactionForceNorm(b);
            }
            dynamics.torqueRate(q, qd, qdd, qddd, rateTau, tauRate);
            times[k] = t;
            torques[k] = tau.clone();
            for (int j = 0; j < dof; j++)
            {
                peakEffort[j] = Math.max(peakEffort[j], Math.abs(tau[j]));
                peakRate[j] = Math.max(peakRate[j], Math.abs(tauRate[j]));
                effortRatio = Math.max(effortRatio, ratio(tau[j], effort[j]));
                velocityRatio = Math.max(velocityRatio, ratio(qd[j], velocity[j]));
                accelerationRatio = Math.max(accelerationRatio, ratio(qdd[j], acceleration[j]));
                rateRatio = Math.max(rateRatio, ratio(tauRate[j], rate[j]));
                track(active, activeSince, j, 0, tau[j] >= 0.99 * effort[j], t, k == points - 1);
                track(active, activeSince, j, 1, tau[j] <= -0.99 * effort[j], t, k == points - 1);
            }
        }
        active.sort((a, b) -> Double.compare(a.fromS(), b.fromS()));
        return new Result(points, effortRatio, velocityRatio, accelerationRatio, rateRatio, peakEffort, peakRate, active,
            times, torques, forces);
    }

    private static void track(
        final List<ActiveInterval> active, final double[] since, final int j, final int side, final boolean atLimit,
        final double t, final boolean last)
    {
        final int slot = 2 * j + side;
        if (atLimit && Double.isNaN(since[slot]))
        {
            since[slot] = t;
        }
        if ((!atLimit || last) && !Double.isNaN(since[slot]))
        {
            active.add(new ActiveInterval(j, side == 0 ? "upper" : "lower", since[slot], t));
            since[slot] = Double.NaN;
        }
    }

    private static double ratio(final double value, final double limit)
    {
        return Double.isFinite(limit) ? Math.abs(value) / limit : 0.0;
    }
}
