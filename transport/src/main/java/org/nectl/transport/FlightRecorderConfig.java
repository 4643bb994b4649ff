package org.nectl.transport;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where and how the {@link FlightRecorder} keeps the full-rate telemetry and controller events.
 *
 * @param directory the Aeron Archive directory; made if missing, never a symbolic link.
 * @param maxSizeBytes retention by size: the oldest finished recordings are deleted while all the
 *     recordings together hold more, and the running one sheds its oldest segments beyond it, bytes.
 * @param maxAgeMs retention by age: a finished recording that stopped longer ago is deleted, ms.
 * @param segmentLengthBytes length of one segment file, a power of two of at least {@link #TERM_LENGTH}.
 * @param streamId stream id of the full-rate IPC stream the archive records.
 */
public record FlightRecorderConfig(Path directory, long maxSizeBytes, long maxAgeMs, int segmentLengthBytes, int streamId)
{
    /** Term length of the recorded IPC stream, bytes: about 2 s of 1 kHz telemetry. */
    public static final int TERM_LENGTH = 4 * 1024 * 1024;
    /** Channel the service publishes the full-rate stream on. */
    public static final String PUBLICATION_CHANNEL = "aeron:ipc?term-length=4m";
    /** Channel the archive subscribes to. */
    public static final String RECORDED_CHANNEL = "aeron:ipc";

    /** Validates the lengths. */
    public FlightRecorderConfig
    {
        Objects.requireNonNull(directory, "directory");
        if (Integer.bitCount(segmentLengthBytes) != 1 || segmentLengthBytes < TERM_LENGTH)
        {
            throw new IllegalArgumentException("segment length must be a power of two of at least " + TERM_LENGTH + ", got "
                + segmentLengthBytes);
        }
        if (maxSizeBytes < segmentLengthBytes || maxAgeMs <= 0)
        {
            throw new IllegalArgumentException("retention must keep at least one segment for a positive time, got "
                + maxSizeBytes + " bytes, " + maxAgeMs + " ms");
        }
    }

    /** @return the telemetry settings of the full-rate stream: every tick, a ring of {@code ringCapacityBytes}. */
    public TelemetryConfig telemetry(final int ringCapacityBytes)
    {
        return new TelemetryConfig(PUBLICATION_CHANNEL, streamId, 1, ringCapacityBytes);
    }
}
