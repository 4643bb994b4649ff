package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.aeron.Publication;
import io.aeron.Subscription;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.runtime.Faults;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.TelemetryPublisher;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.TelemetryEncoder;

import picocli.CommandLine;

/**
 * {@code nectl monitor} subscribed to a real Telemetry publication (embedded media driver in a
 * unique directory, the transport's TelemetryQueue and TelemetryPublisher on an agent thread).
 */
final class MonitorCommandTest
{
    private static final int DOF = 3;
    private static final int SAMPLES = 20;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    /** Rate clip of joint 31 (bit 63) and effort clip of joint 0: negative as a Java long. */
    /** The monitor's client driver timeout in the driver-loss tests, ms: the shortest allowed. */
    private static final long DRIVER_TIMEOUT_MS = 2_000L;
    /** The client's 0.5 s check interval and scheduling delay on a loaded host, ms. */
    private static final long LOSS_MARGIN_MS = 3_000L;
    private static final long LIMITER_FLAGS = (1L << 63) | 1L;

    @TempDir
    Path temp;

    private TelemetryPublisherRig rig;

    @BeforeEach
    void start()
    {
        rig = new TelemetryPublisherRig(64 * 1024);
    }

    @AfterEach
    void stop()
    {
        rig.close();
        assertTrue(rig.agentErrors.isEmpty(), "agent errors: " + rig.agentErrors);
    }

    @Test
    void recordsEverySampleAndEveryEventToCsvShowsTheEventsAndStopsAfterCount() throws Exception
    {
        final Path csv = temp.resolve("telemetry.csv");
        final Path eventsCsv = temp.resolve("events.csv");
        final StringWriter out = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(out))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--count", "" + SAMPLES, "--csv", csv.toString(),
                "--events-csv", eventsCsv.toString(), "--interval-ms", "1"));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");

        final TelemetrySample sample = new TelemetrySample(DOF);
        assertTrue(rig.events.offer(5_000L, 5L, ControllerEventKind.FAULT, ControllerState.TRACKING, ControllerState.FAULT,
            Faults.STATE_MISSING | Faults.EMERGENCY_STOP, Faults.STATE_MISSING, EventCommand.NONE, 0));
        assertTrue(rig.events.offer(6_000L, 6L, ControllerEventKind.COMMAND_REJECTED, ControllerState.FAULT, ControllerState.FAULT,
            Faults.STATE_MISSING, 0, EventCommand.ENABLE, 1));
        for (int i = 1; i <= SAMPLES; i++)
        {
            fill(sample, i);
            assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(sample), "sample " + i);
        }
        assertEquals(0, monitor.get(30, TimeUnit.SECONDS), out.toString());

        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertEquals(SAMPLES + 1, lines.size());
        final List<String> header = List.of(lines.get(0).split(","));
        assertEquals(List.of("sequence", "timestampNs", "tickCount", "overrunCount", "deadlineMissCount", "missingStateCount",
            "telemetryDropCount", "jointStateSequence", "jointStateTimestampNs", "tickComputeNs", "reject_TRUNCATED"),
            header.subList(0, 11));
        assertEquals(List.of("reject_REPLAYED", "q1", "q2", "q3", "qd1", "qd2", "qd3", "tauCommand1", "tauCommand2", "tauCommand3",
            "trackingError1", "trackingError2", "trackingError3", "state", "controller", "jointCount"), header.subList(25, 41));
        assertEquals(List.of("referenceClockRate", "timeScaledTickCount", "torqueClipCount", "torqueRateClipCount", "limiterFlags",
            "faults"), header.subList(41, 47), "every version 2 field, in wire order");
        assertEquals(List.of("tauFeedforward1", "tauFeedforward2", "tauFeedforward3", "tauFeedforwardRate1", "tauFeedforwardRate2",
            "tauFeedforwardRate3", "tauLaw1", "tauLaw2", "tauLaw3", "tickStartLatenessNs", "tickIntervalNs",
            "externalTorque1", "externalTorque2", "externalTorque3", "collisionCount"),
            header.subList(47, 62), "every version 3 field, in wire order");
        assertEquals(List.of("baseBlockValidCount", "baseBlockMissingCount", "baseBlockInvalidCount"),
            header.subList(62, header.size()), "every version 4 field, in wire order");
        for (int i = 1; i <= SAMPLES; i++)
        {
            final String[] row = lines.get(i).split(",");
            assertEquals(header.size(), row.length, "row " + i);
            assertEquals(i, Long.parseLong(row[header.indexOf("sequence")]), "sequence");
            assertEquals(1000L * i, Long.parseLong(row[header.indexOf("tickCount")]), "tickCount");
            assertEquals(i % 2 == 0 ? "TRACKING" : "HOLD", row[header.indexOf("state")]);
            assertEquals("PD_GRAVITY", row[header.indexOf("controller")]);
            assertEquals(DOF, Integer.parseInt(row[header.indexOf("jointCount")]));
            assertEquals(i, Long.parseLong(row[header.indexOf("reject_LIMIT_EXCEEDED")]));
            assertEquals(1.0 / i, Double.parseDouble(row[header.indexOf("referenceClockRate")]), 0.0, "row " + i);
            assertEquals(10L * i, Long.parseLong(row[header.indexOf("timeScaledTickCount")]));
            assertEquals(20L * i, Long.parseLong(row[header.indexOf("torqueClipCount")]));
            assertEquals(30L * i, Long.parseLong(row[header.indexOf("torqueRateClipCount")]));
            assertEquals(Long.toUnsignedString(LIMITER_FLAGS), row[header.indexOf("limiterFlags")], "uint64 written unsigned");
            assertEquals(Faults.TORQUE_LIMIT, Long.parseLong(row[header.indexOf("faults")]));
            for (int k = 0; k < DOF; k++)
            {
                assertEquals(0.1 * i + k, Double.parseDouble(row[header.indexOf("q" + (k + 1))]), 0.0, "q" + (k + 1) + " row " + i);
                assertEquals(2.5 * k, Double.parseDouble(row[header.indexOf("tauCommand" + (k + 1))]), 0.0, "row " + i);
                assertEquals(-1e-4 * i * k, Double.parseDouble(row[header.indexOf("trackingError" + (k + 1))]), 0.0,
                    "trackingError" + (k + 1) + " row " + i);
            }
        }
        final String view = out.toString();
        assertTrue(view.contains("state TRACKING controller PD_GRAVITY") && view.contains("rejected: LIMIT_EXCEEDED 20")
            && view.contains(SAMPLES + " samples and 2 events received"), view);
        assertTrue(view.contains("event 1 at 5000 ns, tick 5: FAULT TRACKING -> FAULT (state missing)"), view);
        assertTrue(view.contains("event 2 at 6000 ns, tick 6: COMMAND_REJECTED FAULT -> FAULT code 1, command ENABLE"), view);
        assertEquals(List.of(ControllerEventText.CSV_HEADER,
            "1,5000,5,FAULT,TRACKING,FAULT,NONE,0," + (Faults.STATE_MISSING | Faults.EMERGENCY_STOP) + "," + Faults.STATE_MISSING + ",0,0,0.0",
            "2,6000,6,COMMAND_REJECTED,FAULT,FAULT,ENABLE,1," + Faults.STATE_MISSING + ",0,0,0,0.0"),
            Files.readAllLines(eventsCsv, StandardCharsets.UTF_8));
    }

    /** A version 1 Telemetry message (block 1235 bytes) is recorded with the fields of version 1, and only those. */
    @Test
    void versionOneTelemetryIsRecordedWithTheFieldsOfVersionOne() throws Exception
    {
        final Path csv = temp.resolve("v1.csv");
        final StringWriter out = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(out))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--count", "1", "--csv", csv.toString(), "--quiet"));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH + TelemetryEncoder.BLOCK_LENGTH]);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder());
        encoder.sequence(1L).tickCount(77L).state(ControllerState.HOLD).controller(ControllerKind.COMPUTED_TORQUE).jointCount((short)DOF)
            .q(0, 0.25).q(1, -0.5).q(2, 1.5);
        // What a version 1 sender writes: the first 1235 bytes of the block, header version 1.
        buffer.putShort(0, (short)1235, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)1, ByteOrder.LITTLE_ENDIAN);
        try (Publication v1 = rig.transport.aeron().addPublication(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID))
        {
            awaitCondition(() -> v1.offer(buffer, 0, MessageHeaderEncoder.ENCODED_LENGTH + 1235) > 0, "the version 1 message sent");
            assertEquals(0, monitor.get(30, TimeUnit.SECONDS), out.toString());
        }

        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertEquals(2, lines.size(), lines.toString());
        final List<String> header = List.of(lines.get(0).split(","));
        assertEquals(10 + 16 + 4 * DOF + 3, header.size(), header.toString());
        assertEquals(List.of("state", "controller", "jointCount"), header.subList(header.size() - 3, header.size()));
        final String[] row = lines.get(1).split(",");
        assertEquals("77", row[header.indexOf("tickCount")]);
        assertEquals("HOLD", row[header.indexOf("state")]);
        assertEquals("1.5", row[header.indexOf("q3")]);
    }

    /** Samples reach the CSV within the flush interval and events at once, while the monitor still runs. */
    @Test
    void csvFilesAreWrittenWhileTheMonitorRuns() throws Exception
    {
        final Path csv = temp.resolve("live.csv");
        final Path eventsCsv = temp.resolve("live-events.csv");
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--csv", csv.toString(), "--events-csv", eventsCsv.toString(),
                "--quiet", "--driver-timeout-ms", "" + DRIVER_TIMEOUT_MS));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");

        assertTrue(rig.events.offer(5_000L, 5L, ControllerEventKind.MODE_TRANSITION, ControllerState.IDLE, ControllerState.ENABLED,
            0, 0, EventCommand.ENABLE, 0));
        awaitCondition(() -> lineCount(eventsCsv) == 2, "the event in " + eventsCsv);
        final TelemetrySample sample = new TelemetrySample(DOF);
        for (int i = 1; i <= 3; i++)
        {
            fill(sample, i);
            assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(sample), "sample " + i);
        }
        final long offeredNs = System.nanoTime();
        awaitCondition(() -> lineCount(csv) == 4, "the header and 3 samples in " + csv);
        final long onDiskMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - offeredNs);
        assertFalse(monitor.isDone(), "still monitoring");
        System.out.printf("samples on disk %d ms after they were offered (flush interval %d ms)%n", onDiskMs,
            MonitorCommand.FLUSH_INTERVAL_MS);

        stopDriver();
        assertEquals(MonitorCommand.DRIVER_LOST_EXIT_STATUS, monitor.get(30, TimeUnit.SECONDS), err.toString());
        assertEquals(4, lineCount(csv));
        assertEquals(2, lineCount(eventsCsv));
    }

    /** Losing the media driver ends the monitor with status 4 and a message, within the driver timeout and a margin. */
    @Test
    void lostMediaDriverEndsTheMonitorWithExitStatus4() throws Exception
    {
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--quiet", "--driver-timeout-ms", "" + DRIVER_TIMEOUT_MS));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");

        final long stopNs = System.nanoTime();
        stopDriver();
        final int status = monitor.get(DRIVER_TIMEOUT_MS + LOSS_MARGIN_MS, TimeUnit.MILLISECONDS);
        final long exitMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - stopNs);

        assertEquals(MonitorCommand.DRIVER_LOST_EXIT_STATUS, status, err.toString());
        assertTrue(err.toString().contains("nectl monitor: media driver lost at "), err.toString());
        System.out.printf("monitor exited %d ms after its media driver stopped (driver timeout %d ms)%n", exitMs, DRIVER_TIMEOUT_MS);
    }

    /**
     * Samples polled in the same batch after --count is reached are not reported as skipped (the
     * summary's "skipped" means another joint count or schema version, or invalid). A subscriber
     * that has not read yet holds the samples, so the monitor's IPC subscription joins before them
     * and receives them all in its first poll.
     */
    @Test
    void samplesBeyondCountAreNotReportedAsSkipped()
    {
        final int streamId = 4243;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH + TelemetryEncoder.BLOCK_LENGTH]);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder());
        final StringWriter out = new StringWriter();
        try (Subscription lagging = rig.transport.aeron().addSubscription(TelemetryConfig.IPC_CHANNEL, streamId);
            Publication publication = rig.transport.aeron().addPublication(TelemetryConfig.IPC_CHANNEL, streamId))
        {
            awaitCondition(publication::isConnected, "the lagging subscriber");
            for (int i = 1; i <= 5; i++)
            {
                encoder.sequence(i).tickCount(10L * i).state(ControllerState.HOLD).controller(ControllerKind.PD_GRAVITY)
                    .jointCount((short)DOF).q(0, 0.1 * i);
                awaitCondition(() -> publication.offer(buffer, 0, buffer.capacity()) > 0, "sample sent");
            }
            assertEquals(0, NectlCommand.newCommandLine().setOut(new PrintWriter(out)).execute("monitor", "--aeron-dir",
                rig.aeronDirectory(), "--stream", "" + streamId, "--count", "2", "--quiet"));
            assertEquals(0, lagging.poll((b, o, l, h) -> { }, 0), "the lagging subscriber never read");
        }
        assertTrue(out.toString().contains("nectl monitor: 2 samples and 0 events received, 0 skipped"), out.toString());
    }

    /**
     * A CSV that cannot be opened: status 2 naming that file and why, nothing else created, and the
     * client closes at once instead of waiting for a polling thread that never started.
     */
    @Test
    void unwritableCsvIsRefusedNamingTheFileWithoutTheClientWaitingForItsBuffers()
    {
        final Path csv = temp.resolve("samples.csv");
        final Path eventsCsv = temp.resolve("no-such-dir").resolve("events.csv");
        final StringWriter err = new StringWriter();
        final ByteArrayOutputStream clientErr = new ByteArrayOutputStream();
        final PrintStream systemErr = System.err;
        final int status;
        System.setErr(new PrintStream(clientErr, true, StandardCharsets.UTF_8));
        try
        {
            status = NectlCommand.newCommandLine().setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
                .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--csv", csv.toString(), "--events-csv",
                    eventsCsv.toString(), "--quiet");
        }
        finally
        {
            System.setErr(systemErr);
        }
        assertEquals(2, status, err.toString());
        assertEquals("nectl monitor: cannot write " + eventsCsv + ": its directory " + eventsCsv.getParent()
            + " does not exist; nothing written", err.toString().trim());
        final String client = clientErr.toString(StandardCharsets.UTF_8);
        assertFalse(client.contains("still held the client's buffers"), client);
        assertTrue(Files.notExists(csv), "the samples CSV is not created");
    }

    @Test
    void missingMediaDriverGivesExitStatus1()
    {
        final StringWriter err = new StringWriter();
        final CommandLine command = NectlCommand.newCommandLine().setErr(new PrintWriter(err));
        assertEquals(1, command.execute("monitor", "--aeron-dir", temp.resolve("no-driver").toString(), "--count", "1"));
        assertTrue(err.toString().contains("no media driver"), err.toString());
    }

    @Test
    void durationEndsAQuietStreamWithExitStatus3() throws IOException
    {
        assertEquals(MonitorCommand.INCOMPLETE_EXIT_STATUS, NectlCommand.newCommandLine().setOut(new PrintWriter(new StringWriter()))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--stream", "4242", "--count", "1", "--duration", "0.2"));
    }

    private void stopDriver()
    {
        rig.close();
    }

    private static long lineCount(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8).size() : 0;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private static void fill(final TelemetrySample sample, final int i)
    {
        sample.tickCount(1000L * i).timestampNs(7L * i).tickComputeNs(100 + i)
            .state(i % 2 == 0 ? ControllerState.TRACKING : ControllerState.HOLD).controller(ControllerKind.PD_GRAVITY)
            .referenceClockRate(1.0 / i).timeScaledTickCount(10L * i).torqueClipCount(20L * i).torqueRateClipCount(30L * i)
            .limiterFlags(LIMITER_FLAGS).faults(Faults.TORQUE_LIMIT);
        sample.rejectCounts()[RejectReason.LIMIT_EXCEEDED.value()] = i;
        for (int k = 0; k < DOF; k++)
        {
            sample.q()[k] = 0.1 * i + k;
            sample.qd()[k] = -k;
            sample.tauCommand()[k] = 2.5 * k;
            sample.trackingError()[k] = -1e-4 * i * k;
        }
    }

    private static void awaitCondition(final java.util.function.BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("timed out waiting for " + what);
            }
            Thread.yield();
        }
    }
}
