package org.nectl.core.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AllocationMeterTest
{
    private Object escaped;

    @Test
    void countsAnAllocationThatEscapesEveryCall()
    {
        final int calls = 10_000;
        final long bytes = AllocationMeter.bytesAllocated(() -> escaped = new long[4], 1_000, calls);
        // A long[4] is at least a 12-byte header plus 32 bytes of data.
        assertTrue(bytes >= 44L * calls, "measured " + bytes + " bytes for " + calls + " arrays");
    }

    @Test
    void reportsZeroForArithmeticOnPreallocatedArrays()
    {
        final double[] data = new double[16];
        assertEquals(0L, AllocationMeter.bytesAllocated(() ->
        {
            for (int i = 1; i < data.length; i++)
            {
                data[i] += data[i - 1] + 1.0;
            }
        }, 1_000, 10_000));
    }
}
