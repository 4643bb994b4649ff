package org.nectl.config.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;

/**
 * The flight recorder (section {@code recording}): where the Aeron Archive keeps the full-rate
 * telemetry and controller events, how long and how much of it. Present and {@code enabled} (the
 * default once the section is written): the service records; absent: it does not. Immutable.
 *
 * @param enabled true to record.
 * @param directory the archive directory, resolved against the deployment file's directory.
 * @param maxSizeBytes retention by size: the oldest finished recordings are deleted while all of
 *     them together hold more, bytes.
 * @param maxAgeMs retention by age: a finished recording that stopped longer ago is deleted, ms.
 * @param segmentLengthBytes length of one archive segment file, a power of two, bytes.
 * @param streamId Aeron stream id of the full-rate IPC stream the archive records.
 */
public record RecordingSettings(
    boolean enabled, Path directory, long maxSizeBytes, long maxAgeMs, int segmentLengthBytes, int streamId)
{
    /** Default full-rate stream id. */
    public static final int DEFAULT_STREAM_ID = 1011;
    /** Default retention by size, MiB. */
    public static final long DEFAULT_MAX_SIZE_MB = 4096;
    /** Default retention by age, hours (7 days). */
    public static final long DEFAULT_MAX_AGE_HOURS = 168;
    /** Default segment length, MiB. */
    public static final long DEFAULT_SEGMENT_MB = 128;
    /** Smallest segment length, MiB: one term of the recorded stream. */
    public static final long MIN_SEGMENT_MB = 4;
    /** Largest segment length, MiB (Aeron Archive's maximum is 1 GiB). */
    public static final long MAX_SEGMENT_MB = 1024;

    private static final long MIB = 1024L * 1024L;
    private static final List<String> KEYS = List.of("enabled", "directory", "max_size_mb", "max_age_hours", "segment_mb", "stream");

    /** @return recording off. */
    public static RecordingSettings disabled()
    {
        return new RecordingSettings(false, Path.of("recordings"), DEFAULT_MAX_SIZE_MB * MIB, DEFAULT_MAX_AGE_HOURS * 3_600_000L,
            (int)(DEFAULT_SEGMENT_MB * MIB), DEFAULT_STREAM_ID);
    }

    /**
     * @param deploymentFile the deployment file, whose directory a relative {@code directory} is taken from.
     * @param section the {@code recording} mapping.
     * @return the settings, defaults for absent keys; {@code directory} is required.
     */
    static RecordingSettings read(final Path deploymentFile, final YamlField section)
    {
        section.mapping(KEYS);
        final boolean enabled = section.optional("enabled").map(YamlField::bool).orElse(true);
        final YamlField directoryField = section.child("directory");
        final Path directory = deploymentFile.toAbsolutePath().getParent().resolve(directoryField.text()).normalize();
        if (Files.isSymbolicLink(directory))
        {
            throw directoryField.error("directory '" + directoryField.text() + "' is a symbolic link (" + directory
                + "); the recorder deletes old segments there and never works through a link: name the real directory");
        }
        if (Files.exists(directory) && !Files.isDirectory(directory))
        {
            throw directoryField.error("'" + directoryField.text() + "' is not a directory (" + directory + ")");
        }
        final long maxSizeMb = section.optional("max_size_mb").map(f -> f.integer(1, 1L << 30)).orElse(DEFAULT_MAX_SIZE_MB);
        final long maxAgeHours = section.optional("max_age_hours").map(f -> f.integer(1, 24L * 365 * 100))
            .orElse(DEFAULT_MAX_AGE_HOURS);
        final Optional<YamlField> segmentField = section.optional("segment_mb");
        final long segmentMb = segmentField.map(f -> f.integer(MIN_SEGMENT_MB, MAX_SEGMENT_MB)).orElse(DEFAULT_SEGMENT_MB);
        if (Long.bitCount(segmentMb) != 1)
        {
            throw segmentField.orElseThrow().error("value " + segmentMb + " is not a power of two (4, 8, 16, ... 1024 MiB;"
                + " Aeron Archive segments are a power-of-two multiple of the recorded stream's 4 MiB term)");
        }
        if (maxSizeMb < segmentMb)
        {
            throw section.optional("max_size_mb").orElse(section).error("max_size_mb " + maxSizeMb
                + " is less than one segment (segment_mb " + segmentMb + "): nothing could be kept");
        }
        return new RecordingSettings(enabled, directory, maxSizeMb * MIB, maxAgeHours * 3_600_000L, (int)(segmentMb * MIB),
            section.optional("stream").map(AeronFields::streamId).orElse(DEFAULT_STREAM_ID));
    }
}
