package org.nectl.core.control;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.RobotModel;

/**
 * Takes the position step out of a reference that jumps or changes source: when a streamed
 * setpoint or a new trajectory starts away from the reference the control law follows now, the
 * difference becomes an offset that is added to the new reference and decays smoothly to zero, so
 * the reference's position never jumps and the step turns into a motion with bounded velocity,
 * acceleration, jerk and snap, as libfranka's rate limiter and low-pass filter make a commanded
 * signal feasible before it reaches the control law. The derivatives the new source brings (a
 * streamed setpoint's velocity, acceleration and jerk, or a trajectory's) are followed as sent: a
 * stream whose positions and derivatives agree passes unchanged and without lag.
 *
 * <p><b>Decay law.</b> Per joint the offset o and its derivatives v = o', a = o'', j = o''' follow
 * a cascade of four proportional loops towards zero, each nested in the next and saturated at its
 * bound:
 * <pre>
 *   v_w  = clamp(-g1 o,          +-V)     g1 = w / 4
 *   a_w  = clamp(g2 (v_w - v),   +-A)     g2 = 2 w / 3
 *   j_w  = clamp(g3 (a_w - a),   +-J)     g3 = 3 w / 2
 *   snap = clamp(g4 (j_w - j),   +-S)     g4 = 4 w,  S = 6 w J
 * </pre>
 * with V the joint's velocity limit and w, A, J from {@link Settings}. Unsaturated, o obeys
 * (d/dt + w)^4 o = 0: four poles at -w, critically damped, so an offset decays without changing
 * sign and the reference never overshoots the new source. The snap is held over a tick and the
 * state integrated exactly, so position, velocity, acceleration and jerk of the reference stay
 * continuous through the step: the computed-torque feedforward and its rate stay continuous, and
 * the mixed rigid/elastic law, which needs the fourth derivative, gets a bounded one.
 *
 * <p><b>Peaks of a step.</b> An offset d at rest decays as d (1 + x + x^2/2 + x^3/6) e^-x, x = w t,
 * whose derivatives peak at {@link #PEAK_VELOCITY} d w, {@link #PEAK_ACCELERATION} d w^2,
 * {@link #PEAK_JERK} d w^3 and d w^4. The largest offset that stays inside every bound, hence in the
 * linear, sign-keeping regime, is {@link #linearStep(int)}:
 * <pre>
 *   d_max = min(V / (0.2240 w), A / (0.1306 w^2), J / (0.1682 w^3), S / w^4)
 * </pre>
 * Such an offset decays to 2 % in 9.1 / w. A larger one saturates: it stays within the bounds and
 * dies out, but may overshoot.
 *
 * <p>Real-time safe after construction; not thread safe (owned by the control-loop thread).
 */
public final class ReferenceBlend
{
    /** Peak velocity of the decay of a unit offset with a unit pole: (27/6) e^-3, at x = 3. */
    public static final double PEAK_VELOCITY = 27.0 / 6.0 * Math.exp(-3.0);
    /** Peak |acceleration| of the decay of a unit offset with a unit pole, at x = 3 - sqrt(3). */
    public static final double PEAK_ACCELERATION = accelerationShape(3.0 - Math.sqrt(3.0));
    /** Peak |jerk| of the decay of a unit offset with a unit pole, at the smallest root of x^3 - 9x^2 + 18x - 6. */
    public static final double PEAK_JERK = jerkShape(smallestJerkExtremum());
    /** Snap bound per unit of jerk bound and pole: large enough that the jerk bound limits the linear step first. */
    public static final double SNAP_PER_JERK_AND_POLE = 6.0;
    /** The pole times the control period may not exceed this: ten periods per time constant or more. */
    public static final double MAX_POLE_TIMES_PERIOD = 0.1;
    /** Time for the decay of an offset from rest to 2 % of it, in units of 1 / pole. */
    public static final double SETTLING_2_PERCENT = 9.1;

    private static final double G1 = 1.0 / 4.0;
    private static final double G2 = 2.0 / 3.0;
    private static final double G3 = 3.0 / 2.0;
    private static final double G4 = 4.0;

    /**
     * Tuning of the blend. Immutable by convention: the arrays are not copied.
     *
     * @param pole w, the quadruple pole of the decay, 1/s; w T at most {@link #MAX_POLE_TIMES_PERIOD}.
     * @param accelerationMax A per joint, rad/s^2 (m/s^2), &gt; 0, may be infinite.
     * @param jerkMax J per joint, rad/s^3 (m/s^3), &gt; 0, may be infinite.
     */
    public record Settings(double pole, double[] accelerationMax, double[] jerkMax)
    {
        /** Default pole, 1/s, where the period allows it: an offset decays to 2 % in 9.1 / w = 0.30 s. */
        public static final double DEFAULT_POLE = 30.0;
        /** Share of each joint's torque-rate limit the default jerk bound allows the feedforward, as the time scaling's. */
        public static final double DEFAULT_TORQUE_RATE_SHARE = 0.5;
        /** Poses sampled for the default jerk bound. */
        public static final int JERK_POSES = 500;
        private static final long JERK_POSE_SEED = 20_261_126L;

        /**
         * The default pole ({@link #DEFAULT_POLE}, or {@link #MAX_POLE_TIMES_PERIOD} / period if that is
         * smaller), no acceleration bound (a robot description has no acceleration limits), and the
         * jerk bound {@link #jerkFromTorqueRate} with {@link #DEFAULT_TORQUE_RATE_SHARE}. Not
         * real-time safe.
         *
         * @param model the compiled robot (its gravity plays no part): share the control law's.
         * @param periodNs the control period, ns.
         * @return the settings.
         */
        public static Settings defaults(final CompiledModel model, final long periodNs)
        {
            final double[] unbounded = new double[model.dof()];
            Arrays.fill(unbounded, Double.POSITIVE_INFINITY);
            final double pole = Math.min(DEFAULT_POLE, MAX_POLE_TIMES_PERIOD / (periodNs * 1e-9));
            return new Settings(pole, unbounded, jerkFromTorqueRate(model, DEFAULT_TORQUE_RATE_SHARE));
        }

        /**
         * One jerk bound J for every joint such that the feedforward's rate M(q) q''' stays within
         * {@code share} of every torque-rate limit whatever the joints' jerks within +-J:
         * J = share min_i(effortRate_i / sum_k |M_ik|), each row sum of the mass matrix taken at its
         * largest over {@value #JERK_POSES} seeded random poses within the position limits (each
         * clamped to +-pi). Infinite if no joint has a torque-rate limit. Not real-time safe.
         *
         * @param compiled the compiled robot (its mass matrix includes the rotor inertias; its gravity
         *     plays no part).
         * @param share share of the torque-rate limits, (0, 1].
         * @return J per joint, all equal.
         */
        public static double[] jerkFromTorqueRate(final CompiledModel compiled, final double share)
        {
            final RobotModel model = compiled.robot();
            final int n = model.dof();
            final double[] largestRow = new double[n];
            final MassMatrix massMatrix = new MassMatrix(compiled);
            final double[] m = new double[n * n];
            final double[] q = new double[n];
            final SplittableRandom random = new SplittableRandom(JERK_POSE_SEED);
            for (int pose = 0; pose < JERK_POSES; pose++)
            {
                for (int j = 0; j < n; j++)
                {
                    final double low = Math.max(model.limits(j).positionMin(), -Math.PI);
                    final double high = Math.min(model.limits(j).positionMax(), Math.PI);
                    q[j] = low + (high - low) * random.nextDouble();
                }
                massMatrix.compute(q, m);
                for (int i = 0; i < n; i++)
                {
                    double row = 0.0;
                    for (int k = 0; k < n; k++)
                    {
                        row += Math.abs(m[i * n + k]);
                    }
                    largestRow[i] = Math.max(largestRow[i], row);
                }
            }
            double jerk = Double.POSITIVE_INFINITY;
            for (int i = 0; i < n; i++)
            {
                jerk = Math.min(jerk, share * model.limits(i).effortRateMax() / largestRow[i]);
            }
            final double[] bound = new double[n];
            Arrays.fill(bound, jerk);
            return bound;
        }
    }

    private final int dof;
    private final double pole;
    private final double[] velocityMax;
    private final double[] accelerationMax;
    private final double[] jerkMax;
    private final double[] snapMax;
    private final double[] linearStep;
    /** The offset and its first three derivatives, and the snap chosen for the current tick, per joint. */
    private final double[] o;
    private final double[] v;
    private final double[] a;
    private final double[] j;
    private final double[] snap;

    /**
     * Not real-time safe.
     *
     * @param model the robot: the number of joints and the velocity limits V.
     * @param settings the pole and the acceleration and jerk bounds.
     * @param periodNs control period, ns.
     * @throws IllegalArgumentException naming the setting out of range.
     */
    public ReferenceBlend(final RobotModel model, final Settings settings, final long periodNs)
    {
        dof = model.dof();
        pole = settings.pole();
        if (!(pole > 0.0) || !(pole * periodNs * 1e-9 <= MAX_POLE_TIMES_PERIOD))
        {
            throw new IllegalArgumentException("reference blend pole " + pole + " 1/s must be > 0 and at most "
                + MAX_POLE_TIMES_PERIOD + " / period = " + MAX_POLE_TIMES_PERIOD / (periodNs * 1e-9) + " 1/s");
        }
        if (settings.accelerationMax().length != dof || settings.jerkMax().length != dof)
        {
            throw new IllegalArgumentException("reference blend needs one acceleration and one jerk bound per joint ("
                + dof + "), got " + settings.accelerationMax().length + " and " + settings.jerkMax().length);
        }
        velocityMax = new double[dof];
        accelerationMax = settings.accelerationMax().clone();
        jerkMax = settings.jerkMax().clone();
        snapMax = new double[dof];
        linearStep = new double[dof];
        final double w2 = pole * pole;
        for (int k = 0; k < dof; k++)
        {
            if (!(accelerationMax[k] > 0.0) || !(jerkMax[k] > 0.0))
            {
                throw new IllegalArgumentException("joint " + k + ": reference blend acceleration " + accelerationMax[k]
                    + " and jerk " + jerkMax[k] + " bounds must be > 0");
            }
            velocityMax[k] = model.limits(k).velocityMax();
            snapMax[k] = SNAP_PER_JERK_AND_POLE * pole * jerkMax[k];
            linearStep[k] = Math.min(
                Math.min(velocityMax[k] / (PEAK_VELOCITY * pole), accelerationMax[k] / (PEAK_ACCELERATION * w2)),
                Math.min(jerkMax[k] / (PEAK_JERK * w2 * pole), snapMax[k] / (w2 * w2)));
        }
        o = new double[dof];
        v = new double[dof];
        a = new double[dof];
        j = new double[dof];
        snap = new double[dof];
    }

    /** Drops the offset: the reference is the source's from now on. Real-time safe. */
    public void reset()
    {
        Arrays.fill(o, 0.0);
        Arrays.fill(v, 0.0);
        Arrays.fill(a, 0.0);
        Arrays.fill(j, 0.0);
        Arrays.fill(snap, 0.0);
    }

    /**
     * The source changes now: the offset takes up its position step, so that the reference stays
     * where it is, and with {@code derivatives} also its velocity and acceleration steps; without,
     * the reference follows those at once. Jerk steps are always followed at once (they step the
     * torque rate, not the torque). Real-time safe.
     *
     * @param referenceQ the reference position the control law follows now (old source plus offset).
     * @param referenceQd its velocity.
     * @param referenceQdd its acceleration.
     * @param sourceQ the new source's position now.
     * @param sourceQd its velocity.
     * @param sourceQdd its acceleration.
     * @param derivatives true to take up the velocity and acceleration steps too.
     */
    public void absorb(
        final double[] referenceQ, final double[] referenceQd, final double[] referenceQdd,
        final double[] sourceQ, final double[] sourceQd, final double[] sourceQdd, final boolean derivatives)
    {
        for (int k = 0; k < dof; k++)
        {
            o[k] = referenceQ[k] - sourceQ[k];
            if (derivatives)
            {
                v[k] = referenceQd[k] - sourceQd[k];
                a[k] = referenceQdd[k] - sourceQdd[k];
            }
        }
    }

    /**
     * Integrates the last tick's snap over {@code elapsedS}, chooses this tick's snap and adds the
     * offset and its derivatives to the source's reference. Real-time safe.
     *
     * @param elapsedS time since the previous call, s, &gt;= 0.
     * @param q the source's position; receives the reference's.
     * @param qd the source's velocity; receives the reference's.
     * @param qdd the source's acceleration; receives the reference's.
     * @param qddd the source's jerk; receives the reference's.
     * @param qdddd the source's snap; receives the reference's.
     */
    public void advance(
        final double elapsedS, final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double[] qdddd)
    {
        final double dt = elapsedS;
        for (int k = 0; k < dof; k++)
        {
            final double u = snap[k];
            o[k] += dt * (v[k] + dt * (a[k] / 2.0 + dt * (j[k] / 6.0 + dt * u / 24.0)));
            v[k] += dt * (a[k] + dt * (j[k] / 2.0 + dt * u / 6.0));
            a[k] += dt * (j[k] + dt * u / 2.0);
            j[k] += dt * u;
            final double velocityWanted = clamp(-G1 * pole * o[k], velocityMax[k]);
            final double accelerationWanted = clamp(G2 * pole * (velocityWanted - v[k]), accelerationMax[k]);
            final double jerkWanted = clamp(G3 * pole * (accelerationWanted - a[k]), jerkMax[k]);
            snap[k] = clamp(G4 * pole * (jerkWanted - j[k]), snapMax[k]);
            q[k] += o[k];
            qd[k] += v[k];
            qdd[k] += a[k];
            qddd[k] += j[k];
            qdddd[k] += snap[k];
        }
    }

    private static double clamp(final double value, final double bound)
    {
        return value < -bound ? -bound : (value > bound ? bound : value);
    }

    /**
     * @param joint coordinate index.
     * @return the offset's position now (reference minus source), rad or m. Real-time safe.
     */
    public double offset(final int joint)
    {
        return o[joint];
    }

    /**
     * @param joint coordinate index.
     * @return the largest offset that decays from rest within all the bounds (linear, without
     *     overshoot), rad or m. Real-time safe.
     */
    public double linearStep(final int joint)
    {
        return linearStep[joint];
    }

    /** @return the pole w, 1/s. Real-time safe. */
    public double pole()
    {
        return pole;
    }

    /**
     * @param joint coordinate index.
     * @return the acceleration bound A, rad/s^2 (m/s^2). Real-time safe.
     */
    public double accelerationMax(final int joint)
    {
        return accelerationMax[joint];
    }

    /**
     * @param joint coordinate index.
     * @return the jerk bound J, rad/s^3 (m/s^3). Real-time safe.
     */
    public double jerkMax(final int joint)
    {
        return jerkMax[joint];
    }

    private static double accelerationShape(final double x)
    {
        return Math.abs(x * x / 2.0 - x * x * x / 6.0) * Math.exp(-x);
    }

    private static double jerkShape(final double x)
    {
        return Math.abs(x - x * x + x * x * x / 6.0) * Math.exp(-x);
    }

    /** Newton's method on x^3 - 9x^2 + 18x - 6 from 0, where the jerk of the decay peaks first. */
    private static double smallestJerkExtremum()
    {
        double x = 0.0;
        for (int i = 0; i < 50; i++)
        {
            x -= (((x - 9.0) * x + 18.0) * x - 6.0) / ((3.0 * x - 18.0) * x + 18.0);
        }
        return x;
    }
}
