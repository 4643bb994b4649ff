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
    private int faults;

    /** @param jointCount number of joints, 1..{@value Wire#MAX_JOINTS}. */
    public TelemetrySample(final int jointCount)
    {
        Wire.checkJointCount(jointCount);
        q = new double[jointCount];
        qd = new double[jointCount];
        tauCommand = new double[jointCount];
        trackingError = new double[jointCount];
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

    /** @return fault bits latched at the end of the tick (docs/PROTOCOL.md, Fault bits). */
    public int faults()
    {
        return faults;
    }

    /** @param faults fault bits latched at the end of the tick. @return this. */
    public TelemetrySample faults(final int faults)
    {
        this.faults = faults;
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
            .faults(faults & 0xFFFF_FFFFL);
        for (int r = 0; r < rejectCounts.length; r++)
        {
            encoder.rejectCounts(r, rejectCounts[r]);
        }
        for (int k = 0; k < q.length; k++)
        {
            encoder.q(k, q[k]).qd(k, qd[k]).tauCommand(k, tauCommand[k]).trackingError(k, trackingError[k]);
        }
        for (int k = q.length; k < Wire.MAX_JOINTS; k++)
        {
            encoder.q(k, 0.0).qd(k, 0.0).tauCommand(k, 0.0).trackingError(k, 0.0);
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
        faults = decoder.actingVersion() >= TelemetryDecoder.faultsSinceVersion() ? (int)decoder.faults() : 0;
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
}
