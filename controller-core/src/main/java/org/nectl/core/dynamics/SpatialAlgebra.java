package org.nectl.core.dynamics;

/**
 * Spatial-vector kernels on flat arrays addressed by offset (Featherstone, "Rigid Body Dynamics
 * Algorithms", 2008, ch. 2), in the (linear, angular) order of Khalil's twists and of our wrenches:
 * a motion vector is (v, w) with v the velocity of the point at the frame origin; a force vector is
 * (f, n) with n the moment about the frame origin. A rigid-body inertia is held as mass m, first
 * moment h = m c and the 3x3 inertia O about the frame origin (row-major), i.e. the 6x6 matrix
 * [[m 1, -h^], [h^, O]] of Khalil 2010, eq. 11. Outputs must not alias inputs unless stated.
 * The public kernels are the one shared copy for every spatial algorithm, including the
 * floating-base ones outside this package. Real-time safe, stateless, thread safe.
 */
public final class SpatialAlgebra
{
    private SpatialAlgebra()
    {
    }

    /** out[io..io+5] = (x, y, z, a, b, c). */
    static void set(final double[] out, final int io, final double x, final double y, final double z,
        final double a, final double b, final double c)
    {
        out[io] = x;
        out[io + 1] = y;
        out[io + 2] = z;
        out[io + 3] = a;
        out[io + 4] = b;
        out[io + 5] = c;
    }

    /** @return a . b for 6-vectors. */
    public static double dot6(final double[] a, final int ia, final double[] b, final int ib)
    {
        return Vec3.dot(a, ia, b, ib) + Vec3.dot(a, ia + 3, b, ib + 3);
    }

    /** out = m x* f, force cross product: (wm x f, wm x n + vm x f). Inputs read once into locals; out may not alias f. */
    public static void crossForce(final double[] m, final int im, final double[] f, final int jf, final double[] out, final int io)
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
        out[io] = wy * fz - wz * fy;
        out[io + 1] = wz * fx - wx * fz;
        out[io + 2] = wx * fy - wy * fx;
        out[io + 3] = wy * nz - wz * ny + vy * fz - vz * fy;
        out[io + 4] = wz * nx - wx * nz + vz * fx - vx * fz;
        out[io + 5] = wx * ny - wy * nx + vx * fy - vy * fx;
    }

    /**
     * out = I m for a rigid-body inertia (mass, h, O): (mass v - h x w, O w + h x v). Inputs read
     * once into locals: this kernel dominates the base-frame passes.
     */
    public static void inertiaTimes(
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
        out[io] = mass * vx + wy * hz - wz * hy;
        out[io + 1] = mass * vy + wz * hx - wx * hz;
        out[io + 2] = mass * vz + wx * hy - wy * hx;
        out[io + 3] = o[jo] * wx + o[jo + 1] * wy + o[jo + 2] * wz + hy * vz - hz * vy;
        out[io + 4] = o[jo + 3] * wx + o[jo + 4] * wy + o[jo + 5] * wz + hz * vx - hx * vz;
        out[io + 5] = o[jo + 6] * wx + o[jo + 7] * wy + o[jo + 8] * wz + hx * vy - hy * vx;
    }

    /**
     * Re-expresses a wrench given in a frame (R, p) (columns of R = that frame's axes in the base
     * frame, p = its origin in the base frame) in the base frame about the base origin:
     * f' = R f, n' = R n + p x f'.
     */
    static void wrenchToBase(
        final double[] r, final int ir, final double[] p, final int ip,
        final double[] w, final int iw, final double[] out, final int io)
    {
        Vec3.multiply(r, ir, w, iw, out, io);
        Vec3.multiply(r, ir, w, iw + 3, out, io + 3);
        Vec3.addCross(p, ip, out, io, out, io + 3);
    }

    /**
     * The inverse of {@link #wrenchToBase}: a base-frame wrench about the base origin re-expressed
     * in frame (R, p) about its origin: f = R^T f', n = R^T (n' - p x f'). Out may be w itself.
     */
    static void wrenchToFrame(
        final double[] r, final int ir, final double[] p, final int ip,
        final double[] w, final int iw, final double[] out, final int io)
    {
        Vec3.copy(w, iw, out, io);
        Vec3.copy(w, iw + 3, out, io + 3);
        Vec3.addCross(out, io, p, ip, out, io + 3);
        Vec3.multiplyTransposed(r, ir, out, io, out, io);
        Vec3.multiplyTransposed(r, ir, out, io + 3, out, io + 3);
    }
}
