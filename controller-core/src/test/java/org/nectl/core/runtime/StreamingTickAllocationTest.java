package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/** Streaming ticks, bursts of setpoints applied together and the stop of a silent stream allocate nothing. */
class StreamingTickAllocationTest
{
    @Test
    void streamingTicksWithBurstsAndStopsAllocateNothing()
    {
        final CycleHarness h = new CycleHarness(RandomRobots.robot(9, 7, false, RandomRobots.Joints.REVOLUTE, false));
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(10);
        final int n = h.model.dof();
        final double[] q = h.cycle.referenceQ().clone();
        final double[] qd = new double[n];
        final double[] zero = new double[n];
        final int[] tick = {0};
        final Runnable streaming = () ->
        {
            final int k = tick[0]++;
            final int phase = k % 400;
            // 200 ticks of setpoints, every 50th a burst of three, then 200 ticks of silence (HOLD after 100).
            final int setpoints = phase >= 200 ? 0 : (phase % 50 == 0 ? 3 : 1);
            for (int i = 0; i < setpoints; i++)
            {
                final double s = 1e-4 * Math.sin(1e-2 * (k + i));
                for (int j = 0; j < n; j++)
                {
                    q[j] = h.cycle.referenceQ()[j] + s;
                    qd[j] = 0.01 * Math.cos(1e-2 * (k + i));
                }
                h.cycle.streamSetpoint(q, qd, zero, zero);
            }
            h.step(true, 0L);
        };
        assertEquals(0L, AllocationMeter.bytesAllocated(streaming, 4_000, 8_000), "bytes allocated over 8000 streaming ticks");
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
    }
}
