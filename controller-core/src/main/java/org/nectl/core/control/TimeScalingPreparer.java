package org.nectl.core.control;

import org.nectl.core.model.RobotModel;

/**
 * Prepare phase of starting a time-scaled trajectory: evaluates the first look-ahead window of
 * {@link ReferenceTimeScaling} (three torque-derivative evaluations per grid point, about 190 for a
 * 7-DoF arm with the default tuning) on the thread that calls {@link #prepare}, typically a
 * non-real-time one, so that the control loop only adopts the result.
 *
 * <p>Obtained from {@link ReferenceTimeScaling#preparer()}, which copies the clock's model, tuning,
 * gravity and friction setting. Shares no mutable state with the clock. Not thread safe: owned by
 * one preparing thread. Not real-time safe.
 */
public final class TimeScalingPreparer
{
    private final ReferenceTimeScaling.Settings settings;
    private final FeasibleClockRate feasibleRate;
    private final int windowPoints;

    TimeScalingPreparer(
        final RobotModel model, final ReferenceTimeScaling.Settings settings, final double[] gravityMPerS2,
        final boolean frictionFeedforward)
    {
        this.settings = settings;
        feasibleRate = new FeasibleClockRate(model, settings);
        feasibleRate.gravity(gravityMPerS2[0], gravityMPerS2[1], gravityMPerS2[2]);
        feasibleRate.frictionFeedforward(frictionFeedforward);
        windowPoints = ReferenceTimeScaling.windowPoints(settings);
    }

    /**
     * Evaluates the window the clock would fill when starting {@code trajectory}. Not real-time
     * safe: allocates the result and costs three torque-derivative evaluations per grid point.
     *
     * @param trajectory the trajectory (its dof must be the model's).
     * @return the trajectory with its first window, immutable.
     */
    public PreparedTrajectory prepare(final TrajectorySampler trajectory)
    {
        final long lastPoint = ReferenceTimeScaling.lastPoint(trajectory, settings);
        final int count = settings.enabled() ? (int)Math.min(windowPoints, lastPoint + 1) : 0;
        final double[] rates = new double[count];
        final long unreachableBefore = feasibleRate.unreachablePoints();
        for (int k = 0; k < count; k++)
        {
            rates[k] = feasibleRate.at(trajectory, trajectory.startTimeS() + k * settings.gridSpacingS());
        }
        return new PreparedTrajectory(trajectory, settings, rates, feasibleRate.unreachablePoints() - unreachableBefore);
    }

    /** @return grid points evaluated since construction (three torque-derivative evaluations each). */
    public long evaluatedPoints()
    {
        return feasibleRate.evaluatedPoints();
    }
}
