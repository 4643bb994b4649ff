package org.nectl.transport;

import org.nectl.transport.sbe.AdapterHeartbeatDecoder;
import org.nectl.transport.sbe.AdapterHeartbeatEncoder;
import org.nectl.transport.sbe.AdapterState;

/**
 * One AdapterHeartbeat: the adapter's sign of life, independent of encoder samples.
 *
 * <p>Not thread safe: owned by one thread.
 */
public final class HeartbeatSample
{
    private long sequence;
    private long timestampNs;
    private long lastMotorCommandSequence;
    private long adapterId;
    private AdapterState state = AdapterState.STARTING;

    /** @return heartbeat number. */
    public long sequence()
    {
        return sequence;
    }

    /** @param sequence heartbeat number. @return this. */
    public HeartbeatSample sequence(final long sequence)
    {
        this.sequence = sequence;
        return this;
    }

    /** @return host monotonic time of sending, ns. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @param timestampNs host monotonic time of sending, ns. @return this. */
    public HeartbeatSample timestampNs(final long timestampNs)
    {
        this.timestampNs = timestampNs;
        return this;
    }

    /** @return sequence of the newest MotorCommand the adapter received. */
    public long lastMotorCommandSequence()
    {
        return lastMotorCommandSequence;
    }

    /** @param lastMotorCommandSequence newest MotorCommand received. @return this. */
    public HeartbeatSample lastMotorCommandSequence(final long lastMotorCommandSequence)
    {
        this.lastMotorCommandSequence = lastMotorCommandSequence;
        return this;
    }

    /** @return adapter identity, 0..2^32-1. */
    public long adapterId()
    {
        return adapterId;
    }

    /** @param adapterId adapter identity, 0..2^32-1. @return this. */
    public HeartbeatSample adapterId(final long adapterId)
    {
        this.adapterId = adapterId;
        return this;
    }

    /** @return adapter life cycle state. */
    public AdapterState state()
    {
        return state;
    }

    /** @param state adapter life cycle state. @return this. */
    public HeartbeatSample state(final AdapterState state)
    {
        this.state = state;
        return this;
    }

    void encode(final AdapterHeartbeatEncoder encoder)
    {
        encoder.sequence(sequence).timestampNs(timestampNs).lastMotorCommandSequence(lastMotorCommandSequence)
            .adapterId(adapterId).state(state);
    }

    /** @return false if the state byte is not a valid value; the sample is then unchanged. */
    boolean decode(final AdapterHeartbeatDecoder decoder)
    {
        final short stateRaw = decoder.stateRaw();
        if (stateRaw > AdapterState.FAULT.value())
        {
            return false;
        }
        sequence = decoder.sequence();
        timestampNs = decoder.timestampNs();
        lastMotorCommandSequence = decoder.lastMotorCommandSequence();
        adapterId = decoder.adapterId();
        state = AdapterState.get(stateRaw);
        return true;
    }
}
