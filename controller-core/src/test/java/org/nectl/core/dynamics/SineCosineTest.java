package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link SineCosine} against {@link Math#sin} and {@link Math#cos}: at most 1 ulp apart everywhere
 * (measured maximum: 1 ulp), equal where it hands over to {@code Math}.
 */
class SineCosineTest
{
    private static final int RANDOM_POINTS = 1_000_000;
    private static final long MAX_ULPS = 1;

    private final double[] out = new double[2];
    private long worstSine;
    private long worstCosine;
    private double worstSineAt;
    private double worstCosineAt;

    @Test
    void jointAnglesWithinOneUlp()
    {
        final SplittableRandom rnd = new SplittableRandom(11);
        for (int i = 0; i < RANDOM_POINTS; i++)
        {
            check(rnd.nextDouble(-2.0 * Math.PI, 2.0 * Math.PI));
        }
        assertWorstWithin(MAX_ULPS);
    }

    @Test
    void wideRangeWithinOneUlp()
    {
        final SplittableRandom rnd = new SplittableRandom(12);
        for (int i = 0; i < RANDOM_POINTS; i++)
        {
            check(rnd.nextDouble(-1e5, 1e5));
        }
        // magnitudes spread evenly in the exponent, from subnormal to beyond the reduction limit
        for (int i = 0; i < RANDOM_POINTS; i++)
        {
            final double magnitude = Math.scalb(1.0 + rnd.nextDouble(), rnd.nextInt(-1074, 64));
            check(rnd.nextBoolean() ? magnitude : -magnitude);
        }
        assertWorstWithin(MAX_ULPS);
    }

    @Test
    void multiplesOfHalfPiAndTheirNeighbours()
    {
        for (int k = -100_000; k <= 100_000; k++)
        {
            final double x = k * (Math.PI / 2.0);
            check(x);
            check(Math.nextUp(x));
            check(Math.nextDown(x));
            check(k * (Math.PI / 4.0));
            check(Math.nextUp(k * (Math.PI / 4.0)));
        }
        assertWorstWithin(MAX_ULPS);
    }

    @Test
    void edgeCases()
    {
        final double[] cases = {
            0.0, Double.MIN_VALUE, Double.MIN_NORMAL, 1e-310, 0x1p-27, Math.nextDown(0x1p-27), 0x1p-40, 1e-8,
            Math.PI / 4.0, Math.nextUp(Math.PI / 4.0), Math.PI, 1e5, 0x1p20, Math.nextDown(0x1p20), 1e6, 1e10, 1e22,
            1e300, Double.MAX_VALUE,
        };
        for (final double x : cases)
        {
            check(x);
            check(-x);
        }
        assertWorstWithin(MAX_ULPS);

        SineCosine.of(-0.0, out, 0);
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits(out[0]), "sin(-0) = -0");
        assertEquals(1.0, out[1]);
        for (final double x : new double[] {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY})
        {
            SineCosine.of(x, out, 0);
            assertTrue(Double.isNaN(out[0]) && Double.isNaN(out[1]), "NaN for " + x);
        }
    }

    @Test
    void writesAtTheGivenOffset()
    {
        final double[] wide = {7.0, 7.0, 7.0, 7.0};
        SineCosine.of(0.5, wide, 1);
        assertEquals(7.0, wide[0]);
        assertEquals(Math.sin(0.5), wide[1], Math.ulp(wide[1]));
        assertEquals(Math.cos(0.5), wide[2], Math.ulp(wide[2]));
        assertEquals(7.0, wide[3]);
    }

    private void check(final double x)
    {
        SineCosine.of(x, out, 0);
        final long s = ulps(out[0], Math.sin(x));
        final long c = ulps(out[1], Math.cos(x));
        if (s > worstSine)
        {
            worstSine = s;
            worstSineAt = x;
        }
        if (c > worstCosine)
        {
            worstCosine = c;
            worstCosineAt = x;
        }
    }

    private void assertWorstWithin(final long limit)
    {
        assertTrue(worstSine <= limit, "sin: " + worstSine + " ulps at x = " + worstSineAt);
        assertTrue(worstCosine <= limit, "cos: " + worstCosine + " ulps at x = " + worstCosineAt);
    }

    /** Distance in representable doubles (across zero too); 0 for two NaNs. */
    private static long ulps(final double a, final double b)
    {
        if (Double.isNaN(a) || Double.isNaN(b))
        {
            return Double.isNaN(a) && Double.isNaN(b) ? 0 : Long.MAX_VALUE;
        }
        return Math.abs(ordered(a) - ordered(b));
    }

    /** Maps the doubles in order onto the longs, -0 and +0 both to 0. */
    private static long ordered(final double x)
    {
        final long bits = Double.doubleToRawLongBits(x);
        return bits < 0 ? -(bits & Long.MAX_VALUE) : bits;
    }
}
