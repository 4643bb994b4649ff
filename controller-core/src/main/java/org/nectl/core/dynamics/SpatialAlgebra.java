package org.nectl.core.dynamics;

/**
 * Spatial-vector kernels on flat arrays addressed by offset (Featherstone, "Rigid Body Dynamics
 * Algorithms", 2008, ch. 2), in the (linear, angular) order of Khalil's twists and of our wrenches:
 * a motion vector is (v, w) with v the velocity of the point at the frame origin; a force vector is
 * (f, n) with n the moment about the frame origin. A rigid-body inertia is held as mass m, first
 * moment h = m c and the 3x3 inertia O about the frame origin (row-major), i.e. the 6x6 matrix
 * [[m 1, -h^], [h^, O]] of Khalil 2010, eq. 11. Every kernel reads its inputs into locals before
 * writing, so outputs may alias inputs. Real-time safe, stateless, thread safe.
 */
final class SpatialAlgebra
{
    private SpatialAlgebra()
    {
    }

    /** @return a . b for 6-vectors. */
    static double dot6(final double[] a, final int ia, final double[] b, final int ib)
    {
        return a[ia] * b[ib] + a[ia + 1] * b[ib + 1] + a[ia + 2] * b[ib + 2]
            + a[ia + 3] * b[ib + 3] + a[ia + 4] * b[ib + 4] + a[ia + 5] * b[ib + 5];
    }

    /** @return the angular parts' dot product a[3..5] . b[3..5] of two 6-vectors. */
    static double dotAngular(final double[] a, final int ia, final double[] b, final int ib)
    {
        return a[ia + 3] * b[ib + 3] + a[ia + 4] * b[ib + 4] + a[ia + 5] * b[ib + 5];
    }

    /** out = a x b, motion cross product: (wa x vb + va x wb, wa x wb). */
    static void crossMotion(final double[] a, final int ia, final double[] b, final int ib, final double[] out, final int io)
    {
        final double vax = a[ia];
        final double vay = a[ia + 1];
        final double vaz = a[ia + 2];
        final double wax = a[ia + 3];
        final double way = a[ia + 4];
        final double waz = a[ia + 5];
        final double vbx = b[ib];
        final double vby = b[ib + 1];
        final double vbz = b[ib + 2];
        final double wbx = b[ib + 3];
        final double wby = b[ib + 4];
        final double wbz = b[ib + 5];
        out[io] = way * vbz - waz * vby + vay * wbz - vaz * wby;
        out[io + 1] = waz * vbx - wax * vbz + vaz * wbx - vax * wbz;
        out[io + 2] = wax * vby - way * vbx + vax * wby - vay * wbx;
        out[io + 3] = way * wbz - waz * wby;
        out[io + 4] = waz * wbx - wax * wbz;
        out[io + 5] = wax * wby - way * wbx;
    }

    /** out += m x* f, force cross product: (wm x f, wm x n + vm x f). */
    static void addCrossForce(final double[] m, final int im, final double[] f, final int jf, final double[] out, final int io)
    {
        final double vx = m[im];
        final double vy = m[im + 1];
        final double vz = m[im + 2];
        final double wx = m[im + 3];
        final double wy = m[im + 4];
        final double wz = m[im + 5];
        final double fx = f[jf];
        final double fy = f[jf + 1];
        final double fz = f[jf + 2];
        final double nx = f[jf + 3];
        final double ny = f[jf + 4];
        final double nz = f[jf + 5];
        out[io] += wy * fz - wz * fy;
        out[io + 1] += wz * fx - wx * fz;
        out[io + 2] += wx * fy - wy * fx;
        out[io + 3] += wy * nz - wz * ny + vy * fz - vz * fy;
        out[io + 4] += wz * nx - wx * nz + vz * fx - vx * fz;
        out[io + 5] += wx * ny - wy * nx + vx * fy - vy * fx;
    }

    /**
     * out = I m for a rigid-body inertia (mass, h, O): (mass v - h x w, O w + h x v).
     */
    static void inertiaTimes(
        final double mass, final double[] h, final int ih, final double[] o, final int jo,
        final double[] m, final int im, final double[] out, final int io)
    {
        final double vx = m[im];
        final double vy = m[im + 1];
        final double vz = m[im + 2];
        final double wx = m[im + 3];
        final double wy = m[im + 4];
        final double wz = m[im + 5];
        final double hx = h[ih];
        final double hy = h[ih + 1];
        final double hz = h[ih + 2];
        out[io] = mass * vx - (hy * wz - hz * wy);
        out[io + 1] = mass * vy - (hz * wx - hx * wz);
        out[io + 2] = mass * vz - (hx * wy - hy * wx);
        out[io + 3] = o[jo] * wx + o[jo + 1] * wy + o[jo + 2] * wz + hy * vz - hz * vy;
        out[io + 4] = o[jo + 3] * wx + o[jo + 4] * wy + o[jo + 5] * wz + hz * vx - hx * vz;
        out[io + 5] = o[jo + 6] * wx + o[jo + 7] * wy + o[jo + 8] * wz + hx * vy - hy * vx;
    }

    /**
     * Re-expresses a wrench given in a frame (R, p) (columns of R = that frame's axes in the base
     * frame, p = its origin in the base frame) in the base frame about the base origin:
     * f' = R f, n' = R n + p x R f.
     */
    static void wrenchToBase(
        final double[] r, final int ir, final double[] p, final int ip,
        final double[] w, final int iw, final double[] out, final int io)
    {
        final double fx = w[iw];
        final double fy = w[iw + 1];
        final double fz = w[iw + 2];
        final double nx = w[iw + 3];
        final double ny = w[iw + 4];
        final double nz = w[iw + 5];
        final double gx = r[ir] * fx + r[ir + 1] * fy + r[ir + 2] * fz;
        final double gy = r[ir + 3] * fx + r[ir + 4] * fy + r[ir + 5] * fz;
        final double gz = r[ir + 6] * fx + r[ir + 7] * fy + r[ir + 8] * fz;
        final double px = p[ip];
        final double py = p[ip + 1];
        final double pz = p[ip + 2];
        out[io] = gx;
        out[io + 1] = gy;
        out[io + 2] = gz;
        out[io + 3] = r[ir] * nx + r[ir + 1] * ny + r[ir + 2] * nz + py * gz - pz * gy;
        out[io + 4] = r[ir + 3] * nx + r[ir + 4] * ny + r[ir + 5] * nz + pz * gx - px * gz;
        out[io + 5] = r[ir + 6] * nx + r[ir + 7] * ny + r[ir + 8] * nz + px * gy - py * gx;
    }

    /**
     * The inverse of {@link #wrenchToBase}: a base-frame wrench about the base origin re-expressed
     * in frame (R, p) about its origin: f = R^T f', n = R^T (n' - p x f').
     */
    static void wrenchToFrame(
        final double[] r, final int ir, final double[] p, final int ip,
        final double[] w, final int iw, final double[] out, final int io)
    {
        final double fx = w[iw];
        final double fy = w[iw + 1];
        final double fz = w[iw + 2];
        final double px = p[ip];
        final double py = p[ip + 1];
        final double pz = p[ip + 2];
        final double nx = w[iw + 3] - (py * fz - pz * fy);
        final double ny = w[iw + 4] - (pz * fx - px * fz);
        final double nz = w[iw + 5] - (px * fy - py * fx);
        out[io] = r[ir] * fx + r[ir + 3] * fy + r[ir + 6] * fz;
        out[io + 1] = r[ir + 1] * fx + r[ir + 4] * fy + r[ir + 7] * fz;
        out[io + 2] = r[ir + 2] * fx + r[ir + 5] * fy + r[ir + 8] * fz;
        out[io + 3] = r[ir] * nx + r[ir + 3] * ny + r[ir + 6] * nz;
        out[io + 4] = r[ir + 1] * nx + r[ir + 4] * ny + r[ir + 7] * nz;
        out[io + 5] = r[ir + 2] * nx + r[ir + 5] * ny + r[ir + 8] * nz;
    }
}
