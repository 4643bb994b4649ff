package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.ControllerLink;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * {@code nectl sim} as a separate process against this test's embedded media driver, with a
 * controller end on the transport's ControllerLink.
 */
class SimCommandTest
{
    private static final String MODEL = "../config/robots/two-link-rr.yaml";
    private static final int DOF = 2;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path temp;

    @Test
    void rejectsBadOptionsWithExitStatus2()
    {
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--fault", "melt@1"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--mode", "sideways"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--initial-q", "0.1"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--external-wrench", "nolink,1,0,0,0,0,0@0-1"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--external-wrench", "link2,1,0,0,0,0@0-1"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--payload", "nolink,1.5,0.05,0,0"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--payload", "flange,-1,0,0,0"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--payload", "flange,1.5,0.05,0"));
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", "no-such-robot.yaml"));
        // The drives brake after they zero the torque, never before.
        assertEquals(2, NectlCommand.newCommandLine().execute("sim", "--model", MODEL, "--watchdog-ms", "200"));
    }

    @Test
    void badBaseMotionProfilesAreRefusedWithTheirReasonAndExitStatus2()
    {
        final String[][] cases = {
            {"ship:roll=10@0.2Hz", "nectl sim: --base-motion 'roll=10@0.2Hz': amplitude '10' has no unit (deg or rad)"},
            {"ship:roll=10deg@-0.2Hz", "nectl sim: --base-motion 'roll=10deg@-0.2Hz': frequency outside (0, 10.0] Hz"},
            {"ship:roll=10deg@0.2Hz,yaw=1deg@1Hz", "unknown field 'yaw' (allowed: roll, pitch, heave"},
            {"train:speed=1m/s", "unknown profile 'train' (expected ship or platform"},
            {"platform:accel=1m/s2,speed=1m/s", "field 'brake' missing"},
        };
        for (final String[] c : cases)
        {
            final CommandRun run = CommandRun.of("sim", "--model", MODEL, "--base-motion", c[0]);
            assertEquals(2, run.status(), run.err());
            assertTrue(run.err().contains(c[1]), run.err());
        }
    }

    @Test
    void badImuNoiseIsRefusedWithItsReasonAndExitStatus2()
    {
        final String ship = "ship:roll=10deg@0.2Hz";
        final String[][] cases = {
            {ship, "0.01", "nectl sim: --imu-noise '0.01': expected ACC_MPS2,GYRO_RADPS, two numbers, e.g. 0.01,0.001"},
            {ship, "0.01,0.001,0", "--imu-noise '0.01,0.001,0': expected ACC_MPS2,GYRO_RADPS"},
            {ship, "fast,0.001", "--imu-noise 'fast,0.001': accelerometer noise 'fast' is not a number"},
            {ship, "-0.01,0.001", "--imu-noise '-0.01,0.001': accelerometer noise -0.01 m/s^2 outside [0, 1.0]"},
            {ship, "0.01,NaN", "--imu-noise '0.01,NaN': gyro noise NaN rad/s outside [0, 0.1]"},
            {ship, "0.01,0.5", "--imu-noise '0.01,0.5': gyro noise 0.5 rad/s outside [0, 0.1]"},
            {ship, "Infinity,0.001", "accelerometer noise Infinity m/s^2 outside [0, 1.0]"},
            {null, "0.01,0.001", "--imu-noise 0.01,0.001: only an arm on a moving base has an IMU; add --base-motion"},
        };
        for (final String[] c : cases)
        {
            final CommandRun run = c[0] == null ? CommandRun.of("sim", "--model", MODEL, "--imu-noise", c[1])
                : CommandRun.of("sim", "--model", MODEL, "--base-motion", c[0], "--imu-noise", c[1]);
            assertEquals(2, run.status(), run.err());
            assertTrue(run.err().contains(c[2]), run.err());
        }
    }

    @Test
    void anImuLossWithoutAMovingBaseIsRefusedWithExitStatus2()
    {
        final CommandRun run = CommandRun.of("sim", "--model", MODEL, "--fault", "imu_loss@2");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("--fault imu_loss@2: imu_loss withdraws the base-motion block"), run.err());
        assertTrue(run.err().contains("add --base-motion"), run.err());
    }

    @Test
    void aFloatingBaseRobotIsRefusedWithExitStatus2()
    {
        final CommandRun run = CommandRun.of("sim", "--model", "../config/robots/quadruped-12.urdf");
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().contains("has a floating base"), run.err());
    }

    /** Realtime: states arrive with increasing sequences; SIGTERM stops the process cleanly. */
    @Test
    void realtimeSimulatorPublishesUntilTerminated() throws Exception
    {
        try (SimProcess rig = new SimProcess("--mode", "realtime", "--initial-q", "0.1,-0.2"))
        {
            final JointStateSample state = new JointStateSample(DOF);
            rig.awaitCondition(() -> rig.link.pollJointState(state) > 0 && state.sequence() > 100, "JointState after 100 periods");
            assertEquals(0.1, state.q()[0], 0.0, "disabled drives hold the initial position");
            assertEquals(-0.2, state.q()[1], 0.0);
            rig.sim.destroy();
            assertTrue(rig.sim.waitFor(30, TimeUnit.SECONDS), "the simulator ends on SIGTERM");
            assertTrue(output().contains("nectl sim: stopped after"), "closed cleanly\n" + output());
        }
    }

    /**
     * Lockstep with a crash at 5 ms: states 0-4 answer their commands, then the process halts with
     * status 70 in place of state 5.
     */
    @Test
    void crashFaultEndsTheProcessInPlaceOfTheFirstAffectedState() throws Exception
    {
        try (SimProcess rig = new SimProcess("--mode", "lockstep", "--fault", "crash@0.005"))
        {
            final JointStateSample state = new JointStateSample(DOF);
            final MotorCommandSample command = new MotorCommandSample(DOF);
            for (long n = 0; n <= 4; n++)
            {
                final long expected = n;
                rig.awaitCondition(() -> rig.link.pollJointState(state) > 0 && state.sequence() >= expected, "JointState " + n);
                assertEquals(n, state.sequence());
                assertEquals(n * 1_000_000L, state.timestampNs(), "simulated time");
                command.sequence(n).jointStateSequence(n).mode(DriveMode.TORQUE).enable(true);
                rig.awaitCondition(() -> rig.link.publishMotorCommand(command) > 0, "MotorCommand " + n + " sent");
            }
            assertTrue(rig.sim.waitFor(30, TimeUnit.SECONDS), "the simulator halts");
            assertEquals(SimCommand.CRASH_EXIT_STATUS, rig.sim.exitValue(), output());
            rig.link.pollJointState(state);
            assertEquals(4L, state.sequence(), "no state from the crash on");
        }
    }

    /** Lockstep on a ship's deck: each state carries the deck's motion at its simulated time. */
    @Test
    void lockstepSimulatorOnAShipsDeckPublishesTheBaseBlock() throws Exception
    {
        try (SimProcess rig = new SimProcess("--mode", "lockstep", "--base-motion", "ship:roll=10deg@0.2Hz,heave=0.5m@0.1Hz"))
        {
            assertTheDecksMotionIsPublished(rig, DOF);
        }
    }

    /** The same for the three-joint arm with an elastic joint: its states carry the deck's block and the motor state. */
    @Test
    void lockstepElasticArmOnAShipsDeckPublishesTheBaseBlock() throws Exception
    {
        try (SimProcess rig = new SimProcess("../config/robots/mixed-elastic-3dof.yaml", 3, "--mode", "lockstep",
            "--initial-q=0,0,-0.4363", "--base-motion", "ship:roll=10deg@0.2Hz,heave=0.5m@0.1Hz"))
        {
            final JointStateSample state = assertTheDecksMotionIsPublished(rig, 3);
            assertEquals(1 << 2, state.elasticMask(), "joint 3 is elastic");
            assertTrue(Math.abs(state.theta()[2] - state.q()[2]) > 1e-3, "its spring holds the forearm: theta " + state.theta()[2]
                + ", q " + state.q()[2]);
        }
    }

    /** Steps the lockstep simulator through states 0-3, each carrying the deck's motion at its time; returns state 3. */
    private static JointStateSample assertTheDecksMotionIsPublished(final SimProcess rig, final int dof) throws IOException
    {
        final JointStateSample state = new JointStateSample(dof);
        final MotorCommandSample command = new MotorCommandSample(dof);
        final BaseMotion expected = new BaseMotion();
        for (long n = 0; n <= 3; n++)
        {
            final long sequence = n;
            rig.awaitCondition(() -> rig.link.pollJointState(state) > 0 && state.sequence() >= sequence, "JointState " + n);
            assertTrue(state.baseMotionValid(), "base block in state " + n);
            new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1).at(n * 1e-3, new double[] {0, 0, -9.81}, expected);
            assertEquals(expected.orientation(1), state.baseMotion()[1], 1e-15, "roll quaternion x at " + n + " ms");
            assertEquals(expected.angularVelocity(0), state.baseMotion()[4], 1e-15, "roll rate at " + n + " ms");
            assertEquals(expected.specificForce(2), state.baseMotion()[12], 1e-15, "specific force z at " + n + " ms");
            command.sequence(n).jointStateSequence(n).mode(DriveMode.TORQUE).enable(true);
            rig.awaitCondition(() -> rig.link.publishMotorCommand(command) > 0, "MotorCommand " + n + " sent");
        }
        assertTrue(state.baseMotion()[4] > 0.2, "the deck rolls at 2 pi 0.2 Hz 10 deg = 0.219 rad/s at the start: "
            + state.baseMotion()[4]);
        return state;
    }

    /** An embedded media driver, the controller end of the link, and {@code nectl sim} as a child process. */
    private final class SimProcess implements AutoCloseable
    {
        final AeronTransport transport = AeronTransport.launch(AeronConfig.embeddedDefaults());
        final ControllerLink link;
        final Process sim;

        SimProcess(final String... options) throws IOException
        {
            this(MODEL, DOF, options);
        }

        SimProcess(final String model, final int dof, final String... options) throws IOException
        {
            link = new ControllerLink(transport.aeron(), LinkConfig.ipcDefaults(), dof);
            sim = startSim(model, transport.aeronDirectory(), options);
        }

        void awaitCondition(final BooleanSupplier condition, final String what) throws IOException
        {
            final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
            while (!condition.getAsBoolean())
            {
                if (System.nanoTime() - deadlineNs > 0 || (!sim.isAlive() && !condition.getAsBoolean()))
                {
                    fail("no " + what + (sim.isAlive() ? " within 30 s" : ", simulator exited " + sim.exitValue()) + "\n" + output());
                }
                Thread.yield();
            }
        }

        @Override
        public void close()
        {
            sim.destroyForcibly();
            CloseHelper.closeAll(link, transport);
        }
    }

    private Process startSim(final String model, final String aeronDirectory, final String... options) throws IOException
    {
        final List<String> command = NectlProcess.command("sim", "--model", model, "--aeron-dir", aeronDirectory);
        command.addAll(List.of(options));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(outputFile()).start();
    }

    private File outputFile()
    {
        return temp.resolve("sim.log").toFile();
    }

    private String output() throws IOException
    {
        return "simulator output:\n" + Files.readString(outputFile().toPath());
    }
}
