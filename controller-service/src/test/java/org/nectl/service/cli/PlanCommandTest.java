package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.service.planner.GatewayRig.DOF;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.service.planner.DemoMove;
import org.nectl.service.planner.GatewayRig;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.PlannerKeys;

import picocli.CommandLine;

/** {@code nectl plan} against a real planner gateway on an ephemeral loopback UDP port. */
final class PlanCommandTest
{
    @TempDir
    Path temp;

    private GatewayRig rig;
    private Path developmentKeys;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start()
    {
        developmentKeys = GatewayRig.developmentKeys(temp);
        rig = new GatewayRig(PlannerKeys.read(developmentKeys));
    }

    @AfterEach
    void stop()
    {
        rig.close();
    }

    @Test
    void enableDemoMoveHoldDisableAreAllAcceptedInOrder()
    {
        assertEquals(0, plan("--enable", "--controller", "pd_gravity", "--demo", "--dof", "7", "--duration", "1", "--waypoint-ms", "20",
            "--hold", "--disable"), err.toString());

        final List<String> events = rig.drain().events();
        assertEquals(1 + 8 + 2, events.size(), "enable, 51 waypoints in 8 chunks, hold, disable: " + events);
        assertTrue(events.get(0).endsWith(" ENABLE PD_GRAVITY"), events.get(0));
        assertTrue(events.get(8).endsWith(" chunk 7/8"), events.get(8));
        assertTrue(events.get(9).endsWith(" HOLD PD_GRAVITY"), events.get(9));
        assertTrue(events.get(10).endsWith(" DISABLE PD_GRAVITY"), events.get(10));
        final String printed = out.toString();
        assertTrue(printed.contains("enable: sequence ") && printed.contains("trajectory of 51 waypoints, 1.0 s: sequence ")
            && printed.contains("disable: sequence "), printed);
        assertTrue(printed.startsWith("loop outcome: unknown, no media driver at " + temp.resolve("no-driver")), printed);
        assertTrue(printed.contains("only the gateway's acks are reported"), printed);
        assertEquals(4, printed.split(" accepted").length - 1, printed);
    }

    @Test
    void streamedDemoMoveSendsEverySampleOfTheCurve()
    {
        // Peak velocity 1.875 * 0.1 rad / 0.25 s = 0.75 rad/s, within the gateway's 1.5 rad/s.
        final double[] start = {0.1, -0.1, 0.2, -0.2, 0.3, -0.3, 0.0};
        assertEquals(0, plan("--demo", "--dof", "7", "--duration", "0.5", "--amplitude", "0.1", "--start", "0.1,-0.1,0.2,-0.2,0.3,-0.3,0",
            "--stream", "20"), out + " " + err);

        final GatewayRig.Recorder loop = rig.drain();
        assertEquals(11, loop.events().size(), "0.5 s at 20 Hz, both ends included: " + loop.events());
        final DemoMove move = new DemoMove(start, 0.1, 0.5);
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[] qdd = new double[DOF];
        final double[] qddd = new double[DOF];
        for (int i = 0; i < 11; i++)
        {
            move.sample(i / 20.0, q, qd, qdd, qddd);
            for (int k = 0; k < DOF; k++)
            {
                final double[] joint = loop.joints().get(i * DOF + k);
                assertEquals(q[k], joint[0], 0.0, "q, sample " + i + ", joint " + k);
                assertEquals(qd[k], joint[1], 0.0, "qd, sample " + i + ", joint " + k);
                assertEquals(qdd[k], joint[2], 0.0, "qdd, sample " + i + ", joint " + k);
                assertEquals(qddd[k], joint[3], 0.0, "qddd, sample " + i + ", joint " + k);
            }
        }
        assertTrue(out.toString().contains("stream: 11 setpoints at 20.0 Hz over 0.500 s accepted"), out.toString());
    }

    /** A planner that stays up: one process, the move sent three times, each start 0.6 s after the last. */
    @Test
    void repeatedDemoMoveIsSentFromOneProcessOnSchedule()
    {
        final long startNs = System.nanoTime();
        assertEquals(0, plan("--enable", "--demo", "--dof", "7", "--duration", "0.5", "--amplitude", "0.1", "--waypoint-ms", "20",
            "--repeat", "3", "--every", "0.6"), out + " " + err);
        final long elapsedNs = System.nanoTime() - startNs;

        final List<String> events = rig.drain().events();
        assertTrue(events.get(0).contains(" ENABLE"), events.get(0));
        assertEquals(1 + 3 * 4, events.size(), "enable once, then three 26-waypoint moves of 4 chunks each: " + events);
        assertTrue(events.get(12).endsWith(" 3 chunk 3/4"), "the third trajectory's last chunk: " + events.get(12));
        final String printed = out.toString();
        assertEquals(3, printed.split("trajectory of 26 waypoints, 0.5 s: sequence ").length - 1, printed);
        assertTrue(printed.contains("repeat: 3 of 3 trajectories accepted"), printed);
        assertTrue(elapsedNs >= 1_200_000_000L, "the third move is not sent before 1.2 s: " + elapsedNs + " ns");
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--enable", "--repeat", "2"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--demo", "--repeat", "0"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--demo", "--every", "-1"));
    }

    @Test
    void trajectoryFileBeyondALimitIsRejectedWithExitStatus1() throws IOException
    {
        final Path file = temp.resolve("far.csv");
        Files.writeString(file, "# beyond joint 5's limit at t = 1\nt,q1,q2,q3,q4,q5,q6,q7\n0,0,0,0,0,0,0,0\n1,0,0,0,0,2.5,0,0\n");

        assertEquals(PlanCommand.REJECTED_EXIT_STATUS, plan("--file", file.toString()));

        assertTrue(out.toString().contains("rejected: LIMIT_EXCEEDED (joint 4)"), out.toString());
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void malformedTrajectoryFileIsReportedWithLineAndColumn() throws IOException
    {
        final Path file = temp.resolve("bad.csv");
        Files.writeString(file, "t,q1,q2\n0,0,0\n0.5,0.1,abc\n");

        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--file", file.toString()));

        assertEquals("nectl plan: " + file + ":3: column 3 (q2): 'abc' is not a number", err.toString().strip());
    }

    @Test
    void resetIsSentBeforeTheEnable()
    {
        assertEquals(0, plan("--reset", "--enable"), err.toString());
        final List<String> events = rig.drain().events();
        assertEquals(2, events.size(), events.toString());
        assertTrue(events.get(0).endsWith(" RESET UNCHANGED"), events.get(0));
        assertTrue(events.get(1).endsWith(" ENABLE UNCHANGED"), events.get(1));
        assertTrue(out.toString().contains("reset: sequence "), out.toString());
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--estop", "--reset"));
    }

    @Test
    void eStopIsSentAlone()
    {
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--estop", "--enable"));
        assertEquals(0, plan("--estop"));
        assertEquals(1, rig.drain().events().size());
    }

    @Test
    void missingKeyFileOrPlannerWithoutKeyIsAUsageError()
    {
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("plan", "--target", "127.0.0.1:" + rig.address().getPort(), "--key-file", "no-such.keys", "--enable"));
        assertTrue(err.toString().contains("no-such.keys"), err.toString());
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--planner-id", "9", "--enable"));
        assertTrue(err.toString().contains("has no key for planner 9"), err.toString());
        assertEquals(0, rig.drain().events().size(), "nothing sent");
    }

    @Test
    void silentTargetGivesExitStatus3() throws IOException
    {
        try (DatagramSocket silent = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final int status = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
                .execute("plan", "--target", "127.0.0.1:" + silent.getLocalPort(), "--key-file", developmentKeys.toString(),
                    "--timeout-ms", "50", "--enable");
            assertEquals(PlanCommand.NO_REPLY_EXIT_STATUS, status);
        }
        assertTrue(out.toString().contains("enable: sequence ") && out.toString().contains(" timed out: no reply"), out.toString());
    }

    /** An event stream on which no control loop answers: the ack alone is not success. */
    @Test
    void acknowledgedCommandWithoutLoopOutcomeGivesExitStatus5()
    {
        final TelemetryPublisherRig telemetry = new TelemetryPublisherRig(64 * 1024);
        try (telemetry)
        {
            // Long enough for the subscription to see the publication on an overloaded host.
            final int status = plan("--aeron-dir", telemetry.aeronDirectory(), "--outcome-timeout-ms", "3000", "--enable", "--disable");

            assertEquals(PlanCommand.NO_LOOP_OUTCOME_EXIT_STATUS, status, out + " " + err);
            assertTrue(out.toString().contains(" accepted; loop: no outcome within 3000 ms"), out.toString());
            assertEquals(1, rig.drain().events().size(), "stopped after the enable");
        }
        assertEquals(List.of(), telemetry.agentErrors);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--enable", "--outcome-timeout-ms", "0"));
    }

    /** An EStop does not wait for the event stream; with a media driver but no controller publishing, only its ack is known. */
    @Test
    void eStopWithoutAControllerOnTheEventStreamReportsTheAckOnly()
    {
        try (AeronTransport transport = AeronTransport.launch(AeronConfig.embeddedDefaults()))
        {
            assertEquals(0, plan("--aeron-dir", transport.aeronDirectory(), "--outcome-timeout-ms", "200", "--estop"), out + " " + err);
        }
        final String printed = out.toString();
        assertTrue(printed.startsWith("estop: sequence ") && printed.contains(" accepted\nloop outcome: unknown, no controller publishes on "
            + "aeron:ipc stream 1010"), printed);
        assertEquals(1, rig.drain().events().size());
    }

    @Test
    void setPayloadIsSentAfterTheEnableAndClearPayloadSendsMassZero()
    {
        assertEquals(0, plan("--enable", "--set-payload", "mass=1.5,com=0.05,0,0.02,inertia=3e-3,0,0,3e-3,0,2e-3",
            "--payload-ramp-s", "0.5"), err.toString());
        assertEquals(0, plan("--clear-payload", "--payload-link", "7"), err.toString());
        final List<String> events = rig.drain().events();
        assertEquals(3, events.size(), events.toString());
        assertTrue(events.get(1).endsWith(" link 255 1.500 kg at 0.050,0.000,0.020 inertia 0.0030,0.0000,0.0000,0.0030,0.0000,0.0020"
            + " ramp 500000000 ns"), events.get(1));
        assertTrue(events.get(2).endsWith(" link 7 0.000 kg at 0.000,0.000,0.000 inertia 0.0000,0.0000,0.0000,0.0000,0.0000,0.0000"
            + " ramp 1000000000 ns"), events.get(2));
        assertTrue(out.toString().contains("payload 1.5 kg at (0.05, 0, 0.02) m on flange: sequence "), out.toString());
        assertTrue(out.toString().contains("clear payload on link 7: sequence "), out.toString());
    }

    @Test
    void aPayloadTheGatewayRejectsGivesExitStatus1AndBadPayloadOptionsExitStatus2()
    {
        assertEquals(PlanCommand.REJECTED_EXIT_STATUS, plan("--set-payload", "mass=25,com=0,0,0"));
        assertTrue(out.toString().contains("LIMIT_EXCEEDED"), out.toString());
        assertRefused("nectl plan: --set-payload needs mass=KG and com=X,Y,Z, got 'mass=1'", "--set-payload", "mass=1");
        assertRefused("nectl plan: --set-payload: com 'x' is not a finite number", "--set-payload", "mass=1,com=x,0,0");
        assertRefused("nectl plan: --payload-link must be a body index or flange, got 'hand'", "--set-payload",
            "mass=1,com=0,0,0", "--payload-link", "hand");
        assertRefused("nectl plan: --set-payload and --clear-payload exclude each other", "--set-payload", "mass=1,com=0,0,0",
            "--clear-payload");
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void badOptionsGiveExitStatus2()
    {
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--enable", "--controller", "fuzzy"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--file", "x.csv", "--demo"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--stream", "100", "--enable"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--demo", "--dof", "3", "--start", "0,0"));
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, NectlCommand.newCommandLine().setErr(new PrintWriter(err))
            .execute("plan", "--target", "localhost", "--enable"));
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void aDemoBeyondTheDocumentedLimitsIsRefusedWithOneLine()
    {
        assertRefused("nectl plan: --duration must be in (0, 3600] s, got 1.0E9", "--demo", "--duration", "1e9");
        assertRefused("nectl plan: --duration must be in (0, 3600] s, got NaN", "--demo", "--duration", "NaN");
        assertRefused("nectl plan: --duration 3600.0 s at --waypoint-ms 20.0 makes more than 65535 waypoints, the most one segment holds",
            "--demo", "--duration", "3600");
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void aTrajectoryFileThatIsNotAReadableFileIsRefusedWithOneLine()
    {
        final Path missing = temp.resolve("missing.csv");
        assertRefused("nectl plan: " + missing + ": not found", "--file", missing.toString());
        assertRefused("nectl plan: " + temp + ": not a regular file (a directory)", "--file", temp.toString());
        assertRefused("nectl plan: /dev/zero: not a regular file", "--file", "/dev/zero");
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void anUnknownOptionIsOneLineAndAHint()
    {
        assertRefused("nectl plan: Unknown option: '--enabel'\nPossible solutions: --enable\n(nectl plan --help lists the options)",
            "--enabel");
    }

    private void assertRefused(final String expectedStderr, final String... options)
    {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan(options), err.toString());
        assertEquals(expectedStderr, err.toString().strip().replace(System.lineSeparator(), "\n"));
        assertEquals("", out.toString());
    }

    private int plan(final String... options)
    {
        final CommandLine command = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        final List<String> args = new ArrayList<>(List.of("plan", "--target", "127.0.0.1:" + rig.address().getPort(), "--key-file",
            developmentKeys.toString()));
        if (!List.of(options).contains("--aeron-dir"))
        {
            // A gateway without a control loop: no event stream, so only the gateway's acks are known.
            args.addAll(List.of("--aeron-dir", temp.resolve("no-driver").toString()));
        }
        args.addAll(List.of(options));
        final int status = command.execute(args.toArray(String[]::new));
        command.getOut().flush();
        command.getErr().flush();
        return status;
    }
}
