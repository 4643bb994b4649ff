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
 * <p><b>The service's clock reserve.</b> A controller that time-scales its reference (nectl's
 * {@code ReferenceTimeScaling}) admits a point at full speed only if |tau| + a |M qd| stays within its
 * share of the effort limit and |tau-dot| + a |delta| within its share of the rate limit, for every
 * clock acceleration |s-ddot| &lt;= a (delta = d tau-dot / d s-ddot). With {@code clockAccelerationReserve}
 * = a the retimer keeps the same margins: in the reachability rows a |m| sqrt(x) enters by its tangent
 * at the previous pass's x (above the concave root, so conservative, and exact at the reference, the
 * pass repeated as for viscous friction), and the dense check below adds both reserves exactly.
 *
 * <p><b>Third order: a smooth time law whose torque ramps are fitted to the rate limit.</b> The
 * reachability profile has s-ddot constant on each interval; its torque steps wherever the control
 * changes, the start and the stop included, so its torque rate is unbounded whatever the grid. A
 * third-order reachability pass would need controllable sets in (x, u) at each point, which are not
 * convex (tau-dot couples neighbouring controls through s-tripledot and contains s-dot s-ddot terms),
 * so no exact pass of TOPP-RA's kind exists. Instead the law that is written is made smooth and then
 * checked: each step of s-ddot becomes a ramp ({@link SmoothTimeLaw}: a triangular kernel per step,
 * centred, so the law is C3 and keeps the profile's mean timing, and only the first and the last ramp
 * lengthen the motion) whose half-width starts at the larger of a least width and |m_j du| / (rate
 * limit_j), the time the largest torque step there needs at the rate limit. The law is then evaluated
 * by the plain recursive Newton-Euler algorithm for tau and the torque-derivative recursion for tau-dot,
 * at the law's breakpoints (where s-tripledot kinks, so the ramps' extremes are seen) and on an even
 * grid: 2 points per interval while steering, {@code checkFactor} per interval for the result. The
 * evaluations that decide are the ones that report. Per joint tau-dot = G + J with J = M q'
 * s-tripledot the ramps' part; ramps f times wider make it J / f, so each instant asks for the least f
 * with |G + J / f| + reserve &lt;= 0.995 x limit, and each ramp takes the largest f asked for over its
 * support (a request to widen counts only where the ramp makes a quarter or more of s-tripledot with
 * the same sign, so that the steps that make a peak widen, not every ramp that reaches it): wider
 * where the limit is exceeded, narrower (damped, not below the least width) where it is not
 * reached, so that the limit binds. Where G alone leaves no room, or tau, qd or qdd exceed
 * their limits (the smoothing averages the profile and may lift it off a limit it rode), the velocity
 * caps of the reachability pass are lowered around that instant by the ratio (x by r, r^2 or r^(2/3)
 * as tau, qd and tau-dot scale with s-dot) and the profile is recomputed. The iteration ends when the
 * full check finds nothing over a limit and no ramp would change by more than 0.3 %: the result is
 * bounded on the dense grid by the stopping rule, not by a model of tau-dot, and a run that does not
 * settle within its passes is an error, not a result. The price is a duration above the true
 * third-order optimum, which would ramp each step asymmetrically and switch earlier (Pham and Pham
 * 2017 describe the singular arcs that make that problem hard). Measured costs: docs/PLANNING.md.
 *
 * <p>Not thread safe; not real-time code.
 */
public final class PathRetimer
{
    /** Adjustments aim this far inside a limit, so that the next pass does not land on it again. */
    private static final double AIM = 0.995;
    /** The width iteration ends when no ramp would change by more than this (relative). */
    private static final double WIDTH_TOLERANCE = 0.003;

    /** Thrown when no timing satisfies the limits or the smoothing iteration does not settle. */
    public static final class RetimingException extends Exception
    {
        private static final long serialVersionUID = 1L;

        private final boolean unsettled;

        RetimingException(final String message, final boolean unsettled)
        {
            super(message);
            this.unsettled = unsettled;
        }

        /** @return true if the limits may be feasible but the iteration ran out of passes (not bad input). */
        public boolean unsettled()
        {
            return unsettled;
        }
    }

    /**
     * A reachability profile: x = s-dot^2 at the grid points, u = s-ddot on each interval, the times of the points.
     *
     * @param s grid points (N + 1).
     * @param x s-dot^2 at the points.
     * @param u s-ddot on each interval (N).
     * @param t time at each point, s.
     */
    public record Timing(double[] s, double[] x, double[] u, double[] t)
    {
        /** @return the duration, s. */
        public double durationS()
        {
            return t[t.length - 1];
        }
    }

    /**
     * A retimed path.
     *
     * @param profile the last reachability profile (piecewise constant s-ddot).
     * @param law the smooth time law made from it: the timing to follow.
     * @param passes reachability and smoothing passes run.
     * @param check the dense check of the law.
     */
    public record Result(Timing profile, SmoothTimeLaw law, int passes, Check check)
    {
    }

    private final PlanningDynamics dynamics;
    private final JointPath path;
    private final int dof;
    private final int intervals;
    private final double[] grid;
    private final double[][] dq;
    private final double[][] ddq;
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
    private final boolean linearised;
    private final double clockAccelerationReserve;

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
    private final double[] reserveTau;
    private final double[] reserveTauDot;

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
        this(dynamics, path, intervals, velocityLimits, accelerationLimits, effortLimits, rateLimits, 0.0);
    }

    /**
     * Evaluates the path and its dynamics coefficients on the grid, keeping the reserve a time-scaling
     * controller holds for its clock (class comment).
     *
     * @param dynamics the robot's dynamics (gravity set).
     * @param path the geometric path, one coordinate per joint of the robot.
     * @param intervals N, the number of grid intervals (N + 1 points).
     * @param velocityLimits |qd| limits by coordinate (infinite for none).
     * @param accelerationLimits |qdd| limits by coordinate (infinite for none).
     * @param effortLimits |tau| limits by coordinate (already the share the feedforward may use).
     * @param rateLimits |tau-dot| limits by coordinate (infinite for none; already the share).
     * @param clockAccelerationReserve a, the |s-ddot| for which the limits must hold at full speed, 1/s^2 (0 for none).
     */
    public PathRetimer(
        final PlanningDynamics dynamics, final JointPath path, final int intervals, final double[] velocityLimits,
        final double[] accelerationLimits, final double[] effortLimits, final double[] rateLimits,
        final double clockAccelerationReserve)
    {
        if (!(clockAccelerationReserve >= 0.0) || Double.isInfinite(clockAccelerationReserve))
        {
            throw new IllegalArgumentException("the clock acceleration reserve must be finite and >= 0, got " + clockAccelerationReserve);
        }
        this.clockAccelerationReserve = clockAccelerationReserve;
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
        m = new double[intervals + 1][dof];
        c = new double[intervals + 1][dof];
        constant = new double[intervals + 1][dof];
        viscous = new double[intervals + 1][dof];
        velocityCap = new double[intervals + 1];
        final RobotModel model = dynamics.model();
        boolean viscousFound = false;
        // the third path derivative is not kept: tau-dot is evaluated along the smooth law, not at the points
        final double[] third = new double[dof];
        for (int i = 0; i <= intervals; i++)
        {
            grid[i] = (double)i / intervals;
            path.evaluate(grid[i], q[i], dq[i], ddq[i], third);
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
        linearised = viscousFound || clockAccelerationReserve > 0.0;
        final int rows = 6 * dof + 1;
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
        reserveTau = new double[dof];
        reserveTauDot = new double[dof];
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
     * The time-optimal profile under the second-order limits (torque, velocity, acceleration): TOPP-RA's
     * reachability passes, s-ddot constant on each interval. Its torque steps where s-ddot changes.
     *
     * @return the profile.
     * @throws RetimingException if the limits admit no motion along the path.
     */
    public Timing secondOrder() throws RetimingException
    {
        return profile(velocityCap.clone());
    }

    /**
     * The fastest smooth timing found by the iteration of the class comment: a C3 time law that the dense
     * check finds within every limit (the torque-rate limits only if asked for).
     *
     * @param withRateLimits true to also bound |tau-dot|.
     * @param maxIterations pass limit.
     * @param checkFactor dense check points per grid interval (10 for the documented check).
     * @param minimumRampS the least ramp half-width, s: a controller that re-interpolates sampled positions
     *     follows the law's jerk only if it varies slowly against the sample spacing (docs/PLANNING.md).
     * @return the result.
     * @throws RetimingException if the limits admit no motion along the path, or the iteration does not settle.
     */
    public Result retime(final boolean withRateLimits, final int maxIterations, final int checkFactor, final double minimumRampS)
        throws RetimingException
    {
        final double[] cap = velocityCap.clone();
        Timing profile = profile(cap);
        final double[] width = initialWidths(profile, withRateLimits, minimumRampS);
        final int points = checkFactor * intervals;
        final Samples samples = new Samples(points + 1 + 3 * (intervals + 1));
        // the passes that steer the widths and caps check 2 points per interval besides the breakpoints (where the
        // ramps' extremes are); the result must also pass the full check, and if it does not, the passes go on with it
        int steering = Math.min(points, 2 * intervals);
        for (int pass = 1; ; pass++)
        {
            final SmoothTimeLaw law = new SmoothTimeLaw(profile.t(), profile.u(), width);
            Check check = check(law, steering, withRateLimits, samples);
            boolean capsLowered = samples.violations > 0 && lowerCaps(law, profile, samples, cap, width);
            boolean widthsMoved = withRateLimits && fitWidths(law, profile, samples, width, minimumRampS);
            if (samples.violations == 0 && !widthsMoved && steering < points)
            {
                steering = points;
                check = check(law, points, withRateLimits, samples);
                capsLowered = samples.violations > 0 && lowerCaps(law, profile, samples, cap, width);
                widthsMoved = samples.violations > 0 && withRateLimits && fitWidths(law, profile, samples, width, minimumRampS);
            }
            if (samples.violations == 0 && !widthsMoved)
            {
                return new Result(profile, law, pass, check);
            }
            if (pass >= maxIterations)
            {
                // a law within the limits whose ramps still move is not the result asked for: no output, as for a failed solve
                throw new RetimingException(String.format(java.util.Locale.ROOT,
                    "the %s iteration did not settle in %d passes (peak |tau| %.4f, |qd| %.4f, |tau-dot| %.4f of the limits)",
                    withRateLimits ? "torque-rate" : "smoothing", pass, check.effortRatio(), check.velocityRatio(),
                    check.torqueRateRatio()), true);
            }
            if (capsLowered)
            {
                // the step at a grid point keeps the width found for it; a new profile may move steps, not grid points
                profile = profile(cap);
            }
        }
    }

    /** One reachability profile under the caps (repeated while a tangent-linearised term settles). */
    private Timing profile(final double[] cap) throws RetimingException
    {
        final double[] reference = new double[intervals + 1];
        for (int i = 0; i <= intervals; i++)
        {
            reference[i] = Double.isFinite(cap[i]) ? cap[i] : 1.0;
        }
        final double[] x = new double[intervals + 1];
        final double[] u = new double[intervals];
        final double[] t = new double[intervals + 1];
        reachability(cap, reference, x, u);
        for (int pass = 0; linearised && pass < 5; pass++)
        {
            System.arraycopy(x, 0, reference, 0, x.length);
            for (int i = 0; i <= intervals; i++)
            {
                reference[i] = Math.max(reference[i], 1e-6);
            }
            reachability(cap, reference, x, u);
        }
        times(x, t);
        return new Timing(grid.clone(), x, u, t);
    }

    /**
     * Each grid point's ramp half-width: half the shorter neighbouring interval (a ramp no narrower than
     * the grid resolves) or the minimum given, and with the rate limits at least the time the largest torque step there
     * needs at its rate limit, |m_j du| / limit_j.
     */
    private double[] initialWidths(final Timing profile, final boolean withRateLimits, final double minimumRampS)
    {
        final double[] width = new double[intervals + 1];
        final double[] t = profile.t();
        final double[] u = profile.u();
        for (int i = 0; i <= intervals; i++)
        {
            final double before = i > 0 ? t[i] - t[i - 1] : Double.POSITIVE_INFINITY;
            final double after = i < intervals ? t[i + 1] - t[i] : Double.POSITIVE_INFINITY;
            width[i] = Math.max(minimumRampS, 0.5 * Math.min(before, after));
            if (withRateLimits)
            {
                final double step = (i < intervals ? u[i] : 0.0) - (i > 0 ? u[i - 1] : 0.0);
                for (int j = 0; j < dof; j++)
                {
                    width[i] = Math.max(width[i], Math.abs(m[i][j] * step) / rateLimit[j]);
                }
            }
        }
        return width;
    }

    /** The dense check's instants, each with what it asks of the iteration. */
    private static final class Samples
    {
        final double[] time;
        /** s-tripledot of the law at the instant. */
        final double[] jerk;
        /** The factor on the width of the ramps covering the instant that brings tau-dot to the aim (NaN if they do not decide). */
        final double[] fit;
        /** Factor to multiply x by around the instant (1 if within the limits). */
        final double[] slow;
        int count;
        int violations;

        Samples(final int capacity)
        {
            time = new double[capacity];
            jerk = new double[capacity];
            fit = new double[capacity];
            slow = new double[capacity];
        }

        void add(final double t, final double fitBy, final double slowBy, final boolean violation, final double sTripleDot)
        {
            jerk[count] = sTripleDot;
            time[count] = t;
            fit[count] = fitBy;
            slow[count] = slowBy;
            count++;
            violations += violation ? 1 : 0;
        }
    }

    /**
     * Lowers the caps around each instant over a limit that wider ramps do not cure.
     *
     * @return true if a cap was lowered (the profile must be recomputed).
     */
    private boolean lowerCaps(final SmoothTimeLaw law, final Timing profile, final Samples samples, final double[] cap,
        final double[] width)
    {
        final double[] state = new double[4];
        final double shift = law.profileStartS();
        final double[] t = profile.t();
        boolean lowered = false;
        for (int v = 0; v < samples.count; v++)
        {
            if (samples.slow[v] >= 1.0)
            {
                continue;
            }
            // the law at this instant averages the profile over the ramps around it: lower the caps there
            final double time = samples.time[v] - shift;
            double reach = 0.0;
            for (int i = 0; i <= intervals; i++)
            {
                if (Math.abs(t[i] - time) < width[i])
                {
                    reach = Math.max(reach, width[i]);
                }
            }
            law.at(samples.time[v] - reach, state);
            final double from = state[0];
            law.at(samples.time[v] + reach, state);
            final double to = state[0];
            for (int i = 1; i < intervals; i++)
            {
                final boolean near = grid[i] >= from && grid[i] <= to
                    || grid[i + 1] > from && grid[i] <= from
                    || grid[i - 1] < to && grid[i] >= to;
                if (near)
                {
                    cap[i] = Math.min(cap[i], profile.x()[i] * samples.slow[v]);
                    lowered = true;
                }
            }
        }
        return lowered;
    }

    /**
     * Sets each ramp's width so that the peak tau-dot over it comes to the aim: wider where it exceeds,
     * narrower (not below the minimum) where it stays below.
     *
     * @return true if a width changed by more than {@link #WIDTH_TOLERANCE}.
     */
    private boolean fitWidths(final SmoothTimeLaw law, final Timing profile, final Samples samples, final double[] width,
        final double minimumRampS)
    {
        final double shift = law.profileStartS();
        final double[] t = profile.t();
        boolean moved = false;
        for (int i = 0; i <= intervals; i++)
        {
            final double centre = t[i] + shift;
            int k = java.util.Arrays.binarySearch(samples.time, 0, samples.count, centre - width[i]);
            k = k < 0 ? -k - 1 : k;
            final double step0 = (i < intervals ? profile.u()[i] : 0.0) - (i > 0 ? profile.u()[i - 1] : 0.0);
            double factor = Double.NaN;
            for (; k < samples.count && samples.time[k] <= centre + width[i]; k++)
            {
                if (Double.isNaN(samples.fit[k]))
                {
                    continue;
                }
                // an instant asks this ramp to widen only if the ramp makes a fair share of its s-tripledot (same
                // sign, a quarter or more): a ramp that cancels it, or barely adds to it, is left alone, so the
                // steps that make a peak widen, not every ramp that reaches it (the last one above all, whose
                // width lengthens the motion)
                final double own = step0 * (width[i] - Math.abs(samples.time[k] - centre)) / (width[i] * width[i]);
                if (samples.fit[k] > 1.0 && own * Math.signum(samples.jerk[k]) < 0.25 * Math.abs(samples.jerk[k]))
                {
                    continue;
                }
                factor = Double.isNaN(factor) ? samples.fit[k] : Math.max(factor, samples.fit[k]);
            }
            if (Double.isNaN(factor))
            {
                continue;
            }
            // narrowing is damped (half the step in logarithm): the ramps around a peak narrow together and
            // each one's own share of the peak is not known, so the full step overshoots into the limit
            final double step = factor < 1.0 ? Math.sqrt(Math.max(0.5, factor)) : Math.min(3.0, factor);
            final double wanted = Math.max(minimumRampS, width[i] * step);
            moved |= Math.abs(wanted / width[i] - 1.0) > WIDTH_TOLERANCE && (wanted > width[i] || wanted < 0.999 * width[i]);
            width[i] = wanted;
        }
        return moved;
    }

    /**
     * Checks a smooth law on {@code points} + 1 instants evenly spaced in time and at its breakpoints
     * (where s-tripledot kinks, so tau-dot's extremes from the ramps are seen): tau by the plain recursive
     * Newton-Euler algorithm with friction ({@link PlanningDynamics#torque}, independent of the path
     * coefficients), tau-dot by the torque-derivative recursion, qd and qdd from the path's derivatives,
     * each with the clock reserve of the class comment.
     *
     * @param law a law of this path.
     * @param points intervals of the check grid.
     * @return the peak ratios to the limits.
     */
    public Check check(final SmoothTimeLaw law, final int points)
    {
        return check(law, points, true, null);
    }

    private Check check(final SmoothTimeLaw law, final int points, final boolean withRateLimits, final Samples samples)
    {
        final double[] qs = new double[dof];
        final double[] d1 = new double[dof];
        final double[] d2 = new double[dof];
        final double[] d3 = new double[dof];
        final double[] state = new double[4];
        final double[] peakEffort = new double[dof];
        final double[] peakRate = new double[dof];
        double effort = 0.0;
        double velocity = 0.0;
        double acceleration = 0.0;
        double rate = 0.0;
        double slowest = 0.0;
        if (samples != null)
        {
            samples.count = 0;
            samples.violations = 0;
        }
        final double[] instants = checkInstants(law, points);
        for (final double time : instants)
        {
            law.at(time, state);
            final double sDot = state[1];
            slowest = Math.min(slowest, sDot);
            path.evaluate(state[0], qs, d1, d2, d3);
            for (int j = 0; j < dof; j++)
            {
                qd[j] = d1[j] * sDot;
                qdd[j] = d2[j] * sDot * sDot + d1[j] * state[2];
                qddd[j] = d3[j] * sDot * sDot * sDot + 3.0 * d2[j] * sDot * state[2] + d1[j] * state[3];
            }
            dynamics.torque(qs, qd, qdd, tau);
            dynamics.torqueRate(qs, qd, qdd, qddd, reserveTau, tauDot);
            // tau and tau-dot are affine in qdd and qddd: one more evaluation at (qdd + qd, qddd + 3 qdd) gives
            // M qd and d tau-dot / d s-ddot, the controller's clock sensitivities
            for (int j = 0; j < dof; j++)
            {
                qddd[j] += 3.0 * qdd[j];
                qdd[j] += qd[j];
            }
            final double[] baseTau = d2;
            System.arraycopy(reserveTau, 0, baseTau, 0, dof);
            final double[] baseRate = d3;
            System.arraycopy(tauDot, 0, baseRate, 0, dof);
            dynamics.torqueRate(qs, qd, qdd, qddd, reserveTau, reserveTauDot);
            double pointEffort = 0.0;
            double pointVelocity = 0.0;
            double pointAcceleration = 0.0;
            double pointRate = 0.0;
            double pointFit = 0.0;
            boolean blocked = false;
            for (int j = 0; j < dof; j++)
            {
                final double inertia = reserveTau[j] - baseTau[j];
                final double tauRateSensitivity = reserveTauDot[j] - baseRate[j];
                final double effortRatio = (Math.abs(tau[j]) + clockAccelerationReserve * Math.abs(inertia)) / effortLimit[j];
                final double reserve = clockAccelerationReserve * Math.abs(tauRateSensitivity);
                final double rateRatio = (Math.abs(baseRate[j]) + reserve) / rateLimit[j];
                peakEffort[j] = Math.max(peakEffort[j], Math.abs(tau[j]));
                peakRate[j] = Math.max(peakRate[j], Math.abs(baseRate[j]));
                pointEffort = Math.max(pointEffort, effortRatio);
                pointVelocity = Math.max(pointVelocity, Math.abs(qd[j]) / velocityLimit[j]);
                pointAcceleration = Math.max(pointAcceleration, Math.abs(qdd[j] - qd[j]) / accelerationLimit[j]);
                pointRate = Math.max(pointRate, rateRatio);
                if (Double.isFinite(rateLimit[j]))
                {
                    // tau-dot = G + J, J = M q' s-tripledot = (M qd / s-dot) s-tripledot the ramps' part (all of it at rest);
                    // ramps wider by f make it J / f: the least f with |G + J / f| + reserve <= aim x limit
                    final double jerkPart = sDot > 1e-9 ? inertia / sDot * state[3] : baseRate[j];
                    final double geometric = baseRate[j] - jerkPart;
                    final double room = AIM * rateLimit[j] - reserve - Math.signum(jerkPart) * geometric;
                    if (room > 0.0)
                    {
                        pointFit = Math.max(pointFit, Math.abs(jerkPart) / room);
                    }
                    else if (jerkPart != 0.0)
                    {
                        blocked = true;
                    }
                }
            }
            effort = Math.max(effort, pointEffort);
            velocity = Math.max(velocity, pointVelocity);
            acceleration = Math.max(acceleration, pointAcceleration);
            rate = Math.max(rate, pointRate);
            if (samples != null)
            {
                classify(samples, time, pointEffort, pointVelocity, pointAcceleration, pointRate, blocked ? Double.NaN : pointFit,
                    withRateLimits, state[3]);
            }
        }
        return new Check(instants.length, effort, velocity, acceleration, rate, slowest, peakEffort, peakRate);
    }

    /** points + 1 instants evenly spaced over the law, merged with its breakpoints. */
    private static double[] checkInstants(final SmoothTimeLaw law, final int points)
    {
        final double[] breakpoints = law.breakpointsS();
        final double[] instants = new double[points + 1 + breakpoints.length];
        for (int k = 0; k <= points; k++)
        {
            instants[k] = law.durationS() * k / points;
        }
        System.arraycopy(breakpoints, 0, instants, points + 1, breakpoints.length);
        java.util.Arrays.sort(instants);
        return instants;
    }

    /**
     * Records an instant: the width factor its tau-dot asks for (NaN where the geometric part of tau-dot
     * alone leaves no room, which wider ramps cannot cure), and a slow-down where a limit is exceeded that
     * wider ramps do not cure.
     */
    private static void classify(final Samples samples, final double time, final double effort, final double velocity,
        final double acceleration, final double rate, final double fit, final boolean withRateLimits, final double sTripleDot)
    {
        double slow = 1.0;
        if (effort > 1.0)
        {
            slow = Math.min(slow, AIM / effort);
        }
        if (velocity > 1.0)
        {
            slow = Math.min(slow, (AIM / velocity) * (AIM / velocity));
        }
        if (acceleration > 1.0)
        {
            slow = Math.min(slow, AIM / acceleration);
        }
        if (withRateLimits && Double.isNaN(fit) && rate > 1.0)
        {
            slow = Math.min(slow, Math.pow(AIM / rate, 2.0 / 3.0));
        }
        samples.add(time, withRateLimits ? fit : Double.NaN, slow,
            effort > 1.0 || velocity > 1.0 || acceleration > 1.0 || withRateLimits && rate > 1.0, sTripleDot);
    }

    /**
     * Checks a reachability profile (piecewise constant s-ddot) on a grid {@code factor} times denser than
     * the retiming grid: torque by the plain recursive Newton-Euler algorithm, velocity and acceleration.
     * Its torque rate is unbounded (it steps), so it is not checked.
     *
     * @param timing a profile of this path.
     * @param factor sub-samples per grid interval.
     * @return the peak ratios to the limits (torque rate 0).
     */
    public Check checkProfile(final Timing timing, final int factor)
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
        return new Check(intervals * factor, effort, velocity, acceleration, 0.0, 0.0, peakEffort, new double[dof]);
    }

    /**
     * Peak ratios of a timing to its limits (0 where a limit is infinite), the clock reserve included.
     *
     * @param gridPoints points checked.
     * @param effortRatio max (|tau_j| + a |(M qd)_j|) / limit_j.
     * @param velocityRatio max |qd_j| / limit_j.
     * @param accelerationRatio max |qdd_j| / limit_j.
     * @param torqueRateRatio max (|tau-dot_j| + a |delta_j|) / limit_j.
     * @param lowestSDot the least s-dot (negative only if the law ran backwards somewhere).
     * @param peakEffort max |tau_j| by coordinate.
     * @param peakTorqueRate max |tau-dot_j| by coordinate.
     */
    public record Check(int gridPoints, double effortRatio, double velocityRatio, double accelerationRatio,
        double torqueRateRatio, double lowestSDot, double[] peakEffort, double[] peakTorqueRate)
    {
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
                    "the limits allow no motion near s = %.4f (both ends of a grid interval at rest)", grid[i]), false);
            }
            t[i + 1] = t[i] + 2.0 * (grid[i + 1] - grid[i]) / speedSum;
        }
    }

    /** One TOPP-RA pass: backward controllable sets from rest at s = 1, then the greedy forward pass from rest. */
    private void reachability(final double[] cap, final double[] reference, final double[] x, final double[] u)
        throws RetimingException
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
                    grid[i], java.util.Arrays.toString(q[i])), false);
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
            u[i] = high;
            x[i + 1] = Math.max(0.0, x[i] + step * u[i]);
        }
        x[intervals] = 0.0;
        u[intervals - 1] = -x[intervals - 1] / (2.0 * (grid[intervals] - grid[intervals - 1]));
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
                    // the clock's reserve a |m| sqrt(x) (concave in x) by its tangent, which lies above it: conservative
                    final double reserve = clockAccelerationReserve * Math.abs(m[point][j]);
                    final double reserveSlope = reserve == 0.0 ? 0.0 : reserve / (2.0 * root);
                    final double reserveOffset = reserve == 0.0 ? 0.0 : reserve * root / 2.0;
                    if (reserve == 0.0)
                    {
                        rows = row(rows, m[point][j] + shift * b, b, -effortLimit[j] - constant[point][j] - viscousOffset,
                            effortLimit[j] - constant[point][j] - viscousOffset);
                    }
                    else
                    {
                        final double up = b + reserveSlope;
                        final double down = b - reserveSlope;
                        rows = row(rows, m[point][j] + shift * up, up, Double.NEGATIVE_INFINITY,
                            effortLimit[j] - constant[point][j] - viscousOffset - reserveOffset);
                        rows = row(rows, m[point][j] + shift * down, down,
                            -effortLimit[j] - constant[point][j] - viscousOffset + reserveOffset, Double.POSITIVE_INFINITY);
                    }
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
        return row(rows, step, 1.0, nextLow, nextHigh);
    }

    /** Stores the row a u + b x in [lo, hi] at index r; returns r + 1. */
    private int row(final int r, final double a, final double b, final double lo, final double hi)
    {
        rowA[r] = a;
        rowB[r] = b;
        rowLo[r] = lo;
        rowHi[r] = hi;
        return r + 1;
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
