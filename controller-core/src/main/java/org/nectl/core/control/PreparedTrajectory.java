package org.nectl.core.control;

/**
 * A trajectory with the first look-ahead window of its time scaling already evaluated
 * ({@link TimeScalingPreparer#prepare}), so that starting it on the control loop costs no
 * torque-derivative evaluation ({@link ReferenceTimeScaling#start(PreparedTrajectory)}).
 *
 * <p>Immutable once built: built by the preparing thread, then handed to the control-loop thread
 * through a queue that publishes it safely; after the hand-off only the loop samples the trajectory.
 */
public final class PreparedTrajectory
{
    private final TrajectorySampler trajectory;
    private final ReferenceTimeScaling.Settings settings;
    private final double[] rates;
    private final long unreachablePoints;

    PreparedTrajectory(
        final TrajectorySampler trajectory, final ReferenceTimeScaling.Settings settings, final double[] rates,
        final long unreachablePoints)
    {
        this.trajectory = trajectory;
        this.settings = settings;
        this.rates = rates;
        this.unreachablePoints = unreachablePoints;
    }

    /** @return the trajectory. Real-time safe. */
    public TrajectorySampler trajectory()
    {
        return trajectory;
    }

    /** @return the clock tuning the window was evaluated with. Real-time safe. */
    public ReferenceTimeScaling.Settings settings()
    {
        return settings;
    }

    /** @return evaluated grid points, from the trajectory's start. Real-time safe. */
    public int pointCount()
    {
        return rates.length;
    }

    /**
     * @param point grid index, 0 ..{@link #pointCount()} - 1.
     * @return the largest feasible constant clock rate there. Real-time safe.
     */
    public double rate(final int point)
    {
        return rates[point];
    }

    /** @return points of the window where even the minimum rate was not within the bounds. Real-time safe. */
    public long unreachablePoints()
    {
        return unreachablePoints;
    }
}
