package org.nectl.config.urdf;

/**
 * The constant rotation A that carries a URDF joint axis onto the canonical joint frame's z axis:
 * canonical body frame = URDF link frame * A, with A e_z = axis. A is the smallest rotation taking
 * e_z to the axis, so it is the identity for joints that already turn about z and the link frames
 * of such URDFs are kept unchanged. Not real-time safe (allocates); thread safe.
 */
final class JointAxisFrame
{
    private JointAxisFrame()
    {
    }

    /**
     * @param axis unit vector.
     * @return row-major rotation A with A (0,0,1) = axis.
     */
    static double[] rotationTakingZTo(final double[] axis)
    {
        if (axis[2] >= 0.0)
        {
            return minimalRotationFromZ(axis[0], axis[1], axis[2]);
        }
        // Near -z the minimal rotation divides by 1 + az ~ 0: go through Rot(x, pi), which maps z to -z.
        final double[] b = minimalRotationFromZ(axis[0], -axis[1], -axis[2]);
        return new double[] {b[0], b[1], b[2], -b[3], -b[4], -b[5], -b[6], -b[7], -b[8]};
    }

    /**
     * Rodrigues' formula for the rotation about v = e_z x a by the angle between them:
     * R = I + [v]x + [v]x^2 / (1 + c), c = a_z (well conditioned for a_z >= 0).
     */
    private static double[] minimalRotationFromZ(final double ax, final double ay, final double az)
    {
        final double k = 1.0 / (1.0 + az);
        return new double[] {
            1.0 - k * ax * ax, -k * ax * ay, ax,
            -k * ax * ay, 1.0 - k * ay * ay, ay,
            -ax, -ay, az};
    }
}
