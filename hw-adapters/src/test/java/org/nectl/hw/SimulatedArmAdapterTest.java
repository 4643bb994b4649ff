package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.CachedNanoClock;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;
import org.nectl.transport.HeartbeatSample;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.sbe.AdapterState;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.JointStateStatusDecoder;

/**
 * The simulated arm adapter against a real media driver, exchanging real SBE messages over IPC
 * with a controller end built on the transport's ControllerLink.
 */
class SimulatedArmAdapterTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final long SEED = 11;
    private static final int DOF = 4;
    private static final RobotModel MODEL = RandomRobots.robot(SEED, DOF, false, RandomRobots.Joints.REVOLUTE, false);
    private static final double[] TARGET = {0.4, -0.3, 0.2, 0.1};
    private static final int LOCKSTEP_WARM_UP_PERIODS = 150_000;
    private static final Runnable NO_CRASH = () ->
    {
        throw new AssertionError("no crash fault was configured");
    };

    /**
     * The lockstep contract: state 0 at simulated time 0, re-published until the first command;
     * then one command acknowledging the latest state gives exactly the next state, one period
     * later in simulated time; a command acknowledging an older state changes nothing; heartbeats
     * keep coming on the clock while the arm waits, stamped with simulated time. The states
     * equal, bit for bit, those of the same arm driven directly with the same torques.
     */
    @Test
    void lockstepAdvancesExactlyOnePeriodPerAcknowledgingCommand()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final SimulatedArm arm = new SimulatedArm(MODEL, config());
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, AdapterSettings.defaults(),
                SimulationMode.LOCKSTEP, SystemNanoClock.INSTANCE, NO_CRASH);
            final LockstepControllerEnd controller = new LockstepControllerEnd(link.controllerLink, DOF, TARGET);
            final SimulatedArm replay = new SimulatedArm(MODEL, config());
            final JointStateSample expected = new JointStateSample(DOF);
            final AgentRunner runner = startOnThread(adapter);
            try
            {
                final JointStateSample first = controller.awaitState(0);
                assertEquals(0L, first.timestampNs());
                final AtomicInteger republished = new AtomicInteger();
                LinkFixture.awaitCondition(() -> link.controllerLink.pollJointState(first) > 0
                    && first.sequence() == 0 && republished.incrementAndGet() >= 2, "state 0 re-published twice");
                final HeartbeatSample heartbeat = new HeartbeatSample();
                final AtomicInteger heartbeats = new AtomicInteger();
                LinkFixture.awaitCondition(() -> heartbeats.addAndGet(link.controllerLink.pollHeartbeat(heartbeat)) >= 3,
                    "heartbeats on the clock while no command has arrived");
                assertEquals(0L, heartbeat.timestampNs(), "stamped with simulated time");
                assertEquals(AdapterState.STARTING, heartbeat.state());
                for (long n = 0; n < 100; n++)
                {
                    if (n == 50)
                    {
                        controller.send(n - 1);
                    }
                    controller.answer();
                    final JointStateSample state = controller.awaitState(n + 1);
                    assertEquals((n + 1) * PERIOD_NS, state.timestampNs(), "simulated time of state " + (n + 1));
                    replay.command(controller.torques(), DriveMode.TORQUE, true);
                    replay.step();
                    replay.sample(expected);
                    assertArrayEquals(LockstepControllerEnd.bits(expected.sequence(n + 1).timestampNs((n + 1) * PERIOD_NS)),
                        LockstepControllerEnd.bits(state), "state " + (n + 1) + " equals the directly driven arm");
                }
            }
            finally
            {
                runner.close();
            }
            assertEquals(100L, arm.stepCount());
        }
    }

    /** Noise, quantisation and latency included, two lockstep runs publish identical states. */
    @Test
    void twoLockstepRunsAreBitIdentical()
    {
        final List<long[]> first = lockstepRun(300);
        final List<long[]> second = lockstepRun(300);
        assertEquals(301, first.size());
        for (int i = 0; i < first.size(); i++)
        {
            assertArrayEquals(first.get(i), second.get(i), "state " + i);
        }
        assertFalse(Arrays.equals(first.get(1), first.get(300)), "the arm moved");
    }

    /**
     * Realtime on a settable clock, 5 ms watchdog: the command arrives at t = 1 ms, so the period
     * starting at 6 ms (gap exactly 5 ms) still runs, the one at 7 ms trips. With gravity off and
     * no friction, zero torque does no work: the kinetic energy, rising while torque was applied,
     * is constant to RK4 accuracy (1e-12 J) afterwards. A new command re-arms the watchdog.
     */
    @Test
    void watchdogZeroesTheTorqueWhenCommandsStop()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final SimulatedArm arm = new SimulatedArm(MODEL, config().gravity(0, 0, 0));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink,
                new AdapterSettings(7, 5 * PERIOD_NS, 2 * PERIOD_NS), SimulationMode.REALTIME, clock, NO_CRASH);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            final MechanicalEnergy energy = new MechanicalEnergy(MODEL);
            adapter.doWork();
            controller.awaitState(0);
            controller.sendTorque(1.0);
            double previousEnergy = 0.0;
            for (int period = 1; period <= 12; period++)
            {
                clock.advance(PERIOD_NS);
                adapter.doWork();
                final JointStateSample state = controller.awaitState(period);
                final boolean tripped = JointStateStatusDecoder.watchdogTripped(state.statusBits());
                assertEquals(period >= 7, tripped, "period " + period);
                assertEquals(period < 7, JointStateStatusDecoder.drivesEnabled(state.statusBits()), "period " + period);
                final double kinetic = energy.kineticEnergyJoules(state.q(), state.qd());
                if (period >= 8)
                {
                    assertEquals(previousEnergy, kinetic, 1e-12, "period " + period + ": no work after the trip");
                }
                else if (period <= 6)
                {
                    assertTrue(kinetic > previousEnergy + 1e-9, "period " + period + ": torque does work");
                }
                previousEnergy = kinetic;
            }
            assertEquals(AdapterState.WATCHDOG_TRIPPED, controller.awaitHeartbeat().state());
            assertEquals(1, adapter.watchdog().tripCount());

            controller.sendTorque(1.0);
            clock.advance(PERIOD_NS);
            adapter.doWork();
            assertFalse(JointStateStatusDecoder.watchdogTripped(controller.awaitState(13).statusBits()));
            assertEquals(AdapterState.RUNNING, adapter.state());
        }
    }

    /**
     * Realtime on a settable clock, 5 ms watchdog, 9 ms brake timeout, the adapter descheduled
     * right after the command arrived at t = 1 ms and run again at 11 ms: it integrates the ten
     * elapsed periods at once and decides the watchdog per period on the arm's clock, so zero torque
     * begins with the period that starts at 6 ms (exactly the watchdog timeout after the command)
     * and the brakes with the one that starts at 10 ms (the brake timeout), however late the process
     * ran. A new command releases the brake override and the drives are powered again.
     */
    @Test
    void theWatchdogDecidesPerPeriodAndBrakesAfterTheBrakeTimeoutAlsoWhenTheAdapterRunsLate()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final SimulatedArm arm = new SimulatedArm(MODEL, config().gravity(0, 0, 0));
            final AdapterSettings settings = new AdapterSettings(7, 5 * PERIOD_NS, 2 * PERIOD_NS).withBrakeTimeout(9 * PERIOD_NS);
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, settings, SimulationMode.REALTIME,
                clock, NO_CRASH);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            adapter.doWork();
            controller.awaitState(0);
            controller.sendTorque(1.0);
            clock.advance(PERIOD_NS);
            adapter.doWork();
            assertTrue(JointStateStatusDecoder.drivesEnabled(controller.awaitState(1).statusBits()));
            assertEquals(0, adapter.watchdogStopCount());

            clock.advance(10 * PERIOD_NS);
            adapter.doWork();
            final JointStateSample late = controller.awaitState(11);
            assertFalse(JointStateStatusDecoder.drivesEnabled(late.statusBits()), "braked");
            assertTrue(JointStateStatusDecoder.watchdogTripped(late.statusBits()));
            assertEquals(1, adapter.watchdogStopCount());
            assertEquals(PERIOD_NS, adapter.stopCommandNs(), "the command's arrival");
            assertEquals(5 * PERIOD_NS, adapter.zeroTorqueFromNs() - adapter.stopCommandNs(), "zero torque at the watchdog timeout");
            assertEquals(9 * PERIOD_NS, adapter.brakedFromNs() - adapter.stopCommandNs(), "brakes at the brake timeout");
            assertEquals(1, adapter.watchdog().brakeCount());

            controller.sendTorque(1.0);
            clock.advance(PERIOD_NS);
            adapter.doWork();
            final JointStateSample again = controller.awaitState(12);
            assertTrue(JointStateStatusDecoder.drivesEnabled(again.statusBits()), "a new command powers the drives again");
            assertFalse(JointStateStatusDecoder.watchdogTripped(again.statusBits()));
        }
    }

    /**
     * A link closed under the adapter (as the Aeron client closes it after losing its media
     * driver): at its next duty cycle the adapter unpowers and brakes the drives, reports the link
     * released, and goes on integrating the braked arm without touching the link.
     */
    @Test
    void aClosedLinkBrakesTheDrivesAndIsNeverTouchedAgain()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final SimulatedArm arm = new SimulatedArm(MODEL, config());
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink,
                new AdapterSettings(7, 5 * PERIOD_NS, 2 * PERIOD_NS), SimulationMode.REALTIME, clock, NO_CRASH);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            adapter.doWork();
            controller.awaitState(0);
            controller.sendTorque(1.0);
            for (int period = 1; period <= 3; period++)
            {
                clock.advance(PERIOD_NS);
                adapter.doWork();
                controller.awaitState(period);
            }
            assertTrue(arm.drivesEnabled(), "powered before");
            assertFalse(adapter.linkReleased());

            link.adapterLink.close();
            clock.advance(PERIOD_NS);
            adapter.doWork();
            assertTrue(adapter.linkReleased(), "released at the first duty cycle after the close");
            assertEquals(clock.nanoTime(), adapter.linkLostNs());
            assertFalse(arm.drivesEnabled(), "unpowered and braked from that period on");
            final double[] braked = new double[DOF];
            arm.truePositions(braked);
            final long steps = arm.stepCount();
            final double[] q = new double[DOF];
            for (int period = 0; period < 5; period++)
            {
                clock.advance(PERIOD_NS);
                adapter.doWork();
                arm.truePositions(q);
                assertArrayEquals(braked, q, "held by the brakes");
                assertFalse(arm.drivesEnabled());
            }
            assertEquals(steps + 5, arm.stepCount(), "the braked arm keeps being integrated");
        }
    }

    /**
     * Realtime lateness: an adapter that wakes 5 periods late integrates the 5 elapsed periods and
     * publishes the newest sample stamped with the end of its period (the same positions, bit for
     * bit, as the arm stepped 6 times directly); one that wakes 25 periods late integrates 10, then
     * freezes, and the arm's clock excludes the frozen time. So consecutive timestamps always
     * match the motion between the samples, which the controller's state-jump check relies on.
     */
    @Test
    void aLateRealtimeAdapterStampsEachSampleWithItsTimeOnTheArmsClock()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final long startNs = clock.nanoTime();
            final SimulatedArm arm = new SimulatedArm(MODEL, config());
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink,
                new AdapterSettings(7, 1_000 * PERIOD_NS, 2 * PERIOD_NS), SimulationMode.REALTIME, clock, NO_CRASH);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            adapter.doWork();
            assertEquals(startNs, controller.awaitState(0).timestampNs());

            clock.advance(PERIOD_NS);
            adapter.doWork();
            assertEquals(startNs + PERIOD_NS, controller.awaitState(1).timestampNs());

            clock.advance(5 * PERIOD_NS);
            adapter.doWork();
            final JointStateSample late = controller.awaitState(6);
            assertEquals(startNs + 6 * PERIOD_NS, late.timestampNs());
            final SimulatedArm direct = new SimulatedArm(MODEL, config());
            for (int period = 0; period < 6; period++)
            {
                direct.step();
            }
            final double[] expected = new double[DOF];
            direct.truePositions(expected);
            final double[] actual = new double[DOF];
            arm.truePositions(actual);
            assertArrayEquals(expected, actual, "five elapsed periods integrated, not skipped");

            clock.advance(25 * PERIOD_NS);
            adapter.doWork();
            assertEquals(startNs + 16 * PERIOD_NS, controller.awaitState(16).timestampNs(), "10 periods caught up");
            assertEquals(1, adapter.lagRestartCount());
            clock.advance(PERIOD_NS);
            adapter.doWork();
            assertEquals(startNs + 17 * PERIOD_NS, controller.awaitState(17).timestampNs(), "frozen time excluded");
        }
    }

    /** A stall at 5 ms: states 1-4 arrive, then nothing, no heartbeat either; the watchdog still trips. */
    @Test
    void aStalledAdapterStopsPublishingAndItsWatchdogStillTrips()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final SimulatedArm arm = new SimulatedArm(MODEL, config().fault(InjectedFault.parse("stall@0.005")));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink,
                new AdapterSettings(7, 3 * PERIOD_NS, PERIOD_NS), SimulationMode.REALTIME, clock, NO_CRASH);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            adapter.doWork();
            controller.sendTorque(0.5);
            for (int period = 1; period <= 20; period++)
            {
                clock.advance(PERIOD_NS);
                adapter.doWork();
                if (period < 5)
                {
                    controller.awaitState(period);
                }
                controller.sendTorque(0.5);
            }
            controller.drain();
            assertEquals(4L, controller.newestState().sequence(), "no state after the stall");
            final long heartbeats = controller.heartbeatCount();
            clock.advance(10 * PERIOD_NS);
            adapter.doWork();
            controller.drain();
            assertEquals(heartbeats, controller.heartbeatCount(), "no heartbeat after the stall");
            assertEquals(AdapterState.WATCHDOG_TRIPPED, adapter.state(), "commands are unread, the drives time out");
        }
    }

    /** A crash at 5 ms: the crash action runs once, in place of state 5, and the adapter is dead after. */
    @Test
    void aCrashRunsTheCrashActionInPlaceOfTheFirstAffectedState()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final AtomicInteger crashes = new AtomicInteger();
            final SimulatedArm arm = new SimulatedArm(MODEL, config().fault(InjectedFault.parse("crash@0.005")));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, AdapterSettings.defaults(),
                SimulationMode.REALTIME, clock, crashes::incrementAndGet);
            final RealtimeControllerEnd controller = new RealtimeControllerEnd(link.controllerLink, DOF);
            adapter.doWork();
            for (int period = 1; period <= 10; period++)
            {
                clock.advance(PERIOD_NS);
                final int work = adapter.doWork();
                assertEquals(period >= 5, adapter.crashed(), "period " + period);
                assertEquals(period > 5 ? 0 : 1, Math.min(work, 1), "period " + period + ": work done");
                assertEquals(period >= 5 ? 1 : 0, crashes.get(), "period " + period);
            }
            controller.drain();
            assertEquals(4L, controller.newestState().sequence(), "no state from the crash on");
        }
    }

    /**
     * Encoder faults over the link, lockstep: joint 1 reads NaN from state 3 (t = 2.5 ms rounds up
     * to the 3 ms boundary), joint 2 reads 0.5 rad too much from state 4; the other joints and the
     * earlier states are those of the fault-free arm driven with the same torques.
     */
    @Test
    void encoderFaultsShowUpInThePublishedStates()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final SimulatedArm arm = new SimulatedArm(MODEL, config()
                .fault(InjectedFault.parse("nan@0.0025:1")).fault(InjectedFault.parse("jump@0.004:2:0.5")));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, AdapterSettings.defaults(),
                SimulationMode.LOCKSTEP, SystemNanoClock.INSTANCE, NO_CRASH);
            final SimulatedArm clean = new SimulatedArm(MODEL, config());
            final JointStateSample expected = new JointStateSample(DOF);
            final LockstepControllerEnd controller = new LockstepControllerEnd(link.controllerLink, DOF, TARGET);
            adapter.doWork();
            controller.awaitState(0);
            for (long n = 1; n <= 8; n++)
            {
                controller.answer();
                LinkFixture.awaitCondition(() -> adapter.doWork() > 0, "the adapter takes the command");
                final JointStateSample state = controller.awaitState(n);
                clean.command(controller.torques(), DriveMode.TORQUE, true);
                clean.step();
                clean.sample(expected);
                assertEquals(n >= 3, Double.isNaN(state.q()[1]), "state " + n);
                if (n < 3)
                {
                    assertEquals(expected.q()[1], state.q()[1], 0.0, "state " + n);
                }
                assertEquals(expected.q()[2] + (n >= 4 ? 0.5 : 0.0), state.q()[2], 1e-12, "state " + n);
                assertEquals(expected.q()[0], state.q()[0], 0.0, "state " + n);
                assertEquals(expected.q()[3], state.q()[3], 0.0, "state " + n);
            }
        }
    }

    /**
     * One realtime period through the adapter (command in, synchronisation to its tick stamp, step,
     * state and heartbeat out over IPC) allocates nothing.
     */
    @Test
    void aRealtimePeriodThroughTheAdapterAllocatesNothing()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final SimulatedArm arm = new SimulatedArm(MODEL, config().countsPerRevolution(1 << 20).noise(1e-5, 1e-4, SEED));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink,
                AdapterSettings.defaults().synchronisedAt(PERIOD_NS / 2), SimulationMode.REALTIME, clock, NO_CRASH);
            final JointStateSample state = new JointStateSample(DOF);
            final HeartbeatSample heartbeat = new HeartbeatSample();
            final MotorCommandSample command = new MotorCommandSample(DOF);
            command.mode(DriveMode.TORQUE).enable(true);
            final long bytes = AllocationMeter.bytesAllocated(() ->
            {
                command.timestampNs(clock.nanoTime() - PERIOD_NS / 4);
                link.controllerLink.publishMotorCommand(command);
                clock.advance(PERIOD_NS);
                adapter.doWork();
                link.controllerLink.pollJointState(state);
                link.controllerLink.pollHeartbeat(heartbeat);
            }, 10_000, 20_000);
            assertEquals(0L, bytes, "bytes allocated over 20000 periods");
            assertEquals(0L, adapter.droppedStateCount());
        }
    }

    /**
     * One lockstep period (command in, step, state out over IPC) allocates nothing either. The
     * clock-paced heartbeat branch is taken only every 10 ms, so the JIT needs a long warm-up to
     * have compiled it with the rest (a late recompilation briefly runs unoptimised code).
     */
    @Test
    void aLockstepPeriodThroughTheAdapterAllocatesNothing()
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final SimulatedArm arm = new SimulatedArm(MODEL, config().countsPerRevolution(1 << 20).noise(1e-5, 1e-4, SEED)
                .latencyPeriods(1));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, AdapterSettings.defaults(),
                SimulationMode.LOCKSTEP, SystemNanoClock.INSTANCE, NO_CRASH);
            final JointStateSample state = new JointStateSample(DOF);
            final HeartbeatSample heartbeat = new HeartbeatSample();
            final MotorCommandSample command = new MotorCommandSample(DOF);
            command.mode(DriveMode.TORQUE).enable(true);
            adapter.doWork();
            final long bytes = AllocationMeter.bytesAllocated(() ->
            {
                link.controllerLink.publishMotorCommand(command.jointStateSequence(arm.stepCount()));
                adapter.doWork();
                link.controllerLink.pollJointState(state);
                link.controllerLink.pollHeartbeat(heartbeat);
            }, LOCKSTEP_WARM_UP_PERIODS, 20_000);
            assertEquals(0L, bytes, "bytes allocated over 20000 lockstep periods");
            assertEquals(arm.stepCount(), state.sequence(), "every command advanced the arm one period");
            assertEquals(0L, adapter.staleCommandCount());
        }
    }

    /**
     * Synchronised at half a period, the adapter's periods come to end half a period after the
     * controller's ticks start (from 900 us off at the start, within the 10 us the test clock
     * steps by), so exactly one new state arrives per tick, and the samples stay exactly one
     * period apart on the arm's clock. Free running, the same adapter keeps its own phase.
     */
    @Test
    void aSynchronisedRealtimeAdapterEndsItsPeriodsHalfAPeriodAfterEachTick()
    {
        final long[] synchronised = publicationPhases(
            new AdapterSettings(7, 1_000 * PERIOD_NS, 100 * PERIOD_NS).synchronisedAt(PERIOD_NS / 2));
        final long[] free = publicationPhases(new AdapterSettings(7, 1_000 * PERIOD_NS, 100 * PERIOD_NS));
        for (int tick = 0; tick < synchronised.length; tick++)
        {
            assertTrue(Math.abs(synchronised[tick] - PERIOD_NS / 2) <= SYNC_TEST_STEP_NS,
                "tick " + tick + ": state published " + synchronised[tick] + " ns after the tick start");
            assertEquals(PERIOD_NS - SYNC_TEST_PHASE_NS, free[tick], "free running, tick " + tick);
        }
    }

    private static final long SYNC_TEST_STEP_NS = 10_000L;
    private static final long SYNC_TEST_PHASE_NS = 100_000L;

    /**
     * Runs the adapter on a clock stepped by 10 us, with controller ticks starting 100 us after each
     * of its own period ends, a command stamped with each tick start, and returns, for the last 50
     * of 300 ticks, the time from the tick start to the one state published before the next tick.
     */
    private static long[] publicationPhases(final AdapterSettings settings)
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final CachedNanoClock clock = new CachedNanoClock();
            final long startNs = clock.nanoTime();
            final SimulatedArm arm = new SimulatedArm(MODEL, config());
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, settings,
                SimulationMode.REALTIME, clock, NO_CRASH);
            final JointStateSample state = new JointStateSample(DOF);
            final MotorCommandSample command = new MotorCommandSample(DOF);
            adapter.doWork();
            LinkFixture.awaitCondition(() -> link.controllerLink.pollJointState(state) > 0, "JointState 0");
            long lastSequence = state.sequence();
            long lastTimestampNs = state.timestampNs();
            final int ticks = 300;
            final long[] phases = new long[50];
            for (int tick = 1; tick <= ticks; tick++)
            {
                final long tickNs = startNs + SYNC_TEST_PHASE_NS + tick * PERIOD_NS;
                command.sequence(tick).jointStateSequence(lastSequence).timestampNs(tickNs).mode(DriveMode.ZERO_TORQUE)
                    .enable(true);
                LinkFixture.awaitCondition(() -> link.controllerLink.publishMotorCommand(command) > 0, "MotorCommand");
                int states = 0;
                while (clock.nanoTime() - (tickNs + PERIOD_NS) < 0)
                {
                    clock.advance(SYNC_TEST_STEP_NS);
                    adapter.doWork();
                    if (link.controllerLink.pollJointState(state) > 0)
                    {
                        states++;
                        assertEquals(lastSequence + 1, state.sequence(), "one period per state");
                        assertEquals(lastTimestampNs + PERIOD_NS, state.timestampNs(), "samples one period apart on the arm's clock");
                        lastSequence = state.sequence();
                        lastTimestampNs = state.timestampNs();
                        if (tick > ticks - phases.length)
                        {
                            phases[tick - 1 - (ticks - phases.length)] = clock.nanoTime() - tickNs;
                        }
                    }
                }
                if (tick > ticks - phases.length)
                {
                    assertEquals(1, states, "states between tick " + tick + " and the next");
                }
            }
            return phases;
        }
    }

    private static SimulatedArmConfig config()
    {
        return new SimulatedArmConfig(MODEL).periodNs(PERIOD_NS);
    }

    private static List<long[]> lockstepRun(final int periods)
    {
        try (LinkFixture link = new LinkFixture(DOF))
        {
            final SimulatedArm arm = new SimulatedArm(MODEL, config().countsPerRevolution(1 << 16).noise(1e-4, 1e-3, SEED)
                .latencyPeriods(1));
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link.adapterLink, AdapterSettings.defaults(),
                SimulationMode.LOCKSTEP, SystemNanoClock.INSTANCE, NO_CRASH);
            final LockstepControllerEnd controller = new LockstepControllerEnd(link.controllerLink, DOF, TARGET);
            final AgentRunner runner = startOnThread(adapter);
            try
            {
                controller.awaitState(0);
                for (long n = 0; n < periods; n++)
                {
                    controller.answer();
                    controller.awaitState(n + 1);
                }
            }
            finally
            {
                runner.close();
            }
            return controller.received;
        }
    }

    private static AgentRunner startOnThread(final SimulatedArmAdapter adapter)
    {
        final AgentRunner runner = new AgentRunner(new YieldingIdleStrategy(), Throwable::printStackTrace, null, adapter);
        AgentRunner.startOnThread(runner);
        return runner;
    }
}
