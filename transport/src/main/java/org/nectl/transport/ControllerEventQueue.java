package org.nectl.transport;

import java.nio.ByteBuffer;

import org.agrona.concurrent.ControlledMessageHandler;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.ringbuffer.OneToOneRingBuffer;
import org.agrona.concurrent.ringbuffer.RingBufferDescriptor;
import org.nectl.transport.sbe.ControllerEventEncoder;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.MessageHeaderEncoder;

/**
 * Lock-free single-producer, single-consumer ring of ControllerEvent messages between the control
 * loop and the {@link TelemetryPublisher}, separate from the decimated sample ring so that a burst
 * of samples never crowds out an event. The loop encodes each event in place; when the ring is
 * full the event is dropped and counted (and its sequence number skipped), so the loop never waits.
 *
 * <p>{@link #offer} on the loop thread only (real-time safe); {@link #read} on the publisher thread.
 */
public final class ControllerEventQueue
{
    /** Default ring capacity: about a thousand events. */
    public static final int DEFAULT_CAPACITY_BYTES = 64 * 1024;

    private static final int MESSAGE_LENGTH = Wire.HEADER_LENGTH + ControllerEventEncoder.BLOCK_LENGTH;

    private final OneToOneRingBuffer ring;
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final ControllerEventEncoder encoder = new ControllerEventEncoder();
    private long eventCount;
    private long dropCount;

    /**
     * Not real-time safe.
     *
     * @param capacityBytes ring capacity, a power of two holding at least 8 events.
     */
    public ControllerEventQueue(final int capacityBytes)
    {
        if (Integer.bitCount(capacityBytes) != 1 || capacityBytes < 8 * 2 * MESSAGE_LENGTH)
        {
            throw new IllegalArgumentException("event ring capacity must be a power of two of at least "
                + 8 * 2 * MESSAGE_LENGTH + " bytes, got " + capacityBytes);
        }
        ring = new OneToOneRingBuffer(new UnsafeBuffer(ByteBuffer.allocateDirect(capacityBytes + RingBufferDescriptor.TRAILER_LENGTH)));
    }

    /**
     * Queues one event, or drops and counts it when the ring is full. Loop thread only. Real-time
     * safe: never blocks.
     *
     * @param timestampNs controller clock of the event, ns.
     * @param tickCount ticks run when it happened.
     * @param kind what happened.
     * @param fromState state before.
     * @param toState state after.
     * @param faults fault bits latched after the event.
     * @param newFaults fault bits the event latched.
     * @param command planner command that caused it, or NONE.
     * @param rejectCode the loop's refusal code for COMMAND_REJECTED, else 0.
     * @return true if queued, false if dropped.
     */
    public boolean offer(
        final long timestampNs, final long tickCount, final ControllerEventKind kind, final ControllerState fromState,
        final ControllerState toState, final int faults, final int newFaults, final EventCommand command, final int rejectCode)
    {
        return offer(timestampNs, tickCount, kind, fromState, toState, faults, newFaults, command, rejectCode, 0, 0.0);
    }

    /**
     * Queues one COLLISION event, or drops and counts it when the ring is full. Loop thread only.
     * Real-time safe: never blocks.
     *
     * @param timestampNs controller clock of the detection, ns.
     * @param tickCount ticks run when it happened.
     * @param state controller state at the detection, before its reaction.
     * @param faults fault bits latched before the reaction.
     * @param joint the joint furthest over its threshold.
     * @param externalTorque its external torque estimate, N·m or N.
     * @return true if queued, false if dropped.
     */
    public boolean offerCollision(final long timestampNs, final long tickCount, final ControllerState state, final int faults,
        final int joint, final double externalTorque)
    {
        return offer(timestampNs, tickCount, ControllerEventKind.COLLISION, state, state, faults, 0, EventCommand.NONE, 0,
            joint, externalTorque);
    }

    private boolean offer(
        final long timestampNs, final long tickCount, final ControllerEventKind kind, final ControllerState fromState,
        final ControllerState toState, final int faults, final int newFaults, final EventCommand command, final int rejectCode,
        final int joint, final double externalTorque)
    {
        eventCount++;
        final int index = ring.tryClaim(ControllerEventEncoder.TEMPLATE_ID, MESSAGE_LENGTH);
        if (index < 0)
        {
            dropCount++;
            return false;
        }
        encoder.wrapAndApplyHeader(ring.buffer(), index, headerEncoder)
            .sequence(eventCount)
            .timestampNs(timestampNs)
            .tickCount(tickCount)
            .droppedEventCount(dropCount)
            .faults(faults)
            .newFaults(newFaults)
            .kind(kind)
            .fromState(fromState)
            .toState(toState)
            .command(command)
            .rejectCode((short)rejectCode)
            .joint((short)joint)
            .externalTorque(externalTorque);
        ring.commit(index);
        return true;
    }

    /** @return events offered since start, queued or dropped. Loop thread. */
    public long eventCount()
    {
        return eventCount;
    }

    /** @return events dropped because the ring was full. Loop thread. */
    public long dropCount()
    {
        return dropCount;
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
