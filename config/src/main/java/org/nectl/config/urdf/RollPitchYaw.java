package org.nectl.config.urdf;

/**
 * Extracts URDF's fixed-axis roll-pitch-yaw from a rotation, R = Rz(yaw) Ry(pitch) Rx(roll),
 * accurately everywhere including at and near gimbal lock (pitch = +-pi/2).
 *
 * <p>Yaw comes from the first column; pitch and roll are then read from Rz(yaw)^T R, whose entries
 * are cos/sin of pitch and roll exactly, so rounding in yaw (arbitrary when cos(pitch) ~ 0) is
 * absorbed by roll and the angles reproduce R to rounding error. Not real-time safe; thread safe.
 */
final class RollPitchYaw
{
    private RollPitchYaw()
    {
    }

    /**
     * @param r row-major rotation.
     * @return {roll, pitch, yaw} in rad; pitch in [-pi/2, pi/2].
     */
    static double[] of(final double[] r)
    {
        final double yaw = Math.atan2(r[3], r[0]);
        final double cy = Math.cos(yaw);
        final double sy = Math.sin(yaw);
        // Rz(yaw)^T R = Ry(pitch) Rx(roll): row 0 = (cp, sp sr, sp cr), row 1 = (0, cr, -sr), (2,0) = -sp.
        final double pitch = Math.atan2(-r[6], cy * r[0] + sy * r[3]);
        final double roll = Math.atan2(sy * r[2] - cy * r[5], cy * r[4] - sy * r[1]);
        return new double[] {roll, pitch, yaw};
    }
}
