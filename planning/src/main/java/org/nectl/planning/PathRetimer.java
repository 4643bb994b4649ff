package org.nectl.planning;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.RobotModel;

/**
 * Time-optimal retiming of a fixed joint path under velocity, acceleration, torque (full dynamics,
 * friction included) and torque-rate limits.
 *
 * <p><b>Second order: reachability (TOPP-RA, Pham and Pham 2018).</b> On N + 1 evenly spaced path
 * points s_i the variables are u_i = s-ddot (constant on [s_i, s_i+1]) and x_i = s-dot^2, with
 * x_i+1 = x_i + 2 (s_i+1 - s_i) u_i. Along the path tau = m(s) u + c(s) x + g(s) + friction, with m,
 * c and g from three inverse dynamics calls per point ({@link PlanningDynamics#pathCoefficients}; no
 * differencing). Coulomb friction's sign is the sign of q'(s) (s-dot is never negative); viscous
 * friction b q' s-dot is not affine in x, so it enters by its tangent at the previous pass's x
 * (exact there; the first pass linearises at the velocity cap) and the pass is repeated until x
 * settles. The acceleration q'' x + q' u is affine too. As in TOPP-RA's first-order interpolation, a
 * stage's limits are enforced at both of its ends (at s_i+1 with x_i + 2 (s_i+1 - s_i) u_i), which
 * keeps the torque between grid points within a fraction of a percent of the limit; velocity caps
 * are the least over the two neighbouring intervals (x is linear in s between points). A backward pass computes each point's
 * controllable interval of x (from rest at s = 1), a forward greedy pass takes the largest u that
 * stays controllable. Each stage is a two-variable linear programme: for fixed x the feasible u form
 * an interval [max_k (alpha_k + beta_k x), min_l (gamma_l + delta_l x)], so the feasible x are exactly
 * the intersection of the half-lines alpha_k + beta_k x &lt;= gamma_l + delta_l x over all pairs; that
 * is solved exactly in O(rows^2) flops without allocation. A general LP (ojAlgo's) would build a
 * model per stage, which is far more work than the ~200 pair checks of a 7-joint stage.
 *
 * <p><b>Third order: torque rate, by a rate-limited forward pass and iterated local velocity
 * tightening.</b> A reachability pass cannot take tau-dot limits: tau-dot depends on s-tripledot,
 * i.e. on the change of u between stages, which couples neighbouring stages and makes the
 * controllable sets non-convex. tau-dot at a path point is computed by the torque-derivative
 * recursion ({@link PlanningDynamics#torqueRate}) with q-dot = q' s-dot, q-ddot = q'' x + q' s-ddot,
 * q-tripledot = q''' s-dot^3 + 3 q'' s-dot s-ddot + q' s-tripledot, where s-ddot at a point is the
 * mean of the neighbouring interval controls and s-tripledot = (u_i - u_i-1) / (mean of the
 * neighbouring interval durations) (the change of u spread over one grid interval, with u = 0 before
 * the start and after the end, so the torque steps of starting and stopping count). With the limits
 * on, the forward pass takes at each point the largest u within the reachability bounds that keeps
 * that tau-dot within its limit (bisection). Where no such u exists (the pass arrives at the edge of
 * a controllable set too fast to turn its control in time, or would come to rest), it takes the
 * reachability choice and marks the point; the velocity caps over the N/50 points before a marked
 * point (or one whose tau-dot exceeds its limit) are lowered by a tapered dip of at most 10 % (tapered
 * so that the lowered cap adds no kink of its own), and the pass is repeated until no point exceeds
 * the limit. Slower is always possible, so the iteration ends; it slows the motion only where the
 * rate limit binds, and each iteration is one cheap pass. Limitation: the result depends on the grid
 * (a change of u is spread over one interval, and the tightening is a heuristic, not an optimum):
 * on the Panda test path the torque-rate-limited duration is 1.25 s on 100 intervals and 2.99 s on
 * 1000 (docs/PLANNING.md); the second-order result is grid-converged (1.185 s and 1.163 s).
 *
 * <p><b>Known defect.</b> The timing's own time law ({@link Timing#at}) has s-ddot constant on each
 * interval, so its torque steps where s-ddot changes; the torque-rate model above holds at the grid
 * points only under a smoothing the written trajectory does not have, and a quintic-Hermite smoothing
 * through the same points exceeds the limit several-fold at the start and the stop
 * (docs/PLANNING.md). The torque-rate limits are therefore reduced, not guaranteed.
 *
 * <p>Not thread safe; not real-time code.
 */
public final class PathRetimer
{
    /** The forward pass keeps tau-dot this far inside its limit, so the final check passes after rounding. */
    private static final double RATE_MARGIN = 0.999;

    /** Thrown when no timing satisfies the limits or the torque-rate iteration does not settle. */
    public static final class RetimingException extends Exception
    {
        private static final long serialVersionUID = 1L;

        RetimingException(final String message)
        {
            super(message);
        }
    }

    /**
     * A retimed path: x = s-dot^2 at the grid points, u = s-ddot on each interval, the times of the points.
     *
     * @param s grid points (N + 1).
     * @param x s-dot^2 at the points.
     * @param u s-ddot on each interval (N).
     * @param t time at each point, s.
     * @param rateIterations reachability passes run (1 without torque-rate limits).
     * @param peakTorqueRateRatio the largest |tau-dot_j| / limit_j at the grid points (0 without rate limits).
     */
    public record Timing(double[] s, double[] x, double[] u, double[] t, int rateIterations, double peakTorqueRateRatio)
    {
        /** @return the duration, s. */
        public double durationS()
        {
            return t[t.length - 1];
        }

        /**
         * The path parameter and its time derivatives at a time.
         *
         * @param time s, clamped to [0, duration].
         * @param out output {s, s-dot, s-ddot}.
         */
        public void at(final double time, final double[] out)
        {
            final double clamped = Math.max(0.0, Math.min(durationS(), time));
            int i = java.util.Arrays.binarySearch(t, clamped);
            if (i < 0)
            {
                i = -i - 2;
            }
            i = Math.max(0, Math.min(u.length - 1, i));
            final double dt = clamped - t[i];
            final double sdot = Math.sqrt(Math.max(0.0, x[i]));
            out[0] = Math.min(s[i + 1], s[i] + sdot * dt + 0.5 * u[i] * dt * dt);
            out[1] = Math.max(0.0, sdot + u[i] * dt);
            out[2] = u[i];
        }
    }

    private final PlanningDynamics dynamics;
    private final JointPath path;
    private final int dof;
    private final int intervals;
    private final double[] grid;
    private final double[][] dq;
    private final double[][] ddq;
    private final double[][] dddq;
    private final double[][] q;
    private final double[][] m;
    private final double[][] c;
    private final double[][] constant;
    private final double[][] viscous;
    private final double[] velocityCap;
    private final double[] velocityLimit;
    private final double[] effortLimit;
    private final double[] accelerationLimit;
    private final double[] rateLimit;
    private final boolean anyViscous;

    // per-stage scratch: rows a u + b x in [lo, hi], and the u bounds they give
    private final double[] rowA;
    private final double[] rowB;
    private final double[] rowLo;
    private final double[] rowHi;
    private final double[] lowerAlpha;
    private final double[] lowerBeta;
    private final double[] upperGamma;
    private final double[] upperDelta;
    private final double[] interval = new double[2];
    private final double[] qd;
    private final double[] qdd;
    private final double[] qddd;
    private final double[] tau;
    private final double[] tauDot;

    /**
     * Evaluates the path and its dynamics coefficients on the grid.
     *
     * @param dynamics the robot's dynamics (gravity set).
     * @param path the geometric path, one coordinate per joint of the robot.
     * @param intervals N, the number of grid intervals (N + 1 points).
     * @param velocityLimits |qd| limits by coordinate (infinite for none).
     * @param accelerationLimits |qdd| limits by coordinate (infinite for none).
     * @param effortLimits |tau| limits by coordinate.
     * @param rateLimits |tau-dot| limits by coordinate (infinite for none).
     */
    public PathRetimer(
        final PlanningDynamics dynamics, final JointPath path, final int intervals, final double[] velocityLimits,
        final double[] accelerationLimits, final double[] effortLimits, final double[] rateLimits)
    {
        if (path.dof() != dynamics.dof())
        {
            throw new IllegalArgumentException("the path has " + path.dof() + " coordinates, the robot " + dynamics.dof());
        }
        if (intervals < 2)
        {
            throw new IllegalArgumentException("at least 2 grid intervals, got " + intervals);
        }
        this.dynamics = dynamics;
        this.path = path;
        this.intervals = intervals;
        dof = dynamics.dof();
        effortLimit = effortLimits.clone();
        velocityLimit = velocityLimits.clone();
        accelerationLimit = accelerationLimits.clone();
        rateLimit = rateLimits.clone();
        grid = new double[intervals + 1];
        q = new double[intervals + 1][dof];
        dq = new double[intervals + 1][dof];
        ddq = new double[intervals + 1][dof];
        dddq = new double[intervals + 1][dof];
        m = new double[intervals + 1][dof];
        c = new double[intervals + 1][dof];
        constant = new double[intervals + 1][dof];
        viscous = new double[intervals + 1][dof];
        velocityCap = new double[intervals + 1];
        final RobotModel model = dynamics.model();
        boolean viscousFound = false;
        for (int i = 0; i <= intervals; i++)
        {
            grid[i] = (double)i / intervals;
            path.evaluate(grid[i], q[i], dq[i], ddq[i], dddq[i]);
            dynamics.pathCoefficients(q[i], dq[i], ddq[i], m[i], c[i], constant[i]);
            for (int j = 0; j < dof; j++)
            {
                final JointActuation actuation = model.actuation(j);
                constant[i][j] += actuation.coulombFriction() * Math.signum(dq[i][j]);
                viscous[i][j] = actuation.viscousFriction() * dq[i][j];
                viscousFound |= viscous[i][j] != 0.0;
            }
        }
        // x is linear in s between points, so a point's velocity cap is the least cap of s in its two
        // neighbouring intervals (sampled 8 times each): then the whole interval respects it
        final double[] sq = new double[dof];
        final double[] s1 = new double[dof];
        final double[] s2 = new double[dof];
        final double[] s3 = new double[dof];
        final double[] sampleCap = new double[8 * intervals + 1];
        for (int k = 0; k <= 8 * intervals; k++)
        {
            path.evaluate((double)k / (8 * intervals), sq, s1, s2, s3);
            double cap = Double.POSITIVE_INFINITY;
            for (int j = 0; j < dof; j++)
            {
                final double speed = Math.abs(s1[j]);
                if (speed > 0.0 && Double.isFinite(velocityLimits[j]))
                {
                    cap = Math.min(cap, (velocityLimits[j] / speed) * (velocityLimits[j] / speed));
                }
            }
            sampleCap[k] = cap;
        }
        for (int i = 0; i <= intervals; i++)
        {
            double cap = Double.POSITIVE_INFINITY;
            for (int k = Math.max(0, 8 * i - 8); k <= Math.min(8 * intervals, 8 * i + 8); k++)
            {
                cap = Math.min(cap, sampleCap[k]);
            }
            // a hair inside, for what the 8 samples miss between them
            velocityCap[i] = cap * (1.0 - 1e-4);
        }
        anyViscous = viscousFound;
        final int rows = 4 * dof + 1;
        rowA = new double[rows];
        rowB = new double[rows];
        rowLo = new double[rows];
        rowHi = new double[rows];
        lowerAlpha = new double[2 * rows];
        lowerBeta = new double[2 * rows];
        upperGamma = new double[2 * rows];
        upperDelta = new double[2 * rows];
        qd = new double[dof];
        qdd = new double[dof];
        qddd = new double[dof];
        tau = new double[dof];
        tauDot = new double[dof];
    }

    /** @return the grid points (N + 1). */
    public double[] grid()
    {
        return grid.clone();
    }

    /** @return the path. */
    public JointPath path()
    {
        return path;
    }

    /**
     * The fastest timing.
     *
     * @param withRateLimits true to also enforce the torque-rate limits (by the iteration of the class comment).
     * @param maxIterations the torque-rate iteration limit.
     * @return the timing.
     * @throws RetimingException if the limits admit no motion along the path, or the iteration does not settle.
     */
    public Timing retime(final boolean withRateLimits, final int maxIterations) throws RetimingException
    {
        final double[] cap = velocityCap.clone();
        final double[] reference = new double[intervals + 1];
        for (int i = 0; i <= intervals; i++)
        {
            reference[i] = Double.isFinite(cap[i]) ? cap[i] : 1.0;
        }
        final double[] x = new double[intervals + 1];
        final double[] u = new double[intervals];
        final double[] t = new double[intervals + 1];
        final double[] rate = new double[intervals + 1];
        final boolean[] stuck = withRateLimits ? new boolean[intervals + 1] : null;
        int iteration = 0;
        while (true)
        {
            iteration++;
            if (stuck != null)
            {
                java.util.Arrays.fill(stuck, false);
            }
            reachability(cap, reference, x, u, stuck);
            for (int pass = 0; anyViscous && pass < 5; pass++)
            {
                System.arraycopy(x, 0, reference, 0, x.length);
                for (int i = 0; i <= intervals; i++)
                {
                    reference[i] = Math.max(reference[i], 1e-6);
                }
                reachability(cap, reference, x, u, stuck);
            }
            times(x, t);
            if (!withRateLimits)
            {
                return new Timing(grid.clone(), x, u, t, iteration, 0.0);
            }
            double worst = 0.0;
            for (int i = 0; i <= intervals; i++)
            {
                rate[i] = torqueRateRatio(i, x, u, t);
                worst = Math.max(worst, rate[i]);
            }
            if (worst <= 1.0 + 1e-9)
            {
                return new Timing(grid.clone(), x, u, t, iteration, worst);
            }
            if (iteration >= maxIterations)
            {
                throw new RetimingException(String.format(java.util.Locale.ROOT,
                    "the torque-rate iteration did not settle in %d passes (peak |tau-dot| / limit %.4f)", iteration, worst));
            }
            // where the control could not change fast enough, slow the approach: lower the caps before the point
            final int reach = Math.max(2, intervals / 50);
            for (int i = 0; i <= intervals; i++)
            {
                if (rate[i] > 1.0 + 1e-9 || stuck[i])
                {
                    // a tapered dip (deepest at the point), so the lowered cap adds no step of its own
                    for (int k = Math.max(1, i - reach); k <= Math.min(intervals - 1, i + reach / 4); k++)
                    {
                        final double depth = k <= i ? 1.0 - (double)(i - k) / reach : 1.0 - 4.0 * (k - i) / reach;
                        cap[k] = Math.min(cap[k], x[k] * (1.0 - 0.1 * depth));
                    }
                }
            }
        }
    }

    /**
     * Checks a timing on a grid {@code factor} times denser than the retiming grid: torque by the plain
     * recursive Newton-Euler algorithm with friction ({@link PlanningDynamics#torque}, independent of the
     * path coefficients), velocity and acceleration from the exact piecewise-constant s-ddot time law;
     * torque rate at the retiming grid points by the torque-derivative recursion (the model of the class comment).
     *
     * @param timing a timing of this path.
     * @param factor sub-samples per grid interval.
     * @return the peak ratios to the limits.
     */
    public Check check(final Timing timing, final int factor)
    {
        final double[] qs = new double[dof];
        final double[] d1 = new double[dof];
        final double[] d2 = new double[dof];
        final double[] d3 = new double[dof];
        final double[] peakEffort = new double[dof];
        double effort = 0.0;
        double velocity = 0.0;
        double acceleration = 0.0;
        for (int i = 0; i < intervals; i++)
        {
            for (int k = 0; k < factor; k++)
            {
                final double s = grid[i] + (grid[i + 1] - grid[i]) * k / factor;
                final double x = Math.max(0.0, timing.x()[i] + 2.0 * timing.u()[i] * (s - grid[i]));
                final double sdot = Math.sqrt(x);
                path.evaluate(s, qs, d1, d2, d3);
                for (int j = 0; j < dof; j++)
                {
                    qd[j] = d1[j] * sdot;
                    qdd[j] = d2[j] * x + d1[j] * timing.u()[i];
                }
                dynamics.torque(qs, qd, qdd, tau);
                for (int j = 0; j < dof; j++)
                {
                    peakEffort[j] = Math.max(peakEffort[j], Math.abs(tau[j]));
                    effort = Math.max(effort, Math.abs(tau[j]) / effortLimit[j]);
                    velocity = Math.max(velocity, Math.abs(qd[j]) / velocityLimit[j]);
                    acceleration = Math.max(acceleration, Math.abs(qdd[j]) / accelerationLimit[j]);
                }
            }
        }
        double rate = 0.0;
        for (int i = 0; i <= intervals; i++)
        {
            rate = Math.max(rate, torqueRateRatio(i, timing.x(), timing.u(), timing.t()));
        }
        return new Check(intervals * factor, effort, velocity, acceleration, rate, peakEffort);
    }

    /**
     * Peak ratios of a timing to its limits (0 where a limit is infinite).
     *
     * @param gridPoints points checked.
     * @param effortRatio max |tau_j| / limit_j.
     * @param velocityRatio max |qd_j| / limit_j.
     * @param accelerationRatio max |qdd_j| / limit_j.
     * @param torqueRateRatio max |tau-dot_j| / limit_j at the retiming grid points.
     * @param peakEffort max |tau_j| by coordinate.
     */
    public record Check(int gridPoints, double effortRatio, double velocityRatio, double accelerationRatio,
        double torqueRateRatio, double[] peakEffort)
    {
    }

    /** The largest |tau-dot_j| / limit_j at grid point i of a timing (the model of the class comment). */
    double torqueRateRatio(final int i, final double[] x, final double[] u, final double[] t)
    {
        return rateRatio(i, x[i], i > 0 ? u[i - 1] : 0.0, i < intervals ? u[i] : 0.0,
            i > 0 ? t[i] - t[i - 1] : t[1] - t[0], i < intervals ? t[i + 1] - t[i] : t[i] - t[i - 1]);
    }

    /** The largest |tau-dot_j| / limit_j at grid point i given x there, the neighbouring controls and interval durations. */
    private double rateRatio(final int i, final double xi, final double before, final double after, final double dtBefore,
        final double dtAfter)
    {
        final double sdot = Math.sqrt(Math.max(0.0, xi));
        final double sddot = 0.5 * (before + after);
        final double sdddot = (after - before) / (0.5 * (dtBefore + dtAfter));
        for (int j = 0; j < dof; j++)
        {
            qd[j] = dq[i][j] * sdot;
            qdd[j] = ddq[i][j] * xi + dq[i][j] * sddot;
            qddd[j] = dddq[i][j] * sdot * xi + 3.0 * ddq[i][j] * sdot * sddot + dq[i][j] * sdddot;
        }
        dynamics.torqueRate(q[i], qd, qdd, qddd, tau, tauDot);
        double worst = 0.0;
        for (int j = 0; j < dof; j++)
        {
            worst = Math.max(worst, Math.abs(tauDot[j]) / rateLimit[j]);
        }
        return worst;
    }

    /** Duration of interval i given x at its start and its control. */
    private double intervalDuration(final int i, final double xi, final double ui)
    {
        final double step = 2.0 * (grid[i + 1] - grid[i]);
        final double speedSum = Math.sqrt(Math.max(0.0, xi)) + Math.sqrt(Math.max(0.0, xi + step * ui));
        return speedSum > 0.0 ? step / speedSum : Double.POSITIVE_INFINITY;
    }

    private void times(final double[] x, final double[] t) throws RetimingException
    {
        t[0] = 0.0;
        for (int i = 0; i < intervals; i++)
        {
            final double speedSum = Math.sqrt(Math.max(0.0, x[i])) + Math.sqrt(Math.max(0.0, x[i + 1]));
            if (!(speedSum > 0.0))
            {
                throw new RetimingException(String.format(java.util.Locale.ROOT,
                    "the limits allow no motion near s = %.4f (both ends of a grid interval at rest)", grid[i]));
            }
            t[i + 1] = t[i] + 2.0 * (grid[i + 1] - grid[i]) / speedSum;
        }
    }

    /** One TOPP-RA pass: backward controllable sets from rest at s = 1, then the greedy forward pass from rest. */
    private void reachability(final double[] cap, final double[] reference, final double[] x, final double[] u,
        final boolean[] stuck) throws RetimingException
    {
        final double[] lowest = new double[intervals + 1];
        final double[] highest = new double[intervals + 1];
        for (int i = intervals - 1; i >= 0; i--)
        {
            final double step = 2.0 * (grid[i + 1] - grid[i]);
            final int rows = stageRows(i, reference[i], step, i + 1 == intervals ? 0.0 : lowest[i + 1],
                i + 1 == intervals ? 0.0 : highest[i + 1]);
            if (!feasibleX(rows, Math.min(cap[i], i == 0 ? 0.0 : Double.POSITIVE_INFINITY)))
            {
                throw new RetimingException(String.format(java.util.Locale.ROOT,
                    "the limits cannot be met along the path at s = %.4f (q = %s): no s-dot from which the end is reachable",
                    grid[i], java.util.Arrays.toString(q[i])));
            }
            lowest[i] = interval[0];
            highest[i] = interval[1];
        }
        x[0] = 0.0;
        for (int i = 0; i < intervals; i++)
        {
            final double step = 2.0 * (grid[i + 1] - grid[i]);
            final int rows = stageRows(i, reference[i], step, i + 1 == intervals ? 0.0 : lowest[i + 1],
                i + 1 == intervals ? 0.0 : highest[i + 1]);
            double low = Double.NEGATIVE_INFINITY;
            double high = Double.POSITIVE_INFINITY;
            for (int r = 0; r < rows; r++)
            {
                final double a = rowA[r];
                final double rest = rowB[r] * x[i];
                if (a > 0.0)
                {
                    low = Math.max(low, (rowLo[r] - rest) / a);
                    high = Math.min(high, (rowHi[r] - rest) / a);
                }
                else if (a < 0.0)
                {
                    low = Math.max(low, (rowHi[r] - rest) / a);
                    high = Math.min(high, (rowLo[r] - rest) / a);
                }
            }
            // the backward pass guarantees low <= high up to rounding; the rows include x_i+1 in the controllable set
            low = Math.min(low, high);
            u[i] = stuck == null ? high : rateLimitedControl(i, x[i], i > 0 ? u[i - 1] : 0.0,
                i > 0 ? intervalDuration(i - 1, x[i - 1], u[i - 1]) : Double.NaN, low, high, stuck);
            x[i + 1] = Math.max(0.0, x[i] + step * u[i]);
        }
        x[intervals] = 0.0;
        u[intervals - 1] = -x[intervals - 1] / (2.0 * (grid[intervals] - grid[intervals - 1]));
    }

    /**
     * The largest control in [low, high] that keeps |tau-dot| within its limits at point i (bisection;
     * tau-dot grows with the change of control); if none does (or it would bring the motion to rest),
     * the reachability pass's own choice, and point i is marked stuck so that the caps before it are lowered.
     */
    private double rateLimitedControl(final int i, final double xi, final double previous, final double dtBefore,
        final double low, final double high, final boolean[] stuck)
    {
        if (rateAfter(i, xi, previous, dtBefore, high) <= RATE_MARGIN)
        {
            return high;
        }
        final double anchor = Math.max(low, Math.min(high, previous));
        if (rateAfter(i, xi, previous, dtBefore, anchor) > RATE_MARGIN)
        {
            stuck[i] = true;
            return high;
        }
        double good = anchor;
        double bad = high;
        for (int k = 0; k < 30 && bad - good > 1e-9 * Math.max(1.0, Math.abs(bad)); k++)
        {
            final double mid = 0.5 * (good + bad);
            if (rateAfter(i, xi, previous, dtBefore, mid) <= RATE_MARGIN)
            {
                good = mid;
            }
            else
            {
                bad = mid;
            }
        }
        if (i + 1 < intervals && !(xi + 2.0 * (grid[i + 1] - grid[i]) * good > 0.0))
        {
            // the slow change of control would stop the motion here: take the reachability choice, slow down before
            stuck[i] = true;
            return high;
        }
        return good;
    }

    private double rateAfter(final int i, final double xi, final double previous, final double dtBefore, final double ui)
    {
        final double dtAfter = intervalDuration(i, xi, ui);
        return rateRatio(i, xi, previous, ui, Double.isNaN(dtBefore) ? dtAfter : dtBefore, dtAfter);
    }

    /**
     * Fills the stage rows: torque and acceleration per coordinate, and x + step u in [nextLow, nextHigh].
     *
     * @return the row count.
     */
    private int stageRows(final int i, final double reference, final double step, final double nextLow, final double nextHigh)
    {
        int rows = 0;
        // the point's own rows, then (TOPP-RA's first-order interpolation) the next point's at x + step u
        for (int end = 0; end < 2; end++)
        {
            final int point = Math.min(intervals, i + end);
            final double shift = end == 0 ? 0.0 : step;
            final double root = Math.sqrt(end == 0 ? reference : Math.max(reference, 1e-6));
            for (int j = 0; j < dof; j++)
            {
                if (Double.isFinite(effortLimit[j]))
                {
                    // viscous b q' sqrt(x) by its tangent at the reference: b q' (root / 2 + x / (2 root))
                    final double viscousSlope = viscous[point][j] == 0.0 ? 0.0 : viscous[point][j] / (2.0 * root);
                    final double viscousOffset = viscous[point][j] == 0.0 ? 0.0 : viscous[point][j] * root / 2.0;
                    final double b = c[point][j] + viscousSlope;
                    rowA[rows] = m[point][j] + shift * b;
                    rowB[rows] = b;
                    rowLo[rows] = -effortLimit[j] - constant[point][j] - viscousOffset;
                    rowHi[rows] = effortLimit[j] - constant[point][j] - viscousOffset;
                    rows++;
                }
                if (Double.isFinite(accelerationLimit[j]))
                {
                    rowA[rows] = dq[point][j] + shift * ddq[point][j];
                    rowB[rows] = ddq[point][j];
                    rowLo[rows] = -accelerationLimit[j];
                    rowHi[rows] = accelerationLimit[j];
                    rows++;
                }
            }
        }
        rowA[rows] = step;
        rowB[rows] = 1.0;
        rowLo[rows] = nextLow;
        rowHi[rows] = nextHigh;
        return rows + 1;
    }

    /**
     * The x in [0, cap] for which some u satisfies every row, into {@link #interval}: the pairwise
     * elimination of u described in the class comment.
     *
     * @return false if empty.
     */
    private boolean feasibleX(final int rows, final double cap)
    {
        double low = 0.0;
        double high = cap;
        int lowers = 0;
        int uppers = 0;
        for (int r = 0; r < rows; r++)
        {
            final double a = rowA[r];
            final double b = rowB[r];
            if (Math.abs(a) < 1e-12)
            {
                if (b > 0.0)
                {
                    low = Math.max(low, rowLo[r] / b);
                    high = Math.min(high, rowHi[r] / b);
                }
                else if (b < 0.0)
                {
                    low = Math.max(low, rowHi[r] / b);
                    high = Math.min(high, rowLo[r] / b);
                }
                else if (rowLo[r] > 0.0 || rowHi[r] < 0.0)
                {
                    return false;
                }
                continue;
            }
            // u >= (lo - b x) / a and u <= (hi - b x) / a for a > 0; swapped for a < 0
            final double first = rowLo[r] / a;
            final double second = rowHi[r] / a;
            final double slope = -b / a;
            if (a > 0.0)
            {
                lowerAlpha[lowers] = first;
                lowerBeta[lowers++] = slope;
                upperGamma[uppers] = second;
                upperDelta[uppers++] = slope;
            }
            else
            {
                lowerAlpha[lowers] = second;
                lowerBeta[lowers++] = slope;
                upperGamma[uppers] = first;
                upperDelta[uppers++] = slope;
            }
        }
        for (int k = 0; k < lowers; k++)
        {
            for (int l = 0; l < uppers; l++)
            {
                // alpha + beta x <= gamma + delta x
                final double coefficient = lowerBeta[k] - upperDelta[l];
                final double bound = upperGamma[l] - lowerAlpha[k];
                if (coefficient > 1e-15)
                {
                    high = Math.min(high, bound / coefficient);
                }
                else if (coefficient < -1e-15)
                {
                    low = Math.max(low, bound / coefficient);
                }
                else if (bound < -1e-12)
                {
                    return false;
                }
            }
        }
        interval[0] = low;
        interval[1] = high;
        return low <= high + 1e-12 * Math.max(1.0, Math.abs(high));
    }
}
