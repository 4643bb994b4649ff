package org.nectl.core.model;

/**
 * Elementary rigid transforms on flat arrays: a rotation is 9 doubles, row-major; a translation 3.
 * Used to build constant joint placements from description parameters; not on the real-time path.
 */
public final class Transforms
{
    private Transforms()
    {
    }

    /** @return a new 3x3 identity rotation, row-major. */
    public static double[] identity()
    {
        return new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1};
    }

    /** @return rotation about x by {@code angle} rad. */
    public static double[] rotX(final double angle)
    {
        final double c = Math.cos(angle);
        final double s = Math.sin(angle);
        return new double[] {1, 0, 0, 0, c, -s, 0, s, c};
    }

    /** @return rotation about y by {@code angle} rad. */
    public static double[] rotY(final double angle)
    {
        final double c = Math.cos(angle);
        final double s = Math.sin(angle);
        return new double[] {c, 0, s, 0, 1, 0, -s, 0, c};
    }

    /** @return rotation about z by {@code angle} rad. */
    public static double[] rotZ(final double angle)
    {
        final double c = Math.cos(angle);
        final double s = Math.sin(angle);
        return new double[] {c, -s, 0, s, c, 0, 0, 0, 1};
    }

    /** @return a * b for 3x3 row-major matrices. */
    public static double[] multiply(final double[] a, final double[] b)
    {
        final double[] r = new double[9];
        for (int i = 0; i < 3; i++)
        {
            for (int j = 0; j < 3; j++)
            {
                r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] + a[3 * i + 2] * b[6 + j];
            }
        }
        return r;
    }

    /** @return a * v for a 3x3 row-major matrix and a 3-vector. */
    public static double[] apply(final double[] a, final double[] v)
    {
        return new double[] {
            a[0] * v[0] + a[1] * v[1] + a[2] * v[2],
            a[3] * v[0] + a[4] * v[1] + a[5] * v[2],
            a[6] * v[0] + a[7] * v[1] + a[8] * v[2]};
    }

    /** @return the transpose of a 3x3 row-major matrix. */
    public static double[] transpose(final double[] a)
    {
        return new double[] {a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]};
    }

    /**
     * Fixed-axis roll-pitch-yaw, as URDF defines it: R = Rz(yaw) * Ry(pitch) * Rx(roll).
     *
     * @return the rotation matrix.
     */
    public static double[] rpy(final double roll, final double pitch, final double yaw)
    {
        return multiply(rotZ(yaw), multiply(rotY(pitch), rotX(roll)));
    }

    /**
     * A rotation whose z axis is the given unit vector; its x axis is chosen deterministically
     * perpendicular to it. Used to carry an arbitrary joint axis onto the canonical z axis.
     *
     * @param axis unit vector (length 1 within 1e-9).
     * @return row-major rotation whose third column is {@code axis}.
     */
    public static double[] withZAxis(final double[] axis)
    {
        final double ax = axis[0];
        final double ay = axis[1];
        final double az = axis[2];
        // Cross the axis with the basis vector it is least aligned with: well conditioned.
        final double[] helper;
        if (Math.abs(ax) <= Math.abs(ay) && Math.abs(ax) <= Math.abs(az))
        {
            helper = new double[] {1, 0, 0};
        }
        else if (Math.abs(ay) <= Math.abs(az))
        {
            helper = new double[] {0, 1, 0};
        }
        else
        {
            helper = new double[] {0, 0, 1};
        }
        double xx = ay * helper[2] - az * helper[1];
        double xy = az * helper[0] - ax * helper[2];
        double xz = ax * helper[1] - ay * helper[0];
        final double n = Math.sqrt(xx * xx + xy * xy + xz * xz);
        xx /= n;
        xy /= n;
        xz /= n;
        final double yx = ay * xz - az * xy;
        final double yy = az * xx - ax * xz;
        final double yz = ax * xy - ay * xx;
        return new double[] {xx, yx, ax, xy, yy, ay, xz, yz, az};
    }
}
