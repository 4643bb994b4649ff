package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/** The loop-side queue hands over everything queued in one drain, also across the ring's wrap. */
final class PlannerCommandQueueTest
{
    @Test
    void oneDrainEmptiesTheQueueEvenWhenTheRingWraps()
    {
        final PlannerCommandQueue queue = new PlannerCommandQueue(16 * 1024);
        final byte[] datagram = new PlannerDatagrams().setpoint(0L, new double[7], new double[7]);
        final UnsafeBuffer message = new UnsafeBuffer(datagram);
        final int length = datagram.length - PlannerCommandValidator.AUTH_TRAILER_LENGTH;
        final long[] lastSequence = {-1L};
        final PlannerCommandHandler handler = new PlannerCommandHandler()
        {
            @Override
            public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
            {
                assertEquals(lastSequence[0] + 1, setpoint.header().sequence(), "in order, none lost");
                lastSequence[0] = setpoint.header().sequence();
            }

            @Override
            public void onTrajectorySegment(final TrajectorySegmentDecoder segment)
            {
                throw new AssertionError("unexpected segment");
            }

            @Override
            public void onModeRequest(final ModeRequestDecoder request)
            {
                throw new AssertionError("unexpected mode request");
            }

            @Override
            public void onEStop(final EStopDecoder stop)
            {
                throw new AssertionError("unexpected e-stop");
            }
        };
        long sequence = 0;
        for (int round = 0; round < 500; round++)
        {
            for (int i = 0; i < 3; i++)
            {
                message.putLong(Wire.HEADER_LENGTH, sequence++, Wire.BYTE_ORDER);
                assertTrue(queue.offer(message, 0, length, StreamSetpointDecoder.TEMPLATE_ID), "room in round " + round);
            }
            assertEquals(3, queue.drain(handler, 10), "round " + round);
        }
        assertEquals(sequence - 1, lastSequence[0]);
    }
}
