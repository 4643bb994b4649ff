package org.nectl.transport;

import java.nio.ByteBuffer;

import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.TelemetryEncoder;

/**
 * Lock-free single-producer, single-consumer ring between the control loop and the
 * {@link TelemetryPublisher}: the loop encodes every {@code decimation}-th sample in place as a
 * Telemetry message; when the ring is full the sample is dropped and counted, so the loop never
 * waits for a slow or stalled consumer.
 *
 * <p>{@link #offer} on the loop thread only (real-time safe); {@link #read} on the publisher thread.
 */
public final class TelemetryQueue
{
    /** {@link #offer} result: the sample was queued. */
    public static final int QUEUED = 1;
    /** {@link #offer} result: not this tick's turn under decimation. */
    public static final int DECIMATED = 0;
    /** {@link #offer} result: the ring was full; the sample was dropped and counted. */
    public static final int DROPPED = -1;

    private static final int MESSAGE_LENGTH = Wire.HEADER_LENGTH + TelemetryEncoder.BLOCK_LENGTH;

    private final OneToOneRingBuffer ring;
    private final int decimation;
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final TelemetryEncoder encoder = new TelemetryEncoder();
    private int ticksUntilSample;
    private long sampleCount;
    private long dropCount;

    /** Not real-time safe. */
    public TelemetryQueue(final TelemetryConfig config)
    {
        ring = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(config.ringCapacityBytes() + RingBufferDescriptor.TRAILER_LENGTH)));
        if (ring.maxMsgLength() < MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException("telemetry ring of " + config.ringCapacityBytes()
                + " bytes cannot hold a " + MESSAGE_LENGTH + "-byte message; use at least " + 8 * MESSAGE_LENGTH);
        }
        decimation = config.decimation();
    }

    /**
     * Queues the sample if it is this tick's turn. Loop thread only. Real-time safe: never blocks.
     *
     * @return {@link #QUEUED}, {@link #DECIMATED} or {@link #DROPPED}.
     */
    public int offer(final TelemetrySample sample)
    {
        return due() ? enqueue(sample) : DECIMATED;
    }

    /**
     * Counts one tick toward decimation. Loop thread only. Real-time safe.
     *
     * @return true if this tick's sample survives decimation and is to be {@link #enqueue enqueued}:
     *     the loop fills the sample only then.
     */
    public boolean due()
    {
        if (ticksUntilSample > 0)
        {
            ticksUntilSample--;
            return false;
        }
        ticksUntilSample = decimation - 1;
        return true;
    }

    /**
     * Queues the sample unconditionally, after {@link #due} returned true. Loop thread only.
     * Real-time safe: never blocks.
     *
     * @return {@link #QUEUED} or {@link #DROPPED}.
     */
    public int enqueue(final TelemetrySample sample)
    {
        sampleCount++;
        final int index = ring.tryClaim(TelemetryEncoder.TEMPLATE_ID, MESSAGE_LENGTH);
        if (index < 0)
        {
            dropCount++;
            return DROPPED;
        }
        encoder.wrapAndApplyHeader(ring.buffer(), index, headerEncoder);
        sample.encode(encoder, sampleCount, dropCount);
        ring.commit(index);
        return QUEUED;
    }

    /** @return samples dropped because the ring was full. Loop thread. */
    public long dropCount()
    {
        return dropCount;
    }

    /** @return samples selected by decimation, queued or dropped. Loop thread. */
    public long sampleCount()
    {
        return sampleCount;
    }

    int read(final ControlledMessageHandler handler, final int limit)
    {
        return ring.controlledRead(handler, limit);
    }

    /** @return true when nothing is waiting in the ring. Any thread. */
    boolean isEmpty()
    {
        return ring.size() == 0;
    }
}
