package org.nectl.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.aeron.ChannelUri;
import io.aeron.FragmentAssembler;
import io.aeron.Image;
import io.aeron.Subscription;
import io.aeron.archive.Archive;
import io.aeron.archive.ArchiveThreadingMode;
import io.aeron.archive.CatalogView;
import io.aeron.archive.client.AeronArchive;
import io.aeron.exceptions.AeronException;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;

/**
 * The flight recorder's directory read after the fact: its recordings listed from the catalog
 * (with their fault marks), and a recording's messages read back in order by replaying it through
 * an Aeron Archive on the directory, run here with a media driver of its own in a fresh directory.
 * Not while a service records into the same directory (its archive holds it). Not real-time safe;
 * not thread safe.
 */
public final class RecordingArchive implements AutoCloseable
{
    /** Stream id the replay is read on, in this reader's own media driver. */
    private static final int REPLAY_STREAM_ID = 1;
    private static final long IMAGE_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    /** Receives each whole message of a replayed recording, in order. */
    @FunctionalInterface
    public interface MessageHandler
    {
        /**
         * @param buffer holds the message (SBE header first), valid during the call only.
         * @param offset where it starts.
         * @param length its length.
         * @param position the recording's stream position just after it, bytes.
         */
        void onMessage(DirectBuffer buffer, int offset, int length, long position);
    }

    /**
     * One recording in the catalog.
     *
     * @param id recording id.
     * @param startTimestampMs wall clock at its start, ms since the epoch.
     * @param stopTimestampMs wall clock at its stop, ms since the epoch; -1 while recording (or after a crash).
     * @param startPosition first position still kept, bytes (above 0 once retention shed old segments).
     * @param stopPosition last position, bytes; -1 while recording (or after a crash).
     * @param streamId the recorded stream.
     * @param faultMarks the fault marks (file lines after the header: position,tickCount,timestampNs,newFaults,faults).
     */
    public record Recording(long id, long startTimestampMs, long stopTimestampMs, long startPosition, long stopPosition,
        int streamId, List<String> faultMarks)
    {
    }

    private final AeronTransport transport;
    private final Archive archive;
    private final AeronArchive client;

    private RecordingArchive(final Path directory)
    {
        refuseIfRecording(directory);
        transport = AeronTransport.launch(AeronConfig.embeddedDefaults());
        Archive started = null;
        try
        {
            final Archive.Context context = new Archive.Context()
                .aeronDirectoryName(transport.aeronDirectory())
                .archiveDir(directory.toFile())
                .deleteArchiveOnStart(false)
                .controlChannelEnabled(false)
                .localControlChannel("aeron:ipc")
                .replicationChannel("aeron:udp?endpoint=localhost:0")
            .archiveClientContext(new AeronArchive.Context().controlResponseChannel("aeron:ipc"))
                .recordingEventsEnabled(false)
                .threadingMode(ArchiveThreadingMode.SHARED);
            started = Archive.launch(context);
            archive = started;
            client = AeronArchive.connect(new AeronArchive.Context()
                .aeron(transport.aeron())
                .ownsAeronClient(false)
                .controlRequestChannel(context.localControlChannel())
                .controlRequestStreamId(context.localControlStreamId())
                .controlResponseChannel("aeron:ipc"));
        }
        catch (final AeronException e)
        {
            CloseHelper.quietCloseAll(started, transport);
            throw new SetupException("cannot open the recordings in " + directory + " (is a service recording there? stop it "
                + "first): " + e.getMessage(), e);
        }
        catch (final RuntimeException e)
        {
            CloseHelper.quietCloseAll(started, transport);
            throw e;
        }
    }

    /**
     * A running service keeps the archive's mark file beside its Aeron directory and links it from the
     * recording directory (Aeron's archive-mark.lnk): refuses while that media driver is active.
     */
    private static void refuseIfRecording(final Path directory)
    {
        final Path link = directory.resolve(io.aeron.archive.ArchiveMarkFile.LINK_FILENAME);
        if (!Files.isRegularFile(link, LinkOption.NOFOLLOW_LINKS))
        {
            return;
        }
        try
        {
            final java.io.File markDirectory = new java.io.File(Files.readString(link, StandardCharsets.US_ASCII).strip());
            final String markPath = markDirectory.getPath();
            final java.io.File aeronDirectory = markPath.endsWith(FlightRecorder.MARK_FILE_DIRECTORY_SUFFIX)
                ? new java.io.File(markPath.substring(0, markPath.length() - FlightRecorder.MARK_FILE_DIRECTORY_SUFFIX.length())) : null;
            if (new java.io.File(markDirectory, io.aeron.archive.ArchiveMarkFile.FILENAME).isFile() && aeronDirectory != null
                && new java.io.File(aeronDirectory, io.aeron.CncFileDescriptor.CNC_FILE).isFile()
                && io.aeron.CommonContext.isDriverActive(aeronDirectory, AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS, line -> { }))
            {
                throw new SetupException("cannot open the recordings in " + directory + ": a service records there (its "
                    + "archive runs on the media driver at " + aeronDirectory + "); stop it first");
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Opens the directory for replay. Not real-time safe.
     *
     * @param directory the flight recorder's directory.
     * @return the open archive.
     * @throws SetupException if it is no recording directory or a running service holds it.
     */
    public static RecordingArchive open(final Path directory)
    {
        requireRecordingDirectory(directory);
        return new RecordingArchive(directory);
    }

    /**
     * Lists the recordings from the catalog file, without starting an archive (a service may be
     * recording into the directory meanwhile): those with their first kept segment file in the
     * directory (the catalog keeps the entries of recordings retention deleted, marked invalid).
     * Not real-time safe.
     *
     * @param directory the flight recorder's directory.
     * @return the recordings, by id.
     * @throws SetupException if the directory holds no catalog.
     */
    public static List<Recording> list(final Path directory)
    {
        requireRecordingDirectory(directory);
        final List<Recording> recordings = new ArrayList<>();
        CatalogView.listRecordings(directory.toFile(), (controlSessionId, correlationId, id, startTimestamp, stopTimestamp,
            startPosition, stopPosition, initialTermId, segmentFileLength, termBufferLength, mtuLength, sessionId, streamId,
            strippedChannel, originalChannel, sourceIdentity) ->
        {
            final long segmentBase = AeronArchive.segmentFileBasePosition(startPosition, startPosition, termBufferLength,
                segmentFileLength);
            if (Files.isRegularFile(directory.resolve(id + "-" + segmentBase + ".rec"), LinkOption.NOFOLLOW_LINKS))
            {
                recordings.add(new Recording(id, startTimestamp, stopTimestamp, startPosition, stopPosition, streamId,
                    faultMarks(directory, id)));
            }
        });
        recordings.sort(Comparator.comparingLong(Recording::id));
        return recordings;
    }

    /**
     * Reads every message of a recording, from its first kept position to its last. Not real-time safe.
     *
     * @param recordingId the recording.
     * @param handler receives each whole message.
     * @return the messages read.
     * @throws SetupException if the recording does not exist.
     * @throws IllegalStateException if the replay ends before the recording's last position.
     */
    public long replay(final long recordingId, final MessageHandler handler)
    {
        final long startPosition;
        final long endPosition;
        try
        {
            startPosition = client.getStartPosition(recordingId);
            final long stop = client.getStopPosition(recordingId);
            endPosition = stop != AeronArchive.NULL_POSITION ? stop : client.getMaxRecordedPosition(recordingId);
        }
        catch (final AeronException e)
        {
            throw new SetupException("no recording " + recordingId + ": " + e.getMessage(), e);
        }
        if (endPosition <= startPosition)
        {
            return 0;
        }
        final long[] count = new long[1];
        final long replaySessionId = client.startReplay(recordingId, startPosition, endPosition - startPosition, "aeron:ipc",
            REPLAY_STREAM_ID);
        final String channel = ChannelUri.addSessionId("aeron:ipc", (int)replaySessionId);
        try (Subscription subscription = transport.aeron().addSubscription(channel, REPLAY_STREAM_ID))
        {
            final Image image = awaitImage(subscription);
            final FragmentAssembler assembler = new FragmentAssembler((buffer, offset, length, header) ->
            {
                count[0]++;
                handler.onMessage(buffer, offset, length, header.position());
            });
            final IdleStrategy idle = new BackoffIdleStrategy();
            while (image.position() < endPosition && !image.isClosed())
            {
                idle.idle(image.poll(assembler, 64));
            }
            if (image.position() < endPosition)
            {
                // Never a silently short export or replay.
                throw new IllegalStateException("the replay of recording " + recordingId + " ended at position "
                    + image.position() + " of " + endPosition + " (" + count[0] + " messages read)");
            }
        }
        return count[0];
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(client, archive, transport);
    }

    private static Image awaitImage(final Subscription subscription)
    {
        final long deadlineNs = System.nanoTime() + IMAGE_TIMEOUT_NS;
        final IdleStrategy idle = new BackoffIdleStrategy();
        while (subscription.imageCount() == 0)
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                throw new IllegalStateException("the replay did not start within 10 s");
            }
            idle.idle();
        }
        return subscription.imageAtIndex(0);
    }

    private static void requireRecordingDirectory(final Path directory)
    {
        if (!Files.isDirectory(directory, LinkOption.NOFOLLOW_LINKS) || !Files.isRegularFile(directory.resolve("archive.catalog"),
            LinkOption.NOFOLLOW_LINKS))
        {
            throw new SetupException(directory + " is no flight recorder directory (no archive.catalog in it)");
        }
    }

    private static List<String> faultMarks(final Path directory, final long recordingId)
    {
        final Path file = FlightRecorder.marksFile(directory, recordingId);
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS))
        {
            return List.of();
        }
        try
        {
            final List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.isEmpty() ? List.of() : List.copyOf(lines.subList(1, lines.size()));
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
