package org.nectl.core.dynamics;

/**
 * Spatial-vector kernels on flat arrays addressed by offset (Featherstone, "Rigid Body Dynamics
 * Algorithms", 2008, ch. 2), in the (linear, angular) order of Khalil's twists and of our wrenches:
 * a motion vector is (v, w) with v the velocity of the point at the frame origin; a force vector is
 * (f, n) with n the moment about the frame origin. A rigid-body inertia is held as mass m, first
 * moment h = m c and the 3x3 inertia O about the frame origin (row-major), i.e. the 6x6 matrix
 * [[m 1, -h^], [h^, O]] of Khalil 2010, eq. 11. Outputs must not alias inputs unless stated.
 * Real-time safe, stateless, thread safe.
 */
final class SpatialAlgebra
{
    private SpatialAlgebra()
    {
    }

    /** @return a . b for 6-vectors. */
    static double dot6(final double[] a, final int ia, final double[] b, final int ib)
    {
        return Vec3.dot(a, ia, b, ib) + Vec3.dot(a, ia + 3, b, ib + 3);
    }

    /** out = a x b, motion cross product: (wa x vb + va x wb, wa x wb). */
    static void crossMotion(final double[] a, final int ia, final double[] b, final int ib, final double[] out, final int io)
    {
        Vec3.cross(a, ia + 3, b, ib, out, io);
        Vec3.addCross(a, ia, b, ib + 3, out, io);
        Vec3.cross(a, ia + 3, b, ib + 3, out, io + 3);
    }

    /** out += m x* f, force cross product: (wm x f, wm x n + vm x f). */
    static void addCrossForce(final double[] m, final int im, final double[] f, final int jf, final double[] out, final int io)
    {
        Vec3.addCross(m, im + 3, f, jf, out, io);
        Vec3.addCross(m, im + 3, f, jf + 3, out, io + 3);
        Vec3.addCross(m, im, f, jf, out, io + 3);
    }

    /** out = I m for a rigid-body inertia (mass, h, O): (mass v - h x w, O w + h x v). */
    static void inertiaTimes(
        final double mass, final double[] h, final int ih, final double[] o, final int jo,
        final double[] m, final int im, final double[] out, final int io)
    {
        Vec3.multiply(o, jo, m, im + 3, out, io + 3);
        Vec3.addCross(h, ih, m, im, out, io + 3);
        Vec3.cross(m, im + 3, h, ih, out, io);
        Vec3.addScaled(mass, m, im, out, io);
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
