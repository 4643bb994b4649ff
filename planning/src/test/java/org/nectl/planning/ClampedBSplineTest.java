package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

class ClampedBSplineTest
{
    @Test
    void basisIsAPartitionOfUnityWithDerivativesSummingToZero()
    {
        for (final int degree : new int[] {1, 3, 5})
        {
            final ClampedBSpline spline = new ClampedBSpline(degree, degree + 7);
            final double[] out = new double[4 * (degree + 1)];
            for (int s = 0; s <= 100; s++)
            {
                spline.evaluate(s / 100.0, 4, out);
                for (int r = 0; r < 4; r++)
                {
                    double sum = 0.0;
                    for (int j = 0; j <= degree; j++)
                    {
                        sum += out[r * (degree + 1) + j];
                    }
                    assertEquals(r == 0 ? 1.0 : 0.0, sum, 1e-9, "degree " + degree + ", order " + r + ", u " + s / 100.0);
                }
            }
        }
    }

    @Test
    void derivativesMatchCentralDifferencesOfTheOrderBelow()
    {
        final SplittableRandom rnd = new SplittableRandom(11);
        for (final int degree : new int[] {3, 4, 5})
        {
            final int count = degree + 9;
            final ClampedBSpline spline = new ClampedBSpline(degree, count);
            final double[] points = new double[count];
            for (int i = 0; i < count; i++)
            {
                points[i] = rnd.nextDouble(-1.0, 1.0);
            }
            for (int trial = 0; trial < 20; trial++)
            {
                final double u = rnd.nextDouble(0.01, 0.99);
                final Differences.VectorFunction curve = (x, out) ->
                {
                    final double[] basis = new double[4 * (degree + 1)];
                    final int first = spline.evaluate(x[0], 4, basis);
                    for (int r = 0; r < 4; r++)
                    {
                        out[r] = 0.0;
                        for (int j = 0; j <= degree; j++)
                        {
                            out[r] += basis[r * (degree + 1) + j] * points[first + j];
                        }
                    }
                };
                final double[] value = new double[4];
                curve.apply(new double[] {u}, value);
                final double[] slope = Differences.jacobian(curve, new double[] {u}, 4, 1e-5);
                // a cubic's third derivative jumps at knots: compare the orders that are smooth at u
                final int smooth = degree > 3 ? 3 : 2;
                for (int r = 0; r < smooth; r++)
                {
                    assertEquals(value[r + 1], slope[r], 1e-5 * Math.max(1.0, Math.abs(value[r + 1])),
                        "degree " + degree + ", order " + (r + 1) + ", u " + u);
                }
            }
        }
    }

    @Test
    void clampedEndsInterpolateAndRepeatedPointsGiveRest()
    {
        final ClampedBSpline spline = new ClampedBSpline(3, 10);
        final double[] out = new double[16];
        assertEquals(0, spline.evaluate(0.0, 4, out));
        assertEquals(1.0, out[0], 0.0);
        assertEquals(-out[4], out[5], 1e-12, "q'(0) = N0' p0 + N1' p1 with N0' = -N1'");
        assertEquals(6, spline.evaluate(1.0, 4, out));
        assertEquals(1.0, out[3], 1e-15);
        assertTrue(spline.greville(0) == 0.0 && spline.greville(9) == 1.0);
    }
}
