package org.nectl.core.control;

import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.JointActuation;
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
 * <p>Per tick: two recursion evaluations, plus three per newly evaluated grid point. Not thread
 * safe: one instance belongs to the control-loop thread. {@link #start} costs three evaluations per
 * window point (measured: docs/PERFORMANCE.md); every method after construction allocates nothing.
 */
public final class ReferenceTimeScaling
{
    /** Relative tolerance under which a recovered rate is set to exactly 1. */
    private static final double FULL_RATE_TOLERANCE = 1e-6;
    /** Rate scan step before bisecting the boundary of the feasible rates. */
    private static final double SCAN_STEP = 1.0 / 16.0;
    private static final int BISECTIONS = 10;

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
    private final Settings settings;
    private final LawDynamics torqueDerivative;
    private final double[] torqueBoundNm;
    private final double[] rateBoundNmPerS;
    private final double[] jerkBoundNmPerS;
    private final double[] coulombNm;
    private final double[] viscousNmSPerRad;
    private boolean friction = true;

    /** Braking envelope: planned deceleration, 1/s, and the jerk-onset term c. */
    private final double brakingRate;
    private final double onsetRate;
    private final double trackingGain;
    /** Window of predicted rates: grid point k of the trajectory at rates[(k) % capacity]. */
    private final double[] rates;
    private final int capacity;

    /** Workspace: path derivatives and the recursion evaluations of a grid point or of this tick. */
    private final double[] q;
    private final double[] q1;
    private final double[] q2;
    private final double[] q3;
    private final double[] q4;
    private final double[] slowQd;
    private final double[] slowQdd;
    private final double[] slowQddd;
    private final double[] tauFull;
    private final double[] tauRateFull;
    private final double[] tauHalf;
    private final double[] tauRateHalf;
    private final double[] gravity;
    private final double[] inertial;
    private final double[] gravityRate;
    private final double[] inertialRate;
    /** d tau/d s'' = d tau'/d s''' = M q' (with rotor inertia), per joint. */
    private final double[] pathInertia;
    /** d tau'/d (s' s''), per joint. */
    private final double[] accelerationRate;
    private final double[] tauAccelerated;
    private final double[] tauRateAccelerated;

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
    private long unreachablePoints;

    /**
     * Not real-time safe: sizes the window and the workspace from the model.
     *
     * @param compiled the compiled robot, shared with the control law: the feedforward model and the
     *     limits effortMax and effortRateMax.
     * @param settings the clock tuning.
     * @throws IllegalArgumentException if a setting is out of range.
     */
    public ReferenceTimeScaling(final CompiledModel compiled, final Settings settings)
    {
        this(compiled.robot(), new TreeLawDynamics(compiled), settings);
    }

    /**
     * Not real-time safe: sizes the window and the workspace from the model.
     *
     * @param model the controlled joints: the limits effortMax and effortRateMax and the friction.
     * @param feedforward the feedforward model in the controlled coordinates, used by this clock only
     *     (its friction is switched off: the clock adds the joints' friction itself).
     * @param settings the clock tuning.
     * @throws IllegalArgumentException if a setting is out of range.
     */
    public ReferenceTimeScaling(final RobotModel model, final LawDynamics feedforward, final Settings settings)
    {
        settings.check();
        dof = model.dof();
        this.settings = settings;
        torqueDerivative = feedforward;
        // Friction is added per joint below: its terms are not polynomial in the same way.
        torqueDerivative.jointFriction(false);
        torqueBoundNm = new double[dof];
        rateBoundNmPerS = new double[dof];
        jerkBoundNmPerS = new double[dof];
        coulombNm = new double[dof];
        viscousNmSPerRad = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            torqueBoundNm[j] = settings.limitShare() * model.limits(j).effortMax();
            rateBoundNmPerS[j] = settings.limitShare() * model.limits(j).effortRateMax();
            jerkBoundNmPerS[j] = 0.5 * (1.0 + settings.limitShare()) * model.limits(j).effortRateMax();
            final JointActuation actuation = model.actuation(j);
            coulombNm[j] = actuation.coulombFriction();
            viscousNmSPerRad[j] = actuation.viscousFriction();
        }
        brakingRate = settings.accelerationMax() / 2.0;
        final double rampS = settings.accelerationMax() / settings.jerkMax();
        onsetRate = brakingRate * rampS;
        trackingGain = 1.0 / rampS;
        final double minimum = settings.minimumRate();
        final double horizonS = ((1.0 + onsetRate) * (1.0 + onsetRate) - (onsetRate + minimum) * (onsetRate + minimum))
            / (2.0 * brakingRate);
        capacity = (int)Math.ceil(horizonS / settings.gridSpacingS()) + 3;
        rates = new double[capacity];
        q = new double[dof];
        q1 = new double[dof];
        q2 = new double[dof];
        q3 = new double[dof];
        q4 = new double[dof];
        slowQd = new double[dof];
        slowQdd = new double[dof];
        slowQddd = new double[dof];
        tauFull = new double[dof];
        tauRateFull = new double[dof];
        tauHalf = new double[dof];
        tauRateHalf = new double[dof];
        gravity = new double[dof];
        inertial = new double[dof];
        gravityRate = new double[dof];
        inertialRate = new double[dof];
        pathInertia = new double[dof];
        accelerationRate = new double[dof];
        tauAccelerated = new double[dof];
        tauRateAccelerated = new double[dof];
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
    }

    /**
     * Starts a trajectory at its first waypoint with s' = 1 and fills the look-ahead window.
     * Allocation-free but costs three torque-derivative evaluations per window point.
     *
     * @param sampler the trajectory (its dof must be the model's).
     */
    public void start(final TrajectorySampler sampler)
    {
        trajectory = sampler;
        pathTimeS = sampler.startTimeS();
        rate = 1.0;
        rateAcceleration = 0.0;
        rateJerk = 0.0;
        previousAllowedRate = 1.0;
        firstPoint = 0;
        endPoint = 0;
        lastPoint = (long)Math.ceil((sampler.endTimeS() - sampler.startTimeS()) / settings.gridSpacingS());
        extendWindow(capacity);
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
        torqueDerivative.torqueAndRate(qNow, slowQd, slowQdd, slowQddd, tauFull, tauRateFull);
        for (int j = 0; j < dof; j++)
        {
            slowQddd[j] += q1[j];
        }
        torqueDerivative.torqueAndRate(qNow, slowQd, slowQdd, slowQddd, tauHalf, tauRateHalf);
        double low = -settings.jerkMax();
        double high = settings.jerkMax();
        for (int j = 0; j < dof; j++)
        {
            final double slope = tauRateHalf[j] - tauRateFull[j];
            final double base = tauRateFull[j] + (friction ? viscousNmSPerRad[j] * slowQdd[j] : 0.0);
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
            rates[(int)(endPoint % capacity)] = feasibleRate(trajectory.startTimeS() + endPoint * spacing);
            endPoint++;
            evaluated++;
        }
    }

    /** Largest constant rate in [minimumRate, 1] keeping the feedforward at path time t within bounds. */
    private double feasibleRate(final double pathTime)
    {
        trajectory.sample(pathTime, q, q1, q2, q3, q4);
        decompose();
        if (withinBounds(1.0))
        {
            return 1.0;
        }
        final double minimum = settings.minimumRate();
        double upper = 1.0;
        double lower = upper - SCAN_STEP;
        while (lower > minimum && !withinBounds(lower))
        {
            upper = lower;
            lower -= SCAN_STEP;
        }
        if (lower <= minimum)
        {
            lower = minimum;
            if (!withinBounds(lower))
            {
                unreachablePoints++;
                return minimum;
            }
        }
        for (int i = 0; i < BISECTIONS; i++)
        {
            final double middle = 0.5 * (lower + upper);
            if (withinBounds(middle))
            {
                lower = middle;
            }
            else
            {
                upper = middle;
            }
        }
        return lower;
    }

    /**
     * g, b, gamma, beta from the recursion at rates 1 and 1/2 (tau = g + s'^2 b, tau' = s' gamma +
     * s'^3 beta), and the s'' terms M q' and delta (tau += s'' M q', tau' += s' s'' delta) from a
     * third evaluation at s' = 1, s'' = 1.
     */
    private void decompose()
    {
        torqueDerivative.torqueAndRate(q, q1, q2, q3, tauFull, tauRateFull);
        for (int j = 0; j < dof; j++)
        {
            slowQdd[j] = q2[j] + q1[j];
            slowQddd[j] = q3[j] + 3.0 * q2[j];
        }
        torqueDerivative.torqueAndRate(q, q1, slowQdd, slowQddd, tauAccelerated, tauRateAccelerated);
        for (int j = 0; j < dof; j++)
        {
            pathInertia[j] = tauAccelerated[j] - tauFull[j];
            accelerationRate[j] = tauRateAccelerated[j] - tauRateFull[j];
        }
        for (int j = 0; j < dof; j++)
        {
            slowQd[j] = 0.5 * q1[j];
            slowQdd[j] = 0.25 * q2[j];
            slowQddd[j] = 0.125 * q3[j];
        }
        torqueDerivative.torqueAndRate(q, slowQd, slowQdd, slowQddd, tauHalf, tauRateHalf);
        for (int j = 0; j < dof; j++)
        {
            inertial[j] = (tauFull[j] - tauHalf[j]) * (4.0 / 3.0);
            gravity[j] = tauFull[j] - inertial[j];
            inertialRate[j] = (tauRateFull[j] - 2.0 * tauRateHalf[j]) * (4.0 / 3.0);
            gravityRate[j] = tauRateFull[j] - inertialRate[j];
        }
    }

    /** Within bounds at rate sigma for every s'' in [-accelerationMax, accelerationMax]. */
    private boolean withinBounds(final double sigma)
    {
        final double sigma2 = sigma * sigma;
        final double aMax = settings.accelerationMax();
        for (int j = 0; j < dof; j++)
        {
            double tau = gravity[j] + sigma2 * inertial[j];
            double tauRate = sigma * gravityRate[j] + sigma2 * sigma * inertialRate[j];
            double accelerationReserve = aMax * sigma * Math.abs(accelerationRate[j]);
            if (friction)
            {
                tau += coulombNm[j] * Math.signum(q1[j]) + viscousNmSPerRad[j] * q1[j] * sigma;
                tauRate += viscousNmSPerRad[j] * q2[j] * sigma2;
                accelerationReserve += aMax * viscousNmSPerRad[j] * Math.abs(q1[j]);
            }
            if (!(Math.abs(tau) + aMax * Math.abs(pathInertia[j]) <= torqueBoundNm[j])
                || !(Math.abs(tauRate) + accelerationReserve <= rateBoundNmPerS[j]))
            {
                return false;
            }
        }
        return true;
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
        return unreachablePoints;
    }

    /** @return the settings. Real-time safe. */
    public Settings settings()
    {
        return settings;
    }
}
