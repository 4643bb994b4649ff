package org.nectl.core.mobile;

import org.nectl.core.dynamics.BaseMotion;

/**
 * The state of a floating base, in the one convention every floating-base algorithm of nectl uses
 * (as Pinocchio's free-flyer joint, except the quaternion's order):
 * <ul>
 * <li><b>pose</b>, 7 values: the base origin's position in the world frame (m), then the unit
 * quaternion (w, x, y, z) of the rotation wR_0 taking base components to world components (the
 * order of {@link BaseMotion}; Pinocchio and ROS store (x, y, z, w));</li>
 * <li><b>twist</b>, 6 values: the linear velocity of the base origin (m/s) then the angular velocity
 * (rad/s), both in <b>base coordinates</b>;</li>
 * <li><b>acceleration</b>, 6 values: the time derivative of the twist's base-coordinate components
 * (m/s^2, rad/s^2), which is the base's spatial acceleration in base coordinates. The origin's
 * acceleration in the world, in base coordinates, is its linear part plus omega x v.</li>
 * </ul>
 * Then p-dot = wR_0 v and q-dot = q (0, omega) / 2. Stateless; every method is real-time safe.
 */
public final class BasePose
{
    /** Values in a pose: position then quaternion (w, x, y, z). */
    public static final int POSE_SIZE = 7;
    /** Values in a twist or a base acceleration: linear then angular. */
    public static final int TWIST_SIZE = 6;

    private BasePose()
    {
    }

    /**
     * The rotation wR_0 of a pose's quaternion, normalised first so that rounding in a quaternion
     * within {@link BaseMotion#UNIT_QUATERNION_TOLERANCE} of unit norm gives an orthonormal matrix.
     *
     * @param pose position then quaternion (w, x, y, z).
     * @param rotation receives wR_0, row-major (columns are the base axes in the world frame), 9 entries.
     */
    public static void rotation(final double[] pose, final double[] rotation)
    {
        final double n = Math.sqrt(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5] + pose[6] * pose[6]);
        final double w = pose[3] / n;
        final double x = pose[4] / n;
        final double y = pose[5] / n;
        final double z = pose[6] / n;
        rotation[0] = 1 - 2 * (y * y + z * z);
        rotation[1] = 2 * (x * y - w * z);
        rotation[2] = 2 * (x * z + w * y);
        rotation[3] = 2 * (x * y + w * z);
        rotation[4] = 1 - 2 * (x * x + z * z);
        rotation[5] = 2 * (y * z - w * x);
        rotation[6] = 2 * (x * z - w * y);
        rotation[7] = 2 * (y * z + w * x);
        rotation[8] = 1 - 2 * (x * x + y * y);
    }

    /**
     * The time derivative of a pose under a twist: p-dot = wR_0 v, q-dot = q (0, omega) / 2.
     *
     * @param pose position then quaternion (w, x, y, z).
     * @param twist linear then angular velocity, base coordinates.
     * @param rotation scratch of 9 entries (receives wR_0).
     * @param poseRate receives the 7 derivatives.
     */
    public static void rate(final double[] pose, final double[] twist, final double[] rotation, final double[] poseRate)
    {
        rotation(pose, rotation);
        for (int r = 0; r < 3; r++)
        {
            poseRate[r] = rotation[3 * r] * twist[0] + rotation[3 * r + 1] * twist[1] + rotation[3 * r + 2] * twist[2];
        }
        final double w = pose[3];
        final double x = pose[4];
        final double y = pose[5];
        final double z = pose[6];
        final double ox = twist[3];
        final double oy = twist[4];
        final double oz = twist[5];
        poseRate[3] = 0.5 * (-x * ox - y * oy - z * oz);
        poseRate[4] = 0.5 * (w * ox + y * oz - z * oy);
        poseRate[5] = 0.5 * (w * oy + z * ox - x * oz);
        poseRate[6] = 0.5 * (w * oz + x * oy - y * ox);
    }

    /**
     * Checks a base state given from outside (a command line, a file).
     *
     * @param pose position then quaternion, or null if not given.
     * @param twist twist, or null if not given.
     * @param acceleration base acceleration, or null if not given.
     * @return null if valid, else what is wrong: the field, the value and the rule.
     */
    public static String check(final double[] pose, final double[] twist, final double[] acceleration)
    {
        final String finite = firstNonFinite("base_pose", pose);
        if (finite != null)
        {
            return finite;
        }
        if (pose != null)
        {
            final double norm = Math.sqrt(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5] + pose[6] * pose[6]);
            if (Math.abs(norm - 1.0) > BaseMotion.UNIT_QUATERNION_TOLERANCE)
            {
                return "base_pose: the quaternion (w, x, y, z) = (" + pose[3] + ", " + pose[4] + ", " + pose[5] + ", "
                    + pose[6] + ") has norm " + norm + "; expected a unit quaternion (norm within "
                    + BaseMotion.UNIT_QUATERNION_TOLERANCE + " of 1)";
            }
        }
        final String twistProblem = firstNonFinite("base_twist", twist);
        return twistProblem != null ? twistProblem : firstNonFinite("base_acceleration", acceleration);
    }

    private static String firstNonFinite(final String field, final double[] values)
    {
        if (values != null)
        {
            for (int i = 0; i < values.length; i++)
            {
                if (!Double.isFinite(values[i]))
                {
                    return field + "[" + i + "]: value " + values[i] + " is not a finite number";
                }
            }
        }
        return null;
    }
}
