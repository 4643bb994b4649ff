package org.nectl.transport;

import java.util.Objects;

/**
 * Where telemetry goes and how much of it (docs/PROTOCOL.md, "Telemetry").
 *
 * @param channel Aeron channel: {@code aeron:ipc} for local monitors, or a UDP channel such as
 *     {@code aeron:udp?endpoint=192.168.1.10:40123} for a remote monitor.
 * @param streamId stream id of the Telemetry messages.
 * @param decimation publish one tick in {@code decimation}, &gt;= 1 (10 at 1 kHz gives 100 Hz).
 * @param ringCapacityBytes capacity of the ring between loop and publisher, a power of two of at
 *     least 8 messages; when it is full, samples are dropped and counted, never waited for.
 */
public record TelemetryConfig(String channel, int streamId, int decimation, int ringCapacityBytes)
{
    /** Default telemetry channel. */
    public static final String IPC_CHANNEL = "aeron:ipc";
    /** Default telemetry stream id. */
    public static final int STREAM_ID = 1010;

    /** Validates the configuration. */
    public TelemetryConfig
    {
        Objects.requireNonNull(channel, "channel");
        if (decimation < 1)
        {
            throw new IllegalArgumentException("decimation must be >= 1, got " + decimation);
        }
        if (Integer.bitCount(ringCapacityBytes) != 1)
        {
            throw new IllegalArgumentException("ringCapacityBytes must be a power of two, got " + ringCapacityBytes);
        }
    }

    /** @return IPC on stream 1010, every 10th tick, a 64 KiB ring (31 samples of version 3). */
    public static TelemetryConfig ipcDefaults()
    {
        return new TelemetryConfig(IPC_CHANNEL, STREAM_ID, 10, 64 * 1024);
    }
}
