package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.testing.ModelVariants;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * The whole service in lockstep with the simulated Panda: a trajectory whose middle swing needs
 * about twice the torque rate the (lowered) limits allow is accepted over UDP and followed on the
 * same path, only slower. Everything is judged from the published telemetry: the clip counters
 * stay where they were (the limiter never had to clip the control law's command), the commanded
 * torque and its tick-to-tick rate stay within the limits, the reference clock rate s' dips below
 * 1 and comes back to exactly 1, and the tracking error (reference q(s(t)) minus measured) stays
 * within a stated bound, i.e. the arm stays on the geometric path.
 */
class TimeScaledServiceTest
{
    private static final double[] TIMES_S = {0.0, 1.0, 1.5, 2.0, 4.0};
    private static final double[] SWING_RAD = {0.45, -0.35, 0.45, 0.35, -0.45, 0.45, -0.45};
    private static final int SETTLE_STEPS = 300;
    /** Settling, up to 6 s for the time-scaled 4 s trajectory, and 0.2 s of holding its end. */
    private static final int STEPS = SETTLE_STEPS + 6_200;
    private static final double PERIOD_S = ServiceRig.PERIOD_NS * 1e-9;
    /** Largest |reference - measured| while tracking, rad: the computed-torque error of this swing. */
    private static final double PATH_TOLERANCE_RAD = 2e-3;

    @Test
    void aSwingDemandingTwiceThePandasTorqueRateIsTimeScaledOnTheSamePathWithoutAClip()
    {
        final TrajectorySampler nominal = new TrajectorySampler(ServiceRig.PANDA, new JointWaypoints(TIMES_S, waypoints()));
        final double[] peakRate = peakFeedforwardRate(nominal);
        final double[] effort = new double[peakRate.length];
        final double[] rate = new double[peakRate.length];
        double worstDemand = 0.0;
        for (int j = 0; j < rate.length; j++)
        {
            effort[j] = ServiceRig.PANDA.limits(j).effortMax();
            rate[j] = 0.5 * peakRate[j] + 20.0;
            worstDemand = Math.max(worstDemand, peakRate[j] / rate[j]);
        }
        System.out.printf(Locale.ROOT, "lockstep Panda: unscaled peak |tau_ff'| %s N m/s against limits %s N m/s%n",
            Arrays.toString(peakRate), Arrays.toString(rate));
        assertTrue(worstDemand > 1.5, "the unscaled swing must exceed the rate limits, demand/limit " + worstDemand);
        final RobotModel limited = ModelVariants.withEffortLimits(ServiceRig.PANDA, effort, rate);

        final ServiceSettings held = ServiceRig.heldLockstepSettings();
        final ServiceSettings settings = new ServiceSettings(limited, held.cycle(), held.mode(), held.loopThread(), held.aeron(),
            held.link(), held.planner(), held.telemetry(), held.law(), held.safety());
        final List<TelemetryRecorder.Sample> samples;
        final ControlLoop loop;
        try (ServiceRig rig = new ServiceRig(settings))
        {
            loop = rig.service.loop();
            final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig());
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.stepTo(0, arm, adapter);
            assertTrue(rig.planner.enable(ControllerKind.COMPUTED_TORQUE).accepted(), "enable acknowledged");
            rig.awaitApplied(1);
            rig.stepTo(SETTLE_STEPS, arm, adapter);
            assertTrue(rig.planner.sendTrajectory(JointTrajectory.fromPositions(TIMES_S, waypoints())).accepted(),
                "trajectory acknowledged");
            rig.awaitApplied(2);
            assertEquals(ControllerMode.TRACKING, loop.mode(), "rejected: " + rig.service.lastTrajectoryRejection());
            rig.stepTo(STEPS, arm, adapter);
            samples = List.copyOf(rig.telemetry.samples);
        }
        assertEquals(1, loop.cycle().completedTrajectories(), "trajectory completed");
        check(samples, limited);
    }

    private static void check(final List<TelemetryRecorder.Sample> samples, final RobotModel limited)
    {
        final int dof = limited.dof();
        long trackingTicks = 0;
        long torqueClipsAtStart = -1;
        long rateClipsAtStart = -1;
        double minimumRate = 1.0;
        double lastTrackingRate = 0.0;
        double worstTau = 0.0;
        double worstTauRate = 0.0;
        double worstError = 0.0;
        long scaledTicks = 0;
        long endClips = 0;
        TelemetrySample previous = null;
        for (final TelemetryRecorder.Sample sample : samples)
        {
            final TelemetrySample v = sample.values();
            if (sample.state() == ControllerState.TRACKING)
            {
                if (torqueClipsAtStart < 0)
                {
                    torqueClipsAtStart = v.torqueClipCount();
                    rateClipsAtStart = v.torqueRateClipCount();
                }
                trackingTicks++;
                minimumRate = Math.min(minimumRate, v.referenceClockRate());
                lastTrackingRate = v.referenceClockRate();
                scaledTicks = v.timeScaledTickCount();
                endClips = v.torqueClipCount() - torqueClipsAtStart + v.torqueRateClipCount() - rateClipsAtStart;
                assertEquals(0L, v.limiterFlags(), "tick " + sample.tickCount() + ": the limiter clipped");
                for (int j = 0; j < dof; j++)
                {
                    worstTau = Math.max(worstTau, Math.abs(v.tauCommand()[j]) / limited.limits(j).effortMax());
                    worstTauRate = Math.max(worstTauRate,
                        Math.abs(v.tauCommand()[j] - previous.tauCommand()[j]) / PERIOD_S / limited.limits(j).effortRateMax());
                    worstError = Math.max(worstError, Math.abs(v.trackingError()[j]));
                }
            }
            previous = v;
        }
        System.out.printf(Locale.ROOT, "lockstep Panda, time-scaled swing: %d ticks tracking (4000 planned), %d scaled,"
            + " min s' %.3f, s' at the end %.6f, max |tau|/limit %.3f, max |dtau/dt|/limit %.3f,"
            + " max |q_ref(s) - q| %.2e rad, clips while tracking %d%n",
            trackingTicks, scaledTicks, minimumRate, lastTrackingRate, worstTau, worstTauRate, worstError, endClips);
        assertEquals(0L, endClips, "torque or rate clips while tracking");
        assertTrue(worstTau <= 1.0 && worstTauRate <= 1.0, "commanded torque or its rate over the limit");
        assertTrue(minimumRate < 0.9, "the reference clock must slow down, min s' " + minimumRate);
        assertEquals(1.0, lastTrackingRate, "the reference clock must recover to s' = 1 before the end");
        assertTrue(trackingTicks > 4_100, "slower than planned: " + trackingTicks + " ticks");
        assertTrue(scaledTicks > 100, "scaled ticks counted: " + scaledTicks);
        assertTrue(worstError <= PATH_TOLERANCE_RAD, "off the path by " + worstError + " rad");
    }

    /** Per joint, the largest |d tau_ff / dt| along the unscaled reference, scanned at 1 kHz. */
    private static double[] peakFeedforwardRate(final TrajectorySampler sampler)
    {
        final int dof = ServiceRig.PANDA.dof();
        final ComputedTorqueController law = new ComputedTorqueController(CompiledModel.of(ServiceRig.PANDA), new double[dof], new double[dof]);
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        final double[] qdddd = new double[dof];
        final double[] tau = new double[dof];
        final double[] ff = new double[dof];
        final double[] ffRate = new double[dof];
        final double[] peak = new double[dof];
        for (double t = sampler.startTimeS(); t <= sampler.endTimeS(); t += PERIOD_S)
        {
            sampler.sample(t, q, qd, qdd, qddd, qdddd);
            law.compute(q, qd, q, qd, qdd, qddd, tau, ff, ffRate);
            for (int j = 0; j < dof; j++)
            {
                peak[j] = Math.max(peak[j], Math.abs(ffRate[j]));
            }
        }
        return peak;
    }

    /** Rest to rest from the ready pose: slow out, a 0.5 s swing and back, a slow 2 s return. */
    private static double[][] waypoints()
    {
        final double[] scale = {0.0, 0.1, 1.0, 0.2, 0.0};
        final double[][] q = new double[TIMES_S.length][];
        for (int k = 0; k < q.length; k++)
        {
            q[k] = ServiceRig.READY.clone();
            for (int j = 0; j < q[k].length; j++)
            {
                q[k][j] += scale[k] * SWING_RAD[j];
            }
        }
        return q;
    }
}
