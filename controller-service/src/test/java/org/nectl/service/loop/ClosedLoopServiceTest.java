package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * Closed-loop robots served by the whole service in lockstep, from the shipped deployments: the
 * palletiser (config/deploy/lockstep-palletiser.yaml, its four active joints) and the hexapod
 * (config/deploy/lockstep-hexapod.yaml, its six leg lengths). The loop runs the computed-torque law
 * on the closed chain's projected dynamics (the hexapod's on its own inverse dynamic model, equal to
 * the projection to 1e-10); the simulated arm integrates the closed chain (RK4, four
 * substeps per 1 ms period, the passive joints re-solved by Newton at every stage); planner, gateway,
 * hardware link and telemetry see only the active joints. Enabled at home, the robot is sent a
 * rest-to-rest trajectory out, back, out and back over signed UDP and follows it, judged from the
 * telemetry; the loops of the simulated robot are closed at the end. On the hexapod, the heavier of
 * the two closed chains, the loop thread then holds the end pose and allocates nothing over 1000
 * ticks once it has run {@value #WARM_UP_TICKS} ticks and 1000 ticks in a row have allocated
 * nothing: per-tick methods reach the JIT's tier-4 threshold after about 5000 ticks, and the thread
 * that trips it allocates a few hundred bytes to 4 KB once (measured here: 352 B at about tick 6400,
 * 3928 B at about 7400, none in the 6000 ticks after), as {@code RealtimeServiceTest} explains.
 * Encoders are exact, so the error is the control law's with the torque held over each period.
 */
class ClosedLoopServiceTest
{
    private static final int SETTLE_STEPS = 300;
    /** Out, back, out, back: 1 s each. */
    private static final double[] TIMES_S = {0.0, 1.0, 2.0, 3.0, 4.0};
    private static final int TRAJECTORY_STEPS = 4_000;
    private static final int TRACKED_TO = SETTLE_STEPS + TRAJECTORY_STEPS + 100;
    /** Ticks per allocation reading while waiting for the JIT. */
    private static final int CHUNK = 500;
    private static final int QUIET_TICKS = 1_000;
    /** Ticks before the allocation measurement may start: past the JIT's tier-4 compiles of the tick. */
    private static final int WARM_UP_TICKS = 8_000;
    private static final int MEASURED_TICKS = 1_000;
    /** Longest run before the test gives up waiting for the JIT's quiet. */
    private static final int MAX_STEPS = 20_000;
    /** Largest loop-closure residual of the simulated robot after the run, m or rad: Newton's 1e-12 with margin. */
    private static final double CLOSURE_BOUND = 1e-10;

    private record Run(double[] rms, double worstError, long trackingSamples, long completed, long allocatedBytes,
        long measuredFrom, double closureResidual)
    {
    }

    @Test
    void palletiserTracksATrajectoryInItsActiveJointsOnTheLockstepService()
    {
        final Run run = run(Path.of("../config/deploy/lockstep-palletiser.yaml"), new double[] {0.2, 0.1, 0.1, 0.4}, false);
        report("palletiser (j1, j2, j3, j4), rad", run);
        check(run, 1e-5);
    }

    @Test
    void hexapodTracksLegLengthsOnTheLockstepService()
    {
        final Run run = run(Path.of("../config/deploy/lockstep-hexapod.yaml"),
            new double[] {0.03, -0.02, 0.03, -0.02, 0.03, -0.02}, true);
        report("hexapod (legs 1-6), m", run);
        check(run, 1e-5);
        assertEquals(0L, run.allocatedBytes, "bytes allocated on the loop thread over " + MEASURED_TICKS + " ticks");
    }

    private static void check(final Run run, final double rmsBound)
    {
        assertEquals(1, run.completed, "trajectory completed");
        assertEquals(TRAJECTORY_STEPS, run.trackingSamples, 1, "samples in TRACKING: one per simulated millisecond");
        for (int j = 0; j < run.rms.length; j++)
        {
            assertTrue(run.rms[j] <= rmsBound, "joint " + j + " RMS " + run.rms[j]);
        }
        assertTrue(run.closureResidual <= CLOSURE_BOUND, "closure residual " + run.closureResidual);
    }

    private static void report(final String what, final Run run)
    {
        final StringBuilder rms = new StringBuilder();
        for (final double r : run.rms)
        {
            rms.append(String.format(Locale.ROOT, " %.3e", r));
        }
        System.out.printf(Locale.ROOT, "closed-loop lockstep service, %s: RMS tracking error per joint%s, largest |error| %.3e,"
            + " closure residual %.3e%s%n", what, rms, run.worstError, run.closureResidual, run.measuredFrom == 0 ? ""
                : String.format(Locale.ROOT, ", %d bytes allocated on the loop thread over %d ticks from tick %d",
                    run.allocatedBytes, MEASURED_TICKS, run.measuredFrom));
    }

    /** The shipped deployment's robot, law and gains on the test's driver, port, keys and telemetry. */
    private static ServiceSettings settings(final DeploymentConfig config)
    {
        final ServiceSettings defaults = ServiceSettings.defaults(config.model(), config.periodNs(),
            new InetSocketAddress("127.0.0.1", 0));
        // Held-simulator supervision, as ServiceRig.heldLockstepSettings.
        final TelemetryConfig everyTick = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 1 << 20);
        return new ServiceSettings(config.model(), config.cycleSettings().withSupervision(TimeUnit.SECONDS.toNanos(30), 3),
            LoopMode.LOCKSTEP, ThreadPlacement.NONE, defaults.aeron(), defaults.link(), defaults.planner(), everyTick, config.law(),
            config.safetySettings(), config.mixedLaw(), TimeUnit.SECONDS.toNanos(30), config.referenceBlend(),
            config.collisionSettings(), false, config.closedLoop().orElseThrow());
    }

    private static Run run(final Path deployment, final double[] amplitude, final boolean measureAllocation)
    {
        final DeploymentConfig config = DeploymentConfigs.load(deployment);
        final ServiceSettings settings = settings(config);
        final ClosedLoopModel robot = settings.closedLoop();
        final int n = robot.activeCount();
        final double[] home = robot.homeActive();
        final double[][] waypoints = new double[TIMES_S.length][n];
        for (int p = 0; p < TIMES_S.length; p++)
        {
            for (int j = 0; j < n; j++)
            {
                waypoints[p][j] = home[j] + (p % 2 == 1 ? amplitude[j] : 0.0);
            }
        }
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();
        final double[] sumSquares = new double[n];
        double worst = 0.0;
        long tracking = 0;
        final long allocated;
        final long measuredFrom;
        final long completed;
        final SimulatedArm arm = new SimulatedArm(robot,
            new SimulatedArmConfig(settings.model()).periodNs(settings.cycle().periodNs()).initialQ(home));
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            assertEquals(ControllerMode.ENABLED, rig.service.loop().mode());
            rig.stepTo(SETTLE_STEPS, arm, adapter);
            assertTrue(rig.planner.sendTrajectory(JointTrajectory.fromPositions(TIMES_S, waypoints)).accepted(),
                "trajectory acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.TRACKING, rig.service.loop().mode(), "rejected: " + rig.service.lastTrajectoryRejection());
            rig.stepTo(TRACKED_TO, arm, adapter);
            long step = TRACKED_TO;
            long quiet = 0;
            long bytes = threads.getThreadAllocatedBytes(rig.service.loopThreadId());
            while (measureAllocation && (quiet < QUIET_TICKS || step < WARM_UP_TICKS))
            {
                assertTrue(step < MAX_STEPS, "the loop thread still allocates after " + step + " ticks");
                step += CHUNK;
                rig.stepTo(step, arm, adapter);
                final long now = threads.getThreadAllocatedBytes(rig.service.loopThreadId());
                quiet = now == bytes ? quiet + CHUNK : 0;
                bytes = now;
            }
            measuredFrom = measureAllocation ? step : 0;
            if (measureAllocation)
            {
                rig.stepTo(step + MEASURED_TICKS, arm, adapter);
            }
            allocated = threads.getThreadAllocatedBytes(rig.service.loopThreadId()) - bytes;
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            for (int i = 0; i <= TRACKED_TO; i++)
            {
                final TelemetryRecorder.Sample sample = samples.get(i);
                assertEquals(0, sample.telemetryDropCount() + sample.missingStateCount() + sample.faults(), "tick " + (i + 1));
                if (sample.state() == ControllerState.TRACKING)
                {
                    tracking++;
                    for (int j = 0; j < n; j++)
                    {
                        final double e = sample.values().trackingError()[j];
                        sumSquares[j] += e * e;
                        worst = Math.max(worst, Math.abs(e));
                    }
                }
            }
            completed = rig.service.loop().cycle().completedTrajectories();
        }
        final double[] rms = new double[n];
        for (int j = 0; j < n; j++)
        {
            rms[j] = Math.sqrt(sumSquares[j] / Math.max(1, tracking));
        }
        return new Run(rms, worst, tracking, completed, allocated, measuredFrom, arm.closureResidual());
    }
}
