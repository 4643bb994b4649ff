package org.nectl.core.dynamics;

/**
 * Sine and cosine of one angle together, for the joint rotations: one argument reduction and two
 * polynomials that share x^2, instead of two full {@link Math#sin} and {@link Math#cos} calls; within
 * 1 ulp of them ({@code SineCosineTest}). The method, the arguments handed to {@code Math} (see the
 * constants) and the measurements: docs/PERFORMANCE.md, "Second round: sin/cos". The constants are
 * fdlibm's (Sun Microsystems, 1993), each written by its bit pattern: the split of pi/2 from
 * e_rem_pio2.c (pio2_1, pio2_2, pio2_2t), the polynomial coefficients from k_sin.c (S1-S6) and
 * k_cos.c (C1-C6).
 *
 * <p>Real-time safe: allocates nothing, no locks.
 */
final class SineCosine
{
    /** 2/pi, fdlibm invpio2 (0x3FE45F306DC9C883). */
    private static final double TWO_OVER_PI = Double.longBitsToDouble(0x3FE45F306DC9C883L);
    /** First 31 significant bits of pi/2, fdlibm pio2_1: n * PIO2_1 is exact for |n| &lt; 2^22. */
    private static final double PIO2_1 = Double.longBitsToDouble(0x3FF921FB54400000L);
    /** Next 32 bits, fdlibm pio2_2: n * PIO2_2 is exact for |n| &lt; 2^21. */
    private static final double PIO2_2 = Double.longBitsToDouble(0x3DD0B4611A600000L);
    /** pi/2 - PIO2_1 - PIO2_2 rounded to 53 bits, fdlibm pio2_2t. */
    private static final double PIO2_2T = Double.longBitsToDouble(0x3BA3198A2E037073L);
    /** 1.5 * 2^52: adding it rounds a double below 2^51 to an integer, which lands in the low mantissa bits. */
    private static final double SHIFTER = 0x1.8p52;
    /** Bound of the exact reduction: below it |n| &lt; 2^20, so every product n * PIO2_k above is exact. */
    private static final double REDUCTION_LIMIT = 0x1p20;
    /** Below this, sin x rounds to x and cos x to 1. */
    private static final double TINY = 0x1p-27;
    /** Smallest reduced argument trusted after a non-zero n (relative reduction error then below 2^-60). */
    private static final double CANCELLATION = 0x1p-40;

    private static final double S1 = Double.longBitsToDouble(0xBFC5555555555549L);
    private static final double S2 = Double.longBitsToDouble(0x3F8111111110F8A6L);
    private static final double S3 = Double.longBitsToDouble(0xBF2A01A019C161D5L);
    private static final double S4 = Double.longBitsToDouble(0x3EC71DE357B1FE7DL);
    private static final double S5 = Double.longBitsToDouble(0xBE5AE5E68A2B9CEBL);
    private static final double S6 = Double.longBitsToDouble(0x3DE5D93A5ACFD57CL);
    private static final double C1 = Double.longBitsToDouble(0x3FA555555555554CL);
    private static final double C2 = Double.longBitsToDouble(0xBF56C16C16C15177L);
    private static final double C3 = Double.longBitsToDouble(0x3EFA01A019CB1590L);
    private static final double C4 = Double.longBitsToDouble(0xBE927E4F809C52ADL);
    private static final double C5 = Double.longBitsToDouble(0x3E21EE9EBDB4B1C4L);
    private static final double C6 = Double.longBitsToDouble(0xBDA8FAE9BE8838D4L);

    private SineCosine()
    {
    }

    /** Writes sin x (x in rad) to {@code out[at]} and cos x to {@code out[at + 1]}. Real-time safe. */
    static void of(final double x, final double[] out, final int at)
    {
        final double abs = Math.abs(x);
        if (abs < REDUCTION_LIMIT && abs >= TINY)
        {
            // x = n pi/2 + (r + y): a is exact (n PIO2_1 is exact and close to x), b is exact
            final double k = x * TWO_OVER_PI + SHIFTER;
            final int quadrant = (int) Double.doubleToRawLongBits(k);
            final double n = k - SHIFTER;
            final double a = x - n * PIO2_1;
            final double b = n * PIO2_2;
            // a - b as a sum and its exact rounding error (two-sum), then the third part
            final double d = a - b;
            final double bv = d - a;
            final double err = (a - (d - bv)) - (b + bv);
            final double tail = err - n * PIO2_2T;
            final double r = d + tail;
            final double y = (d - r) + tail;
            if (Math.abs(r) >= CANCELLATION)
            {
                kernels(r, y, quadrant, out, at);
                return;
            }
        }
        else if (abs < TINY)
        {
            out[at] = x;
            out[at + 1] = 1.0;
            return;
        }
        out[at] = Math.sin(x);
        out[at + 1] = Math.cos(x);
    }

    /** sin and cos of r + y, |r| &lt;= pi/4 and |y| &lt;= ulp(r) / 2, rotated by quadrant * pi/2. */
    private static void kernels(final double r, final double y, final int quadrant, final double[] out, final int at)
    {
        final double z = r * r;
        // sin(r + y) = r + r^3 (S1 + z S2 + ...) + y cos r, with cos r = 1 - z/2 to the order needed
        final double ps = S2 + z * (S3 + z * (S4 + z * (S5 + z * S6)));
        final double sine = r + ((z * r) * (S1 + z * ps) + y * (1.0 - 0.5 * z));
        // cos(r + y) = 1 - z/2 + z^2 (C1 + z C2 + ...) - y sin r; 1 - z/2 split into w and its exact rounding error
        final double pc = z * (C1 + z * (C2 + z * (C3 + z * (C4 + z * (C5 + z * C6)))));
        final double hz = 0.5 * z;
        final double w = 1.0 - hz;
        final double cosine = w + (((1.0 - w) - hz) + (z * pc - r * y));
        // quadrant q: sin x = (s, c, -s, -c)[q], cos x = (c, -s, -c, s)[q]; without branches,
        // since the quadrant of a joint angle is not predictable
        final long sb = Double.doubleToRawLongBits(sine);
        final long cb = Double.doubleToRawLongBits(cosine);
        final long swap = -(long) (quadrant & 1);
        final long sinSign = (long) (quadrant & 2) << 62;
        final long cosSign = (long) ((quadrant + 1) & 2) << 62;
        out[at] = Double.longBitsToDouble(((sb & ~swap) | (cb & swap)) ^ sinSign);
        out[at + 1] = Double.longBitsToDouble(((cb & ~swap) | (sb & swap)) ^ cosSign);
    }
}
