package org.nectl.core.closedloop;

/**
 * 3-vectors stored at an offset in flat arrays, for the closed-loop and parallel-robot kinematics.
 * Real-time safe; stateless.
 */
public final class FlatVectors
{
    private FlatVectors()
    {
    }

    /**
     * out = a x b; out may alias either input.
     *
     * @param a first factor's array.
     * @param ai its offset.
     * @param b second factor's array.
     * @param bi its offset.
     * @param out result's array.
     * @param oi its offset.
     */
    public static void cross(
        final double[] a, final int ai, final double[] b, final int bi, final double[] out, final int oi)
    {
        final double x = a[ai + 1] * b[bi + 2] - a[ai + 2] * b[bi + 1];
        final double y = a[ai + 2] * b[bi] - a[ai] * b[bi + 2];
        final double z = a[ai] * b[bi + 1] - a[ai + 1] * b[bi];
        out[oi] = x;
        out[oi + 1] = y;
        out[oi + 2] = z;
    }
}
