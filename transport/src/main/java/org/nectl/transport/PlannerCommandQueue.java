package org.nectl.transport;

import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.MessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.PayloadCommandDecoder;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * Lock-free single-producer, single-consumer queue of validated planner commands from the planner
 * gateway thread to the control loop thread: an Agrona {@link OneToOneRingBuffer} holding each
 * command as its SBE message (header included, trailer stripped), message type = template id.
 *
 * <p>{@link #offer} on one producer thread, {@link #drain} on one consumer thread; both are
 * real-time safe (no allocation, no locks).
 */
public final class PlannerCommandQueue
{
    private final OneToOneRingBuffer ring;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final TrajectorySegmentDecoder segmentDecoder = new TrajectorySegmentDecoder();
    private final StreamSetpointDecoder setpointDecoder = new StreamSetpointDecoder();
    private final ModeRequestDecoder modeDecoder = new ModeRequestDecoder();
    private final EStopDecoder stopDecoder = new EStopDecoder();
    private final PayloadCommandDecoder payloadDecoder = new PayloadCommandDecoder();
    private final MessageHandler dispatcher = this::dispatch;
    private PlannerCommandHandler handler;

    /** @param capacityBytes ring capacity, a power of two; a command may use up to an eighth of it. Not real-time safe. */
    public PlannerCommandQueue(final int capacityBytes)
    {
        ring = new OneToOneRingBuffer(
            new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /** @return the longest command the queue accepts, bytes. */
    public int maxMessageLength()
    {
        return ring.maxMsgLength();
    }

    /**
     * Enqueues one validated command. Producer thread only.
     *
     * @return false if the queue is full (nothing enqueued).
     */
    public boolean offer(final DirectBuffer buffer, final int offset, final int length, final int templateId)
    {
        return ring.write(templateId, buffer, offset, length);
    }

    /**
     * Hands up to {@code limit} queued commands to {@code handler}, oldest first. Consumer thread only.
     *
     * @return number of commands handed over; fewer than {@code limit} means the queue is now empty.
     */
    public int drain(final PlannerCommandHandler handler, final int limit)
    {
        this.handler = handler;
        // One ring read stops at the end of the buffer; the second continues after the wrap.
        final int firstCount = ring.read(dispatcher, limit);
        return firstCount < limit ? firstCount + ring.read(dispatcher, limit - firstCount) : firstCount;
    }

    private void dispatch(final int templateId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        switch (templateId)
        {
            case TrajectorySegmentDecoder.TEMPLATE_ID:
                handler.onTrajectorySegment(segmentDecoder.wrapAndApplyHeader(buffer, index, headerDecoder));
                break;
            case StreamSetpointDecoder.TEMPLATE_ID:
                handler.onStreamSetpoint(setpointDecoder.wrapAndApplyHeader(buffer, index, headerDecoder));
                break;
            case ModeRequestDecoder.TEMPLATE_ID:
                handler.onModeRequest(modeDecoder.wrapAndApplyHeader(buffer, index, headerDecoder));
                break;
            case EStopDecoder.TEMPLATE_ID:
                handler.onEStop(stopDecoder.wrapAndApplyHeader(buffer, index, headerDecoder));
                break;
            case PayloadCommandDecoder.TEMPLATE_ID:
                handler.onPayload(payloadDecoder.wrapAndApplyHeader(buffer, index, headerDecoder));
                break;
            default:
                throw new IllegalStateException("only validated planner commands are queued, got template " + templateId);
        }
    }
}
