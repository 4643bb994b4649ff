package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.DoubleStream;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.cli.NectlCommand;
import org.nectl.transport.PlannerAuthentication;
import org.nectl.transport.PlannerKeys;

import picocli.CommandLine;

/**
 * {@code nectl plan} against the running service: every command the gateway acknowledges is
 * reported with the control loop's outcome, read from the service's ControllerEvent stream, and a
 * command the loop refuses ends the run with exit status 4, although the gateway acknowledged it.
 */
class PlanOutcomeServiceTest
{
    private static final long PLANNER_ID = ServiceSettings.DEFAULT_PLANNER_ID;
    /** Reply and outcome timeout of the planner, ms. */
    private static final long TIMEOUT_MS = 10_000L;

    @TempDir
    Path temp;

    /**
     * Lockstep with the simulator held after state 0 (no tick runs, so nothing but the commands
     * changes the state): ENABLE applied, a second ENABLE refused, a HOLD asking for a law the
     * service cannot run and a segment of a single waypoint refused (by the preparer, reported by the
     * loop), two segments applied (the second
     * replacing the first in TRACKING), EStop applied, ENABLE in ESTOP refused, RESET and ENABLE applied;
     * a payload applied in ENABLED (its ramp starts) and refused in ESTOP.
     */
    @Test
    void loopOutcomeOfEveryCommandIsReportedAndARefusalGivesExitStatus4() throws IOException
    {
        final Path keyFile = keyFile();
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()
            .withPlannerAuthentication(PlannerAuthentication.loopback(PlannerKeys.read(keyFile)))))
        {
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);

            assertOutcome(0, "enable: sequence \\d+ accepted; loop: applied, IDLE -> ENABLED", plan(rig, keyFile, "--enable"));
            assertOutcome(4, "enable: sequence \\d+ accepted; loop: refused in ENABLED, code 1 \\(not allowed in this state\\)",
                plan(rig, keyFile, "--enable"));
            assertOutcome(0, "payload 1.5 kg at \\(0.05, 0, 0\\) m on flange: sequence \\d+ accepted; loop: applied, ENABLED -> ENABLED",
                plan(rig, keyFile, "--set-payload", "mass=1.5,com=0.05,0,0"));
            assertOutcome(4, "hold: sequence \\d+ accepted; loop: refused in ENABLED, code 5 "
                + "\\(control law needs a robot with elastic joints\\)", plan(rig, keyFile, "--hold", "--controller", "mixed_elastic"));
            final String start = DoubleStream.of(ServiceRig.READY).mapToObj(q -> String.format(Locale.ROOT, "%.17g", q))
                .collect(Collectors.joining(","));
            final Path single = temp.resolve("single.csv");
            Files.writeString(single, "t,q1,q2,q3,q4,q5,q6,q7\n0," + start + "\n");
            assertOutcome(4, "trajectory of 1 waypoints, 0.0 s: sequence \\d+ accepted; loop: refused in ENABLED, code 6 "
                + "\\(segment refused when prepared: .*\\)", plan(rig, keyFile, "--file", single.toString()));
            assertOutcome(0, "trajectory of 51 waypoints, 1.0 s: sequence \\d+ accepted; loop: applied, ENABLED -> TRACKING\n"
                + "trajectory of 51 waypoints, 1.0 s: sequence \\d+ accepted; loop: applied, TRACKING -> TRACKING\n"
                + "repeat: 2 of 2 trajectories accepted",
                plan(rig, keyFile, "--demo", "--start", start, "--amplitude", "0.05", "--duration", "1", "--repeat", "2",
                    "--every", "0.05"));
            assertOutcome(0, "estop: sequence \\d+ accepted; loop: applied, TRACKING -> ESTOP", plan(rig, keyFile, "--estop"));
            assertOutcome(4, "enable: sequence \\d+ accepted; loop: refused in ESTOP, code 1 \\(not allowed in this state\\)",
                plan(rig, keyFile, "--enable"));
            assertOutcome(4, "clear payload on flange: sequence \\d+ accepted; loop: refused in ESTOP, code 1 \\(not allowed in this state\\)",
                plan(rig, keyFile, "--clear-payload"));
            assertOutcome(0, "reset: sequence \\d+ accepted; loop: applied, ESTOP -> IDLE\n"
                + "enable: sequence \\d+ accepted; loop: applied, IDLE -> ENABLED", plan(rig, keyFile, "--reset", "--enable"));
        }
    }

    /**
     * Realtime: a stream is applied (the loop leaves TRACKING for HOLD on its own, a command timeout
     * after the last setpoint, which shows that every setpoint was taken), then a stream starting 0.3
     * rad away from the reference is refused by the loop (code 3).
     */
    @Test
    void streamOutcomeIsKnownOnceTheLoopLeavesTrackingOrRefusesASetpoint() throws IOException
    {
        final Path keyFile = keyFile();
        try (ServiceRig rig = new ServiceRig(ServiceRig.tolerantRealtimeSettings()
            .withPlannerAuthentication(PlannerAuthentication.loopback(PlannerKeys.read(keyFile))));
            AgentRunner simulator = new AgentRunner(new YieldingIdleStrategy(), Throwable::printStackTrace, null,
                rig.adapter(new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig()), SimulationMode.REALTIME)))
        {
            AgentRunner.startOnThread(simulator);
            ServiceRig.await(() -> rig.service.loop().statesSeen() > 10, "JointStates at the loop");
            final String start = DoubleStream.of(ServiceRig.READY).mapToObj(q -> String.format(Locale.ROOT, "%.17g", q))
                .collect(Collectors.joining(","));
            final String far = DoubleStream.of(ServiceRig.READY).map(q -> q + 0.3).mapToObj(q -> String.format(Locale.ROOT, "%.17g", q))
                .collect(Collectors.joining(","));

            // Setpoints that stay at the start pose: how the arm follows a moving stream is not what is tested here.
            assertOutcome(0, "enable: sequence \\d+ accepted; loop: applied, IDLE -> ENABLED\n"
                + "stream: 31 setpoints at 100.0 Hz over 0.300 s accepted; loop: applied, then left TRACKING on its own: TRACKING -> HOLD\n"
                + "disable: sequence \\d+ accepted; loop: applied, HOLD -> IDLE",
                planWhilePollingTelemetry(rig, keyFile, "--enable", "--demo", "--start", start, "--amplitude", "0", "--duration", "0.3",
                    "--stream", "100", "--disable"));
            final Result refused = planWhilePollingTelemetry(rig, keyFile, "--enable", "--demo", "--start", far, "--amplitude", "0",
                "--duration", "0.3", "--stream", "100", "--disable");
            assertEquals(4, refused.status, refused.toString());
            assertTrue(refused.out.contains("refused in TRACKING, code 3") || refused.out.contains("refused in ENABLED, code 3"),
                refused.toString());
        }
    }

    private record Result(int status, String out, String err)
    {
    }

    private static void assertOutcome(final int status, final String expectedRegex, final Result result)
    {
        assertEquals(status, result.status, result.toString());
        assertTrue(result.out.strip().matches(expectedRegex), "expected\n" + expectedRegex + "\nbut was\n" + result);
    }

    private Path keyFile() throws IOException
    {
        final byte[] key = new byte[PlannerKeys.KEY_LENGTH];
        new SecureRandom().nextBytes(key);
        final Path file = temp.resolve("planner.keys");
        Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(file, PLANNER_ID + " " + HexFormat.of().formatHex(key) + "\n", StandardCharsets.US_ASCII);
        return file;
    }

    private static Result plan(final ServiceRig rig, final Path keyFile, final String... options)
    {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final List<String> args = new ArrayList<>(List.of("plan", "--target", "127.0.0.1:" + rig.service.plannerAddress().getPort(),
            "--key-file", keyFile.toString(), "--planner-id", "" + PLANNER_ID, "--aeron-dir", rig.service.aeronDirectory(),
            // Waits long enough for an overloaded host; no outcome asserted here needs a timeout to pass.
            "--timeout-ms", "" + TIMEOUT_MS, "--outcome-timeout-ms", "" + TIMEOUT_MS));
        args.addAll(List.of(options));
        final CommandLine command = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        final int status = command.execute(args.toArray(String[]::new));
        command.getOut().flush();
        command.getErr().flush();
        return new Result(status, out.toString(), err.toString());
    }

    /** Runs the planner while draining the rig's own telemetry subscription, so that it never holds the publication back. */
    private static Result planWhilePollingTelemetry(final ServiceRig rig, final Path keyFile, final String... options)
    {
        final CompletableFuture<Result> planner = CompletableFuture.supplyAsync(() -> plan(rig, keyFile, options));
        ServiceRig.await(() ->
        {
            rig.telemetry.poll();
            rig.telemetry.samples.clear();
            return planner.isDone();
        }, "the planner's end");
        final Result result = planner.join();
        return new Result(result.status, result.out, result.err + "\ncontroller events: " + rig.telemetry.events);
    }
}
