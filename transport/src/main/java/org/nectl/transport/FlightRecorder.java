package org.nectl.transport;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

import io.aeron.Aeron;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.client.AeronArchive;
import io.aeron.archive.codecs.SourceLocation;
import io.aeron.archive.status.RecordingPos;
import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.status.CountersReader;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;

/**
 * The flight recorder: an Aeron Archive, in the service's process and on the service's media
 * driver, recording the full-rate IPC stream of Telemetry and ControllerEvents (every tick, the
 * loop only offers to its ring as it does for the live stream) into segment files in its
 * directory. Off the loop: the archive runs its own conductor thread, and this agent (on a
 * non-real-time thread of its own, since archive requests wait for their answers) watches the
 * recording, writes the fault marks and applies the retention.
 *
 * <p>Fault marks: each FAULT event published on the recorded stream is written with its stream
 * position to {@code nectl-faults-ID.csv} beside the segments, so the seconds around a fault can be
 * replayed at once ({@code nectl recordings}, {@code nectl replay --from}).
 *
 * <p>Failure: when the recording stops without being asked to (a full disk, an unwritable
 * directory, any archive error), {@link #stopped} turns true, the counters say so, the loop reports
 * a RECORDING_STOPPED event, and nothing else changes: the publication has no subscriber any more,
 * so its samples are counted as unpublished.
 *
 * <p>Retention deletes only through the archive ({@code purgeRecording}, {@code purgeSegments}),
 * which removes only its own segment files of recordings in its catalog, and the fault-mark files
 * this class wrote, by the name it gave them, never through a symbolic link.
 *
 * <p>Not real-time safe. Counters and {@link #stopped} may be read from any thread.
 */
public final class FlightRecorder implements Agent, AutoCloseable
{
    /** Prefix of the fault-mark file of a recording, followed by its id and {@value #MARKS_SUFFIX}. */
    public static final String MARKS_PREFIX = "nectl-faults-";
    /** Suffix of a fault-mark file. */
    public static final String MARKS_SUFFIX = ".csv";
    /** Header of a fault-mark file. */
    public static final String MARKS_HEADER = "position,tickCount,timestampNs,newFaults,faults";

    private static final long RETENTION_INTERVAL_NS = TimeUnit.SECONDS.toNanos(1);
    private static final long START_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private final FlightRecorderConfig config;
    private final Aeron aeron;
    private final Archive archive;
    private final AeronArchive client;
    private final CountersReader counters;
    private final long subscriptionId;
    private final Queue<String> marks = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean stopped = new AtomicBoolean();
    private final AtomicLong errors = new AtomicLong();
    private final AtomicLong faultMarks = new AtomicLong();
    private final AtomicLong deletedRecordings = new AtomicLong();
    private final AtomicLong purgedSegmentBytes = new AtomicLong();
    private volatile long recordingId = RecordingPos.NULL_RECORDING_ID;
    private volatile long recordedPosition;
    private volatile String firstError;
    private int counterId = CountersReader.NULL_COUNTER_ID;
    private long nextRetentionNs;
    private volatile boolean closing;
    private volatile boolean released;
    private boolean closed;

    /** Suffix to the service's Aeron directory of the directory of the archive's mark file. */
    static final String MARK_FILE_DIRECTORY_SUFFIX = "-nectl-archive-mark";

    private final java.io.File markDirectory;

    private FlightRecorder(final Aeron aeron, final String aeronDirectory, final FlightRecorderConfig config)
    {
        this.config = config;
        this.aeron = aeron;
        this.counters = aeron.countersReader();
        // The archive's mark file (its error log) lives beside the media driver's directory, in memory,
        // not on the recording's disk: a full disk left its unwritten pages unbacked, and logging the
        // archive's "no space" error there faulted (SIGBUS) and killed the archive's thread silently.
        // Beside, not inside: the driver's directory holds only what a media driver makes (DriverDirectory).
        markDirectory = new java.io.File(aeronDirectory + MARK_FILE_DIRECTORY_SUFFIX);
        if (Files.isSymbolicLink(markDirectory.toPath()))
        {
            // never write, nor later delete, through a link someone else placed there
            throw new SetupException("the archive's mark file directory " + markDirectory + " is a symbolic link: remove it");
        }
        if (!markDirectory.isDirectory() && !markDirectory.mkdirs())
        {
            throw new SetupException("cannot create the archive's mark file directory " + markDirectory);
        }
        final Archive.Context context = new Archive.Context()
            .aeronDirectoryName(aeronDirectory)
            .archiveDir(config.directory().toFile())
            .markFileDir(markDirectory)
            .deleteArchiveOnStart(false)
            .controlChannelEnabled(false)
            .localControlChannel("aeron:ipc")
            .replicationChannel("aeron:udp?endpoint=localhost:0")
            .archiveClientContext(new AeronArchive.Context().controlResponseChannel("aeron:ipc"))
            .recordingEventsEnabled(false)
            .segmentFileLength(config.segmentLengthBytes())
            .threadingMode(ArchiveThreadingMode.SHARED)
            .idleStrategySupplier(() -> new BackoffIdleStrategy(100, 10, 1_000, 1_000_000))
            .errorHandler(this::onArchiveError);
        try
        {
            archive = Archive.launch(context);
        }
        catch (final RuntimeException e)
        {
            throw new SetupException("recording.directory " + config.directory() + ": the archive cannot start there: "
                + e.getMessage(), e);
        }
        AeronArchive connected = null;
        try
        {
            connected = AeronArchive.connect(new AeronArchive.Context()
                .aeron(aeron)
                .ownsAeronClient(false)
                .controlRequestChannel(context.localControlChannel())
                .controlRequestStreamId(context.localControlStreamId())
                .controlResponseChannel("aeron:ipc"));
            subscriptionId = connected.startRecording(FlightRecorderConfig.RECORDED_CHANNEL, config.streamId(), SourceLocation.LOCAL);
            client = connected;
        }
        catch (final io.aeron.archive.client.ArchiveException e)
        {
            // Refused by the archive, typically less free space than its low-storage threshold (128 MiB).
            CloseHelper.quietCloseAll(connected, archive);
            removeMarkFile();
            throw new SetupException("recording.directory " + config.directory() + ": the archive refuses to record there ("
                + config.directory().toFile().getUsableSpace() + " bytes free): " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            CloseHelper.quietCloseAll(connected, archive);
            throw e;
        }
    }

    /**
     * Makes the directory (refusing a symbolic link), starts the archive and its recording of the
     * full-rate stream. Not real-time safe.
     *
     * @param aeron the service's client.
     * @param aeronDirectory the service's media driver directory.
     * @param config directory, retention, segment length and stream.
     * @return the recorder, recording as soon as the stream's publication is added.
     * @throws SetupException if the directory is a symbolic link or cannot be made.
     */
    public static FlightRecorder start(final Aeron aeron, final String aeronDirectory, final FlightRecorderConfig config)
    {
        final Path directory = config.directory();
        if (Files.isSymbolicLink(directory))
        {
            throw new SetupException("recording.directory " + directory + " is a symbolic link; name the real directory");
        }
        try
        {
            Files.createDirectories(directory);
        }
        catch (final IOException e)
        {
            throw new SetupException("recording.directory " + directory + " cannot be made: " + e);
        }
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS) || !Files.isWritable(directory))
        {
            throw new SetupException("recording.directory " + directory + " is not a writable directory");
        }
        return new FlightRecorder(aeron, aeronDirectory, config);
    }

    /**
     * Waits until the archive records the publication of {@code sessionId}, so that nothing the loop
     * publishes later is missing. Not real-time safe.
     *
     * @param sessionId session id of the full-rate publication.
     * @throws SetupException if the archive does not start recording within 10 s.
     */
    public void awaitRecording(final int sessionId)
    {
        final long deadlineNs = System.nanoTime() + START_TIMEOUT_NS;
        while ((counterId = RecordingPos.findCounterIdBySession(counters, sessionId, archive.context().archiveId()))
            == CountersReader.NULL_COUNTER_ID)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new SetupException("the flight recorder did not start recording within 10 s"
                    + (firstError != null ? ": " + firstError : ""));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        recordingId = RecordingPos.getRecordingId(counters, counterId);
    }

    /** Marks a FAULT event's position; called by the full-rate publisher's thread. */
    public void onPublished(final ControllerEventDecoder event, final long position)
    {
        if (event.kind() == ControllerEventKind.FAULT)
        {
            marks.add(position + "," + event.tickCount() + "," + event.timestampNs() + "," + event.newFaults() + ","
                + event.faults());
        }
    }

    @Override
    public int doWork()
    {
        if (released || aeron.isClosed())
        {
            // The client lost its driver: it unmaps the counters this agent reads once this is seen.
            released = true;
            return 0;
        }
        int work = writeMarks();
        if (stopped.get() || closing || recordingId == RecordingPos.NULL_RECORDING_ID)
        {
            return work;
        }
        if (!RecordingPos.isActive(counters, counterId, recordingId))
        {
            stop("the archive stopped recording " + recordingId + (firstError != null ? ": " + firstError : ""));
            return work + 1;
        }
        recordedPosition = counters.getCounterValue(counterId);
        final long nowNs = System.nanoTime();
        if (nowNs - nextRetentionNs >= 0)
        {
            nextRetentionNs = nowNs + RETENTION_INTERVAL_NS;
            work += applyRetention();
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "flight-recorder";
    }

    /** @return true once the recording stopped on its own (an error); the loop reports it once. Any thread. */
    public AtomicBoolean stopped()
    {
        return stopped;
    }

    /**
     * @return true once this agent has seen the Aeron client closed and no longer reads its
     *     counters. Any thread.
     */
    public boolean released()
    {
        return released;
    }

    /** @return id of the running recording in the archive's catalog, or -1 before it started. Any thread. */
    public long recordingId()
    {
        return recordingId;
    }

    /** @return bytes recorded in the running recording (its stream position). Any thread. */
    public long recordedPosition()
    {
        return recordedPosition;
    }

    /** @return archive errors and failed marks or deletions since start. Any thread. */
    public long errorCount()
    {
        return errors.get();
    }

    /** @return the first archive error's message, or null. Any thread. */
    public String firstError()
    {
        return firstError;
    }

    /** @return faults marked. Any thread. */
    public long faultMarkCount()
    {
        return faultMarks.get();
    }

    /** @return finished recordings deleted by retention. Any thread. */
    public long deletedRecordingCount()
    {
        return deletedRecordings.get();
    }

    /** @return bytes of the running recording's oldest segments deleted by retention. Any thread. */
    public long purgedSegmentBytes()
    {
        return purgedSegmentBytes.get();
    }

    /** @return the archive directory. */
    public Path directory()
    {
        return config.directory();
    }

    /** Closed by its agent runner: {@link #close}. */
    @Override
    public void onClose()
    {
        close();
    }

    /** Stops the recording (its last samples written), then the archive; idempotent. Not real-time safe. */
    @Override
    public void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        closing = true;
        writeMarks();
        try
        {
            if (!stopped.get())
            {
                client.stopRecording(subscriptionId);
            }
        }
        catch (final RuntimeException e)
        {
            onArchiveError(e);
        }
        CloseHelper.closeAll(client, archive);
        removeMarkFile();
    }

    /** Removes the stopped archive's mark file and its directory, which this recorder made. */
    private void removeMarkFile()
    {
        try
        {
            final Path markFile = markDirectory.toPath().resolve(io.aeron.archive.ArchiveMarkFile.FILENAME);
            if (Files.isRegularFile(markFile, LinkOption.NOFOLLOW_LINKS))
            {
                Files.delete(markFile);
            }
            Files.deleteIfExists(markDirectory.toPath());
        }
        catch (final IOException e)
        {
            System.err.println("nectl: flight recorder: cannot remove the archive's mark file in " + markDirectory + ": " + e);
        }
    }

    private int writeMarks()
    {
        if (marks.isEmpty() || recordingId == RecordingPos.NULL_RECORDING_ID)
        {
            return 0;
        }
        final Path file = marksFile(config.directory(), recordingId);
        int written = 0;
        try
        {
            final boolean fresh = !Files.exists(file, LinkOption.NOFOLLOW_LINKS);
            try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
                StandardOpenOption.APPEND, LinkOption.NOFOLLOW_LINKS))
            {
                if (fresh)
                {
                    out.write(MARKS_HEADER + "\n");
                }
                String mark;
                while ((mark = marks.poll()) != null)
                {
                    out.write(mark + "\n");
                    written++;
                }
            }
            faultMarks.addAndGet(written);
        }
        catch (final IOException | RuntimeException e)
        {
            marks.clear();
            onArchiveError(e);
        }
        return written;
    }

    /** Deletes finished recordings beyond the age or size, oldest first, then the running one's oldest segments. */
    private int applyRetention()
    {
        final List<Recording> recordings = new ArrayList<>();
        try
        {
            client.listRecordings(0, Integer.MAX_VALUE, (controlSessionId, correlationId, id, startTimestamp, stopTimestamp,
                startPosition, stopPosition, initialTermId, segmentFileLength, termBufferLength, mtuLength, sessionId,
                streamId, strippedChannel, originalChannel, sourceIdentity) ->
                recordings.add(new Recording(id, startTimestamp, stopTimestamp, startPosition, stopPosition, termBufferLength,
                    segmentFileLength)));
            recordings.sort(Comparator.comparingLong(Recording::id));
            long totalBytes = 0;
            for (final Recording r : recordings)
            {
                totalBytes += (r.id == recordingId ? recordedPosition : Math.max(r.stopPosition, r.startPosition)) - r.startPosition;
            }
            final long nowMs = System.currentTimeMillis();
            int deleted = 0;
            for (final Recording r : recordings)
            {
                final boolean finished = r.id != recordingId && r.stopPosition != AeronArchive.NULL_POSITION;
                if (finished && (totalBytes > config.maxSizeBytes() || nowMs - r.stopTimestamp > config.maxAgeMs()))
                {
                    client.purgeRecording(r.id);
                    Files.deleteIfExists(marksFile(config.directory(), r.id));
                    totalBytes -= r.stopPosition - r.startPosition;
                    deletedRecordings.incrementAndGet();
                    deleted++;
                }
            }
            return deleted + shedOldestSegments(recordings, totalBytes);
        }
        catch (final IOException | RuntimeException e)
        {
            onArchiveError(e);
            return 0;
        }
    }

    private int shedOldestSegments(final List<Recording> recordings, final long totalBytes)
    {
        final Recording running = recordings.stream().filter(r -> r.id == recordingId).findFirst().orElse(null);
        if (running == null || totalBytes <= config.maxSizeBytes())
        {
            return 0;
        }
        final long keepFrom = recordedPosition - config.maxSizeBytes() + running.segmentLength;
        final long newStart = AeronArchive.segmentFileBasePosition(
            running.startPosition, Math.max(running.startPosition, keepFrom), running.termLength, running.segmentLength);
        final long currentStart = client.getStartPosition(recordingId);
        if (newStart <= currentStart)
        {
            return 0;
        }
        client.purgeSegments(recordingId, newStart);
        purgedSegmentBytes.addAndGet(newStart - currentStart);
        return 1;
    }

    private void stop(final String reason)
    {
        stopped.set(true);
        errors.incrementAndGet();
        System.err.println("nectl: flight recorder stopped, the controller runs on: " + reason);
    }

    private void onArchiveError(final Throwable error)
    {
        errors.incrementAndGet();
        if (firstError == null)
        {
            firstError = error.toString();
        }
    }

    /**
     * @param directory the archive directory.
     * @param recordingId the recording.
     * @return the recording's fault-mark file.
     */
    public static Path marksFile(final Path directory, final long recordingId)
    {
        return directory.resolve(String.format(Locale.ROOT, "%s%d%s", MARKS_PREFIX, recordingId, MARKS_SUFFIX));
    }

    private record Recording(long id, long startTimestamp, long stopTimestamp, long startPosition, long stopPosition,
        int termLength, int segmentLength)
    {
    }
}
