package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.service.planner.GatewayRig.DOF;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.transport.PlannerKeys;

/**
 * examples/python/planner.py, written from docs/PROTOCOL.md alone, run with python3 against a real
 * planner gateway on an ephemeral loopback port: its datagrams are accepted, and what reaches the
 * loop is the move it describes.
 */
final class PythonPlannerExampleTest
{
    private static final String SCRIPT = "../examples/python/planner.py";
    private static final double AMPLITUDE_RAD = 0.2;
    private static final double DURATION_S = 4.0;

    @TempDir
    Path temp;

    private GatewayRig rig;
    private Path keys;

    @BeforeEach
    void start()
    {
        keys = GatewayRig.developmentKeys(temp);
        rig = new GatewayRig(PlannerKeys.read(keys));
    }

    @AfterEach
    void stop()
    {
        rig.close();
    }

    @Test
    void enablesAndSendsAChunkedTrajectoryThatIsAcknowledged() throws Exception
    {
        final Result run = python("--target", "127.0.0.1:" + rig.address().getPort(), "--start", "0,0.1,0,-0.5,0,1,0.5");

        assertEquals(0, run.status, run.output);
        final GatewayRig.Recorder loop = rig.drain();
        assertEquals(1 + 6, loop.events().size(), "ENABLE, then 41 waypoints in 6 chunks of up to 7: " + loop.events());
        assertTrue(loop.events().get(0).endsWith(" ENABLE COMPUTED_TORQUE"), loop.events().get(0));
        assertEquals(7, run.output.split(" accepted \\(template ").length - 1, run.output);
        assertTrue(run.output.contains("trajectory chunk 5 of 41 waypoints: sequence "), run.output);
        assertEquals(41, loop.timesNs().size());
        assertEquals(2_000_000_000L, loop.timesNs().get(20));
        final double[] joint1AtMidMove = loop.joints().get(20 * DOF + 1);
        assertEquals(0.1 - AMPLITUDE_RAD, joint1AtMidMove[0], 1e-15, "odd joints move the other way");
        assertEquals(0.0, joint1AtMidMove[1], 1e-15);
        final double omega = 2 * Math.PI / DURATION_S;
        assertEquals(0.5 * AMPLITUDE_RAD * omega * omega, joint1AtMidMove[2], 1e-15);
    }

    @Test
    void exitsWithStatus1OnRejectAndPrintsTheReason() throws Exception
    {
        final Result run = python("--target", "127.0.0.1:" + rig.address().getPort(), "--amplitude", "2.5");

        assertEquals(1, run.status, run.output);
        assertTrue(run.output.contains("trajectory chunk 0 of 41 waypoints: sequence ")
            && run.output.contains(" rejected: LIMIT_EXCEEDED (joint 0)"), run.output);
    }

    @Test
    void refusesAKeyFileOthersCanReadWithStatus2() throws Exception
    {
        final Path readable = temp.resolve("readable.keys");
        Files.copy(keys, readable);
        Files.setPosixFilePermissions(readable, PosixFilePermissions.fromString("rw-r--r--"));
        final Result run = python("--target", "127.0.0.1:" + rig.address().getPort(), "--key-file", readable.toString());

        assertEquals(2, run.status, run.output);
        assertTrue(run.output.contains("mode 0644 lets group or others read or change it") && !run.output.contains("Traceback"),
            run.output);
        assertEquals(0, rig.drain().events().size(), "nothing sent");
    }

    @Test
    void exitsWithStatus3WithoutReply() throws Exception
    {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final Result run = python("--target", "127.0.0.1:" + silent.getLocalPort(), "--timeout", "0.05");
            assertEquals(3, run.status, run.output);
            assertTrue(run.output.contains("enable: sequence ") && run.output.contains(" timeout"), run.output);
        }
    }

    private Result python(final String... args) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(List.of("python3", SCRIPT));
        if (!List.of(args).contains("--key-file"))
        {
            command.addAll(List.of("--key-file", keys.toString()));
        }
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "python3 planner.py ends: " + output);
        return new Result(process.exitValue(), output);
    }

    private record Result(int status, String output)
    {
    }
}
