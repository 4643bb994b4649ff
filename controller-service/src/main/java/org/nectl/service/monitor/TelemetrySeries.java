package org.nectl.service.monitor;

import java.util.List;

/**
 * The quantities a live display plots, one row each: the PlotJuggler stream and the web dashboard
 * both take every row of {@link #ALL}, so a field appended to Telemetry (docs/PROTOCOL.md) reaches
 * both by adding its row here. A per-joint row gives one value per joint, a scalar row one value.
 * Rows with a {@code chart} are drawn in the dashboard chart of that id, rows without one are
 * counters shown as numbers.
 *
 * @param key JSON key, also the PlotJuggler series name.
 * @param label legend text.
 * @param unit unit for revolute joints (prismatic: m for rad, N for N·m).
 * @param chart dashboard chart id, or null for a counter.
 * @param perJoint one value per joint instead of one scalar.
 * @param value reads the value of joint {@code joint} (0 for a scalar) from the newest telemetry.
 */
public record TelemetrySeries(String key, String label, String unit, String chart, boolean perJoint, Value value)
{
    /** Reads one value. */
    @FunctionalInterface
    public interface Value
    {
        /**
         * @param telemetry with at least one sample.
         * @param joint 0..jointCount-1, 0 for a scalar.
         * @return the value.
         */
        double of(LiveTelemetry telemetry, int joint);
    }

    /** Every series, in display order. */
    public static final List<TelemetrySeries> ALL = List.of(
        joint("q", "q", "rad", "position", (t, k) -> t.sample().q()[k]),
        joint("qRef", "ref", "rad", "position", (t, k) -> t.sample().q()[k] + t.sample().trackingError()[k]),
        joint("trackingError", "e", "rad", "trackingError", (t, k) -> t.sample().trackingError()[k]),
        joint("qd", "q\u0307", "rad/s", "velocity", (t, k) -> t.sample().qd()[k]),
        joint("tau", "\u03c4", "N\u00b7m", "torque", (t, k) -> t.sample().tauCommand()[k]),
        joint("tauLaw", "\u03c4 law", "N\u00b7m", "torque", (t, k) -> t.sample().tauLaw()[k]),
        joint("tauRate", "\u03c4\u0307", "N\u00b7m/s", "torqueRate", LiveTelemetry::tauRate),
        joint("tauFeedforward", "\u03c4 ff", "N\u00b7m", "feedforward", (t, k) -> t.sample().tauFeedforward()[k]),
        joint("tauFeedforwardRate", "\u03c4\u0307 ff", "N\u00b7m/s", "feedforwardRate", (t, k) -> t.sample().tauFeedforwardRate()[k]),
        joint("externalTorque", "\u03c4 ext", "N\u00b7m", "externalTorque", (t, k) -> t.sample().externalTorque()[k]),
        scalar("tickComputeUs", "tick compute", "\u00b5s", "tickTime", (t, k) -> t.sample().tickComputeNs() * 1e-3),
        scalar("tickLatenessUs", "tick start lateness", "\u00b5s", "tickTime", (t, k) -> t.sample().tickStartLatenessNs() * 1e-3),
        scalar("referenceClockRate", "reference clock rate s'", "", "referenceClockRate", (t, k) -> t.sample().referenceClockRate()),
        scalar("state", "state", "", "state", (t, k) -> t.sample().state().value()),
        counter("tickCount", "ticks", (t, k) -> t.sample().tickCount()),
        counter("overrunCount", "overruns", (t, k) -> t.sample().overrunCount()),
        counter("deadlineMissCount", "deadline misses", (t, k) -> t.sample().deadlineMissCount()),
        counter("missingStateCount", "missing states", (t, k) -> t.sample().missingStateCount()),
        counter("telemetryDropCount", "telemetry dropped", (t, k) -> t.sample().telemetryDropCount()),
        counter("timeScaledTickCount", "time-scaled ticks", (t, k) -> t.sample().timeScaledTickCount()),
        counter("torqueClipCount", "effort clips", (t, k) -> t.sample().torqueClipCount()),
        counter("torqueRateClipCount", "effort-rate clips", (t, k) -> t.sample().torqueRateClipCount()),
        counter("rejectedDatagrams", "rejected datagrams", (t, k) -> sum(t.sample().rejectCounts())),
        counter("collisionCount", "collisions", (t, k) -> t.sample().collisionCount()),
        counter("faults", "fault bits", (t, k) -> t.sample().faults()));

    private static TelemetrySeries joint(final String key, final String label, final String unit, final String chart,
        final Value value)
    {
        return new TelemetrySeries(key, label, unit, chart, true, value);
    }

    private static TelemetrySeries scalar(final String key, final String label, final String unit, final String chart,
        final Value value)
    {
        return new TelemetrySeries(key, label, unit, chart, false, value);
    }

    private static TelemetrySeries counter(final String key, final String label, final Value value)
    {
        return new TelemetrySeries(key, label, "", null, false, value);
    }

    private static double sum(final long[] counts)
    {
        long total = 0;
        for (final long count : counts)
        {
            total += count;
        }
        return total;
    }
}
