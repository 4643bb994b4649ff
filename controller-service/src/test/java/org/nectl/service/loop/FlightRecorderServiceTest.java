package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import com.fasterxml.jackson.databind.JsonNode;
import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import org.agrona.concurrent.status.CountersReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlCommand;
import org.nectl.transport.FlightRecorder;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.ServiceCounters;
import org.nectl.transport.SetupException;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * The flight recorder in a lockstep service: every tick recorded (contiguous tick numbers), the
 * replay of the recording bit-identical to the live stream (telemetry every tick), the controller
 * events with it, and the emergency stop's fault marked with its position.
 */
final class FlightRecorderServiceTest
{
    /**
     * Ticks run: 3 s at 1 kHz by default; {@code -Dnectl.recorder.steps=600000} is the 10-minute
     * acceptance run (scripts/flight-recorder-soak.sh). The emergency stop comes half-way.
     */
    private static final int STEPS = Integer.getInteger("nectl.recorder.steps", 3_000);
    private static final int ESTOP_STEP = STEPS / 2;
    /** Ticks per stepping call: each call must finish within the rig's 120 s. */
    private static final int STEP_CHUNK = 10_000;

    /** Ticks of the unwritable-directory run: past the first 4 MiB segment (about 1750 ticks) and on. */
    private static final int UNWRITABLE_STEPS = 2_600;
    private static final int UNWRITABLE_AT_STEP = 300;

    /** Size of the file system of the full-disk run, and the ticks within which it must fill. */
    private static final int FULL_DISK_MIB = 136;
    private static final long FULL_DISK_LEFT_FREE = 1L << 20;
    private static final int FULL_DISK_MAX_STEPS = 6_000;

    @TempDir
    Path temp;

    /**
     * The directory turns unwritable mid-run (immutable for root, who ignores permissions; read-only
     * otherwise): when the archive needs its second segment file it cannot make it, the recording
     * stops, the loop reports RECORDING_STOPPED once and the counters say so, and the controller
     * ticks on, every tick, without a fault.
     */
    @Test
    void anUnwritableDirectoryStopsTheRecordingWithAnEventAndACounterAndTheControllerRunsOn() throws Exception
    {
        final Path directory = temp.resolve("recordings");
        final FlightRecorderConfig recording = new FlightRecorderConfig(directory, 1L << 30, 3_600_000L,
            FlightRecorderConfig.TERM_LENGTH, 1011);
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), recording))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(UNWRITABLE_AT_STEP, arm, adapter);
            final UnwritableDirectory unwritable = UnwritableDirectory.make(directory);
            try
            {
                rig.stepTo(UNWRITABLE_STEPS, arm, adapter);
                ServiceRig.await(() -> rig.service.recorder().stopped().get(), "the recording stopped");
                rig.stepTo(UNWRITABLE_STEPS + 100, arm, adapter);
            }
            finally
            {
                unwritable.restore();
            }
            final List<TelemetryRecorder.Event> stops = rig.telemetry.events.stream()
                .filter(e -> e.kind() == ControllerEventKind.RECORDING_STOPPED).toList();
            assertEquals(1, stops.size(), "one RECORDING_STOPPED event: " + rig.telemetry.events);
            // A version 3 sample (2335 bytes) takes two frames, about 2.4 kB: the first 4 MiB segment holds about 1750 ticks.
            assertTrue(stops.get(0).tickCount() > 1_700, "stopped at the second segment, tick " + stops.get(0).tickCount());
            final TelemetryRecorder.Sample last = rig.telemetry.last();
            assertEquals(UNWRITABLE_STEPS + 101L, last.tickCount(), "every tick ran");
            assertEquals(ControllerState.ENABLED, last.state(), "the controller runs on");
            assertEquals(0L, last.faults(), "no fault");
            final CountersReader counters = rig.client.aeron().countersReader();
            ServiceRig.await(() -> counter(counters, "recording_stopped") == 1 && counter(counters, "recording_errors") >= 1,
                "the recording counters");
            System.out.println("unwritable directory: recording stopped at tick " + stops.get(0).tickCount() + ", "
                + rig.service.recorder().recordedPosition() + " bytes recorded; archive error: "
                + rig.service.recorder().firstError());
        }
    }

    /**
     * A full disk: the recorder writes into a small tmpfs mounted under the test's temporary
     * directory, beside a file of the operator's. The archive starts a recording only with more
     * than its low-storage threshold free (128 MiB), so the test starts on a 136 MiB file system and,
     * once the recording runs, fills it to 1 MiB free with a file of its own. The recording stops
     * when the file system has no room left, the loop reports RECORDING_STOPPED once and the
     * counters say so, the controller ticks on without a fault, and the operator's file is as it was.
     */
    @Test
    void aFullDiskStopsTheRecordingWithAnEventAndACounterAndTheControllerRunsOn() throws Exception
    {
        final SmallDisk disk = SmallDisk.mount(temp.resolve("small-disk"), FULL_DISK_MIB);
        try
        {
            final byte[] operatorBytes = new byte[64 * 1024];
            Arrays.fill(operatorBytes, (byte)'n');
            final Path notes = Files.write(disk.path().resolve("operator-notes.txt"), operatorBytes);
            final Path directory = disk.path().resolve("recordings");
            final FlightRecorderConfig recording = new FlightRecorderConfig(directory, 1L << 30, 3_600_000L,
                FlightRecorderConfig.TERM_LENGTH, 1011);
            final long stoppedAt;
            try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), recording))
            {
                final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
                final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
                rig.stepTo(0, arm, adapter);
                assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
                rig.awaitApplied(1);
                rig.stepTo(100, arm, adapter);
                // The archive's mark file is in the service's Aeron directory; its link still tells replay the directory is in use.
                final String refused = assertThrows(SetupException.class, () -> RecordingArchive.open(directory)).getMessage();
                assertTrue(refused.contains("a service records there"), refused);
                final long filled = fillToLeaveFree(disk.path().resolve("filler"), FULL_DISK_LEFT_FREE);
                // 1 MiB holds about 500 ticks of recording: step until the recorder reports it stopped.
                long step = 100;
                while (!rig.service.recorder().stopped().get())
                {
                    assertTrue(step < FULL_DISK_MAX_STEPS, "the recording did not stop within " + step + " ticks with "
                        + FULL_DISK_LEFT_FREE + " bytes left free; recorded " + rig.service.recorder().recordedPosition() + " bytes, "
                        + rig.service.recorder().errorCount() + " archive errors, first: " + rig.service.recorder().firstError());
                    step += 100;
                    rig.stepTo(step, arm, adapter);
                }
                stoppedAt = step;
                final long endStep = step + 500;
                rig.stepTo(endStep, arm, adapter);
                final List<TelemetryRecorder.Event> stops = rig.telemetry.events.stream()
                    .filter(e -> e.kind() == ControllerEventKind.RECORDING_STOPPED).toList();
                assertEquals(1, stops.size(), "one RECORDING_STOPPED event: " + rig.telemetry.events);
                final TelemetryRecorder.Sample last = rig.telemetry.last();
                assertEquals(endStep + 1, last.tickCount(), "every tick ran");
                assertEquals(ControllerState.ENABLED, last.state(), "the controller runs on");
                assertEquals(0L, last.faults(), "no fault");
                assertEquals(0L, last.deadlineMissCount(), "no deadline missed");
                final CountersReader counters = rig.client.aeron().countersReader();
                ServiceRig.await(() -> counter(counters, "recording_stopped") == 1 && counter(counters, "recording_errors") >= 1
                    && counter(counters, "ticks") == endStep + 1, "the recording counters and the tick counter");
                System.out.println("full disk (" + FULL_DISK_MIB + " MiB tmpfs, " + filled + " bytes filled at tick 100): recording stopped at tick " + stops.get(0).tickCount()
                    + " (stepped to tick " + stoppedAt + "), " + rig.service.recorder().recordedPosition() + " bytes recorded, "
                    + Files.getFileStore(disk.path()).getUsableSpace() + " bytes left free, ticked on to " + last.tickCount()
                    + "; recording_errors " + counter(counters, "recording_errors") + "; archive error: "
                    + rig.service.recorder().firstError());
            }
            assertArrayEquals(operatorBytes, Files.readAllBytes(notes), "the operator's file untouched");
        }
        catch (final Throwable failure)
        {
            disk.unmountAfter(failure);
            throw failure;
        }
        disk.unmount();
    }

    /**
     * A disk with less free space than the archive's low-storage threshold (128 MiB): the service
     * does not start, with a message naming the directory and the free space, and leaves no mount
     * file open.
     */
    @Test
    void aDiskBelowTheArchivesThresholdRefusesToStartWithAPreciseMessage() throws Exception
    {
        final SmallDisk disk = SmallDisk.mount(temp.resolve("tiny-disk"), 3);
        try
        {
            final Path directory = disk.path().resolve("recordings");
            final SetupException refused = assertThrows(SetupException.class, () -> new ServiceRig(
                ServiceRig.heldLockstepSettings(), new FlightRecorderConfig(directory, 1L << 30, 3_600_000L,
                    FlightRecorderConfig.TERM_LENGTH, 1011)).close());
            assertTrue(refused.getMessage().startsWith("recording.directory " + directory + ": the archive refuses to record "
                + "there (") && refused.getMessage().contains("low storage threshold"), refused.getMessage());
            System.out.println("disk below the threshold: " + refused.getMessage());
        }
        catch (final Throwable failure)
        {
            disk.unmountAfter(failure);
            throw failure;
        }
        disk.unmount();
    }

    /** Writes {@code file} until its file system has {@code leftFree} bytes usable. @return the bytes written. */
    private static long fillToLeaveFree(final Path file, final long leftFree) throws IOException
    {
        final byte[] chunk = new byte[64 * 1024];
        Arrays.fill(chunk, (byte)0x5a);
        long written = 0;
        try (java.io.OutputStream out = Files.newOutputStream(file))
        {
            long toWrite = Files.getFileStore(file).getUsableSpace() - leftFree;
            while (toWrite > 0)
            {
                final int length = (int)Math.min(chunk.length, toWrite);
                out.write(chunk, 0, length);
                written += length;
                toWrite -= length;
            }
        }
        return written;
    }

    /**
     * A small tmpfs mounted for one test, so that the disk really fills (ENOSPC), unlike a
     * directory made unwritable. Mounting needs root (CAP_SYS_ADMIN), as the test runs in CI; a
     * file-backed file system would need root too (a loop device) and mkfs besides, and a file-size
     * limit (RLIMIT_FSIZE) would fail writes with EFBIG and a signal to the whole JVM, not as a full disk.
     */
    private record SmallDisk(Path path)
    {
        static SmallDisk mount(final Path path, final int mebibytes) throws IOException, InterruptedException
        {
            Files.createDirectories(path);
            final String result = run("mount", "-t", "tmpfs", "-o", "size=" + mebibytes + "m,mode=0700,nosuid,nodev,noexec",
                "nectl-test-full-disk", path.toString());
            if (result != null)
            {
                fail("the full-disk test mounts a " + mebibytes + " MiB tmpfs at " + path + " and needs root (CAP_SYS_ADMIN) "
                    + "for it: mount failed: " + result);
            }
            final SmallDisk disk = new SmallDisk(path);
            if (!"tmpfs".equals(Files.getFileStore(path).type()))
            {
                disk.unmount();
                fail(path + " is not a tmpfs after mount");
            }
            return disk;
        }

        /**
         * Unmounts, waiting up to 10 s for files still closing, then lazily, so that no mount
         * outlives the test; fails naming the files this process still holds open there.
         */
        void unmount() throws IOException, InterruptedException
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String result;
            while ((result = run("umount", path.toString())) != null && System.nanoTime() - deadlineNs < 0)
            {
                Thread.onSpinWait();
            }
            if (result != null)
            {
                final String open = openFilesUnder(path);
                final String lazy = run("umount", "-l", path.toString());
                fail("umount " + path + ": " + result + (lazy == null ? " (unmounted lazily)" : "; umount -l: " + lazy)
                    + "; open here: " + open);
            }
        }

        /** Unmounts after {@code failure}, adding an unmount failure to it rather than hiding it. */
        void unmountAfter(final Throwable failure)
        {
            try
            {
                unmount();
            }
            catch (final Throwable unmountFailure)
            {
                failure.addSuppressed(unmountFailure);
            }
        }

        private static String openFilesUnder(final Path path) throws IOException
        {
            try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd")))
            {
                return fds.map(fd ->
                {
                    try
                    {
                        return Files.readSymbolicLink(fd).toString();
                    }
                    catch (final IOException e)
                    {
                        return "";
                    }
                }).filter(target -> target.startsWith(path.toString())).toList().toString();
            }
        }

        /** @return null on success, else the exit status and the command's output. */
        private static String run(final String... command) throws IOException, InterruptedException
        {
            final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            final String output = new String(process.getInputStream().readAllBytes()).strip();
            final int status = process.waitFor();
            return status == 0 ? null : "exit " + status + ": " + output;
        }
    }

    /**
     * Retention: a second run whose limit (one 4 MiB segment) the first run's recording exceeds
     * deletes that finished recording and its fault marks, then sheds the oldest segment of its
     * own running recording once it writes its second, and leaves everything it did not make (a file, a symbolic link and
     * the file the link points to) untouched.
     */
    @Test
    void retentionDeletesOnlyTheRecordersOwnOldRecordingsAndSegments() throws Exception
    {
        final Path directory = temp.resolve("recordings");
        final int segment = FlightRecorderConfig.TERM_LENGTH;
        recordRun(new FlightRecorderConfig(directory, 1L << 30, 3_600_000L, segment, 1011), 2_100, true, 0);
        assertTrue(Files.exists(FlightRecorder.marksFile(directory, 0)), "the first run's fault marks");
        final Path notes = Files.writeString(directory.resolve("notes.txt"), "the operator's\n");
        final Path outside = Files.writeString(temp.resolve("outside.rec"), "not the recorder's\n");
        final Path link = Files.createSymbolicLink(directory.resolve("9-0.rec"), outside);

        final FlightRecorder second = recordRun(new FlightRecorderConfig(directory, segment, 3_600_000L, segment, 1011), 2_100,
            false, segment, directory.resolve("0-0.rec"), directory.resolve("0-4194304.rec"), directory.resolve("1-0.rec"));
        final List<RecordingArchive.Recording> left = RecordingArchive.list(directory);
        assertEquals(1, left.size(), "the first recording deleted: " + left);
        assertEquals(1L, left.get(0).id());
        assertEquals(1L, second.deletedRecordingCount());
        assertEquals(segment, left.get(0).startPosition(), "the running recording shed its oldest segment");
        assertEquals(segment, second.purgedSegmentBytes());
        assertFalse(Files.exists(FlightRecorder.marksFile(directory, 0)), "the deleted recording's fault marks");
        assertFalse(Files.exists(directory.resolve("0-0.rec")), "the first recording's segment");
        assertFalse(Files.exists(directory.resolve("1-0.rec")), "the second recording's oldest segment");
        assertTrue(Files.exists(directory.resolve("1-4194304.rec")), "the second recording's segment being written");
        assertEquals("the operator's\n", Files.readString(notes));
        assertTrue(Files.isSymbolicLink(link), "the link");
        assertEquals("not the recorder's\n", Files.readString(outside));
    }

    /**
     * Runs a lockstep service recording with {@code recording} for {@code steps} ticks, with an
     * emergency stop half-way if asked; before it stops, awaits the retention's purge of
     * {@code purgedBytes} of its own recording and the deletion of the {@code gone} files.
     */
    private static FlightRecorder recordRun(final FlightRecorderConfig recording, final int steps, final boolean estop,
        final long purgedBytes, final Path... gone)
    {
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), recording))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            if (estop)
            {
                rig.stepTo(steps / 2, arm, adapter);
                assertTrue(rig.planner.eStop().accepted(), "emergency stop acknowledged");
                rig.awaitApplied(2);
            }
            rig.stepTo(steps, arm, adapter);
            final FlightRecorder recorder = rig.service.recorder();
            // Retention runs once a second on the recorder's thread; the archive deletes files on its own.
            ServiceRig.await(() -> recorder.recordedPosition() > 0 && recorder.purgedSegmentBytes() >= purgedBytes
                && Arrays.stream(gone).noneMatch(Files::exists), "the retention's deletions");
            return recorder;
        }
    }

    private static long counter(final CountersReader reader, final String name)
    {
        final long[] found = {-1};
        reader.forEach((value, id, label) ->
        {
            if (label.equals(ServiceCounters.LABEL_PREFIX + name))
            {
                found[0] = value;
            }
        });
        return found[0];
    }

    /** A directory that nobody, root included, can create files in until closed. */
    private static final class UnwritableDirectory
    {
        private final Path directory;
        private final boolean root;

        private UnwritableDirectory(final Path directory, final boolean root)
        {
            this.directory = directory;
            this.root = root;
        }

        static UnwritableDirectory make(final Path directory) throws IOException, InterruptedException
        {
            final boolean root = "root".equals(System.getProperty("user.name"));
            if (root)
            {
                assertEquals(0, new ProcessBuilder("chattr", "+i", directory.toString()).inheritIO().start().waitFor(),
                    "chattr +i " + directory + " (root ignores permissions; the test needs an immutable directory)");
            }
            else
            {
                assertTrue(directory.toFile().setWritable(false, false), "made read-only");
            }
            final UnwritableDirectory made = new UnwritableDirectory(directory, root);
            final Path probe = directory.resolve("probe");
            try
            {
                Files.createFile(probe);
                Files.delete(probe);
                made.restore();
                throw new AssertionError("could not make " + directory + " unwritable");
            }
            catch (final IOException expected)
            {
                return made;
            }
        }

        void restore() throws IOException, InterruptedException
        {
            if (root)
            {
                assertEquals(0, new ProcessBuilder("chattr", "-i", directory.toString()).inheritIO().start().waitFor());
            }
            else
            {
                assertTrue(directory.toFile().setWritable(true, true));
            }
        }
    }

    /**
     * Also: the exported CSVs equal {@code nectl monitor}'s CSVs of the same run, and the exported
     * MCAP file, read by the MCAP project's own reader, holds every sample and event.
     */
    @Test
    void recordsEveryTickAndReplaysItBitForBitWithTheFaultMarked() throws Exception
    {
        final Path directory = temp.resolve("recordings");
        // Retention must keep the whole run: the 10-minute run records 1.29 GB.
        final FlightRecorderConfig recording = new FlightRecorderConfig(directory, 64L << 30, 3_600_000L,
            FlightRecorderConfig.TERM_LENGTH, 1011);
        final List<TelemetryRecorder.Sample> live;
        final List<TelemetryRecorder.Event> liveEvents;
        final long recordingId;
        final Path monitorCsv = temp.resolve("monitor.csv");
        final Path monitorEventsCsv = temp.resolve("monitor-events.csv");
        final CompletableFuture<Integer> monitor;
        final ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(), recording);
        try
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            final CountersReader counters = rig.client.aeron().countersReader();
            monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine().execute("monitor", "--aeron-dir",
                rig.service.aeronDirectory(), "--count", "" + (STEPS + 1), "--csv", monitorCsv.toString(), "--events-csv",
                monitorEventsCsv.toString(), "--quiet"));
            ServiceRig.await(() -> telemetrySubscribers(counters) == 2, "the monitor's subscription");
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            stepInChunks(rig, ESTOP_STEP, arm, adapter);
            assertTrue(rig.planner.eStop().accepted(), "emergency stop acknowledged");
            rig.awaitApplied(2);
            stepInChunks(rig, STEPS, arm, adapter);
            recordingId = rig.service.recorder().recordingId();
            live = rig.telemetry.samples;
            liveEvents = rig.telemetry.events;
        }
        finally
        {
            // The service drains the full-rate rings into the archive as it closes.
            rig.close();
        }
        assertEquals(0L, rig.service.loop().recordDropCount(), "full-rate samples dropped");
        assertEquals(0L, rig.service.recordPublisher().unpublishedCount(), "full-rate samples discarded unpublished");
        assertEquals(STEPS + 1L, rig.service.recordPublisher().publishedCount(), "full-rate samples published");
        assertEquals(0L, rig.service.recorder().errorCount(), "recorder errors: " + rig.service.recorder().firstError());

        final List<RecordingArchive.Recording> recordings = RecordingArchive.list(directory);
        assertEquals(1, recordings.size(), "one recording per service run");
        final RecordingArchive.Recording only = recordings.get(0);
        assertEquals(recordingId, only.id());
        assertTrue(only.stopPosition() > 0 && only.stopTimestampMs() >= only.startTimestampMs(), only.toString());
        assertEquals(1, only.faultMarks().size(), "the emergency stop marked: " + only.faultMarks());
        final String[] mark = only.faultMarks().get(0).split(",");
        assertEquals(Faults.EMERGENCY_STOP, Integer.parseInt(mark[3]), "newFaults of the mark");

        final List<Long> replayedCrcs = new ArrayList<>();
        final List<Long> replayedTicks = new ArrayList<>();
        final List<Long> replayedEvents = new ArrayList<>();
        final long[] faultEventPosition = {-1};
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final TelemetryDecoder telemetry = new TelemetryDecoder();
        final ControllerEventDecoder event = new ControllerEventDecoder();
        final CRC32C crc = new CRC32C();
        final long messages;
        try (RecordingArchive archive = RecordingArchive.open(directory))
        {
            messages = archive.replay(recordingId, (buffer, offset, length, position) ->
            {
                header.wrap(buffer, offset);
                if (header.templateId() == TelemetryDecoder.TEMPLATE_ID)
                {
                    telemetry.wrapAndApplyHeader(buffer, offset, header);
                    replayedTicks.add(telemetry.tickCount());
                    final byte[] bytes = new byte[Wire.HEADER_LENGTH + TelemetryDecoder.BLOCK_LENGTH];
                    buffer.getBytes(offset, bytes);
                    crc.reset();
                    crc.update(bytes);
                    replayedCrcs.add(crc.getValue());
                }
                else if (header.templateId() == ControllerEventDecoder.TEMPLATE_ID)
                {
                    event.wrapAndApplyHeader(buffer, offset, header);
                    replayedEvents.add(event.sequence());
                    if (event.newFaults() != 0)
                    {
                        faultEventPosition[0] = position;
                    }
                }
            });
        }
        assertEquals(STEPS + 1, replayedTicks.size(), "one recorded sample per tick");
        for (int i = 0; i < replayedTicks.size(); i++)
        {
            assertEquals(i + 1L, replayedTicks.get(i), "contiguous tick numbers at sample " + i);
        }
        assertEquals(live.size(), replayedCrcs.size(), "live samples");
        for (int i = 0; i < live.size(); i++)
        {
            assertEquals(live.get(i).rawCrc(), replayedCrcs.get(i), "sample of tick " + (i + 1) + " replayed bit for bit");
        }
        assertArrayEquals(liveEvents.stream().mapToLong(TelemetryRecorder.Event::sequence).toArray(),
            replayedEvents.stream().mapToLong(Long::longValue).toArray(), "the same controller events");
        assertEquals(Long.parseLong(mark[0]), faultEventPosition[0], "the mark holds the fault event's position");
        assertEquals(replayedTicks.size() + replayedEvents.size(), messages);

        assertEquals(0, monitor.get(60, TimeUnit.SECONDS), "nectl monitor");
        final Path exportedCsv = temp.resolve("export.csv");
        final Path exportedEventsCsv = temp.resolve("export-events.csv");
        assertEquals(0, NectlCommand.newCommandLine().execute("export", "" + recordingId, "--dir", directory.toString(),
            "--csv", exportedCsv.toString(), "--events-csv", exportedEventsCsv.toString()));
        assertEquals(STEPS + 2, assertSameLines(monitorCsv, exportedCsv, "exported CSV = monitor's CSV"),
            "header and one row per tick");
        assertSameLines(monitorEventsCsv, exportedEventsCsv, "events CSV = monitor's");

        final Path mcap = temp.resolve("run.mcap");
        assertEquals(0, NectlCommand.newCommandLine().execute("export", "" + recordingId, "--dir", directory.toString(),
            "--mcap", mcap.toString()));
        final JsonNode read = McapReader.read(mcap);
        assertEquals(STEPS + 1, read.get("counts").get("/nectl/telemetry").asInt(), "samples in the MCAP file: " + read.get("counts"));
        assertEquals(liveEvents.size(), read.get("counts").get("/nectl/events").asInt(), "events in the MCAP file");
        final JsonNode ticks = read.get("ticks");
        for (int i = 0; i < ticks.size(); i++)
        {
            assertEquals(i + 1L, ticks.get(i).asLong(), "MCAP sample " + i);
        }
        final TelemetryRecorder.Sample lastLive = live.get(live.size() - 1);
        final JsonNode lastRead = read.get("last").get("/nectl/telemetry");
        for (int j = 0; j < lastLive.values().jointCount(); j++)
        {
            assertEquals(lastLive.values().q()[j], lastRead.get("q" + (j + 1)).asDouble(), 0.0, "q of joint " + j);
            assertEquals(lastLive.values().tauLaw()[j], lastRead.get("tauLaw" + (j + 1)).asDouble(), 0.0, "tauLaw of joint " + j);
        }
        assertEquals("ESTOP", lastRead.get("state").asText());
        assertEquals("nectl.Telemetry", read.get("channels").get(1).get("schema").get("name").asText());
        assertEquals("jsonschema", read.get("channels").get(1).get("schema").get("encoding").asText());

        final Path replayedCsv = temp.resolve("replayed.csv");
        final String replayDriver = CommonContext.generateRandomDirName();
        final CompletableFuture<Integer> replay = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine().execute(
            "replay", "" + recordingId, "--dir", directory.toString(), "--aeron-dir", replayDriver, "--speed", "0"));
        ServiceRig.await(() -> new File(replayDriver, CncFileDescriptor.CNC_FILE).isFile()
            && CommonContext.isDriverActive(new File(replayDriver), 1_000, line -> { }), "the replay's media driver");
        assertEquals(0, NectlCommand.newCommandLine().execute("monitor", "--aeron-dir", replayDriver, "--count", "" + (STEPS + 1),
            "--csv", replayedCsv.toString(), "--quiet"), "nectl monitor of the replay");
        assertEquals(0, replay.get(60, TimeUnit.SECONDS), "nectl replay");
        assertSameLines(monitorCsv, replayedCsv, "the replay, monitored = the live run, monitored");
        final Path windowCsv = temp.resolve("window.csv");
        final String windowDriver = CommonContext.generateRandomDirName();
        final CompletableFuture<Integer> window = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine().execute(
            "replay", "" + recordingId, "--dir", directory.toString(), "--aeron-dir", windowDriver, "--speed", "10",
            "--fault", "1", "--before", "0.1", "--after", "0.1"));
        ServiceRig.await(() -> new File(windowDriver, CncFileDescriptor.CNC_FILE).isFile()
            && CommonContext.isDriverActive(new File(windowDriver), 1_000, line -> { }), "the second replay's media driver");
        assertEquals(0, NectlCommand.newCommandLine().execute("monitor", "--aeron-dir", windowDriver, "--count", "201",
            "--csv", windowCsv.toString(), "--quiet"), "nectl monitor of the replayed window");
        assertEquals(0, window.get(60, TimeUnit.SECONDS), "nectl replay --fault 1 --before 0.1 --after 0.1");
        final List<String> windowLines = Files.readAllLines(windowCsv);
        final int faultTick = Integer.parseInt(mark[1]);
        final List<String> liveWindow;
        try (Stream<String> lines = Files.lines(monitorCsv))
        {
            liveWindow = lines.skip(faultTick - 100).limit(201).toList();
        }
        assertEquals(liveWindow, windowLines.subList(1, windowLines.size()),
            "0.1 s around the fault at tick " + faultTick + " (controller time " + mark[2] + " ns): ticks "
                + (faultTick - 100) + " to " + (faultTick + 100));

        final StringWriter listing = new StringWriter();
        assertEquals(0, NectlCommand.newCommandLine().setOut(new PrintWriter(listing)).execute("recordings", "--dir",
            directory.toString()));
        assertTrue(listing.toString().contains("fault at tick " + mark[1] + ", controller time " + mark[2] + " ns, position "
            + mark[0] + ": emergency stop"), listing.toString());
        System.out.println(listing);
    }

    private static void stepInChunks(final ServiceRig rig, final long step, final SimulatedArm arm,
        final SimulatedArmAdapter adapter)
    {
        for (long next = Math.min(step, arm.stepCount() + STEP_CHUNK); ; next = Math.min(step, next + STEP_CHUNK))
        {
            rig.stepTo(next, arm, adapter);
            if (next == step)
            {
                return;
            }
        }
    }

    /** Compares two text files line by line without holding them. @return the number of lines. */
    private static long assertSameLines(final Path expected, final Path actual, final String what) throws IOException
    {
        try (BufferedReader a = Files.newBufferedReader(expected); BufferedReader b = Files.newBufferedReader(actual))
        {
            long line = 0;
            String left;
            do
            {
                left = a.readLine();
                final String right = b.readLine();
                line++;
                if (!Objects.equals(left, right))
                {
                    fail(what + ": line " + line + " differs:\n" + left + "\n" + right);
                }
            }
            while (left != null);
            return line - 1;
        }
    }

    /** Subscriptions to the live telemetry stream (sub-pos counters of stream 1010). */
    private static int telemetrySubscribers(final CountersReader counters)
    {
        final int[] found = {0};
        counters.forEach((value, id, label) ->
        {
            if (label.startsWith("sub-pos") && label.contains(" " + TelemetryConfig.STREAM_ID + " "))
            {
                found[0]++;
            }
        });
        return found[0];
    }
}
