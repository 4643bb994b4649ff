package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Comparisons relative to a stated scale, shared by the dynamics tests.
 */
final class DynamicsAssertions
{
    private DynamicsAssertions()
    {
    }

    /** @return max(1, max |v_i|): the scale relative tolerances refer to (1 keeps near-zero vectors absolute). */
    static double scale(final double[] v)
    {
        double s = 1.0;
        for (final double x : v)
        {
            s = Math.max(s, Math.abs(x));
        }
        return s;
    }

    /** Asserts |expected_i - actual_i| <= tolerance * scale(expected) for every i. */
    static void assertClose(final double[] expected, final double[] actual, final double tolerance, final String message)
    {
        final double bound = tolerance * scale(expected);
        double worst = 0.0;
        int at = -1;
        for (int i = 0; i < expected.length; i++)
        {
            final double e = Math.abs(expected[i] - actual[i]);
            if (!(e <= worst))
            {
                worst = e;
                at = i;
            }
        }
        final double error = worst;
        final int index = at;
        assertTrue(error <= bound, () -> message + ": entry " + index + " differs by " + error
            + " > " + bound + " (expected " + expected[index] + ", got " + actual[index] + ")");
    }
}
