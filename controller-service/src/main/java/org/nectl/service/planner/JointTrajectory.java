package org.nectl.service.planner;

import org.nectl.core.control.KnotDerivatives;

/**
 * Timed joint-space waypoints a planner sends as one TrajectorySegment: positions, velocities and
 * accelerations per waypoint, in coordinate order of the robot description (rad, rad/s, rad/s²;
 * m, m/s, m/s² for prismatic joints). Times count from the start of the segment.
 *
 * <p>Immutable after construction (the arrays are copied). Thread safe.
 */
public final class JointTrajectory
{
    private final double[] timesS;
    private final double[][] q;
    private final double[][] qd;
    private final double[][] qdd;

    /**
     * @param timesS waypoint times from the start, s, &gt;= 0 and strictly increasing.
     * @param q positions, [waypoint][joint].
     * @param qd velocities, [waypoint][joint].
     * @param qdd accelerations, [waypoint][joint].
     * @throws IllegalArgumentException if the shapes differ, a number is not finite or times do not increase.
     */
    public JointTrajectory(final double[] timesS, final double[][] q, final double[][] qd, final double[][] qdd)
    {
        if (timesS.length == 0)
        {
            throw new IllegalArgumentException("a trajectory needs at least one waypoint");
        }
        this.timesS = timesS.clone();
        this.q = copy("q", q, timesS.length, q[0].length);
        this.qd = copy("qd", qd, timesS.length, q[0].length);
        this.qdd = copy("qdd", qdd, timesS.length, q[0].length);
        for (int p = 0; p < timesS.length; p++)
        {
            if (!Double.isFinite(timesS[p]) || timesS[p] < 0.0 || (p > 0 && timesS[p] <= timesS[p - 1]))
            {
                throw new IllegalArgumentException("waypoint " + p + ": time " + timesS[p] + " s must be finite, >= 0 and "
                    + "greater than the previous waypoint's");
            }
        }
    }

    /**
     * Waypoints given by positions only, with velocities and accelerations chosen by the rule the
     * control loop's trajectory sampler uses ({@link KnotDerivatives}): zero at the first and last
     * waypoint and where a joint reverses, else the slope of the parabola through the waypoint and
     * its neighbours. Not real-time safe.
     *
     * @param timesS waypoint times, s, strictly increasing.
     * @param q positions, [waypoint][joint].
     * @return the trajectory.
     */
    public static JointTrajectory fromPositions(final double[] timesS, final double[][] q)
    {
        final int count = timesS.length;
        final int jointCount = count == 0 ? 0 : q[0].length;
        final double[] positions = new double[count * jointCount];
        for (int p = 0; p < count; p++)
        {
            System.arraycopy(q[p], 0, positions, p * jointCount, Math.min(jointCount, q[p].length));
        }
        final double[] velocities = new double[positions.length];
        final double[] accelerations = new double[positions.length];
        for (int k = 0; k < jointCount && count > 1; k++)
        {
            KnotDerivatives.choose(timesS, positions, jointCount, k, velocities);
            KnotDerivatives.choose(timesS, velocities, jointCount, k, accelerations);
        }
        return new JointTrajectory(timesS, q, unflatten(velocities, count, jointCount), unflatten(accelerations, count, jointCount));
    }

    private static double[][] unflatten(final double[] values, final int count, final int jointCount)
    {
        final double[][] result = new double[count][jointCount];
        for (int p = 0; p < count; p++)
        {
            System.arraycopy(values, p * jointCount, result[p], 0, jointCount);
        }
        return result;
    }

    private static double[][] copy(final String name, final double[][] values, final int count, final int jointCount)
    {
        if (values.length != count)
        {
            throw new IllegalArgumentException(name + " has " + values.length + " waypoints, times have " + count);
        }
        final double[][] result = new double[count][];
        for (int p = 0; p < count; p++)
        {
            if (values[p].length != jointCount)
            {
                throw new IllegalArgumentException(name + " of waypoint " + p + " has " + values[p].length
                    + " joints, expected " + jointCount);
            }
            for (int k = 0; k < jointCount; k++)
            {
                if (!Double.isFinite(values[p][k]))
                {
                    throw new IllegalArgumentException(name + " of waypoint " + p + ", joint " + k + " is not finite: "
                        + values[p][k]);
                }
            }
            result[p] = values[p].clone();
        }
        return result;
    }

    /** @return number of waypoints. */
    public int waypointCount()
    {
        return timesS.length;
    }

    /** @return joints per waypoint. */
    public int jointCount()
    {
        return q[0].length;
    }

    /** @return time of waypoint {@code p} from the start, s. */
    public double timeS(final int p)
    {
        return timesS[p];
    }

    /** @return position of joint {@code k} at waypoint {@code p}, rad or m. */
    public double q(final int p, final int k)
    {
        return q[p][k];
    }

    /** @return velocity of joint {@code k} at waypoint {@code p}, rad/s or m/s. */
    public double qd(final int p, final int k)
    {
        return qd[p][k];
    }

    /** @return acceleration of joint {@code k} at waypoint {@code p}, rad/s² or m/s². */
    public double qdd(final int p, final int k)
    {
        return qdd[p][k];
    }

    /** @return duration from the start to the last waypoint, s. */
    public double durationS()
    {
        return timesS[timesS.length - 1];
    }
}
