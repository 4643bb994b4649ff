package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Comparisons relative to the reference's scale, shared by the dynamics tests.
 */
final class DynamicsAssertions
{
    private DynamicsAssertions()
    {
    }

    /**
     * Asserts {@link FormulationCrossCheck#discrepancy}(expected, actual) <= tolerance: max |difference|
     * over max(1, max |expected|).
     */
    static void assertClose(final double[] expected, final double[] actual, final double tolerance, final String message)
    {
        final double d = FormulationCrossCheck.discrepancy(expected, actual);
        assertTrue(d <= tolerance, () -> message + ": discrepancy " + d + " > " + tolerance);
    }
}
