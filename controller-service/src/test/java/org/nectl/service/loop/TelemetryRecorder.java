package org.nectl.service.loop;

import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

import io.aeron.Aeron;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;
import org.nectl.transport.sbe.TelemetryEncoder;

/**
 * Subscribes to the service's Telemetry publication and keeps what the tests read from every
 * sample, plus a CRC-32C of the sample's bytes with the three wall-clock fields zeroed:
 * {@code tickComputeNs} and {@code tickIntervalNs} (measured durations) and {@code overrunCount}
 * (a count of measured durations above the period). Everything else in a lockstep sample is a function of the
 * simulated arm and the commands. ControllerEvents on the same publication are kept in
 * {@link #events}. Not thread safe: one thread polls.
 */
final class TelemetryRecorder implements AutoCloseable
{
    /** The fields of one Telemetry sample the tests use, and the whole sample decoded. */
    record Sample(
        long sequence, long timestampNs, long tickCount, long deadlineMissCount, long missingStateCount,
        long telemetryDropCount, long jointStateSequence, long jointStateTimestampNs, long[] rejectCounts,
        ControllerState state, long faults, double[] qd, double[] tauCommand, long crc, TelemetrySample values, long rawCrc)
    {
        /** @return the largest commanded |effort| of the tick, N·m or N. */
        double maxAbsTauCommand()
        {
            double max = 0.0;
            for (final double tau : tauCommand)
            {
                max = Math.max(max, Math.abs(tau));
            }
            return max;
        }
    }

    /** One ControllerEvent. */
    record Event(
        long sequence, long timestampNs, long tickCount, long droppedEventCount, int faults, int newFaults,
        ControllerEventKind kind, ControllerState fromState, ControllerState toState, EventCommand command, int rejectCode)
    {
    }

    /** One COLLISION event's detection: when, which joint, its estimate, the state it found. */
    record Collision(long timestampNs, long tickCount, int joint, double externalTorque, ControllerState state)
    {
    }

    private static final int MESSAGE_LENGTH = Wire.HEADER_LENGTH + TelemetryEncoder.BLOCK_LENGTH;

    private final Subscription subscription;
    private final FragmentHandler assembler = new FragmentAssembler(this::onFragment);
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final TelemetryDecoder decoder = new TelemetryDecoder();
    private final ControllerEventDecoder eventDecoder = new ControllerEventDecoder();
    private final UnsafeBuffer copy = new UnsafeBuffer(new byte[MESSAGE_LENGTH]);
    private final TelemetryEncoder scrubber = new TelemetryEncoder();
    private final CRC32C crc = new CRC32C();
    final List<Sample> samples = new ArrayList<>();
    final List<Event> events = new ArrayList<>();
    final List<Collision> collisions = new ArrayList<>();

    TelemetryRecorder(final Aeron aeron)
    {
        subscription = aeron.addSubscription(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID);
    }

    boolean isConnected()
    {
        return subscription.isConnected();
    }

    /** Reads what has arrived. @return fragments read. */
    int poll()
    {
        return subscription.poll(assembler, 64);
    }

    /** @return the last sample received, or null. */
    Sample last()
    {
        return samples.isEmpty() ? null : samples.get(samples.size() - 1);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final io.aeron.logbuffer.Header frame)
    {
        header.wrap(buffer, offset);
        if (header.templateId() == ControllerEventDecoder.TEMPLATE_ID)
        {
            final ControllerEventDecoder e = eventDecoder.wrapAndApplyHeader(buffer, offset, header);
            events.add(new Event(e.sequence(), e.timestampNs(), e.tickCount(), e.droppedEventCount(), (int)e.faults(),
                (int)e.newFaults(), e.kind(), e.fromState(), e.toState(), e.command(), e.rejectCode()));
            if (e.kind() == ControllerEventKind.COLLISION)
            {
                collisions.add(new Collision(e.timestampNs(), e.tickCount(), e.joint(), e.externalTorque(), e.fromState()));
            }
            return;
        }
        if (header.templateId() != TelemetryDecoder.TEMPLATE_ID)
        {
            return;
        }
        decoder.wrapAndApplyHeader(buffer, offset, header);
        final long[] rejects = new long[TelemetryDecoder.rejectCountsLength()];
        for (int r = 0; r < rejects.length; r++)
        {
            rejects[r] = decoder.rejectCounts(r);
        }
        final double[] qd = new double[decoder.jointCount()];
        final double[] tau = new double[qd.length];
        for (int j = 0; j < qd.length; j++)
        {
            qd[j] = decoder.qd(j);
            tau[j] = decoder.tauCommand(j);
        }
        copy.putBytes(0, buffer, offset, MESSAGE_LENGTH);
        crc.reset();
        crc.update(copy.byteArray(), 0, MESSAGE_LENGTH);
        final long rawCrc = crc.getValue();
        scrubber.wrap(copy, Wire.HEADER_LENGTH).tickComputeNs(0).overrunCount(0).tickIntervalNs(0);
        crc.reset();
        crc.update(copy.byteArray(), 0, MESSAGE_LENGTH);
        samples.add(new Sample(decoder.sequence(), decoder.timestampNs(), decoder.tickCount(), decoder.deadlineMissCount(),
            decoder.missingStateCount(), decoder.telemetryDropCount(), decoder.jointStateSequence(),
            decoder.jointStateTimestampNs(), rejects, decoder.state(), decoder.faults(), qd, tau, crc.getValue(),
            decoded(), rawCrc));
    }

    /** @return the first event of the kind at or after controller time {@code fromNs}, or null. */
    Event firstEvent(final ControllerEventKind kind, final long fromNs)
    {
        return events.stream().filter(e -> e.kind() == kind && e.timestampNs() >= fromNs).findFirst().orElse(null);
    }

    private TelemetrySample decoded()
    {
        final TelemetrySample values = new TelemetrySample(decoder.jointCount());
        values.decode(decoder);
        return values;
    }

    @Override
    public void close()
    {
        subscription.close();
    }
}
