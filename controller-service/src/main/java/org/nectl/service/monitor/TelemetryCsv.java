package org.nectl.service.monitor;

import java.io.IOException;
import java.io.Writer;

import org.nectl.transport.PlannerGateway;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.RejectReason;

/**
 * Writes Telemetry samples as comma-separated values, one row per sample with every field of the
 * message (docs/PROTOCOL.md, "Telemetry"): counters, state and controller by name, reject counts by
 * reason, then q, qd, tauCommand and trackingError per joint. Doubles are written in Java's
 * shortest round-trip form, so a row parses back to the exact values.
 *
 * <p>Not thread safe. Not real-time safe.
 */
public final class TelemetryCsv
{
    private final Writer out;
    private final StringBuilder row = new StringBuilder(4096);

    /** @param out where rows go; the caller closes it. */
    public TelemetryCsv(final Writer out)
    {
        this.out = out;
    }

    /** Writes the header line for {@code jointCount} joints. */
    public void writeHeader(final int jointCount) throws IOException
    {
        row.setLength(0);
        row.append("sequence,timestampNs,tickCount,overrunCount,deadlineMissCount,missingStateCount,telemetryDropCount,")
            .append("jointStateSequence,jointStateTimestampNs,tickComputeNs,state,controller");
        for (int r = 0; r < PlannerGateway.REJECT_COUNTER_COUNT; r++)
        {
            row.append(",reject_").append(reasonName(r));
        }
        for (final String name : new String[] {"q", "qd", "tau", "error"})
        {
            for (int k = 1; k <= jointCount; k++)
            {
                row.append(',').append(name).append(k);
            }
        }
        out.append(row).append('\n');
    }

    /** Writes one sample as a row. */
    public void write(final TelemetrySample sample) throws IOException
    {
        row.setLength(0);
        row.append(sample.sequence()).append(',').append(sample.timestampNs()).append(',').append(sample.tickCount())
            .append(',').append(sample.overrunCount()).append(',').append(sample.deadlineMissCount())
            .append(',').append(sample.missingStateCount()).append(',').append(sample.telemetryDropCount())
            .append(',').append(sample.jointStateSequence()).append(',').append(sample.jointStateTimestampNs())
            .append(',').append(sample.tickComputeNs()).append(',').append(sample.state()).append(',').append(sample.controller());
        for (final long count : sample.rejectCounts())
        {
            row.append(',').append(count);
        }
        for (final double[] values : new double[][] {sample.q(), sample.qd(), sample.tauCommand(), sample.trackingError()})
        {
            for (final double value : values)
            {
                row.append(',').append(value);
            }
        }
        out.append(row).append('\n');
    }

    /** @return the RejectReason name of counter {@code r}, or "reserved_r" for counters without one. */
    static String reasonName(final int r)
    {
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason.value() == r)
            {
                return reason.name();
            }
        }
        return "reserved_" + r;
    }
}
