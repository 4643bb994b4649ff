package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlCommand;
import org.nectl.service.dashboard.DashboardServer;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * The dashboard shows a replayed recording: a lockstep service records a run with an emergency
 * stop, {@code nectl replay} publishes the recording at its own pace on the telemetry stream of a
 * media driver, {@code nectl dashboard} subscribes to that stream, and a WebSocket client (the
 * JDK's, as a browser would) receives sample frames whose values are those of the recorded ticks,
 * and the FAULT event.
 */
final class DashboardReplayTest
{
    private static final int STEPS = 1_000;
    private static final int ESTOP_STEP = 600;
    private static final Pattern URL = Pattern.compile("http://(127\\.0\\.0\\.1:\\d+)/");
    private static final String[][] SERIES = {{"q", "q"}, {"tau", "tauCommand"}, {"trackingError", "trackingError"}};

    @TempDir
    Path temp;

    @Test
    void theDashboardShowsAReplayedRecordingWithItsRecordedValues() throws Exception
    {
        final Path directory = temp.resolve("recordings");
        final long recordingId;
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings(),
            new FlightRecorderConfig(directory, 1L << 30, 3_600_000L, FlightRecorderConfig.TERM_LENGTH, 1011)))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(ESTOP_STEP, arm, adapter);
            assertTrue(rig.planner.eStop().accepted(), "emergency stop acknowledged");
            rig.awaitApplied(2);
            rig.stepTo(STEPS, arm, adapter);
            recordingId = rig.service.recorder().recordingId();
        }
        final Map<Long, Map<String, double[]>> recorded = readRecording(directory, recordingId);
        assertEquals(STEPS + 1, recorded.size(), "recorded ticks");

        // The user's order: a media driver, the dashboard and its browser, then the replay.
        final AeronTransport driver = AeronTransport.launch(AeronConfig.embeddedDefaults());
        final String aeronDir = driver.aeronDirectory();
        final StringWriter dashboardOut = new StringWriter();
        final CompletableFuture<Integer> dashboard;
        final List<String> frames = new CopyOnWriteArrayList<>();
        final StringWriter replayOut = new StringWriter();
        try
        {
            dashboard = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
                .setOut(new PrintWriter(dashboardOut, true)).execute("dashboard", "--aeron-dir", aeronDir, "--port", "0"));
            ServiceRig.await(() -> URL.matcher(dashboardOut.toString()).find() || dashboard.isDone(), "the dashboard's address");
            final Matcher url = URL.matcher(dashboardOut.toString());
            assertTrue(url.find(), dashboardOut.toString());
            final WebSocket browser = HttpClient.newHttpClient().newWebSocketBuilder()
                .buildAsync(URI.create("ws://" + url.group(1) + DashboardServer.STREAM_PATH), new WebSocket.Listener()
                {
                    private final StringBuilder partial = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean last)
                    {
                        partial.append(data);
                        if (last)
                        {
                            frames.add(partial.toString());
                            partial.setLength(0);
                        }
                        socket.request(1);
                        return null;
                    }
                }).get(30, TimeUnit.SECONDS);

            // --speed 1: the 1 s of the run replays in about 1 s, some 50 frames at the dashboard's 50 Hz.
            assertEquals(0, NectlCommand.newCommandLine().setOut(new PrintWriter(replayOut, true)).execute("replay",
                "" + recordingId, "--dir", directory.toString(), "--aeron-dir", aeronDir, "--speed", "1", "--linger-s", "0"),
                "nectl replay: " + replayOut);
            assertTrue(replayOut.toString().contains(STEPS + 1 + " samples and 4 events published"), replayOut.toString());
            ServiceRig.await(() -> frames.stream().anyMatch(f -> f.contains("\"tickCount\":" + (STEPS + 1) + ".0")
                || f.contains("\"tickCount\":" + (STEPS + 1) + ",") || f.contains("\"tickCount\":" + (STEPS + 1) + "}")),
                "the recording's last tick on the dashboard");
            browser.abort();
        }
        finally
        {
            driver.close();
        }
        assertEquals(4, dashboard.get(30, TimeUnit.SECONDS), "nectl dashboard ends when its media driver is gone: " + dashboardOut);

        final ObjectMapper json = new ObjectMapper();
        int samples = 0;
        long lastTick = 0;
        boolean faultShown = false;
        for (final String text : frames)
        {
            final JsonNode frame = json.readTree(text);
            if ("event".equals(frame.get("type").asText()))
            {
                faultShown |= "FAULT".equals(frame.get("kind").asText()) && frame.get("text").asText().contains("emergency stop");
                continue;
            }
            if (!"sample".equals(frame.get("type").asText()))
            {
                continue;
            }
            final JsonNode values = frame.get("values");
            final long tick = values.get("tickCount").asLong();
            final Map<String, double[]> at = recorded.get(tick);
            assertNotNull(at, "a frame of tick " + tick + ", which the recording does not hold");
            for (final String[] series : SERIES)
            {
                final JsonNode shown = values.get(series[0]);
                final double[] expected = at.get(series[1]);
                assertEquals(expected.length, shown.size(), series[0] + " joints");
                for (int k = 0; k < expected.length; k++)
                {
                    assertEquals(expected[k], shown.get(k).asDouble(), 0.0, series[0] + " of joint " + (k + 1) + " at tick " + tick);
                }
            }
            assertTrue(tick > lastTick, "ticks in order: " + tick + " after " + lastTick);
            lastTick = tick;
            samples++;
        }
        System.out.println("dashboard of a replay: " + frames.size() + " frames, " + samples + " sample frames equal to the "
            + "recorded ticks, the last of tick " + lastTick + "; " + replayOut.toString().strip() + "; "
            + dashboardOut.toString().strip().replace('\n', ' '));
        // About 50 at 50 Hz on a quiet host; a starved feed thread sends fewer, each still the newest sample it has.
        assertTrue(samples >= 2, samples + " sample frames for a 1 s replay at 50 Hz");
        assertEquals(STEPS + 1L, lastTick, "the newest sample shown is the recording's last");
        assertTrue(faultShown, "the emergency stop shown as a FAULT event: " + frames.stream().filter(f -> f.contains("\"event\"")).toList());
    }

    /** Per recorded tick, the series the test compares, decoded from the recording itself. */
    private static Map<Long, Map<String, double[]>> readRecording(final Path directory, final long recordingId)
    {
        final Map<Long, Map<String, double[]>> recorded = new HashMap<>();
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final TelemetryDecoder telemetry = new TelemetryDecoder();
        try (RecordingArchive archive = RecordingArchive.open(directory))
        {
            archive.replay(recordingId, (buffer, offset, length, position) ->
            {
                header.wrap(buffer, offset);
                if (header.templateId() != TelemetryDecoder.TEMPLATE_ID)
                {
                    return;
                }
                telemetry.wrapAndApplyHeader(buffer, offset, header);
                final int joints = ServiceRig.PANDA.dof();
                final double[] q = new double[joints];
                final double[] tau = new double[joints];
                final double[] error = new double[joints];
                for (int k = 0; k < joints; k++)
                {
                    q[k] = telemetry.q(k);
                    tau[k] = telemetry.tauCommand(k);
                    error[k] = telemetry.trackingError(k);
                }
                recorded.put(telemetry.tickCount(), Map.of("q", q, "tauCommand", tau, "trackingError", error));
            });
        }
        return recorded;
    }
}
