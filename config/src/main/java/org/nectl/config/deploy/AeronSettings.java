package org.nectl.config.deploy;

import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;

/**
 * Where the Aeron media driver runs and how long its clients wait for it (section {@code aeron}). Immutable.
 *
 * @param embeddedDriver true: the service starts a media driver in its own process; false: it
 *     connects to an external driver.
 * @param directory the driver's directory; empty: a fresh unique directory for an embedded driver,
 *     Aeron's default directory for an external one.
 * @param driverTimeoutMs the Aeron client's driver timeout, ms: a driver whose heartbeat is older is
 *     lost, the client closes the hardware link and telemetry, and the service faults and stops
 *     (docs/SAFETY.md, "media driver loss").
 */
public record AeronSettings(boolean embeddedDriver, Optional<String> directory, long driverTimeoutMs)
{
    /** Default driver timeout, ms: Aeron's own, equal to the driver's default client liveness timeout. */
    public static final long DEFAULT_DRIVER_TIMEOUT_MS = 10_000L;
    /**
     * Shortest driver timeout, ms: the driver refreshes its heartbeat once per timer interval (1 s by
     * default) and the client checks it every 0.5 s, so a shorter timeout would declare a live driver lost.
     */
    public static final long MIN_DRIVER_TIMEOUT_MS = 2_000L;
    /** Longest driver timeout, ms. */
    public static final long MAX_DRIVER_TIMEOUT_MS = 60_000L;

    private static final List<String> KEYS = List.of("embedded_driver", "dir", "driver_timeout_ms");

    /** With the {@link #DEFAULT_DRIVER_TIMEOUT_MS default driver timeout}. */
    public AeronSettings(final boolean embeddedDriver, final Optional<String> directory)
    {
        this(embeddedDriver, directory, DEFAULT_DRIVER_TIMEOUT_MS);
    }

    /** @return an embedded driver in a fresh directory, the default driver timeout. */
    public static AeronSettings defaults()
    {
        return new AeronSettings(true, Optional.empty());
    }

    /**
     * @param section the {@code aeron} mapping.
     * @return the settings, defaults for absent keys.
     */
    static AeronSettings read(final YamlField section)
    {
        section.mapping(KEYS);
        final boolean embedded = section.optional("embedded_driver").map(YamlField::bool).orElse(true);
        final long timeoutMs = section.optional("driver_timeout_ms")
            .map(f -> driverTimeoutMs(f))
            .orElse(DEFAULT_DRIVER_TIMEOUT_MS);
        return new AeronSettings(embedded, section.optional("dir").map(YamlField::text), timeoutMs);
    }

    private static long driverTimeoutMs(final YamlField field)
    {
        final long value = field.integer(Long.MIN_VALUE, Long.MAX_VALUE);
        if (value < MIN_DRIVER_TIMEOUT_MS || value > MAX_DRIVER_TIMEOUT_MS)
        {
            throw field.error("value " + value + " is outside the allowed range " + MIN_DRIVER_TIMEOUT_MS + ".."
                + MAX_DRIVER_TIMEOUT_MS + ": the driver refreshes its heartbeat only once a second, so a timeout below "
                + MIN_DRIVER_TIMEOUT_MS + " ms declares a live driver lost, and one above " + MAX_DRIVER_TIMEOUT_MS
                + " ms leaves a dead one unnoticed for too long");
        }
        return value;
    }
}
