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

    /** out[io..io+2] += (x, y, z). */
    static void addTo(final double[] out, final int io, final double x, final double y, final double z)
    {
        out[io] += x;
        out[io + 1] += y;
        out[io + 2] += z;
    }

    /** out[io..io+2] = (x, y, z). */
    static void set(final double[] out, final int io, final double x, final double y, final double z)
    {
        out[io] = x;
        out[io + 1] = y;
        out[io + 2] = z;
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
}
