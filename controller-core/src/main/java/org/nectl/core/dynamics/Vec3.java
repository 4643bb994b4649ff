package org.nectl.core.dynamics;

/**
 * 3-vector kernels on flat arrays addressed by offset; 3x3 matrices are 9 doubles, row-major.
 * Every kernel reads its inputs into locals before writing, so outputs may alias inputs.
 * Real-time safe: allocates nothing. Stateless, thread safe.
 */
final class Vec3
{
    private Vec3()
    {
    }

    /** out = v. */
    static void copy(final double[] v, final int iv, final double[] out, final int io)
    {
        out[io] = v[iv];
        out[io + 1] = v[iv + 1];
        out[io + 2] = v[iv + 2];
    }

    /** out += s v. */
    static void addScaled(final double s, final double[] v, final int iv, final double[] out, final int io)
    {
        out[io] += s * v[iv];
        out[io + 1] += s * v[iv + 1];
        out[io + 2] += s * v[iv + 2];
    }

    /** out += v. */
    static void add(final double[] v, final int iv, final double[] out, final int io)
    {
        out[io] += v[iv];
        out[io + 1] += v[iv + 1];
        out[io + 2] += v[iv + 2];
    }

    /** out += s M z: s times M's third column (a body's z axis when M is its rotation). */
    static void addScaledAxisZ(final double s, final double[] m, final int im, final double[] out, final int io)
    {
        out[io] += s * m[im + 2];
        out[io + 1] += s * m[im + 5];
        out[io + 2] += s * m[im + 8];
    }

    /** out -= v. */
    static void subtract(final double[] v, final int iv, final double[] out, final int io)
    {
        out[io] -= v[iv];
        out[io + 1] -= v[iv + 1];
        out[io + 2] -= v[iv + 2];
    }

    /** @return a . b. */
    static double dot(final double[] a, final int ia, final double[] b, final int ib)
    {
        return a[ia] * b[ib] + a[ia + 1] * b[ib + 1] + a[ia + 2] * b[ib + 2];
    }

    /** out = a x b. */
    static void cross(final double[] a, final int ia, final double[] b, final int ib, final double[] out, final int io)
    {
        final double ax = a[ia];
        final double ay = a[ia + 1];
        final double az = a[ia + 2];
        final double bx = b[ib];
        final double by = b[ib + 1];
        final double bz = b[ib + 2];
        out[io] = ay * bz - az * by;
        out[io + 1] = az * bx - ax * bz;
        out[io + 2] = ax * by - ay * bx;
    }

    /** out += a x b. */
    static void addCross(final double[] a, final int ia, final double[] b, final int ib, final double[] out, final int io)
    {
        final double ax = a[ia];
        final double ay = a[ia + 1];
        final double az = a[ia + 2];
        final double bx = b[ib];
        final double by = b[ib + 1];
        final double bz = b[ib + 2];
        out[io] += ay * bz - az * by;
        out[io + 1] += az * bx - ax * bz;
        out[io + 2] += ax * by - ay * bx;
    }

    /** out = M v. */
    static void multiply(final double[] m, final int im, final double[] v, final int iv, final double[] out, final int io)
    {
        final double x = v[iv];
        final double y = v[iv + 1];
        final double z = v[iv + 2];
        out[io] = m[im] * x + m[im + 1] * y + m[im + 2] * z;
        out[io + 1] = m[im + 3] * x + m[im + 4] * y + m[im + 5] * z;
        out[io + 2] = m[im + 6] * x + m[im + 7] * y + m[im + 8] * z;
    }

    /** out += M v. */
    static void addMultiplied(final double[] m, final int im, final double[] v, final int iv, final double[] out, final int io)
    {
        final double x = v[iv];
        final double y = v[iv + 1];
        final double z = v[iv + 2];
        out[io] += m[im] * x + m[im + 1] * y + m[im + 2] * z;
        out[io + 1] += m[im + 3] * x + m[im + 4] * y + m[im + 5] * z;
        out[io + 2] += m[im + 6] * x + m[im + 7] * y + m[im + 8] * z;
    }

    /** out = M^T v. */
    static void multiplyTransposed(
        final double[] m, final int im, final double[] v, final int iv, final double[] out, final int io)
    {
        final double x = v[iv];
        final double y = v[iv + 1];
        final double z = v[iv + 2];
        out[io] = m[im] * x + m[im + 3] * y + m[im + 6] * z;
        out[io + 1] = m[im + 1] * x + m[im + 4] * y + m[im + 7] * z;
        out[io + 2] = m[im + 2] * x + m[im + 5] * y + m[im + 8] * z;
    }

    /**
     * Acceleration of a point fixed in a body relative to the body's reference point:
     * out = omegaDot x r + omega x (omega x r) (the U r of Khalil 2010, eq. 21).
     */
    static void transportAcceleration(
        final double[] omega, final int iw, final double[] omegaDot, final int iwd,
        final double[] r, final int ir, final double[] out, final int io)
    {
        final double wx = omega[iw];
        final double wy = omega[iw + 1];
        final double wz = omega[iw + 2];
        final double rx = r[ir];
        final double ry = r[ir + 1];
        final double rz = r[ir + 2];
        final double cx = wy * rz - wz * ry;
        final double cy = wz * rx - wx * rz;
        final double cz = wx * ry - wy * rx;
        final double ax = omegaDot[iwd];
        final double ay = omegaDot[iwd + 1];
        final double az = omegaDot[iwd + 2];
        out[io] = ay * rz - az * ry + wy * cz - wz * cy;
        out[io + 1] = az * rx - ax * rz + wz * cx - wx * cz;
        out[io + 2] = ax * ry - ay * rx + wx * cy - wy * cx;
    }

    /**
     * Terms of a joint moving along or about the body's z axis: out += along z + crossed (u x z),
     * where u x z = (u_y, -u_x, 0).
     */
    static void addAxisTerms(
        final double along, final double crossed, final double[] u, final int iu, final double[] out, final int io)
    {
        out[io] += crossed * u[iu + 1];
        out[io + 1] -= crossed * u[iu];
        out[io + 2] += along;
    }

    /** out += s u x (u x z) = s (u_z u - |u|^2 z). */
    static void addDoubleCrossAxis(final double s, final double[] u, final int iu, final double[] out, final int io)
    {
        final double ux = u[iu];
        final double uy = u[iu + 1];
        final double uz = u[iu + 2];
        out[io] += s * uz * ux;
        out[io + 1] += s * uz * uy;
        out[io + 2] -= s * (ux * ux + uy * uy);
    }

    /** @return (v x w) . z = v_x w_y - v_y w_x. */
    static double crossAxial(final double[] v, final int iv, final double[] w, final int iw)
    {
        return v[iv] * w[iw + 1] - v[iv + 1] * w[iw];
    }
}
