package org.nectl.core.control;

/**
 * The degree-7 polynomial p(s) = sum c_k s^k on the normalised segment time s in [0, 1] that meets
 * position, velocity, acceleration and jerk at both ends (two-point Hermite interpolation of
 * order 3). Coefficients are stored 8 per polynomial in a flat array. Stateless.
 */
final class SepticHermite
{
    /** Coefficients per polynomial. */
    static final int COEFFICIENTS = 8;

    /** Highest derivative order {@link #derivative} evaluates (snap, the 4th). */
    static final int MAX_ORDER = 4;

    /** FALLING[d][k] = k! / (k - d)!, the factor d^d/ds^d s^k = FALLING[d][k] s^(k-d). */
    private static final double[][] FALLING = fallingFactorials();

    /** Subintervals per segment when bracketing the roots of a derivative. */
    private static final int ROOT_SCAN = 256;

    private static final int BISECTIONS = 60;

    private SepticHermite()
    {
    }

    /**
     * Writes the coefficients in normalised time s = (t - t0) / h, so the physical derivatives at
     * the ends are scaled by h^d before they enter the conditions. Real-time safe.
     */
    static void fit(
        final double h,
        final double q0, final double v0, final double a0, final double j0,
        final double q1, final double v1, final double a1, final double j1,
        final double[] c, final int at)
    {
        final double h2 = h * h;
        final double h3 = h2 * h;
        final double c0 = q0;
        final double c1 = h * v0;
        final double c2 = 0.5 * h2 * a0;
        final double c3 = h3 * j0 / 6.0;
        // Residuals of p, p', p'', p''' at s = 1 left for the c4..c7 terms.
        final double r0 = q1 - (c0 + c1 + c2 + c3);
        final double r1 = h * v1 - (c1 + 2.0 * c2 + 3.0 * c3);
        final double r2 = h2 * a1 - (2.0 * c2 + 6.0 * c3);
        final double r3 = h3 * j1 - 6.0 * c3;
        // Inverse of [1 1 1 1; 4 5 6 7; 12 20 30 42; 24 60 120 210], the end conditions on c4..c7.
        c[at] = c0;
        c[at + 1] = c1;
        c[at + 2] = c2;
        c[at + 3] = c3;
        c[at + 4] = 35.0 * r0 - 15.0 * r1 + 2.5 * r2 - r3 / 6.0;
        c[at + 5] = -84.0 * r0 + 39.0 * r1 - 7.0 * r2 + 0.5 * r3;
        c[at + 6] = 70.0 * r0 - 34.0 * r1 + 6.5 * r2 - 0.5 * r3;
        c[at + 7] = -20.0 * r0 + 10.0 * r1 - 2.0 * r2 + r3 / 6.0;
    }

    /**
     * @return d^order p / ds^order at s (Horner), order 0..{@link #MAX_ORDER}. Real-time safe.
     */
    static double derivative(final double[] c, final int at, final int order, final double s)
    {
        final double[] factor = FALLING[order];
        double value = c[at + 7] * factor[7];
        for (int k = 6; k >= order; k--)
        {
            value = value * s + c[at + k] * factor[k];
        }
        return value;
    }

    /**
     * Finds the smallest and largest value of d^order p / ds^order over s in [0, 1]: the ends, a scan
     * of {@link #ROOT_SCAN} subintervals, and every root of the next derivative that changes sign
     * across a subinterval, refined by bisection to rounding. Two roots within one subinterval (no
     * sign change) are missed only with a bump narrower than 1/256, which rises above the scanned
     * values by at most max|d^(order+2) p / ds^(order+2)| / (8 * 256^2). Not real-time safe (slow,
     * for construction).
     *
     * @param order derivative order, below {@link #MAX_ORDER}.
     * @param range receives {min, s at min, max, s at max}.
     */
    static void range(final double[] c, final int at, final int order, final double[] range)
    {
        range[0] = derivative(c, at, order, 0.0);
        range[1] = 0.0;
        range[2] = range[0];
        range[3] = 0.0;
        double sLeft = 0.0;
        double slopeLeft = derivative(c, at, order + 1, 0.0);
        for (int i = 1; i <= ROOT_SCAN; i++)
        {
            final double sRight = (double) i / ROOT_SCAN;
            final double slopeRight = derivative(c, at, order + 1, sRight);
            include(c, at, order, sRight, range);
            if (slopeLeft * slopeRight < 0.0)
            {
                include(c, at, order, root(c, at, order + 1, sLeft, sRight, slopeLeft), range);
            }
            sLeft = sRight;
            slopeLeft = slopeRight;
        }
    }

    private static void include(final double[] c, final int at, final int order, final double s, final double[] range)
    {
        final double value = derivative(c, at, order, s);
        if (value < range[0])
        {
            range[0] = value;
            range[1] = s;
        }
        if (value > range[2])
        {
            range[2] = value;
            range[3] = s;
        }
    }

    private static double root(
        final double[] c, final int at, final int order, final double sLow, final double sHigh, final double valueLow)
    {
        double low = sLow;
        double high = sHigh;
        final boolean lowNegative = valueLow < 0.0;
        for (int i = 0; i < BISECTIONS; i++)
        {
            final double mid = 0.5 * (low + high);
            if ((derivative(c, at, order, mid) < 0.0) == lowNegative)
            {
                low = mid;
            }
            else
            {
                high = mid;
            }
        }
        return 0.5 * (low + high);
    }

    private static double[][] fallingFactorials()
    {
        final double[][] f = new double[MAX_ORDER + 1][COEFFICIENTS];
        for (int d = 0; d < f.length; d++)
        {
            for (int k = d; k < COEFFICIENTS; k++)
            {
                double product = 1.0;
                for (int m = 0; m < d; m++)
                {
                    product *= k - m;
                }
                f[d][k] = product;
            }
        }
        return f;
    }
}
