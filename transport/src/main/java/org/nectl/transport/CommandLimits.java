package org.nectl.transport;

import java.util.Arrays;

/**
 * Joint limits the planner gateway enforces on incoming references, as plain arrays in joint space
 * (coordinate order of the robot description). Unlimited entries are +/- infinity.
 *
 * <p>Immutable, thread safe; the checks are real-time safe.
 */
public final class CommandLimits
{
    private final double[] positionMin;
    private final double[] positionMax;
    private final double[] velocityMax;

    /**
     * @param positionMin lower position limit per joint, rad or m.
     * @param positionMax upper position limit per joint, rad or m.
     * @param velocityMax |qd| limit per joint, rad/s or m/s, &gt; 0.
     */
    public CommandLimits(final double[] positionMin, final double[] positionMax, final double[] velocityMax)
    {
        final int jointCount = positionMin.length;
        Wire.checkJointCount(jointCount);
        if (positionMax.length != jointCount || velocityMax.length != jointCount)
        {
            throw new IllegalArgumentException("limit arrays differ in length: " + jointCount + ", "
                + positionMax.length + ", " + velocityMax.length);
        }
        for (int k = 0; k < jointCount; k++)
        {
            if (Double.isNaN(positionMin[k]) || Double.isNaN(positionMax[k]) || positionMin[k] > positionMax[k])
            {
                throw new IllegalArgumentException("joint " + k + ": position limits [" + positionMin[k] + ", "
                    + positionMax[k] + "] are not an interval");
            }
            if (!(velocityMax[k] > 0.0))
            {
                throw new IllegalArgumentException("joint " + k + ": velocity limit " + velocityMax[k] + " must be > 0");
            }
        }
        this.positionMin = positionMin.clone();
        this.positionMax = positionMax.clone();
        this.velocityMax = velocityMax.clone();
    }

    /** @return limits that accept every finite reference for {@code jointCount} joints. */
    public static CommandLimits unlimited(final int jointCount)
    {
        final double[] min = new double[jointCount];
        final double[] max = new double[jointCount];
        final double[] velocity = new double[jointCount];
        Arrays.fill(min, Double.NEGATIVE_INFINITY);
        Arrays.fill(max, Double.POSITIVE_INFINITY);
        Arrays.fill(velocity, Double.POSITIVE_INFINITY);
        return new CommandLimits(min, max, velocity);
    }

    /** @return number of joints. */
    public int jointCount()
    {
        return positionMin.length;
    }

    /** @return true if position {@code q} and velocity {@code qd} of joint {@code k} are within limits. */
    public boolean within(final int k, final double q, final double qd)
    {
        return q >= positionMin[k] && q <= positionMax[k] && Math.abs(qd) <= velocityMax[k];
    }
}
