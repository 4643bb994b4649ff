package org.nectl.core.control;

import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;

/**
 * Online time scaling of a trajectory reference: the reference is sampled at a path time s(t)
 * whose rate 0 < s' <= 1 is lowered, before the demand arrives, wherever the feedforward torque or
 * torque rate along the reference would exceed a share of the joint limits, and brought back to 1
 * when the demand falls. The geometric path q(s) is unchanged; only the clock slows.
 *
 * <p><b>Scaled reference.</b> With q', q'', q''' the derivatives along the trajectory's own clock,
 * qd = q' s', qdd = q'' s'^2 + q' s'', qddd = q''' s'^3 + 3 q'' s' s'' + q' s'''. The clock is a
 * jerk-limited double integrator: |s''| <= {@link Settings#accelerationMax()}, |s'''| <=
 * {@link Settings#jerkMax()}, so s' and s'' are continuous and the feedforward tau stays continuous
 * (its s'' term) with a bounded rate (its s''' term).
 *
 * <p><b>Structure used for prediction.</b> Along the path the rigid-body feedforward is
 * tau = g + s'^2 b + s'' m and its rate tau' = s' gamma + s'^3 beta + s' s'' delta + s''' m, where
 * g is gravity, b the inertia, rotor and velocity-product terms at unit rate, m = M q', and gamma,
 * beta, delta their path rates (the chain rule above put into RNEA, which is quadratic in qd and
 * linear in qdd); viscous friction adds Fv q' s' and Fv (q'' s'^2 + q' s''), Coulomb friction
 * Fs sign(q'). Three evaluations of the torque-derivative recursion ({@link TorqueDerivative}) at
 * (s', s'') = (1, 0), (1/2, 0) and (1, 1) give g, b, gamma, beta, m and delta exactly.
 *
 * <p><b>Look-ahead.</b> On a grid of path time ({@link Settings#gridSpacingS()}) over a window long
 * enough to brake from s' = 1 to the minimum rate, each point gets the largest constant rate sigma
 * in [{@link Settings#minimumRate()}, 1] whose feedforward stays within share x limit for every
 * |s''| <= accelerationMax (a scan and a bisection over the polynomials above; no further
 * recursion calls). The window is filled when a trajectory starts and then extended by at most
 * {@link Settings#evaluationsPerTick()} grid points per tick; a point not yet evaluated counts as
 * needing the minimum rate.
 *
 * <p><b>Clock law.</b> The allowed rate now is the least, over the window (including the grid point
 * just behind s), of the braking envelope v = -c + sqrt((c + sigma_k)^2 + 2 a delta_k): the speed
 * from which a deceleration a = accelerationMax / 2 reaches sigma_k within the path distance delta_k
 * still ahead, c = a accelerationMax / jerkMax paying for the jerk-limited onset of braking. Half the
 * acceleration bound is planned so that the tracker has the other half to stay on the envelope. The
 * tracker asks s'' = envelope slope (braking only) + kv (v - s'), limited to the acceleration bound,
 * and reaches it with s''' = 4 kv (s''_wanted - s''), limited to the jerk bound (a critically damped
 * cascade, kv = jerkMax / accelerationMax).
 *
 * <p><b>This tick.</b> The s''' term is not part of the look-ahead: before it is committed, the
 * recursion is evaluated at the current (s, s', s'') with s''' = 0 and with s''' = 1, and s''' is
 * clamped to the interval in which every joint's tau' stays within (1 + share) / 2 of its limit, so
 * the feedforward actually commanded is checked, not only predicted. The remaining margin covers
 * the feedback part of the command. The torque limiter after the control law still clips, counts
 * and flags whatever is left, so a planning error is never hidden by a torque jump.
 *
 * <p><b>Starting.</b> The first window costs three evaluations per grid point. A real-time loop has
 * it evaluated off the loop by a {@link TimeScalingPreparer} ({@link #preparer()}) and starts the
 * resulting {@link PreparedTrajectory} with {@link #start(PreparedTrajectory)}, which only copies the
 * window; {@link #start(TrajectorySampler)} evaluates it on the calling thread (tests, in-process use).
 *
 * <p>Per tick: two recursion evaluations, plus three per newly evaluated grid point
 * ({@link FeasibleClockRate}); the two of the check also give the feedforward along the committed
 * reference ({@link #feedforward}), which the control law then need not evaluate again. Not
 * thread safe: one instance belongs to the control-loop thread; every method after construction
 * except {@link #preparer()} allocates nothing.
 */
public final class ReferenceTimeScaling
{
    /** Relative tolerance under which a recovered rate is set to exactly 1. */
    private static final double FULL_RATE_TOLERANCE = 1e-6;

    /**
     * Tuning of the clock. Immutable.
     *
     * @param enabled false to sample the trajectory at s' = 1 always (the feedforward may then
     *     exceed the limits, and the torque limiter clips).
     * @param limitShare fraction of each torque and torque-rate limit the feedforward may use, (0, 1].
     * @param accelerationMax |s''| bound, 1/s.
     * @param jerkMax |s'''| bound, 1/s^2.
     * @param minimumRate lowest s', (0, 1).
     * @param gridSpacingS path time between predicted points, s.
     * @param evaluationsPerTick grid points evaluated per tick at most once started, >= 1.
     */
    public record Settings(
        boolean enabled, double limitShare, double accelerationMax, double jerkMax, double minimumRate,
        double gridSpacingS, int evaluationsPerTick)
    {
        /**
         * 80 % of the limits for the feedforward, |s''| <= 2 /s, |s'''| <= 20 /s^2, s' >= 0.05,
         * a 10 ms grid and one grid point per tick.
         *
         * @return the defaults.
         */
        public static Settings defaults()
        {
            return new Settings(true, 0.8, 2.0, 20.0, 0.05, 0.01, 1);
        }

        /** @return the same tuning with scaling switched off. */
        public Settings disabled()
        {
            return new Settings(false, limitShare, accelerationMax, jerkMax, minimumRate, gridSpacingS, evaluationsPerTick);
        }

        /** @throws IllegalArgumentException naming the first setting out of range. */
        void check()
        {
            if (!(limitShare > 0.0 && limitShare <= 1.0) || !(accelerationMax > 0.0) || !(jerkMax > 0.0)
                || !(minimumRate > 0.0 && minimumRate < 1.0) || !(gridSpacingS > 0.0) || evaluationsPerTick < 1)
            {
                throw new IllegalArgumentException("time scaling settings out of range: " + this);
            }
        }
    }

    private final int dof;
    private final RobotModel model;
    private final Settings settings;
    /** Evaluations of this tick's feedforward (the s''' check), with friction as the control law's. */
    private final TorqueDerivative torqueDerivative;
    /** Evaluations of grid points entering the window while the clock runs. */
    private final FeasibleClockRate feasibleRate;
    private final double[] gravityMPerS2 = {0.0, 0.0, -9.81};
    private final double[] jerkBoundNmPerS;
    private boolean friction = true;
    /** True once {@link #advance} has evaluated this tick's feedforward (scaling enabled). */
    private boolean feedforwardEvaluated;

    /** Braking envelope: planned deceleration, 1/s, and the jerk-onset term c. */
    private final double brakingRate;
    private final double onsetRate;
    private final double trackingGain;
    /** Window of predicted rates: grid point k of the trajectory at rates[(k) % capacity]. */
    private final double[] rates;
    private final int capacity;

    /** Workspace: path derivatives and the recursion evaluations of this tick. */
    private final double[] q1;
    private final double[] q2;
    private final double[] q3;
    private final double[] q4;
    private final double[] slowQd;
    private final double[] slowQdd;
    private final double[] slowQddd;
    private final double[] tauFull;
    private final double[] tauRateFull;
    private final double[] tauUnitJerk;
    private final double[] tauRateUnitJerk;

    private TrajectorySampler trajectory;
    private double pathTimeS;
    private double rate = 1.0;
    private double rateAcceleration;
    private double rateJerk;
    private double previousAllowedRate = 1.0;
    /** Grid index of the oldest kept point and one past the newest evaluated one. */
    private long firstPoint;
    private long endPoint;
    private long lastPoint;
    private long scaledTicks;
    private long adoptedUnreachablePoints;

    /**
     * Not real-time safe: sizes the window and the workspace from the model.
     *
     * @param model the robot: the feedforward model and the limits effortMax and effortRateMax.
     * @param settings the clock tuning.
     * @throws IllegalArgumentException if a setting is out of range.
     */
    public ReferenceTimeScaling(final RobotModel model, final Settings settings)
    {
        settings.check();
        dof = model.dof();
        this.model = model;
        this.settings = settings;
        torqueDerivative = new TorqueDerivative(model);
        feasibleRate = new FeasibleClockRate(model, settings);
        jerkBoundNmPerS = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            jerkBoundNmPerS[j] = 0.5 * (1.0 + settings.limitShare()) * model.limits(j).effortRateMax();
        }
        brakingRate = settings.accelerationMax() / 2.0;
        final double rampS = settings.accelerationMax() / settings.jerkMax();
        onsetRate = brakingRate * rampS;
        trackingGain = 1.0 / rampS;
        capacity = windowPoints(settings);
        rates = new double[capacity];
        q1 = new double[dof];
        q2 = new double[dof];
        q3 = new double[dof];
        q4 = new double[dof];
        slowQd = new double[dof];
        slowQdd = new double[dof];
        slowQddd = new double[dof];
        tauFull = new double[dof];
        tauRateFull = new double[dof];
        tauUnitJerk = new double[dof];
        tauRateUnitJerk = new double[dof];
    }

    /**
     * @param settings the clock tuning.
     * @return grid points in the look-ahead window: enough path to brake from s' = 1 to the minimum rate.
     */
    static int windowPoints(final Settings settings)
    {
        final double braking = settings.accelerationMax() / 2.0;
        final double onset = braking * settings.accelerationMax() / settings.jerkMax();
        final double minimum = settings.minimumRate();
        final double horizonS = ((1.0 + onset) * (1.0 + onset) - (onset + minimum) * (onset + minimum)) / (2.0 * braking);
        return (int)Math.ceil(horizonS / settings.gridSpacingS()) + 3;
    }

    /** @return the grid index of the trajectory's end (its last grid point). */
    static long lastPoint(final TrajectorySampler trajectory, final Settings settings)
    {
        return (long)Math.ceil((trajectory.endTimeS() - trajectory.startTimeS()) / settings.gridSpacingS());
    }

    /**
     * A preparer for this clock's trajectories, with its model, tuning, gravity and friction setting.
     * Not real-time safe: allocates its own workspace; the returned object shares no mutable state
     * with this clock and belongs to the thread that uses it (set gravity and friction here first).
     *
     * @return a new preparer.
     */
    public TimeScalingPreparer preparer()
    {
        return new TimeScalingPreparer(model, settings, gravityMPerS2, friction);
    }

    /**
     * Gravity of the feedforward model (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        torqueDerivative.gravity(gx, gy, gz);
        feasibleRate.gravity(gx, gy, gz);
        gravityMPerS2[0] = gx;
        gravityMPerS2[1] = gy;
        gravityMPerS2[2] = gz;
    }

    /**
     * Whether the feedforward includes the model's joint friction (default on), as the control law's does.
     * Real-time safe.
     *
     * @param enabled true if the commanded feedforward compensates friction.
     */
    public void frictionFeedforward(final boolean enabled)
    {
        friction = enabled;
        torqueDerivative.jointFriction(enabled);
        feasibleRate.frictionFeedforward(enabled);
    }

    /**
     * Starts a trajectory at its first waypoint with s' = 1 and fills the look-ahead window on the
     * calling thread: allocation-free but three torque-derivative evaluations per window point (about
     * 190 for a 7-DoF arm). For tests and in-process use; a real-time loop starts a
     * {@link PreparedTrajectory} instead.
     *
     * @param sampler the trajectory (its dof must be the model's).
     */
    public void start(final TrajectorySampler sampler)
    {
        restart(sampler);
        if (settings.enabled())
        {
            extendWindow(capacity);
        }
    }

    /**
     * Perform phase of starting a trajectory: adopts the window evaluated by a
     * {@link TimeScalingPreparer} (copied into this clock's own ring, so the prepared object stays
     * immutable). Real-time safe: no allocation and no torque-derivative evaluation.
     *
     * @param prepared a trajectory prepared by a preparer of this clock ({@link #preparer()}).
     * @return false, changing nothing, if it was prepared with other settings.
     */
    public boolean start(final PreparedTrajectory prepared)
    {
        if (!settings.equals(prepared.settings()))
        {
            return false;
        }
        restart(prepared.trajectory());
        final int count = prepared.pointCount();
        for (int k = 0; k < count; k++)
        {
            rates[k] = prepared.rate(k);
        }
        endPoint = count;
        adoptedUnreachablePoints += prepared.unreachablePoints();
        return true;
    }

    private void restart(final TrajectorySampler sampler)
    {
        trajectory = sampler;
        pathTimeS = sampler.startTimeS();
        rate = 1.0;
        rateAcceleration = 0.0;
        rateJerk = 0.0;
        previousAllowedRate = 1.0;
        firstPoint = 0;
        endPoint = 0;
        lastPoint = lastPoint(sampler, settings);
        feedforwardEvaluated = false;
    }

    /**
     * Advances the clock by one tick and samples the scaled reference into caller-owned arrays.
     * Real-time safe.
     *
     * @param elapsedS controller time since the previous call (or since {@link #start}), s, >= 0.
     * @param qOut position, rad or m.
     * @param qdOut velocity.
     * @param qddOut acceleration.
     * @param qdddOut jerk.
     * @param qddddOut snap (s'''' taken as zero).
     * @return the sampler's result at the new path time ({@link TrajectorySampler#FINISHED} at the end).
     */
    public int advance(
        final double elapsedS, final double[] qOut, final double[] qdOut, final double[] qddOut,
        final double[] qdddOut, final double[] qddddOut)
    {
        if (settings.enabled())
        {
            integrateClock(elapsedS);
            extendWindow(settings.evaluationsPerTick());
        }
        else
        {
            pathTimeS += elapsedS;
        }
        if (rate < 1.0)
        {
            scaledTicks++;
        }
        final int status = trajectory.sample(pathTimeS, qOut, q1, q2, q3, q4);
        if (settings.enabled())
        {
            steerClock(elapsedS);
            projectJerk(qOut);
        }
        chainRule(qdOut, qddOut, qdddOut, qddddOut);
        return status;
    }

    /** Exact integration of the clock over the tick under the jerk chosen last tick. */
    private void integrateClock(final double dt)
    {
        pathTimeS += dt * (rate + dt * (rateAcceleration / 2.0 + dt * rateJerk / 6.0));
        rate += dt * (rateAcceleration + dt * rateJerk / 2.0);
        rateAcceleration += dt * rateJerk;
        if (rate >= 1.0 - FULL_RATE_TOLERANCE && rateAcceleration >= 0.0)
        {
            rate = 1.0;
            rateAcceleration = 0.0;
        }
        rate = Math.max(rate, settings.minimumRate());
    }

    /** Chooses this tick's s''' from the allowed rate and its slope. */
    private void steerClock(final double dt)
    {
        final double allowed = allowedRate();
        final double slope = dt > 0.0 ? Math.min(0.0, (allowed - previousAllowedRate) / dt) : 0.0;
        previousAllowedRate = allowed;
        final double aMax = settings.accelerationMax();
        final double wanted = clamp(slope + trackingGain * (allowed - rate), -aMax, aMax);
        final double jMax = settings.jerkMax();
        rateJerk = clamp(4.0 * trackingGain * (wanted - rateAcceleration), -jMax, jMax);
    }

    /**
     * Keeps this tick's feedforward rate within the jerk bound's share of the limits: tau' is affine
     * in s''' with slope M q', so the s''' that the tracker asks for is clamped to the interval
     * where every joint stays within bound (the middle of the conflicting bounds if there is none).
     */
    private void projectJerk(final double[] qNow)
    {
        final double v = rate;
        final double a = rateAcceleration;
        for (int j = 0; j < dof; j++)
        {
            slowQd[j] = q1[j] * v;
            slowQdd[j] = q2[j] * v * v + q1[j] * a;
            slowQddd[j] = q3[j] * v * v * v + 3.0 * q2[j] * v * a;
        }
        torqueDerivative.compute(qNow, slowQd, slowQdd, slowQddd, tauFull, tauRateFull);
        for (int j = 0; j < dof; j++)
        {
            slowQddd[j] += q1[j];
        }
        torqueDerivative.compute(qNow, slowQd, slowQdd, slowQddd, tauUnitJerk, tauRateUnitJerk);
        feedforwardEvaluated = true;
        double low = -settings.jerkMax();
        double high = settings.jerkMax();
        for (int j = 0; j < dof; j++)
        {
            final double slope = tauRateUnitJerk[j] - tauRateFull[j];
            final double base = tauRateFull[j];
            final double bound = jerkBoundNmPerS[j];
            if (slope != 0.0)
            {
                final double first = (-bound - base) / slope;
                final double second = (bound - base) / slope;
                low = Math.max(low, Math.min(first, second));
                high = Math.min(high, Math.max(first, second));
            }
        }
        rateJerk = low <= high ? clamp(rateJerk, low, high) : clamp(0.5 * (low + high), -settings.jerkMax(), settings.jerkMax());
        if (rate >= 1.0 && rateJerk > 0.0 && rateAcceleration >= 0.0)
        {
            rateJerk = 0.0;
        }
    }

    /**
     * The feedforward along the reference of the last {@link #advance}: tau_ff = RNEA(q, qd, qdd)
     * and its rate tau_ff' with the committed s''', from the two evaluations of the s''' check (tau'
     * is affine in s''' with slope M q', so this is the recursion's own result up to rounding; gravity
     * and friction as set here). Lets the control law skip its own evaluation of the same reference.
     * Real-time safe.
     *
     * @param tauNm output: tau_ff, N m.
     * @param tauRateNmPerS output: tau_ff', N m/s.
     * @return false, writing nothing, if no tick has been evaluated since the start (or scaling is off).
     */
    public boolean feedforward(final double[] tauNm, final double[] tauRateNmPerS)
    {
        if (!feedforwardEvaluated)
        {
            return false;
        }
        for (int j = 0; j < dof; j++)
        {
            tauNm[j] = tauFull[j];
            tauRateNmPerS[j] = tauRateFull[j] + rateJerk * (tauRateUnitJerk[j] - tauRateFull[j]);
        }
        return true;
    }

    /** Least braking envelope over the window; unevaluated points count as the minimum rate. */
    private double allowedRate()
    {
        final double spacing = settings.gridSpacingS();
        final double origin = trajectory.startTimeS();
        final long behind = Math.max(firstPoint, (long)Math.floor((pathTimeS - origin) / spacing));
        double allowed = 1.0;
        for (long k = behind; k < endPoint; k++)
        {
            final double ahead = Math.max(0.0, origin + k * spacing - pathTimeS);
            allowed = Math.min(allowed, envelope(rates[(int)(k % capacity)], ahead));
        }
        if (endPoint <= lastPoint)
        {
            final double ahead = Math.max(0.0, origin + endPoint * spacing - pathTimeS);
            allowed = Math.min(allowed, envelope(settings.minimumRate(), ahead));
        }
        return allowed;
    }

    private double envelope(final double pointRate, final double aheadS)
    {
        final double c = onsetRate + pointRate;
        return Math.sqrt(c * c + 2.0 * brakingRate * aheadS) - onsetRate;
    }

    /** Drops grid points behind the clock and evaluates up to budget new ones ahead. */
    private void extendWindow(final int budget)
    {
        final double spacing = settings.gridSpacingS();
        final long behind = (long)Math.floor((pathTimeS - trajectory.startTimeS()) / spacing);
        firstPoint = Math.max(firstPoint, Math.min(behind, endPoint));
        int evaluated = 0;
        while (evaluated < budget && endPoint <= lastPoint && endPoint - firstPoint < capacity)
        {
            rates[(int)(endPoint % capacity)] = feasibleRate.at(trajectory, trajectory.startTimeS() + endPoint * spacing);
            endPoint++;
            evaluated++;
        }
    }

    /** Time derivatives of q(s(t)) from the path derivatives in q1..q4 (s'''' = 0). */
    private void chainRule(final double[] qd, final double[] qdd, final double[] qddd, final double[] qdddd)
    {
        final double v = rate;
        final double a = rateAcceleration;
        final double jerk = rateJerk;
        final double v2 = v * v;
        for (int j = 0; j < dof; j++)
        {
            qd[j] = q1[j] * v;
            qdd[j] = q2[j] * v2 + q1[j] * a;
            qddd[j] = q3[j] * v2 * v + 3.0 * q2[j] * v * a + q1[j] * jerk;
            qdddd[j] = q4[j] * v2 * v2 + 6.0 * q3[j] * v2 * a + q2[j] * (3.0 * a * a + 4.0 * v * jerk);
        }
    }

    private static double clamp(final double value, final double low, final double high)
    {
        return value < low ? low : (value > high ? high : value);
    }

    /** @return the clock rate s' of the last tick, (0, 1]; 1 before any trajectory. Real-time safe. */
    public double rate()
    {
        return rate;
    }

    /** @return s'' of the last tick, 1/s. Real-time safe. */
    public double rateAcceleration()
    {
        return rateAcceleration;
    }

    /** @return s''' chosen for the next tick, 1/s^2. Real-time safe. */
    public double rateJerk()
    {
        return rateJerk;
    }

    /** @return the path time s of the last tick on the trajectory's clock, s. Real-time safe. */
    public double pathTimeS()
    {
        return pathTimeS;
    }

    /** @return ticks run with s' below 1 since construction. Real-time safe. */
    public long scaledTicks()
    {
        return scaledTicks;
    }

    /**
     * @return grid points where even the minimum rate could not keep the feedforward within the
     *     bounds (e.g. gravity alone above the share of a torque limit), since construction. Real-time safe.
     */
    public long unreachablePoints()
    {
        return feasibleRate.unreachablePoints() + adoptedUnreachablePoints;
    }

    /**
     * @return grid points this clock evaluated itself (three torque-derivative evaluations each)
     *     since construction: the windows of {@link #start(TrajectorySampler)} and the points entering
     *     the window while the clock runs, not those of a {@link PreparedTrajectory}. Real-time safe.
     */
    public long evaluatedPoints()
    {
        return feasibleRate.evaluatedPoints();
    }

    /** @return the settings. Real-time safe. */
    public Settings settings()
    {
        return settings;
    }
}
