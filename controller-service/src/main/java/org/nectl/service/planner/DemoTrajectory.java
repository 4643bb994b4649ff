package org.nectl.service.planner;

import java.util.Locale;

import org.nectl.core.model.RobotModel;

/**
 * The trajectory {@code nectl demo} sends: from a start pose each joint out by the amplitude, out
 * by the amplitude the other way, and back, in three equal thirds of the duration through
 * {@link JointTrajectory#fromPositions} (odd joints mirrored, every waypoint kept 0.05 rad or m
 * inside the joint's limits). Not real-time safe; stateless.
 */
public final class DemoTrajectory
{
    /** A ready pose of the Franka Panda, away from singularities and limits, rad. */
    private static final double[] PANDA_READY = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
    private static final double LIMIT_MARGIN = 0.05;

    private DemoTrajectory()
    {
    }

    /**
     * @param model the robot.
     * @return its start pose: the Panda's ready pose for a 7-joint model named panda, otherwise 0
     *     brought inside each joint's limits.
     */
    public static double[] startPose(final RobotModel model)
    {
        if (model.dof() == PANDA_READY.length && model.name().toLowerCase(Locale.ROOT).contains("panda"))
        {
            return PANDA_READY.clone();
        }
        final double[] q = new double[model.dof()];
        for (int j = 0; j < q.length; j++)
        {
            q[j] = clampToLimits(model, j, 0.0);
        }
        return q;
    }

    /**
     * @param model the robot.
     * @param startQ start and end pose.
     * @param amplitude excursion, rad or m.
     * @param durationS duration, s.
     * @return the trajectory.
     */
    public static JointTrajectory move(final RobotModel model, final double[] startQ, final double amplitude, final double durationS)
    {
        final int n = model.dof();
        final double[] times = {0, durationS / 3, 2 * durationS / 3, durationS};
        final double[][] q = new double[4][n];
        for (int j = 0; j < n; j++)
        {
            final double sign = j % 2 == 0 ? 1.0 : -1.0;
            q[0][j] = startQ[j];
            q[1][j] = clampToLimits(model, j, startQ[j] + sign * amplitude);
            q[2][j] = clampToLimits(model, j, startQ[j] - sign * amplitude);
            q[3][j] = startQ[j];
        }
        return JointTrajectory.fromPositions(times, q);
    }

    private static double clampToLimits(final RobotModel model, final int joint, final double q)
    {
        return Math.max(model.limits(joint).positionMin() + LIMIT_MARGIN, Math.min(model.limits(joint).positionMax() - LIMIT_MARGIN, q));
    }
}
