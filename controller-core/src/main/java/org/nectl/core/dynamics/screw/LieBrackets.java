package org.nectl.core.dynamics.screw;

/**
 * The Lie bracket of se(3) and its dual: ad_V W (the derivative of a twist W carried by a frame
 * moving with twist V) and ad_V^T F (the same for a wrench). Twists are (omega, v), wrenches
 * (moment, force), both expressed in the same frame (Lynch and Park, "Modern Robotics: Mechanics,
 * Planning, and Control", 2017, Sec. 8.2.2).
 *
 * <p>Output arrays must not alias the inputs. Real-time safe: nothing allocates. Thread safe
 * (stateless).
 */
public final class LieBrackets
{
    private LieBrackets()
    {
    }

    /**
     * out = [ad_V] W = [[w], 0; [v], [w]] (w', v') = (w x w', v x w' + w x v').
     *
     * @param twist V = (w, v).
     * @param twistOffset offset of V.
     * @param other W = (w', v').
     * @param otherOffset offset of W.
     * @param out destination.
     * @param outOffset first index written.
     */
    public static void ad(
        final double[] twist, final int twistOffset, final double[] other, final int otherOffset, final double[] out,
        final int outOffset)
    {
        cross(twist, twistOffset, other, otherOffset, out, outOffset, 0.0);
        cross(twist, twistOffset + 3, other, otherOffset, out, outOffset + 3, 0.0);
        cross(twist, twistOffset, other, otherOffset + 3, out, outOffset + 3, 1.0);
    }

    /**
     * out = [ad_V]^T F = (-w x m - v x f, -w x f).
     *
     * @param twist V = (w, v).
     * @param twistOffset offset of V.
     * @param wrench F = (m, f).
     * @param wrenchOffset offset of F.
     * @param out destination.
     * @param outOffset first index written.
     */
    public static void adTranspose(
        final double[] twist, final int twistOffset, final double[] wrench, final int wrenchOffset, final double[] out,
        final int outOffset)
    {
        cross(wrench, wrenchOffset, twist, twistOffset, out, outOffset, 0.0);
        cross(wrench, wrenchOffset + 3, twist, twistOffset + 3, out, outOffset, 1.0);
        cross(wrench, wrenchOffset + 3, twist, twistOffset, out, outOffset + 3, 0.0);
    }

    /** out = keep * out + a x b, on 3-vectors. */
    private static void cross(
        final double[] a, final int aOffset, final double[] b, final int bOffset, final double[] out, final int outOffset,
        final double keep)
    {
        final double ax = a[aOffset];
        final double ay = a[aOffset + 1];
        final double az = a[aOffset + 2];
        final double bx = b[bOffset];
        final double by = b[bOffset + 1];
        final double bz = b[bOffset + 2];
        out[outOffset] = keep * out[outOffset] + ay * bz - az * by;
        out[outOffset + 1] = keep * out[outOffset + 1] + az * bx - ax * bz;
        out[outOffset + 2] = keep * out[outOffset + 2] + ax * by - ay * bx;
    }
}
