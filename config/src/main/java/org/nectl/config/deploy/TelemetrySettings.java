package org.nectl.config.deploy;

import java.util.List;

import org.nectl.config.YamlField;

/**
 * Where telemetry goes and how much of it (section {@code telemetry}). Immutable.
 *
 * @param channel Aeron channel, {@code aeron:ipc} or {@code aeron:udp?...}.
 * @param streamId Aeron stream id of the Telemetry messages.
 * @param decimation one sample published per {@code decimation} ticks, 1..10000.
 */
public record TelemetrySettings(String channel, int streamId, int decimation)
{
    /** Default stream id. */
    public static final int DEFAULT_STREAM_ID = 1010;
    /** Default decimation: 100 Hz at 1 kHz. */
    public static final int DEFAULT_DECIMATION = 10;
    /** Largest decimation. */
    public static final int MAX_DECIMATION = 10_000;

    private static final List<String> KEYS = List.of("channel", "stream", "decimation");

    /** @return {@code aeron:ipc}, stream 1010, every 10th tick. */
    public static TelemetrySettings defaults()
    {
        return new TelemetrySettings(AeronFields.IPC, DEFAULT_STREAM_ID, DEFAULT_DECIMATION);
    }

    /**
     * @param section the {@code telemetry} mapping.
     * @return the settings, defaults for absent keys.
     */
    static TelemetrySettings read(final YamlField section)
    {
        section.mapping(KEYS);
        return new TelemetrySettings(
            section.optional("channel").map(AeronFields::channel).orElse(AeronFields.IPC),
            section.optional("stream").map(AeronFields::streamId).orElse(DEFAULT_STREAM_ID),
            section.optional("decimation").map(f -> (int)f.integer(1, MAX_DECIMATION)).orElse(DEFAULT_DECIMATION));
    }
}
