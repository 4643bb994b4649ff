package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;

import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.hw.AdapterSettings;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.CommandResult;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.PlannerClient;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;

/**
 * The running service on its own embedded media driver (fresh directory, deleted on close), a
 * second Aeron client on that driver for the test's simulated arm and telemetry subscription, and
 * the planner client on the gateway.
 */
final class ServiceRig implements AutoCloseable
{
    /** The shipped 7-DoF robot. */
    static final RobotModel PANDA = RobotDescriptions.load(Path.of("../config/robots/panda.yaml"));
    /** Panda's "ready" pose, inside every joint range, rad. */
    static final double[] READY = {0.0, -Math.PI / 4, 0.0, -3 * Math.PI / 4, 0.0, Math.PI / 2, Math.PI / 4};
    static final long PERIOD_NS = 1_000_000L;
    /** Telemetry samples a lockstep run may lag behind the simulator; far below the telemetry ring's capacity. */
    private static final int TELEMETRY_LAG = 16;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);
    /** State jump tolerated by {@link #tolerantRealtimeSettings}, rad or m. */
    private static final double TOLERATED_STATE_JUMP = 0.5;
    /**
     * Adapter watchdog of the simulated arms of the rig: a loop descheduled on a loaded host for
     * longer than the default 20 ms must not trip it in tests of something else (realtime only;
     * lockstep has no watchdog).
     */
    private static final long ADAPTER_WATCHDOG_NS = TimeUnit.SECONDS.toNanos(1);

    final ControllerService service;
    final AeronTransport client;
    final TelemetryRecorder telemetry;
    final PlannerClient planner;

    ServiceRig(final ServiceSettings settings)
    {
        this(settings, TickStage.NONE);
    }

    /** A rig whose loop runs {@code stage} inside every tick. */
    ServiceRig(final ServiceSettings settings, final TickStage stage)
    {
        this(settings, stage, null);
    }

    /** A rig whose service records the full-rate stream with {@code recording}. */
    ServiceRig(final ServiceSettings settings, final FlightRecorderConfig recording)
    {
        this(settings, TickStage.NONE, recording);
    }

    private ServiceRig(final ServiceSettings settings, final TickStage stage, final FlightRecorderConfig recording)
    {
        service = ControllerService.start(settings, stage, recording);
        client = AeronTransport.launch(AeronConfig.external(service.aeronDirectory()));
        telemetry = new TelemetryRecorder(client.aeron());
        planner = new PlannerClient(service.plannerAddress(), ServiceSettings.DEFAULT_PLANNER_ID,
            settings.planner().authentication().keys(), Duration.ofSeconds(10),
            settings.planner().maxDatagramLength());
        await(telemetry::isConnected, "telemetry subscription connected");
    }

    /** Default settings around the Panda at 1 kHz on an ephemeral loopback port, telemetry every tick. */
    static ServiceSettings settings(final LoopMode mode)
    {
        return settings(mode, PERIOD_NS);
    }

    /** Default settings around the Panda at the period on an ephemeral loopback port, telemetry every tick. */
    static ServiceSettings settings(final LoopMode mode, final long periodNs)
    {
        final ServiceSettings defaults = ServiceSettings.defaults(PANDA, periodNs, new InetSocketAddress("127.0.0.1", 0));
        final TelemetryConfig everyTick = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 1 << 20);
        return new ServiceSettings(defaults.model(), defaults.cycle(), mode, defaults.loopThread(), defaults.aeron(),
            defaults.link(), defaults.planner(), everyTick, defaults.law(), defaults.safety());
    }

    /**
     * Lockstep settings for tests that hold the simulator while they command: the loop's
     * dead-simulator liveness timeout, on the wall clock, gets 30 s instead of 2 s, which changes
     * nothing while the simulator runs (it answers within microseconds to milliseconds). 30 s and
     * not less: on a shared, overloaded host the test thread that steps the simulator has been seen
     * descheduled for more than 2 s, and a supervision tick without a new state would break the
     * one-tick-per-state determinism these tests check.
     */
    static ServiceSettings heldLockstepSettings()
    {
        return settings(LoopMode.LOCKSTEP).withCycle(tolerant(TimeUnit.SECONDS.toNanos(30), 3))
            .withLockstepLiveness(TimeUnit.SECONDS.toNanos(30));
    }

    /**
     * Realtime settings for tests of something other than state supervision: 200 missing states,
     * a 1 s heartbeat age and a 0.5 rad state jump (the burst of a simulator catching up) are
     * tolerated, because the simulator thread shares an unpinned, often overloaded host with the
     * loop and can be descheduled for several periods.
     */
    static ServiceSettings tolerantRealtimeSettings()
    {
        final ServiceSettings s = settings(LoopMode.REALTIME).withCycle(tolerant(TimeUnit.SECONDS.toNanos(1), 200));
        final SafetySettings d = s.safety();
        return s.withSafety(new SafetySettings(d.categories(), d.stopTimeNs(), d.decelerationMax(), d.standstillVelocity(),
            d.softLimitMargin(), TOLERATED_STATE_JUMP));
    }

    /** Default cycle settings but for the heartbeat timeout and the missing states tolerated. */
    static CycleSettings tolerant(final long heartbeatTimeoutNs, final int maxMissingStates)
    {
        final CycleSettings d = CycleSettings.defaults(PANDA.dof(), PERIOD_NS);
        return new CycleSettings(d.periodNs(), d.kp(), d.kd(), d.pdKp(), d.pdKd(), d.gravity(), heartbeatTimeoutNs,
            maxMissingStates, d.commandTimeoutNs(), d.positionMargin(), d.maxSaturatedTicks(), d.frictionFeedforward());
    }

    /** The ideal simulated Panda at rest in the ready pose, at 1 kHz. */
    static SimulatedArmConfig armConfig()
    {
        return armConfig(PERIOD_NS);
    }

    /** The ideal simulated Panda at rest in the ready pose, at the period. */
    static SimulatedArmConfig armConfig(final long periodNs)
    {
        return new SimulatedArmConfig(PANDA).periodNs(periodNs).initialQ(READY);
    }

    /** A simulated arm adapter in this process, on the service's driver, with a 1 s watchdog; run it with {@code doWork}. */
    SimulatedArmAdapter adapter(final SimulatedArm arm, final SimulationMode mode)
    {
        return adapter(arm, mode, new AdapterSettings(AdapterSettings.defaults().adapterId(), ADAPTER_WATCHDOG_NS,
            AdapterSettings.DEFAULT_HEARTBEAT_PERIOD_NS));
    }

    /** As {@link #adapter(SimulatedArm, SimulationMode)} with other adapter settings (e.g. a longer watchdog). */
    SimulatedArmAdapter adapter(final SimulatedArm arm, final SimulationMode mode, final AdapterSettings settings)
    {
        final AdapterLink link = new AdapterLink(client.aeron(), LinkConfig.ipcDefaults(), arm.dof());
        await(link::isConnected, "adapter link connected");
        return new SimulatedArmAdapter(arm, link, settings, mode, SystemNanoClock.INSTANCE, () ->
        {
            throw new AssertionError("no crash fault was configured");
        });
    }

    /** Evaluates the condition until it holds, failing after 20 s; never sleeps. */
    static void await(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("no " + what + " within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NS) + " s");
            }
            Thread.yield();
        }
    }

    /** @return the first controller event of the kind that matches, polling the telemetry until it arrives (20 s). */
    TelemetryRecorder.Event awaitEvent(final ControllerEventKind kind, final Predicate<TelemetryRecorder.Event> match)
    {
        final TelemetryRecorder.Event[] found = new TelemetryRecorder.Event[1];
        await(() ->
        {
            telemetry.poll();
            found[0] = telemetry.events.stream().filter(e -> e.kind() == kind && match.test(e)).findFirst().orElse(null);
            return found[0] != null;
        }, kind + " event");
        return found[0];
    }

    /**
     * Runs the adapter until it has published JointState {@code step} and the loop's telemetry of
     * every tick up to it has arrived; the simulator then waits for the test. Paced by the telemetry
     * so that the telemetry ring never fills.
     */
    void stepTo(final long step, final SimulatedArm arm, final SimulatedArmAdapter adapter)
    {
        final List<TelemetryRecorder.Sample> samples = telemetry.samples;
        final long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        boolean started = arm.stepCount() > 0 || !samples.isEmpty();
        while (!started || arm.stepCount() < step || samples.size() < step + 1)
        {
            final boolean stepAllowed = !started || arm.stepCount() < step && samples.size() + TELEMETRY_LAG >= arm.stepCount();
            final int work = stepAllowed ? adapter.doWork() : 0;
            started |= work > 0;
            if (telemetry.poll() + work == 0)
            {
                Thread.yield();
            }
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("lockstep run stuck at step " + arm.stepCount() + " of " + step + ", " + samples.size() + " telemetry samples");
            }
        }
    }

    /**
     * The held-simulator lockstep protocol: at state 0 enables with {@code controller}, holds the
     * start pose until step {@code settleSteps}, sends the trajectory, checks that the loop follows
     * it, and runs to step {@code steps}.
     */
    void trackInLockstep(final SimulatedArm arm, final SimulatedArmAdapter adapter, final ControllerKind controller,
        final JointTrajectory trajectory, final long settleSteps, final long steps)
    {
        stepTo(0, arm, adapter);
        assertTrue(planner.enable(controller).accepted(), "enable acknowledged");
        awaitApplied(1);
        assertEquals(ControllerMode.ENABLED, service.loop().mode(), "refused: " + service.lastTrajectoryRejection());
        stepTo(settleSteps, arm, adapter);
        assertTrue(planner.sendTrajectory(trajectory).accepted(), "trajectory acknowledged");
        awaitApplied(2);
        assertEquals(ControllerMode.TRACKING, service.loop().mode(), "rejected: " + service.lastTrajectoryRejection());
        stepTo(steps, arm, adapter);
    }

    /** Sends a PayloadCommand for the flange. */
    CommandResult setPayload(final double massKg, final double[] comM, final double[] inertiaAtComKgM2, final long rampNs)
    {
        return planner.setPayload(255, massKg, comM, inertiaAtComKgM2, rampNs);
    }

    /** Waits until the loop has taken {@code count} planner commands in all. */
    void awaitApplied(final long count)
    {
        await(() -> service.loop().appliedCommandCount() >= count, count + " planner commands applied by the loop");
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(planner, telemetry, client, service);
    }
}
