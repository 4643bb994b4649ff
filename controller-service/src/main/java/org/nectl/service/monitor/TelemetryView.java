package org.nectl.service.monitor;

import java.util.Locale;

import org.nectl.core.runtime.Faults;
import org.nectl.transport.TelemetrySample;

/**
 * Formats a Telemetry sample as a short text block for an operator: state and control law, latched faults, tick
 * counters and misses, rejected planner datagrams by reason (only reasons seen), and per joint the
 * measured position, tracking error and commanded effort.
 *
 * <p>Stateless apart from a reused builder. Not thread safe. Not real-time safe.
 */
public final class TelemetryView
{
    private final StringBuilder text = new StringBuilder(4096);

    /**
     * @param sample the newest sample.
     * @param receivedCount samples received so far by this monitor.
     * @return the text block, lines ending in '\n'.
     */
    public String render(final TelemetrySample sample, final long receivedCount)
    {
        text.setLength(0);
        text.append(String.format(Locale.ROOT, "state %-8s controller %-15s sample %d (received %d, dropped %d)%n",
            sample.state(), sample.controller(), sample.sequence(), receivedCount, sample.telemetryDropCount()));
        if (sample.faults() != 0)
        {
            text.append("faults latched: ").append(Faults.describe(sample.faults())).append(" (RESET clears them)\n");
        }
        text.append(String.format(Locale.ROOT, "ticks %d  overruns %d  deadline misses %d  missing states %d  tick compute %d ns%n",
            sample.tickCount(), sample.overrunCount(), sample.deadlineMissCount(), sample.missingStateCount(),
            sample.tickComputeNs()));
        text.append("rejected:");
        final long[] rejects = sample.rejectCounts();
        boolean any = false;
        for (int r = 0; r < rejects.length; r++)
        {
            if (rejects[r] != 0)
            {
                text.append(' ').append(TelemetryCsv.reasonName(r)).append(' ').append(rejects[r]);
                any = true;
            }
        }
        text.append(any ? "\n" : " none\n");
        text.append(String.format(Locale.ROOT, "%5s %12s %12s %12s%n", "joint", "q", "error", "tau"));
        for (int k = 0; k < sample.jointCount(); k++)
        {
            text.append(String.format(Locale.ROOT, "%5d %12.6f %12.3e %12.4f%n",
                k + 1, sample.q()[k], sample.trackingError()[k], sample.tauCommand()[k]));
        }
        return text.toString();
    }
}
