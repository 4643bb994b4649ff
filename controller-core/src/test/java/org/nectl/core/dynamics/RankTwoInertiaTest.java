package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

/**
 * The split Ic = lambda 1 + g g^T + k k^T of {@link RankTwoInertia} rebuilds the inertia it was
 * given, lambda being its smallest principal moment: on 1 000 seeded random inertias (principal
 * moments obeying the triangle inequality, random principal axes) and on the degenerate ones a
 * robot description can hold (zero, isotropic, a thin rod, a flat disc). Tolerance 1e-14 of the
 * largest moment: a few roundings of a symmetric 3x3 eigendecomposition.
 */
final class RankTwoInertiaTest
{
    private static final double TOLERANCE = 1e-14;

    @Test
    void splitRebuildsRandomInertias()
    {
        final SplittableRandom random = new SplittableRandom(11);
        for (int trial = 0; trial < 1000; trial++)
        {
            final double a = random.nextDouble(0.01, 2.0);
            final double b = random.nextDouble(0.01, 2.0);
            final double c = random.nextDouble(Math.abs(a - b), a + b);
            assertRebuilt(rotated(random, a, b, c), Math.min(a, Math.min(b, c)), "trial " + trial);
        }
    }

    @Test
    void splitRebuildsDegenerateInertias()
    {
        final SplittableRandom random = new SplittableRandom(12);
        assertRebuilt(new double[9], 0.0, "zero");
        assertRebuilt(rotated(random, 0.3, 0.3, 0.3), 0.3, "isotropic");
        assertRebuilt(rotated(random, 0.5, 0.5, 0.0), 0.0, "thin rod");
        assertRebuilt(rotated(random, 0.25, 0.25, 0.5), 0.25, "flat disc");
    }

    private static void assertRebuilt(final double[] inertia, final double smallest, final String what)
    {
        final double[] factors = new double[6];
        final double lambda = RankTwoInertia.split(inertia, factors, 0);
        final double scale = Math.max(1e-300, maxAbs(inertia));
        assertEquals(smallest, lambda, TOLERANCE * Math.max(scale, 1.0), what + ": lambda");
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                final double rebuilt = (r == c ? lambda : 0.0)
                    + factors[r] * factors[c] + factors[3 + r] * factors[3 + c];
                assertTrue(Math.abs(rebuilt - inertia[3 * r + c]) <= TOLERANCE * Math.max(scale, 1e-12),
                    what + ": entry " + r + "," + c + " rebuilt " + rebuilt + " vs " + inertia[3 * r + c]);
            }
        }
    }

    /** Q diag(a, b, c) Q^T for a uniformly random rotation Q. */
    private static double[] rotated(final SplittableRandom random, final double a, final double b, final double c)
    {
        final double[] q = RandomRobots.randomRotation(random);
        final double[] d = {a, b, c};
        final double[] out = new double[9];
        for (int r = 0; r < 3; r++)
        {
            for (int col = 0; col < 3; col++)
            {
                double sum = 0.0;
                for (int k = 0; k < 3; k++)
                {
                    sum += q[3 * r + k] * d[k] * q[3 * col + k];
                }
                out[3 * r + col] = sum;
            }
        }
        return out;
    }

    private static double maxAbs(final double[] v)
    {
        double max = 0.0;
        for (final double x : v)
        {
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }
}
