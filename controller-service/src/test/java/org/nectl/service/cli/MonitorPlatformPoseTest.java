package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;
import org.nectl.service.monitor.PlatformPoses;
import org.nectl.transport.TelemetryPublisher;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.TelemetrySample;

/**
 * {@code nectl monitor --model} subscribed to a real Telemetry publication (embedded media driver in
 * a unique directory, the transport's TelemetryQueue and TelemetryPublisher on an agent thread).
 */
final class MonitorPlatformPoseTest
{
    private static final String HEXAPOD = "../config/parallel-robots/hexapod.yaml";
    private static final int SAMPLES = 12;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

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
    void everyRowCarriesThePlatformPoseOfItsLegLengths() throws Exception
    {
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(GoughStewartDescriptions.load(Path.of(HEXAPOD)));
        final Path csv = temp.resolve("hexapod.csv");
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--count", "" + SAMPLES, "--csv", csv.toString(),
                "--model", HEXAPOD, "--quiet"));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");
        final TelemetrySample sample = new TelemetrySample(GoughStewartModel.LEGS);
        final double[][] poses = new double[SAMPLES][];
        for (int i = 0; i < SAMPLES; i++)
        {
            poses[i] = pose(i);
            kinematics.inverse(new double[] {poses[i][0], poses[i][1], poses[i][2]},
                Transforms.rpy(poses[i][3], poses[i][4], poses[i][5]), sample.q());
            if (i == 5)
            {
                // A leg measurement no platform pose has: the rod longer than the other five legs and the base together.
                sample.q()[0] = 5.0;
            }
            sample.tickCount(i);
            assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(sample), "sample " + i);
        }
        assertEquals(0, monitor.get(30, TimeUnit.SECONDS), out + "\n" + err);

        final List<String> lines = Files.readAllLines(csv, StandardCharsets.UTF_8);
        assertEquals(SAMPLES + 1, lines.size());
        final List<String> header = List.of(lines.get(0).split(",", -1));
        assertEquals(PlatformPoses.COLUMNS, header.subList(header.size() - 6, header.size()));
        for (int i = 0; i < SAMPLES; i++)
        {
            final String[] row = lines.get(i + 1).split(",", -1);
            assertEquals(header.size(), row.length, "row " + i);
            for (int k = 0; k < 6; k++)
            {
                final String field = row[header.size() - 6 + k];
                if (i == 5)
                {
                    assertEquals("", field, "the unreachable sample's " + PlatformPoses.COLUMNS.get(k));
                }
                else
                {
                    assertEquals(poses[i][k], Double.parseDouble(field), 1e-9, PlatformPoses.COLUMNS.get(k) + " of sample " + i);
                }
            }
        }
        assertTrue(err.toString().contains("nectl monitor: 1 samples without a platform pose"), err.toString());
    }

    @Test
    void telemetryOfAnotherRobotEndsTheMonitorWithStatus2() throws Exception
    {
        final Path csv = temp.resolve("arm.csv");
        final StringWriter err = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
            .execute("monitor", "--aeron-dir", rig.aeronDirectory(), "--count", "1", "--csv", csv.toString(),
                "--model", HEXAPOD, "--quiet"));
        awaitCondition(rig.publisher::isConnected, "the monitor's subscription");
        assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(new TelemetrySample(3)));
        assertEquals(2, monitor.get(30, TimeUnit.SECONDS), err.toString());
        assertEquals("nectl monitor: --model " + HEXAPOD + ": the telemetry carries 3 joints, the platform has 6 legs; not this robot's "
            + "telemetry; " + csv + " holds no sample", err.toString().strip());
        assertEquals(0L, Files.size(csv));
    }

    @Test
    void aModelThatIsNotAGoughStewartPlatformOrNoCsvIsABadOption()
    {
        final StringWriter err = new StringWriter();
        assertEquals(2, NectlCommand.newCommandLine().setErr(new PrintWriter(err, true)).execute("monitor", "--aeron-dir",
            rig.aeronDirectory(), "--csv", temp.resolve("t.csv").toString(), "--model", "../config/robots/puma560.yaml"));
        assertEquals("nectl monitor: --model ../config/robots/puma560.yaml: not a Gough-Stewart description (format: gough-stewart); "
            + "the platform pose needs one", err.toString().strip());
        final StringWriter noCsv = new StringWriter();
        assertEquals(2, NectlCommand.newCommandLine().setErr(new PrintWriter(noCsv, true)).execute("monitor", "--aeron-dir",
            rig.aeronDirectory(), "--model", HEXAPOD));
        assertEquals("nectl monitor: --model adds the platform pose to the --csv rows; it needs --csv", noCsv.toString().strip());
    }

    /** A pose of a slow circle with a tilt, x, y, z (m), roll, pitch, yaw (rad). */
    private static double[] pose(final int i)
    {
        final double a = 0.3 * i;
        return new double[] {0.05 * Math.cos(a), 0.05 * Math.sin(a), 0.56 + 0.02 * Math.sin(2 * a), 0.04 * Math.sin(a),
            -0.03 * Math.cos(a), 0.06 * Math.sin(0.5 * a)};
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
