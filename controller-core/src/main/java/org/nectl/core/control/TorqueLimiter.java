package org.nectl.core.control;

import org.nectl.core.model.RobotModel;

/**
 * Per-joint torque saturation and torque-rate saturation of the commanded joint torques, the last
 * step before a command leaves the controller. Each tick the command is clamped to
 * [-torqueLimit, torqueLimit] and to [previous - rateLimit T, previous + rateLimit T], T the control
 * period, i.e. to the intersection of both intervals. When the previous command lies so far outside
 * the torque limit that the intervals do not meet (only possible after {@link #reset} with such a
 * value), the torque limit wins. A non-finite command is replaced by the previous command.
 *
 * <p>Every clip is counted per joint and flagged per tick in a bit mask (see {@link #limit}).
 * For prismatic joints read N for N m throughout.
 *
 * <p>Not thread safe: one instance belongs to the control loop thread, which also reads the counters.
 */
public final class TorqueLimiter
{
    /** The flag mask has one bit per joint and kind of clip. */
    public static final int MAX_JOINTS = 32;

    private final int dof;
    private final double[] torqueLimitNm;
    private final double[] torqueStepLimitNm;
    private final double[] previousNm;
    private final long[] torqueClips;
    private final long[] rateClips;
    private final long[] nonFiniteCommands;
    private int nonFiniteMask;
    private long torqueClipTotal;
    private long rateClipTotal;

    /**
     * Limits from the model's {@code effortMax} and {@code effortRateMax}. Not real-time safe.
     *
     * @param model the robot.
     * @param periodNs control period, ns.
     */
    public TorqueLimiter(final RobotModel model, final long periodNs)
    {
        this(effortLimits(model), effortRateLimits(model), periodNs);
    }

    /**
     * Not real-time safe. The previous command starts at zero.
     *
     * @param torqueLimitNm |tau| limit per joint, N m, positive (may be infinite).
     * @param torqueRateLimitNmPerS |d tau/dt| limit per joint, N m/s, positive (may be infinite),
     *     e.g. 1000 N m/s as on a Franka arm.
     * @param periodNs control period, ns, positive.
     * @throws IllegalArgumentException naming the joint and value at fault.
     */
    public TorqueLimiter(final double[] torqueLimitNm, final double[] torqueRateLimitNmPerS, final long periodNs)
    {
        dof = torqueLimitNm.length;
        if (dof > MAX_JOINTS || torqueRateLimitNmPerS.length != dof)
        {
            throw new IllegalArgumentException("need one torque and one torque-rate limit per joint, at most "
                + MAX_JOINTS + " joints; got " + dof + " and " + torqueRateLimitNmPerS.length);
        }
        if (periodNs <= 0)
        {
            throw new IllegalArgumentException("control period " + periodNs + " ns must be positive");
        }
        this.torqueLimitNm = torqueLimitNm.clone();
        torqueStepLimitNm = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            requirePositive("torque limit", j, torqueLimitNm[j], "N m");
            requirePositive("torque-rate limit", j, torqueRateLimitNmPerS[j], "N m/s");
            torqueStepLimitNm[j] = torqueRateLimitNmPerS[j] * (periodNs * 1e-9);
        }
        previousNm = new double[dof];
        torqueClips = new long[dof];
        rateClips = new long[dof];
        nonFiniteCommands = new long[dof];
    }

    private static void requirePositive(final String what, final int joint, final double value, final String unit)
    {
        if (!(value > 0.0))
        {
            throw new IllegalArgumentException("joint " + joint + ": " + what + " " + value + " " + unit + " must be > 0");
        }
    }

    private static double[] effortLimits(final RobotModel model)
    {
        final double[] limits = new double[model.dof()];
        for (int j = 0; j < limits.length; j++)
        {
            limits[j] = model.limits(j).effortMax();
        }
        return limits;
    }

    private static double[] effortRateLimits(final RobotModel model)
    {
        final double[] limits = new double[model.dof()];
        for (int j = 0; j < limits.length; j++)
        {
            limits[j] = model.limits(j).effortRateMax();
        }
        return limits;
    }

    /**
     * Limits one tick's command. Real-time safe.
     *
     * @param commandNm desired torques, N m (not modified).
     * @param limitedNm receives the torques to send, N m; may be the same array as commandNm.
     * @return flags: bit j set if joint j's command exceeded its torque limit, bit 32 + j if the
     *     torque-limited command was outside the rate window (then clipped to it, or to the torque
     *     limit if that is tighter); a non-finite command sets both (see {@link #nonFiniteMask()}).
     *     0 means every command passed unchanged.
     */
    public long limit(final double[] commandNm, final double[] limitedNm)
    {
        long flags = 0L;
        int nonFinite = 0;
        for (int j = 0; j < dof; j++)
        {
            final double command = commandNm[j];
            final double out;
            if (Double.isFinite(command))
            {
                final double saturated = clamp(command, -torqueLimitNm[j], torqueLimitNm[j]);
                if (saturated != command)
                {
                    flags |= torqueFlag(j);
                    torqueClips[j]++;
                    torqueClipTotal++;
                }
                final double previous = previousNm[j];
                final double step = torqueStepLimitNm[j];
                if (saturated > previous + step || saturated < previous - step)
                {
                    flags |= rateFlag(j);
                    rateClips[j]++;
                    rateClipTotal++;
                    out = rateLimited(j, saturated);
                }
                else
                {
                    out = saturated;
                }
            }
            else
            {
                out = previousNm[j];
                nonFinite |= 1 << j;
                nonFiniteCommands[j]++;
                flags |= torqueFlag(j) | rateFlag(j);
            }
            limitedNm[j] = out;
            previousNm[j] = out;
        }
        nonFiniteMask = nonFinite;
        return flags;
    }

    /** The torque limit overrides the rate limit if the previous command was outside it. */
    private double rateLimited(final int j, final double saturated)
    {
        final double previous = previousNm[j];
        final double step = torqueStepLimitNm[j];
        return clamp(clamp(saturated, previous - step, previous + step), -torqueLimitNm[j], torqueLimitNm[j]);
    }

    /**
     * Clamps torques to the torque limits only (no rate window). Real-time safe.
     *
     * @param commandNm desired torques, N m.
     * @param limitedNm receives the clamped torques, N m; may be the same array.
     */
    public void clampToTorqueLimits(final double[] commandNm, final double[] limitedNm)
    {
        for (int j = 0; j < dof; j++)
        {
            limitedNm[j] = clamp(commandNm[j], -torqueLimitNm[j], torqueLimitNm[j]);
        }
    }

    private static double clamp(final double value, final double low, final double high)
    {
        return value < low ? low : (value > high ? high : value);
    }

    /** @return the flag bit of a torque clip of joint j. Real-time safe. */
    public static long torqueFlag(final int joint)
    {
        return 1L << joint;
    }

    /** @return the flag bit of a rate clip of joint j. Real-time safe. */
    public static long rateFlag(final int joint)
    {
        return 1L << (MAX_JOINTS + joint);
    }

    /**
     * Sets the command the next tick's rate limit starts from, e.g. the torque the drives hold when
     * the controller takes over, or zero after a disable. Real-time safe.
     *
     * @param previousCommandNm per joint, N m.
     */
    public void reset(final double[] previousCommandNm)
    {
        System.arraycopy(previousCommandNm, 0, previousNm, 0, dof);
    }

    /** @return bit j set if joint j's command was non-finite in the last {@link #limit} call. Real-time safe. */
    public int nonFiniteMask()
    {
        return nonFiniteMask;
    }

    /** @return how many ticks joint j's command exceeded its torque limit. Real-time safe. */
    public long torqueClipCount(final int joint)
    {
        return torqueClips[joint];
    }

    /** @return how many ticks joint j's torque-limited command was outside the rate window. Real-time safe. */
    public long rateClipCount(final int joint)
    {
        return rateClips[joint];
    }

    /** @return torque clips of all joints since construction (one per joint and tick). Real-time safe. */
    public long torqueClipTotal()
    {
        return torqueClipTotal;
    }

    /** @return rate clips of all joints since construction (one per joint and tick). Real-time safe. */
    public long rateClipTotal()
    {
        return rateClipTotal;
    }

    /** @return how many ticks joint j's command was non-finite (replaced by the previous one). Real-time safe. */
    public long nonFiniteCount(final int joint)
    {
        return nonFiniteCommands[joint];
    }

    /** @return joint j's torque limit, N m. Real-time safe. */
    public double torqueLimitNm(final int joint)
    {
        return torqueLimitNm[joint];
    }

    /** @return joint j's largest command change per tick (rate limit times period), N m. Real-time safe. */
    public double torqueStepLimitNm(final int joint)
    {
        return torqueStepLimitNm[joint];
    }

    /** @return number of joints. Real-time safe. */
    public int dof()
    {
        return dof;
    }
}
