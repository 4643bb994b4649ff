package org.nectl.core.dynamics;

/**
 * Kernels on a symmetric 6x6 articulated inertia J* = [[A, B], [B^T, C]] (base frame, about the
 * base origin) packed in {@link #PACKED} doubles: its upper triangle row by row (row 0: a00 a01
 * a02 b00 b01 b02, row 1: a11 a12 b10 b11 b12, ..., row 5: c22). Symmetry halves the rank-1
 * update and the accumulation into the parent (Featherstone 2008, §7.3; Khalil 2010, eqs. 36-38).
 * Real-time safe, stateless.
 */
final class ArticulatedInertia
{
    /** Unique entries of a symmetric 6x6 matrix. */
    static final int PACKED = 21;

    private ArticulatedInertia()
    {
    }

    /** out = J = [[m 1, -h^], [h^, O]] (Khalil 2010, eq. 11) of a rigid body: mass m, first moment h, inertia O (row-major, symmetric). */
    static void ofBody(final double m, final double[] h, final int ih, final double[] o, final int jo,
        final double[] out, final int io)
    {
        final double hx = h[ih];
        final double hy = h[ih + 1];
        final double hz = h[ih + 2];
        SpatialAlgebra.set(out, io, m, 0.0, 0.0, 0.0, hz, -hy);
        SpatialAlgebra.set(out, io + 6, m, 0.0, -hz, 0.0, hx, m);
        SpatialAlgebra.set(out, io + 12, hy, -hx, 0.0, o[jo], o[jo + 1], o[jo + 2]);
        Vec3.set(out, io + 18, o[jo + 4], o[jo + 5], o[jo + 8]);
    }

    /** u = J x and jg = J g, two products from one read of J into locals. */
    static void times(final double[] j, final int a, final double[] x, final double[] g, final int ix,
        final double[] u, final int iu, final double[] jg, final int ig)
    {
        final double a00 = j[a];
        final double a01 = j[a + 1];
        final double a02 = j[a + 2];
        final double b00 = j[a + 3];
        final double b01 = j[a + 4];
        final double b02 = j[a + 5];
        final double a11 = j[a + 6];
        final double a12 = j[a + 7];
        final double b10 = j[a + 8];
        final double b11 = j[a + 9];
        final double b12 = j[a + 10];
        final double a22 = j[a + 11];
        final double b20 = j[a + 12];
        final double b21 = j[a + 13];
        final double b22 = j[a + 14];
        final double c00 = j[a + 15];
        final double c01 = j[a + 16];
        final double c02 = j[a + 17];
        final double c11 = j[a + 18];
        final double c12 = j[a + 19];
        final double c22 = j[a + 20];
        for (int k = 0; k < 2; k++)
        {
            final double[] in = k == 0 ? x : g;
            final double[] out = k == 0 ? u : jg;
            final int io = k == 0 ? iu : ig;
            final double v0 = in[ix];
            final double v1 = in[ix + 1];
            final double v2 = in[ix + 2];
            final double w0 = in[ix + 3];
            final double w1 = in[ix + 4];
            final double w2 = in[ix + 5];
            SpatialAlgebra.set(out, io,
                a00 * v0 + a01 * v1 + a02 * v2 + b00 * w0 + b01 * w1 + b02 * w2,
                a01 * v0 + a11 * v1 + a12 * v2 + b10 * w0 + b11 * w1 + b12 * w2,
                a02 * v0 + a12 * v1 + a22 * v2 + b20 * w0 + b21 * w1 + b22 * w2,
                b00 * v0 + b10 * v1 + b20 * v2 + c00 * w0 + c01 * w1 + c02 * w2,
                b01 * v0 + b11 * v1 + b21 * v2 + c01 * w0 + c11 * w1 + c12 * w2,
                b02 * v0 + b12 * v1 + b22 * v2 + c02 * w0 + c12 * w1 + c22 * w2);
        }
    }

    /** j[z..] += j[a..] - u u^T / h: body's J* less its joint's share, into its parent's (Khalil 2010, eq. 37). */
    static void addReduced(final double[] j, final int a, final double[] u, final int iu, final double inverseH, final int z)
    {
        final double u0 = u[iu];
        final double u1 = u[iu + 1];
        final double u2 = u[iu + 2];
        final double u3 = u[iu + 3];
        final double u4 = u[iu + 4];
        final double u5 = u[iu + 5];
        final double v0 = u0 * inverseH;
        final double v1 = u1 * inverseH;
        final double v2 = u2 * inverseH;
        final double v3 = u3 * inverseH;
        final double v4 = u4 * inverseH;
        final double v5 = u5 * inverseH;
        j[z] += j[a] - v0 * u0;
        j[z + 1] += j[a + 1] - v0 * u1;
        j[z + 2] += j[a + 2] - v0 * u2;
        j[z + 3] += j[a + 3] - v0 * u3;
        j[z + 4] += j[a + 4] - v0 * u4;
        j[z + 5] += j[a + 5] - v0 * u5;
        j[z + 6] += j[a + 6] - v1 * u1;
        j[z + 7] += j[a + 7] - v1 * u2;
        j[z + 8] += j[a + 8] - v1 * u3;
        j[z + 9] += j[a + 9] - v1 * u4;
        j[z + 10] += j[a + 10] - v1 * u5;
        j[z + 11] += j[a + 11] - v2 * u2;
        j[z + 12] += j[a + 12] - v2 * u3;
        j[z + 13] += j[a + 13] - v2 * u4;
        j[z + 14] += j[a + 14] - v2 * u5;
        j[z + 15] += j[a + 15] - v3 * u3;
        j[z + 16] += j[a + 16] - v3 * u4;
        j[z + 17] += j[a + 17] - v3 * u5;
        j[z + 18] += j[a + 18] - v4 * u4;
        j[z + 19] += j[a + 19] - v4 * u5;
        j[z + 20] += j[a + 20] - v5 * u5;
    }
}
