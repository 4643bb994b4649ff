package org.nectl.transport;

import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.TelemetryDecoder;
import org.nectl.transport.sbe.TelemetryEncoder;

/**
 * What the control loop reports about one tick, in plain arrays and counts, filled by the loop
 * and handed to {@link TelemetryQueue#offer}. Per-joint values are in joint space, coordinate order
 * of the robot description; rad, rad/s, N·m (m, m/s, N for prismatic joints).
 *
 * <p>Not thread safe: owned by one thread.
 */
public final class TelemetrySample
{
    private final double[] q;
    private final double[] qd;
    private final double[] tauCommand;
    private final double[] trackingError;
    private final double[] externalTorque;
    private final double[] tauFeedforward;
    private final double[] tauFeedforwardRate;
    private final double[] tauLaw;
    private final long[] rejectCounts = new long[PlannerGateway.REJECT_COUNTER_COUNT];
    private long sequence;
    private long timestampNs;
    private long tickCount;
    private long overrunCount;
    private long deadlineMissCount;
    private long missingStateCount;
    private long telemetryDropCount;
    private long jointStateSequence;
    private long jointStateTimestampNs;
    private long tickComputeNs;
    private ControllerState state = ControllerState.IDLE;
    private ControllerKind controller = ControllerKind.UNCHANGED;
    private double referenceClockRate = 1.0;
    private long timeScaledTickCount;
    private long torqueClipCount;
    private long torqueRateClipCount;
    private long limiterFlags;
    private int faults;
    private long collisionCount;
    private long baseBlockValidCount;
    private long baseBlockMissingCount;
    private long baseBlockInvalidCount;
    private long tickStartLatenessNs;
    private long tickIntervalNs;

    /** @param jointCount number of joints, 1..{@value Wire#MAX_JOINTS}. */
    public TelemetrySample(final int jointCount)
    {
        Wire.checkJointCount(jointCount);
        q = new double[jointCount];
        qd = new double[jointCount];
        tauCommand = new double[jointCount];
        trackingError = new double[jointCount];
        externalTorque = new double[jointCount];
        tauFeedforward = new double[jointCount];
        tauFeedforwardRate = new double[jointCount];
        tauLaw = new double[jointCount];
    }

    /** @return number of joints. */
    public int jointCount()
    {
        return q.length;
    }

    /** @return measured positions, rad or m; the live array. */
    public double[] q()
    {
        return q;
    }

    /** @return measured velocities, rad/s or m/s; the live array. */
    public double[] qd()
    {
        return qd;
    }

    /** @return commanded efforts after limits, N·m or N; the live array. */
    public double[] tauCommand()
    {
        return tauCommand;
    }

    /** @return reference minus measured position, rad or m; the live array. */
    public double[] trackingError()
    {
        return trackingError;
    }

    /** @return feedforward effort along the reference, N·m or N; zero in version 1-2 messages; the live array. */
    public double[] tauFeedforward()
    {
        return tauFeedforward;
    }

    /** @return time derivative of the feedforward effort, N·m/s or N/s; zero in version 1-2 messages; the live array. */
    public double[] tauFeedforwardRate()
    {
        return tauFeedforwardRate;
    }

    /** @return effort the control law asked for, before the limits, N·m or N; zero in version 1-2 messages; the live array. */
    public double[] tauLaw()
    {
        return tauLaw;
    }

    /** @return planner datagrams rejected since start, indexed by RejectReason value; the live array. */
    public long[] rejectCounts()
    {
        return rejectCounts;
    }

    /** @return telemetry sample number, set by the {@link TelemetryQueue}. */
    public long sequence()
    {
        return sequence;
    }

    /** @return host monotonic time at the start of the tick, ns. */
    public long timestampNs()
    {
        return timestampNs;
    }

    /** @param timestampNs host monotonic time at the start of the tick, ns. @return this. */
    public TelemetrySample timestampNs(final long timestampNs)
    {
        this.timestampNs = timestampNs;
        return this;
    }

    /** @return ticks since start. */
    public long tickCount()
    {
        return tickCount;
    }

    /** @param tickCount ticks since start. @return this. */
    public TelemetrySample tickCount(final long tickCount)
    {
        this.tickCount = tickCount;
        return this;
    }

    /** @return ticks whose compute time exceeded the period. */
    public long overrunCount()
    {
        return overrunCount;
    }

    /** @param overrunCount ticks whose compute time exceeded the period. @return this. */
    public TelemetrySample overrunCount(final long overrunCount)
    {
        this.overrunCount = overrunCount;
        return this;
    }

    /** @return ticks that started later than their deadline. */
    public long deadlineMissCount()
    {
        return deadlineMissCount;
    }

    /** @param deadlineMissCount ticks that started late. @return this. */
    public TelemetrySample deadlineMissCount(final long deadlineMissCount)
    {
        this.deadlineMissCount = deadlineMissCount;
        return this;
    }

    /** @return ticks without a new JointState. */
    public long missingStateCount()
    {
        return missingStateCount;
    }

    /** @param missingStateCount ticks without a new JointState. @return this. */
    public TelemetrySample missingStateCount(final long missingStateCount)
    {
        this.missingStateCount = missingStateCount;
        return this;
    }

    /** @return samples dropped because the telemetry ring was full, set by the {@link TelemetryQueue}. */
    public long telemetryDropCount()
    {
        return telemetryDropCount;
    }

    /** @return sequence of the JointState used in the tick. */
    public long jointStateSequence()
    {
        return jointStateSequence;
    }

    /** @param jointStateSequence sequence of the JointState used. @return this. */
    public TelemetrySample jointStateSequence(final long jointStateSequence)
    {
        this.jointStateSequence = jointStateSequence;
        return this;
    }

    /** @return timestampNs of the JointState used in the tick, ns. */
    public long jointStateTimestampNs()
    {
        return jointStateTimestampNs;
    }

    /** @param jointStateTimestampNs timestampNs of the JointState used, ns. @return this. */
    public TelemetrySample jointStateTimestampNs(final long jointStateTimestampNs)
    {
        this.jointStateTimestampNs = jointStateTimestampNs;
        return this;
    }

    /** @return compute time of the previous tick, ns. */
    public long tickComputeNs()
    {
        return tickComputeNs;
    }

    /** @param tickComputeNs compute time of the previous tick, ns. @return this. */
    public TelemetrySample tickComputeNs(final long tickComputeNs)
    {
        this.tickComputeNs = tickComputeNs;
        return this;
    }

    /** @return controller state at the end of the tick. */
    public ControllerState state()
    {
        return state;
    }

    /** @param state controller state at the end of the tick. @return this. */
    public TelemetrySample state(final ControllerState state)
    {
        this.state = state;
        return this;
    }

    /** @return control law in use. */
    public ControllerKind controller()
    {
        return controller;
    }

    /** @param controller control law in use. @return this. */
    public TelemetrySample controller(final ControllerKind controller)
    {
        this.controller = controller;
        return this;
    }

    /** @return rate s' of the trajectory reference clock, (0, 1]; 1 in version 1 messages. */
    public double referenceClockRate()
    {
        return referenceClockRate;
    }

    /** @param referenceClockRate rate s' of the trajectory reference clock, (0, 1]. @return this. */
    public TelemetrySample referenceClockRate(final double referenceClockRate)
    {
        this.referenceClockRate = referenceClockRate;
        return this;
    }

    /** @return ticks since start with s' below 1; 0 in version 1 messages. */
    public long timeScaledTickCount()
    {
        return timeScaledTickCount;
    }

    /** @param timeScaledTickCount ticks since start with s' below 1. @return this. */
    public TelemetrySample timeScaledTickCount(final long timeScaledTickCount)
    {
        this.timeScaledTickCount = timeScaledTickCount;
        return this;
    }

    /** @return efforts clipped to the effort limit since start, summed over joints; 0 in version 1 messages. */
    public long torqueClipCount()
    {
        return torqueClipCount;
    }

    /** @param torqueClipCount efforts clipped to the effort limit since start. @return this. */
    public TelemetrySample torqueClipCount(final long torqueClipCount)
    {
        this.torqueClipCount = torqueClipCount;
        return this;
    }

    /** @return efforts clipped to the rate window since start, summed over joints; 0 in version 1 messages. */
    public long torqueRateClipCount()
    {
        return torqueRateClipCount;
    }

    /** @param torqueRateClipCount efforts clipped to the rate window since start. @return this. */
    public TelemetrySample torqueRateClipCount(final long torqueRateClipCount)
    {
        this.torqueRateClipCount = torqueRateClipCount;
        return this;
    }

    /** @return this tick's torque limiter flags (bit j effort, bit 32 + j rate); 0 in version 1 messages. */
    public long limiterFlags()
    {
        return limiterFlags;
    }

    /** @param limiterFlags this tick's torque limiter flags. @return this. */
    public TelemetrySample limiterFlags(final long limiterFlags)
    {
        this.limiterFlags = limiterFlags;
        return this;
    }

    /** @return fault bits latched at the end of the tick (docs/PROTOCOL.md, Fault bits); 0 in version 1 messages. */
    public int faults()
    {
        return faults;
    }

    /** @return the momentum observer's external torque estimate, N·m or N; zero in version 1 and 2 messages; the live array. */
    public double[] externalTorque()
    {
        return externalTorque;
    }

    /** @return collisions detected since start; 0 in version 1 and 2 messages. */
    public long collisionCount()
    {
        return collisionCount;
    }

    /** @param collisionCount collisions detected since start. @return this. */
    public TelemetrySample collisionCount(final long collisionCount)
    {
        this.collisionCount = collisionCount;
        return this;
    }

    /** @return a carried arm's valid base-motion blocks taken since start; 0 for a fixed base and in version 1-3 messages. */
    public long baseBlockValidCount()
    {
        return baseBlockValidCount;
    }

    /**
     * @param valid valid base blocks taken since start.
     * @param missing JointStates without a base block since start.
     * @param invalid base blocks refused since start (non-finite, non-unit quaternion).
     * @return this.
     */
    public TelemetrySample baseBlockCounts(final long valid, final long missing, final long invalid)
    {
        baseBlockValidCount = valid;
        baseBlockMissingCount = missing;
        baseBlockInvalidCount = invalid;
        return this;
    }

    /** @return a carried arm's JointStates without a base-motion block since start; 0 for a fixed base and in version 1-3 messages. */
    public long baseBlockMissingCount()
    {
        return baseBlockMissingCount;
    }

    /** @return a carried arm's base-motion blocks refused since start; 0 for a fixed base and in version 1-3 messages. */
    public long baseBlockInvalidCount()
    {
        return baseBlockInvalidCount;
    }

    /** @param faults fault bits latched at the end of the tick. @return this. */
    public TelemetrySample faults(final int faults)
    {
        this.faults = faults;
        return this;
    }

    /** @return how late the tick started after its deadline, ns; 0 in lockstep and in version 1-2 messages. */
    public long tickStartLatenessNs()
    {
        return tickStartLatenessNs;
    }

    /** @param tickStartLatenessNs how late the tick started after its deadline, ns. @return this. */
    public TelemetrySample tickStartLatenessNs(final long tickStartLatenessNs)
    {
        this.tickStartLatenessNs = tickStartLatenessNs;
        return this;
    }

    /** @return host monotonic time from the previous tick's start to this one's, ns; 0 in version 1-2 messages. */
    public long tickIntervalNs()
    {
        return tickIntervalNs;
    }

    /** @param tickIntervalNs host monotonic time from the previous tick's start to this one's, ns. @return this. */
    public TelemetrySample tickIntervalNs(final long tickIntervalNs)
    {
        this.tickIntervalNs = tickIntervalNs;
        return this;
    }

    void encode(final TelemetryEncoder encoder, final long sampleSequence, final long dropCount)
    {
        sequence = sampleSequence;
        telemetryDropCount = dropCount;
        encoder.sequence(sequence).timestampNs(timestampNs).tickCount(tickCount).overrunCount(overrunCount)
            .deadlineMissCount(deadlineMissCount).missingStateCount(missingStateCount).telemetryDropCount(dropCount)
            .jointStateSequence(jointStateSequence).jointStateTimestampNs(jointStateTimestampNs)
            .tickComputeNs(tickComputeNs).state(state).controller(controller).jointCount((short)q.length)
            .referenceClockRate(referenceClockRate).timeScaledTickCount(timeScaledTickCount)
            .torqueClipCount(torqueClipCount).torqueRateClipCount(torqueRateClipCount).limiterFlags(limiterFlags)
            .faults(faults & 0xFFFF_FFFFL).tickStartLatenessNs(tickStartLatenessNs).tickIntervalNs(tickIntervalNs)
            .collisionCount(collisionCount).baseBlockValidCount(baseBlockValidCount)
            .baseBlockMissingCount(baseBlockMissingCount).baseBlockInvalidCount(baseBlockInvalidCount);
        for (int r = 0; r < rejectCounts.length; r++)
        {
            encoder.rejectCounts(r, rejectCounts[r]);
        }
        for (int k = 0; k < q.length; k++)
        {
            encoder.q(k, q[k]).qd(k, qd[k]).tauCommand(k, tauCommand[k]).trackingError(k, trackingError[k])
                .tauFeedforward(k, tauFeedforward[k]).tauFeedforwardRate(k, tauFeedforwardRate[k]).tauLaw(k, tauLaw[k])
                .externalTorque(k, externalTorque[k]);
        }
        for (int k = q.length; k < Wire.MAX_JOINTS; k++)
        {
            encoder.q(k, 0.0).qd(k, 0.0).tauCommand(k, 0.0).trackingError(k, 0.0)
                .tauFeedforward(k, 0.0).tauFeedforwardRate(k, 0.0).tauLaw(k, 0.0).externalTorque(k, 0.0);
        }
    }

    /**
     * Reads a received Telemetry message of this sample's joint count. Real-time safe.
     *
     * @return false (sample unchanged) if the joint count differs or an enum byte is invalid.
     */
    public boolean decode(final TelemetryDecoder decoder)
    {
        final short stateRaw = decoder.stateRaw();
        final short controllerRaw = decoder.controllerRaw();
        if (decoder.jointCount() != q.length || stateRaw > ControllerState.ESTOP.value()
            || controllerRaw > ControllerKind.MIXED_ELASTIC.value())
        {
            return false;
        }
        sequence = decoder.sequence();
        timestampNs = decoder.timestampNs();
        tickCount = decoder.tickCount();
        overrunCount = decoder.overrunCount();
        deadlineMissCount = decoder.deadlineMissCount();
        missingStateCount = decoder.missingStateCount();
        telemetryDropCount = decoder.telemetryDropCount();
        jointStateSequence = decoder.jointStateSequence();
        jointStateTimestampNs = decoder.jointStateTimestampNs();
        tickComputeNs = decoder.tickComputeNs();
        state = ControllerState.get(stateRaw);
        controller = ControllerKind.get(controllerRaw);
        decodeVersion2(decoder);
        decodeVersion3(decoder);
        decodeVersion4(decoder);
        for (int r = 0; r < rejectCounts.length; r++)
        {
            rejectCounts[r] = decoder.rejectCounts(r);
        }
        for (int k = 0; k < q.length; k++)
        {
            q[k] = decoder.q(k);
            qd[k] = decoder.qd(k);
            tauCommand[k] = decoder.tauCommand(k);
            trackingError[k] = decoder.trackingError(k);
        }
        return true;
    }

    /** Fields since version 2; a version 1 sender did not scale time or report clips or latched faults. */
    private void decodeVersion2(final TelemetryDecoder decoder)
    {
        final boolean present = decoder.actingVersion() >= 2;
        referenceClockRate = present ? decoder.referenceClockRate() : 1.0;
        timeScaledTickCount = present ? decoder.timeScaledTickCount() : 0L;
        torqueClipCount = present ? decoder.torqueClipCount() : 0L;
        torqueRateClipCount = present ? decoder.torqueRateClipCount() : 0L;
        limiterFlags = present ? decoder.limiterFlags() : 0L;
        faults = present ? (int)decoder.faults() : 0;
    }

    /** Fields since version 3; an older sender did not publish its feedforward, unlimited effort, tick timing or external torque. */
    private void decodeVersion3(final TelemetryDecoder decoder)
    {
        final boolean present = decoder.actingVersion() >= 3;
        tickStartLatenessNs = present ? decoder.tickStartLatenessNs() : 0L;
        tickIntervalNs = present ? decoder.tickIntervalNs() : 0L;
        collisionCount = present ? decoder.collisionCount() : 0L;
        for (int k = 0; k < q.length; k++)
        {
            tauFeedforward[k] = present ? decoder.tauFeedforward(k) : 0.0;
            tauFeedforwardRate[k] = present ? decoder.tauFeedforwardRate(k) : 0.0;
            tauLaw[k] = present ? decoder.tauLaw(k) : 0.0;
            externalTorque[k] = present ? decoder.externalTorque(k) : 0.0;
        }
    }

    /** Fields since version 4; an older sender did not count base-motion blocks. */
    private void decodeVersion4(final TelemetryDecoder decoder)
    {
        final boolean present = decoder.actingVersion() >= 4;
        baseBlockValidCount = present ? decoder.baseBlockValidCount() : 0L;
        baseBlockMissingCount = present ? decoder.baseBlockMissingCount() : 0L;
        baseBlockInvalidCount = present ? decoder.baseBlockInvalidCount() : 0L;
    }
}
