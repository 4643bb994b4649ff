package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.runtime.Faults;
import org.nectl.service.cli.NectlProcess;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.PlannerClient;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;

/**
 * The service and the simulated arm as the user runs them, {@code nectl run} and {@code nectl sim}
 * in their own processes, the arm enabled and following a move; then the service is ended by
 * SIGTERM (a safe shutdown) or SIGKILL (the simulated drives' watchdog takes over). Realtime at
 * 10 ms with supervision sized for a loaded shared host (as the other process tests), computed
 * torque with gains for 10 ms; the simulator with its default watchdog (20 ms) and brake timeout
 * (100 ms).
 */
class ServiceProcessStopTest
{
    private static final long PERIOD_US = 10_000;
    private static final long STOP_TIME_MS = 600;
    private static final int ATTEMPTS = 3;
    /** {@code RunCommand.SHUTDOWN_MARGIN_MS}. */
    private static final long SHUTDOWN_MARGIN_MS = 500;
    /** What a JVM needs beyond that to close the driver and exit on a loaded host; printed, bounds the assertion only. */
    private static final long PROCESS_EXIT_ALLOWANCE_MS = 3_000;
    private static final double STANDSTILL_VELOCITY = 0.01;
    private static final long WATCHDOG_MS = 20;
    private static final long BRAKE_MS = 100;
    private static final long PROCESS_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(60);
    private static final Pattern PLANNER_ADDRESS = Pattern.compile("planner udp \\S*?/?([0-9.]+):(\\d+);");
    private static final Pattern ZERO_TORQUE = Pattern.compile(
        "watchdog: zero torque from nanoTime (\\d+), ([0-9.]+) ms after the last MotorCommand \\(received at nanoTime (\\d+)\\)");
    private static final Pattern BRAKED = Pattern.compile("brakes engaged from nanoTime (\\d+), ([0-9.]+) ms after");

    @TempDir
    Path temp;

    /**
     * SIGTERM while TRACKING: the loop latches SHUTDOWN (category 1 by the deployment file's
     * {@code safety.stop_category.shutdown}), raises STOP (command NONE), FAULT (shutdown) and
     * TRACKING to STOPPING, stops the arm to standstill (every |q̇| within the standstill velocity)
     * within the stop time, goes to FAULT (brakes engaged, reported by the adapter), and the process
     * exits with status 0 within the stop time plus the margin plus an allowance for closing.
     */
    @Test
    void sigtermWhileMovingStopsTheArmBrakesAndExitsZero() throws Exception
    {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++)
        {
            if (sigtermWhileMoving(attempt))
            {
                return;
            }
        }
        fail("the host starved the loop or the simulator into a fault before the signal in all " + ATTEMPTS + " attempts");
    }

    /** @return false if a fault came before the signal's stop (a starved host, correctly detected). */
    private boolean sigtermWhileMoving(final int attempt) throws Exception
    {
        try (Rig rig = new Rig(attempt))
        {
            if (!rig.enableAndMove())
            {
                System.out.printf(Locale.ROOT, "SIGTERM attempt %d: the arm faulted before the signal (%s); again%n", attempt,
                    Faults.describe((int)rig.telemetry.last().faults()));
                return false;
            }
            final long signalNs = System.nanoTime();
            rig.service.destroy();
            // Read the telemetry while the service stops: its media driver, and so the subscription, ends with it.
            rig.await(() -> !rig.service.isAlive(), "the service's exit after SIGTERM");
            final long exitedNs = System.nanoTime();
            final String output = Files.readString(rig.serviceLog);
            assertEquals(0, rig.service.exitValue(), output);
            rig.await(() -> rig.event(ControllerEventKind.MODE_TRANSITION, ControllerState.FAULT) != null,
                "the stop's end in the event stream");
            final TelemetryRecorder.Event firstFault = rig.telemetry.firstEvent(ControllerEventKind.FAULT, 0L);
            if (firstFault.newFaults() != Faults.SHUTDOWN)
            {
                System.out.printf(Locale.ROOT, "SIGTERM attempt %d: %s latched before the shutdown; again%n", attempt,
                    Faults.describe(firstFault.newFaults()));
                return false;
            }
            final TelemetryRecorder.Event stop = rig.event(ControllerEventKind.STOP, ControllerState.STOPPING);
            final TelemetryRecorder.Event fault = rig.event(ControllerEventKind.FAULT, ControllerState.STOPPING);
            final TelemetryRecorder.Event stopping = rig.event(ControllerEventKind.MODE_TRANSITION, ControllerState.STOPPING);
            final TelemetryRecorder.Event braked = rig.event(ControllerEventKind.MODE_TRANSITION, ControllerState.FAULT);
            assertNotNull(stop, "STOP event");
            assertEquals(EventCommand.NONE, stop.command());
            assertEquals(ControllerState.TRACKING, stop.fromState());
            assertNotNull(fault, "FAULT event");
            assertEquals(Faults.SHUTDOWN, fault.newFaults(), Faults.describe(fault.newFaults()));
            assertNotNull(stopping, "TRACKING -> STOPPING");
            assertEquals(ControllerState.TRACKING, stopping.fromState());
            assertEquals(ControllerState.STOPPING, braked.fromState());
            assertEquals(Faults.SHUTDOWN, braked.faults(), "no other fault: " + Faults.describe(braked.faults()));
            final long stopNs = braked.timestampNs() - stopping.timestampNs();
            final TelemetryRecorder.Sample atStandstill = rig.telemetry.samples.stream()
                .filter(s -> s.tickCount() == braked.tickCount()).findFirst().orElseThrow();
            double peakQd = 0;
            for (final double qd : atStandstill.qd())
            {
                peakQd = Math.max(peakQd, Math.abs(qd));
            }
            final double exitMs = (exitedNs - signalNs) / 1e6;
            System.out.printf(Locale.ROOT, "SIGTERM while tracking (peak |qd| %.3f rad/s before): STOPPING %.1f ms after the "
                + "signal, standstill and brakes %.1f ms later (stop time %d ms), max |qd| there %.4f rad/s; process exit "
                + "status 0 seen %.1f ms after the signal%n%s%n", rig.peakQdBeforeStop,
                (stopping.timestampNs() - signalNs) / 1e6, stopNs / 1e6, STOP_TIME_MS, peakQd, exitMs,
                lines(output, "shutting down", "exiting with status"));
            assertTrue(stopNs <= TimeUnit.MILLISECONDS.toNanos(STOP_TIME_MS), "standstill within the stop time");
            assertTrue(peakQd <= STANDSTILL_VELOCITY, "standstill at the brake: " + peakQd);
            assertTrue(output.contains("the adapter reports the drives off"), output);
            assertTrue(exitMs <= STOP_TIME_MS + SHUTDOWN_MARGIN_MS + PROCESS_EXIT_ALLOWANCE_MS, "exit after " + exitMs + " ms");
            return true;
        }
    }

    /**
     * SIGKILL of the service while TRACKING: no more MotorCommands. The simulated drives' watchdog,
     * deciding per period of the arm's clock, runs the first period that ends more than 20 ms after
     * the last command at zero torque, so zero torque begins within 20 ms of it (and no earlier than
     * a period before), and the first period that ends more than 100 ms after it braked.
     */
    @Test
    void sigkillOfTheServiceZeroesTheTorqueAndBrakesWithinTheWatchdogBounds() throws Exception
    {
        for (int attempt = 1; attempt <= ATTEMPTS; attempt++)
        {
            if (sigkillWhileMoving(attempt))
            {
                return;
            }
        }
        fail("the host starved the loop or the simulator into a fault before the kill in all " + ATTEMPTS + " attempts");
    }

    /** @return false if the arm faulted before the kill (a starved host, correctly detected). */
    private boolean sigkillWhileMoving(final int attempt) throws Exception
    {
        try (Rig rig = new Rig(attempt))
        {
            if (!rig.enableAndMove())
            {
                System.out.printf(Locale.ROOT, "SIGKILL attempt %d: the arm faulted before the kill (%s); again%n", attempt,
                    Faults.describe((int)rig.telemetry.last().faults()));
                return false;
            }
            final long killNs = System.nanoTime();
            rig.service.destroyForcibly();
            assertTrue(rig.service.waitFor(30, TimeUnit.SECONDS), "the service process ends");
            final Matcher[] found = new Matcher[2];
            rig.await(() ->
            {
                final List<String> lines = rig.simOutput();
                for (int i = lines.size() - 1; i > 0; i--)
                {
                    final Matcher brake = BRAKED.matcher(lines.get(i));
                    final Matcher zero = ZERO_TORQUE.matcher(lines.get(i - 1));
                    if (brake.find() && zero.find() && Long.parseLong(brake.group(1)) > killNs)
                    {
                        found[0] = zero;
                        found[1] = brake;
                        return true;
                    }
                }
                return false;
            }, "the simulator's report of zero torque and brakes after the kill");
            final long lastCommandNs = Long.parseLong(found[0].group(3));
            final long zeroTorqueNs = Long.parseLong(found[0].group(1));
            final long brakeNs = Long.parseLong(found[1].group(1));
            final double zeroAfterMs = (zeroTorqueNs - lastCommandNs) / 1e6;
            final double brakeAfterMs = (brakeNs - lastCommandNs) / 1e6;
            System.out.printf(Locale.ROOT, "SIGKILL of the service: last MotorCommand at the simulator %.1f ms after the kill; "
                + "zero torque from %.2f ms after it (%.1f ms after the kill), brakes from %.2f ms after it (%.1f ms after the "
                + "kill); watchdog %d ms, brake timeout %d ms, period %d ms%n", (lastCommandNs - killNs) / 1e6, zeroAfterMs,
                (zeroTorqueNs - killNs) / 1e6, brakeAfterMs, (brakeNs - killNs) / 1e6, WATCHDOG_MS, BRAKE_MS, PERIOD_US / 1000);
            assertTrue(zeroAfterMs <= WATCHDOG_MS && zeroAfterMs > WATCHDOG_MS - PERIOD_US / 1000.0, "zero torque " + zeroAfterMs);
            assertTrue(brakeAfterMs <= BRAKE_MS && brakeAfterMs > BRAKE_MS - PERIOD_US / 1000.0, "brakes " + brakeAfterMs);
            assertTrue(lastCommandNs - killNs < TimeUnit.MILLISECONDS.toNanos(BRAKE_MS), "the last command came from the killed service");
            assertTrue(rig.sim.isAlive(), "the simulator runs on, braked");
            return true;
        }
    }

    private static String lines(final String output, final String... containing)
    {
        final StringBuilder text = new StringBuilder();
        for (final String line : output.split("\n"))
        {
            for (final String c : containing)
            {
                if (line.contains(c))
                {
                    text.append(line).append('\n');
                    break;
                }
            }
        }
        return text.toString().strip();
    }

    /** The two processes, the test's Aeron client with the telemetry recorder, and the planner. */
    private final class Rig implements AutoCloseable
    {
        final Path serviceLog;
        final Path simLog;
        final Process service;
        Process sim;
        AeronTransport client;
        TelemetryRecorder telemetry;
        PlannerClient planner;
        double peakQdBeforeStop;

        Rig(final int attempt) throws IOException
        {
            // each attempt in its own directory: a killed attempt's media driver still looks live in its Aeron directory
            final Path directory = Files.createDirectory(temp.resolve("attempt-" + attempt));
            serviceLog = directory.resolve("run.log");
            simLog = directory.resolve("sim.log");
            final Path keys = directory.resolve("planner.keys");
            final byte[] key = new byte[PlannerKeys.KEY_LENGTH];
            new java.security.SecureRandom().nextBytes(key);
            Files.writeString(keys, "1 " + HexFormat.of().formatHex(key) + "\n");
            Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-------"));
            final Path aeronDir = directory.resolve("aeron");
            final Path config = directory.resolve("deploy.yaml");
            Files.writeString(config, String.join("\n",
                "model: " + Path.of("../config/robots/panda.yaml").toAbsolutePath().normalize(),
                "mode: realtime",
                "period_us: " + PERIOD_US,
                "aeron:",
                "  embedded_driver: true",
                "  dir: " + aeronDir,
                "planner:",
                "  bind: 127.0.0.1:0",
                "  keys: " + keys,
                "  allowed_sources: [127.0.0.1]",
                "telemetry:",
                "  decimation: 1",
                "control:",
                "  law: computed_torque",
                "  kp: 225",
                "  kd: 30",
                "supervision:",
                "  heartbeat_timeout_ms: 1000",
                "  max_missing_states: 20",
                "safety:",
                "  stop_time_ms: " + STOP_TIME_MS,
                "  deceleration: [15, 7.5, 10, 12.5, 15, 20, 20]",
                "  standstill_velocity: " + STANDSTILL_VELOCITY,
                "  state_jump: 0.5",
                "  stop_category:",
                "    shutdown: 1",
                ""));
            service = new ProcessBuilder(NectlProcess.command("run", "--config", config.toString()))
                .redirectErrorStream(true).redirectOutput(serviceLog.toFile()).start();
            try
            {
                final Matcher address = PLANNER_ADDRESS.matcher("");
                await(() -> address.reset(read(serviceLog)).find(), "the service up");
                final StringBuilder initialQ = new StringBuilder();
                for (final double q : ServiceRig.READY)
                {
                    initialQ.append(initialQ.length() == 0 ? "" : ",").append(q);
                }
                sim = new ProcessBuilder(NectlProcess.command("sim", "--model", "../config/robots/panda.yaml",
                    "--aeron-dir", aeronDir.toString(), "--mode", "realtime", "--initial-q", initialQ.toString(),
                    "--period-us", Long.toString(PERIOD_US), "--watchdog-ms", Long.toString(WATCHDOG_MS),
                    "--brake-after-ms", Long.toString(BRAKE_MS)))
                    .redirectErrorStream(true).redirectOutput(simLog.toFile()).start();
                client = AeronTransport.launch(AeronConfig.external(aeronDir.toString()));
                telemetry = new TelemetryRecorder(client.aeron());
                planner = new PlannerClient(new InetSocketAddress(address.group(1), Integer.parseInt(address.group(2))), 1,
                    PlannerKeys.read(keys), Duration.ofSeconds(10), 1472);
            }
            catch (final RuntimeException | Error e)
            {
                close();
                throw e;
            }
        }

        /**
         * ENABLE, then a 4 s move of every joint by up to 0.3 rad; returns true while the arm moves
         * at more than 0.2 rad/s, false if it faulted first.
         */
        boolean enableAndMove()
        {
            await(() -> telemetry.last() != null && telemetry.last().jointStateSequence() > 10, "JointStates from the simulator");
            assertTrue(planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            await(() -> telemetry.last().faults() != 0 || telemetry.last().state() != ControllerState.IDLE, "the enable applied");
            if (telemetry.last().faults() != 0)
            {
                return false;
            }
            final int n = ServiceRig.READY.length;
            final double[] times = {0, 1.5, 3, 4};
            final double[][] q = new double[times.length][];
            for (int i = 0; i < times.length; i++)
            {
                q[i] = ServiceRig.READY.clone();
            }
            for (int j = 0; j < n; j++)
            {
                q[1][j] += 0.3;
                q[2][j] += 0.3;
            }
            assertTrue(planner.sendTrajectory(JointTrajectory.fromPositions(times, q)).accepted(), "move acknowledged");
            await(() ->
            {
                final TelemetryRecorder.Sample s = telemetry.last();
                double peak = 0;
                for (final double qd : s.qd())
                {
                    peak = Math.max(peak, Math.abs(qd));
                }
                peakQdBeforeStop = peak;
                return s.faults() != 0 || s.state() == ControllerState.TRACKING && peak > 0.2;
            }, "the arm moving");
            return telemetry.last().faults() == 0;
        }

        TelemetryRecorder.Event event(final ControllerEventKind kind, final ControllerState toState)
        {
            return telemetry.events.stream().filter(e -> e.kind() == kind && e.toState() == toState).findFirst().orElse(null);
        }

        List<String> simOutput()
        {
            return List.of(read(simLog).split("\n"));
        }

        /** Polls telemetry while waiting; fails early if the simulator ended while the service runs. */
        void await(final BooleanSupplier condition, final String what)
        {
            final long deadlineNs = System.nanoTime() + PROCESS_TIMEOUT_NS;
            while (true)
            {
                if (telemetry != null)
                {
                    telemetry.poll();
                }
                if (condition.getAsBoolean())
                {
                    return;
                }
                // Once the service has ended, its embedded media driver has too, and the simulator exits with status 3.
                if (sim != null && !sim.isAlive() && service.isAlive())
                {
                    fail("the simulator exited " + sim.exitValue() + " while waiting for " + what + ":\n" + read(simLog)
                        + "\nservice:\n" + read(serviceLog));
                }
                if (System.nanoTime() - deadlineNs > 0)
                {
                    fail("no " + what + " within 60 s; service:\n" + read(serviceLog) + "\nsimulator:\n" + read(simLog));
                }
                Thread.yield();
            }
        }

        @Override
        public void close()
        {
            CloseHelper.closeAll(planner, telemetry, client);
            service.destroyForcibly();
            if (sim != null)
            {
                sim.destroyForcibly();
            }
        }
    }

    private static String read(final Path file)
    {
        try
        {
            return Files.exists(file) ? Files.readString(file) : "";
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }
}
