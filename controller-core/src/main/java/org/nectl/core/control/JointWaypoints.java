package org.nectl.core.control;

/**
 * Timed joint-space waypoints: at time t_k the joints are at q_k. Times are in seconds on the
 * trajectory's own clock, strictly increasing; positions in rad (revolute) or m (prismatic), indexed
 * by generalised coordinate. Immutable and thread safe; built off the real-time path.
 */
public final class JointWaypoints
{
    private final double[] timesS;
    private final double[] positions;
    private final int dof;

    /**
     * Not real-time safe (copies its inputs).
     *
     * @param timesS waypoint times, s, strictly increasing, at least two.
     * @param positions positions[k][j]: coordinate j at waypoint k.
     * @throws IllegalArgumentException naming the waypoint, joint and value at fault.
     */
    public JointWaypoints(final double[] timesS, final double[][] positions)
    {
        if (timesS.length < 2)
        {
            throw new IllegalArgumentException("a trajectory needs at least 2 waypoints, got " + timesS.length);
        }
        if (positions.length != timesS.length)
        {
            throw new IllegalArgumentException(
                timesS.length + " waypoint times but " + positions.length + " waypoint positions");
        }
        dof = positions[0].length;
        if (dof == 0)
        {
            throw new IllegalArgumentException("waypoint 0 has no joint values");
        }
        this.timesS = timesS.clone();
        this.positions = new double[timesS.length * dof];
        for (int k = 0; k < timesS.length; k++)
        {
            checkTime(k);
            if (positions[k].length != dof)
            {
                throw new IllegalArgumentException("waypoint " + k + " has " + positions[k].length
                    + " joint values, expected " + dof + " (as waypoint 0)");
            }
            for (int j = 0; j < dof; j++)
            {
                if (!Double.isFinite(positions[k][j]))
                {
                    throw new IllegalArgumentException(
                        "waypoint " + k + ", joint " + j + ": position " + positions[k][j] + " is not finite");
                }
                this.positions[k * dof + j] = positions[k][j];
            }
        }
    }

    private void checkTime(final int k)
    {
        if (!Double.isFinite(timesS[k]))
        {
            throw new IllegalArgumentException("waypoint " + k + ": time " + timesS[k] + " s is not finite");
        }
        if (k > 0 && !(timesS[k] > timesS[k - 1]))
        {
            throw new IllegalArgumentException("waypoint " + k + ": time " + timesS[k]
                + " s is not after waypoint " + (k - 1) + "'s time " + timesS[k - 1] + " s (times must increase strictly)");
        }
    }

    /** @return number of waypoints (at least 2). Real-time safe. */
    public int count()
    {
        return timesS.length;
    }

    /** @return number of joints per waypoint. Real-time safe. */
    public int dof()
    {
        return dof;
    }

    /** @return time of waypoint k, s. Real-time safe. */
    public double timeS(final int waypoint)
    {
        return timesS[waypoint];
    }

    /** @return position of joint j at waypoint k, rad or m. Real-time safe. */
    public double position(final int waypoint, final int joint)
    {
        return positions[waypoint * dof + joint];
    }
}
