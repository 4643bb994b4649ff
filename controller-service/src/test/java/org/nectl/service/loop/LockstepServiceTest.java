package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * The whole service in lockstep with the simulated Panda in this JVM, on the service's embedded
 * driver: enabled and sent a 10 s trajectory over real UDP, it follows it and two runs publish the
 * same telemetry bit for bit.
 *
 * <p>Determinism needs the planner's commands to land at fixed points of simulated time, so the
 * test runs the adapter's duty cycle itself and holds the simulator (no new JointState) until the
 * loop has applied the enable and the trajectory ({@link ServiceRig#heldLockstepSettings}).
 */
class LockstepServiceTest
{
    private static final long SEED = 42;
    private static final double[] TIMES_S = {0.0, 2.5, 5.0, 7.5, 10.0};
    private static final double[][] OFFSETS = {
        {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0},
        {0.4, 0.3, -0.3, 0.4, 0.3, -0.3, 0.5},
        {-0.3, -0.2, 0.3, 0.2, -0.4, 0.3, -0.5},
        {0.2, 0.25, 0.2, -0.3, 0.3, 0.2, 0.3},
        {0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0}};
    /** Simulated periods of holding the start pose before the trajectory: the enable transient settles. */
    private static final int SETTLE_STEPS = 300;
    /** Simulated periods per run: settling, the 10 s trajectory and 0.2 s of holding its end. */
    private static final int STEPS = SETTLE_STEPS + 10_200;
    private static final double RMS_TOLERANCE_RAD = 1e-3;

    /** What one run leaves: the scrubbed telemetry CRCs in tick order and the per-joint RMS error. */
    private record Run(long[] telemetryCrcs, double[] rmsRad, long completed, long trackingTicks)
    {
    }

    /**
     * RMS tracking error at most 1e-3 rad on every joint (the bound; the arm is simulated
     * with the controller's own model, 2^20-count encoders and 1e-5 rad of seeded noise, so what
     * remains is the discrete-time control error and the noise), and identical telemetry in two
     * runs: every sample of ticks 1..10501 compared by CRC-32C of its bytes with tickComputeNs
     * and overrunCount zeroed, the only fields measured on the wall clock (and tickIntervalNs).
     * The published feedforward rate is the time derivative of the published feedforward (central
     * difference over the 1 ms ticks), and the effort before the limits equals the command wherever
     * the limiter flags say nothing was clipped.
     */
    @Test
    void followsATenSecondTrajectoryWithinAMilliradianAndRepeatsItsTelemetryBitForBit()
    {
        final Run first = run();
        final Run second = run();
        final StringBuilder report = new StringBuilder("lockstep RMS tracking error per joint, rad:");
        for (int j = 0; j < first.rmsRad.length; j++)
        {
            report.append(String.format(Locale.ROOT, " %.3e", first.rmsRad[j]));
        }
        System.out.println(report);
        assertEquals(1, first.completed, "trajectory completed");
        assertEquals(10_000, first.trackingTicks, 1, "ticks in TRACKING: one per simulated millisecond of the trajectory");
        for (int j = 0; j < first.rmsRad.length; j++)
        {
            assertTrue(first.rmsRad[j] <= RMS_TOLERANCE_RAD, "joint " + j + " RMS " + first.rmsRad[j] + " rad, seed " + SEED);
        }
        assertEquals(STEPS + 1, first.telemetryCrcs.length, "one sample per tick");
        for (int i = 0; i < first.telemetryCrcs.length; i++)
        {
            if (first.telemetryCrcs[i] != second.telemetryCrcs[i])
            {
                fail("telemetry of tick " + (i + 1) + " differs between runs");
            }
        }
        assertTrue(Arrays.equals(first.rmsRad, second.rmsRad), "RMS bit-identical");
    }

    private static Run run()
    {
        final ControlLoop loop;
        final long[] crcs = new long[STEPS + 1];
        try (ServiceRig rig = new ServiceRig(ServiceRig.heldLockstepSettings()))
        {
            loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA,
                ServiceRig.armConfig().countsPerRevolution(1 << 20).noise(1e-5, 1e-4, SEED));
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            assertEquals(ControllerMode.ENABLED, loop.mode());
            rig.stepTo(SETTLE_STEPS, arm, adapter);
            assertTrue(rig.planner.sendTrajectory(JointTrajectory.fromPositions(TIMES_S, waypoints())).accepted(), "trajectory acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.TRACKING, loop.mode(), "rejected: " + rig.service.lastTrajectoryRejection());
            rig.stepTo(STEPS, arm, adapter);
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            for (int i = 0; i <= STEPS; i++)
            {
                final TelemetryRecorder.Sample sample = samples.get(i);
                assertEquals(i + 1, sample.tickCount(), "telemetry sample " + i);
                assertEquals(i, sample.jointStateSequence(), "one tick per JointState");
                assertEquals(0, sample.telemetryDropCount() + sample.missingStateCount(), "tick " + (i + 1));
                crcs[i] = sample.crc();
            }
            assertPublishedFeedforwardAndUnlimitedEffort(samples);
        }
        final double[] rms = new double[ServiceRig.PANDA.dof()];
        for (int j = 0; j < rms.length; j++)
        {
            rms[j] = loop.cycle().trackingRms(j);
        }
        return new Run(crcs, rms, loop.cycle().completedTrajectories(), loop.cycle().trackingTicks());
    }

    private static void assertPublishedFeedforwardAndUnlimitedEffort(final List<TelemetryRecorder.Sample> samples)
    {
        final double dtS = 1e-3;
        double largestRate = 0.0;
        double largestRateError = 0.0;
        int compared = 0;
        for (int i = 1; i + 1 < samples.size(); i++)
        {
            final TelemetrySample before = samples.get(i - 1).values();
            final TelemetrySample now = samples.get(i).values();
            final TelemetrySample after = samples.get(i + 1).values();
            for (int j = 0; j < now.jointCount(); j++)
            {
                if ((now.limiterFlags() & (1L << j | 1L << (32 + j))) == 0)
                {
                    assertEquals(now.tauLaw()[j], now.tauCommand()[j], 0.0, "unclipped effort, tick " + now.tickCount() + " joint " + j);
                }
            }
            if (before.state() != ControllerState.TRACKING || after.state() != ControllerState.TRACKING)
            {
                continue;
            }
            compared++;
            for (int j = 0; j < now.jointCount(); j++)
            {
                final double centralDifference = (after.tauFeedforward()[j] - before.tauFeedforward()[j]) / (2 * dtS);
                largestRate = Math.max(largestRate, Math.abs(now.tauFeedforwardRate()[j]));
                largestRateError = Math.max(largestRateError, Math.abs(now.tauFeedforwardRate()[j] - centralDifference));
            }
        }
        assertTrue(compared > 9_000, "ticks compared while tracking: " + compared);
        assertTrue(largestRate > 1.0, "the trajectory moves the feedforward: largest rate " + largestRate + " N m/s");
        assertTrue(largestRateError < 0.02 * largestRate,
            "feedforward rate against its central difference: error " + largestRateError + " of " + largestRate + " N m/s");
    }

    private static double[][] waypoints()
    {
        final double[][] q = new double[OFFSETS.length][];
        for (int k = 0; k < q.length; k++)
        {
            q[k] = ServiceRig.READY.clone();
            for (int j = 0; j < q[k].length; j++)
            {
                q[k][j] += OFFSETS[k][j];
            }
        }
        return q;
    }
}
