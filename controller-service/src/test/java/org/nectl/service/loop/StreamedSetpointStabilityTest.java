package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * Streamed setpoints on the shipped lockstep deployments (config/deploy/lockstep-panda.yaml with
 * computed torque, config/deploy/lockstep-mixed3.yaml with the mixed rigid/elastic law), in
 * process: the service's control cycle ({@link ServiceSettings#controlCycle}) and the simulated arm
 * of `nectl sim` step together one period at a time as the lockstep service does (the loop applies
 * the setpoints that arrived, ticks on the new state, the arm integrates the command), so every run
 * is deterministic.
 *
 * <p>From five poses per robot: one setpoint stepping every joint by 20 % to 100 % of its refusal
 * threshold ({@link ControlCycle#streamStepLimit}), alternately up and down; and twenty seeded
 * random streams, each a rest-to-rest quintic move of every joint by 0.1 to 0.3 rad sent at 1 kHz,
 * interrupted by a 20 ms stall after which the queued setpoints arrive together: the loop waiting
 * for a state while the planner sends on (even streams), or the planner silent while the loop runs
 * (odd streams); half of them send positions and velocities only. Every case: no fault, no refused
 * setpoint, no torque-rate clip, the arm overshoots by at most 10 % of the step (of the move for a
 * stream) and is within 2 % of it for good {@link #STEP_SETTLE_BOUND_MS} after the step,
 * {@link #STREAM_SETTLE_BOUND_MS} after a stream's last setpoint. The measured figures are printed
 * (docs/CONTROL.md).
 */
class StreamedSetpointStabilityTest
{
    private static final Path PANDA = Path.of("../config/deploy/lockstep-panda.yaml");
    private static final Path MIXED = Path.of("../config/deploy/lockstep-mixed3.yaml");
    private static final double[][] PANDA_POSES = {
        {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785},
        {0.5, -0.3, 0.4, -1.8, 0.3, 1.2, 0.0},
        {-0.8, 0.4, -0.5, -2.6, -0.6, 2.2, 1.5},
        {1.2, -1.2, 1.0, -1.2, 1.0, 0.9, -1.0},
        {-1.5, 0.8, -1.2, -0.6, -1.5, 3.0, 2.0}};
    private static final double[][] MIXED_POSES = {
        {0.0, 0.0, -0.4363},
        {0.5, 0.3, 0.2},
        {-1.0, -0.4, 0.8},
        {2.0, 0.8, -1.0},
        {-2.5, -0.8, 1.2}};
    /** Shares of the threshold; the largest a hair below it, so that rounding cannot take it over. */
    private static final double[] STEP_FRACTIONS = {0.2, 0.4, 0.6, 0.8, 1.0 - 1e-9};
    private static final int STREAMS = 20;
    private static final int STALL_TICKS = 20;
    /** Holding after enable before the step or stream, so that the enable transient is over. */
    private static final int SETTLE_TICKS = 1000;
    private static final int OBSERVE_TICKS = 800;
    private static final double OVERSHOOT_BOUND = 0.10;
    private static final double SETTLED_BAND = 0.02;
    /** Settling bound after a step, ms: the blend's 9.1 / pole = 303 ms at the default pole, and some margin. */
    private static final long STEP_SETTLE_BOUND_MS = 400;
    /**
     * Settling bound after a stream's last setpoint, ms: the offset a stall left behind decays within
     * the blend's 303 ms; a stream without accelerations leaves the elastic joint's motor behind, which
     * the mixed law's motor loop (Lambda_theta = 10 1/s) takes up.
     */
    private static final long STREAM_SETTLE_BOUND_MS = 500;

    @Test
    void pandaStepsUpToTheThresholdAreFollowedWithoutOvershootOrFault()
    {
        steps("panda", PANDA, PANDA_POSES);
    }

    @Test
    void mixedElasticArmStepsUpToTheThresholdAreFollowedWithoutOvershootOrFault()
    {
        steps("mixed-elastic-3dof", MIXED, MIXED_POSES);
    }

    @Test
    void pandaRandomBurstyStreamsAreFollowedWithoutOvershootOrFault()
    {
        streams("panda", PANDA, PANDA_POSES, 11);
    }

    @Test
    void mixedElasticArmRandomBurstyStreamsAreFollowedWithoutOvershootOrFault()
    {
        streams("mixed-elastic-3dof", MIXED, MIXED_POSES, 12);
    }

    private static void steps(final String robot, final Path deployment, final double[][] poses)
    {
        final ServiceSettings settings = settings(deployment);
        double worstOvershoot = 0.0;
        long worstSettleMs = 0;
        double worstTrackingError = 0.0;
        for (int p = 0; p < poses.length; p++)
        {
            for (final double fraction : STEP_FRACTIONS)
            {
                final Rig rig = new Rig(settings, poses[p]);
                final int n = rig.dof;
                final double sign = p % 2 == 0 ? 1.0 : -1.0;
                final double[] from = rig.cycle.referenceQ().clone();
                final double[] step = new double[n];
                final double[] target = new double[n];
                for (int j = 0; j < n; j++)
                {
                    step[j] = sign * fraction * rig.cycle.streamStepLimit(j);
                    target[j] = from[j] + step[j];
                }
                final String what = robot + " pose " + p + " step " + fraction + " of the threshold";
                final double[] rest = new double[n];
                assertEquals(ControlCycle.ACCEPTED, rig.cycle.streamSetpoint(target, rest, rest, rest), what);
                final Response response = rig.observe(from, target, step, STEP_SETTLE_BOUND_MS, what);
                System.out.printf(Locale.ROOT, "%s: overshoot %.2f %%, settled in %d ms, |q_ref - q| <= %.2e rad%n",
                    what, 100 * response.overshoot, response.settleMs, response.trackingError);
                worstOvershoot = Math.max(worstOvershoot, response.overshoot);
                worstSettleMs = Math.max(worstSettleMs, response.settleMs);
                worstTrackingError = Math.max(worstTrackingError, response.trackingError);
            }
        }
        final ControlCycle cycle = settings.controlCycle();
        System.out.printf(Locale.ROOT, "%s steps: jerk bound %.1f rad/s^3, linear step %.5f rad, threshold %.5f rad, %d cases, "
            + "worst overshoot %.2f %% of the step, settled within 2 %% in at most %d ms, largest |q_ref - q| %.2e rad%n",
            robot, cycle.blend().jerkMax(0), cycle.blend().linearStep(0), cycle.streamStepLimit(0),
            poses.length * STEP_FRACTIONS.length, 100 * worstOvershoot, worstSettleMs, worstTrackingError);
    }

    private static void streams(final String robot, final Path deployment, final double[][] poses, final long seed)
    {
        final ServiceSettings settings = settings(deployment);
        final SplittableRandom random = new SplittableRandom(seed);
        double worstOvershoot = 0.0;
        long worstSettleMs = 0;
        double worstTrackingError = 0.0;
        long refused = 0;
        for (int s = 0; s < STREAMS; s++)
        {
            final Rig rig = new Rig(settings, poses[s % poses.length]);
            final int n = rig.dof;
            final double[] from = rig.cycle.referenceQ().clone();
            final double[] move = new double[n];
            final double[] target = new double[n];
            for (int j = 0; j < n; j++)
            {
                move[j] = (random.nextBoolean() ? 1 : -1) * (0.1 + 0.2 * random.nextDouble());
                target[j] = from[j] + move[j];
            }
            final int durationTicks = 500 + random.nextInt(500);
            final int stallAt = 20 + random.nextInt(durationTicks - 40);
            final boolean loopWaits = s % 2 == 0;
            final boolean withDerivatives = random.nextBoolean();
            final String what = robot + " stream " + s + " (seed " + seed + ", " + durationTicks + " ms, stall at " + stallAt
                + " ms, " + (loopWaits ? "loop waiting for a state" : "planner silent") + ", "
                + (withDerivatives ? "q qd qdd qddd" : "q qd") + ")";
            final Quintic curve = new Quintic(from, move, durationTicks * rig.periodS);
            int sent = 0;
            while (sent <= durationTicks)
            {
                final boolean stalled = sent >= stallAt && sent < stallAt + STALL_TICKS;
                curve.queue(rig, sent, withDerivatives);
                sent++;
                if (stalled && loopWaits)
                {
                    continue;
                }
                if (!stalled)
                {
                    rig.tick(what);
                }
                else
                {
                    rig.tickWithoutApplying(what);
                }
            }
            final Response response = rig.observe(from, target, move, STREAM_SETTLE_BOUND_MS, what);
            System.out.printf(Locale.ROOT, "%s: overshoot %.2f %%, settled in %d ms, |q_ref - q| <= %.2e rad, %d rate clips%n",
                what, 100 * response.overshoot, response.settleMs, rig.trackingError, rig.cycle.limiter().rateClipTotal());
            refused += rig.refused;
            worstOvershoot = Math.max(worstOvershoot, response.overshoot);
            worstSettleMs = Math.max(worstSettleMs, response.settleMs);
            worstTrackingError = Math.max(worstTrackingError, Math.max(response.trackingError, rig.trackingError));
        }
        System.out.printf(Locale.ROOT, "%s bursty streams: %d streams, %d setpoints refused, worst overshoot %.2f %% of the move, "
            + "settled within 2 %% in at most %d ms after the last setpoint, largest |q_ref - q| %.2e rad%n",
            robot, STREAMS, refused, 100 * worstOvershoot, worstSettleMs, worstTrackingError);
        assertEquals(0, refused, "every setpoint of a smooth stream is accepted, stalls included");
    }

    /** The shipped deployment's robot, period, gains, law, safety and blend; the planner side (keys) is not read. */
    private static ServiceSettings settings(final Path deployment)
    {
        final DeploymentConfig config = DeploymentConfigs.load(deployment);
        final ServiceSettings defaults = ServiceSettings.defaults(config.model(), config.periodNs(),
            new InetSocketAddress("127.0.0.1", 0));
        return new ServiceSettings(config.model(), config.cycleSettings(), LoopMode.LOCKSTEP, ThreadPlacement.NONE,
            defaults.aeron(), defaults.link(), defaults.planner(), defaults.telemetry(), config.law(), config.safetySettings(),
            config.mixedLaw(), config.lockstepLivenessNs(), config.referenceBlend());
    }

    /** A rest-to-rest quintic of every joint, sampled by the planner at its ticks. */
    private record Quintic(double[] from, double[] move, double durationS)
    {
        void queue(final Rig rig, final int tick, final boolean withDerivatives)
        {
            final int n = from.length;
            final double s = Math.min(1.0, tick * rig.periodS / durationS);
            final double shape = s * s * s * (10 - 15 * s + 6 * s * s);
            final double rate = 30 * s * s * (1 - s) * (1 - s) / durationS;
            final double acceleration = 60 * s * (1 - 3 * s + 2 * s * s) / (durationS * durationS);
            final double jerk = 60 * (1 - 6 * s + 6 * s * s) / (durationS * durationS * durationS);
            final double[] q = new double[n];
            final double[] qd = new double[n];
            final double[] qdd = new double[n];
            final double[] qddd = new double[n];
            for (int j = 0; j < n; j++)
            {
                q[j] = from[j] + move[j] * shape;
                qd[j] = move[j] * rate;
                qdd[j] = withDerivatives ? move[j] * acceleration : 0.0;
                qddd[j] = withDerivatives && s < 1.0 ? move[j] * jerk : 0.0;
            }
            rig.queue(q, qd, qdd, qddd);
        }
    }

    private record Response(double overshoot, long settleMs, double trackingError)
    {
    }

    /** The control cycle and the simulated arm in lockstep, with the loop's queue of setpoints. */
    private static final class Rig
    {
        final int dof;
        final double periodS;
        final ControlCycle cycle;
        private final SimulatedArm arm;
        private final JointStateSample state;
        private final ArrayDeque<double[][]> queue = new ArrayDeque<>();
        long refused;
        double trackingError;

        Rig(final ServiceSettings settings, final double[] pose)
        {
            dof = settings.model().dof();
            periodS = settings.cycle().periodNs() * 1e-9;
            cycle = settings.controlCycle();
            arm = new SimulatedArm(settings.mixedLaw().model(),
                new SimulatedArmConfig(settings.model()).periodNs(settings.cycle().periodNs()).initialQ(pose));
            state = new JointStateSample(dof);
            tick("before enable");
            assertEquals(ControlCycle.ACCEPTED, cycle.enable(null));
            for (int i = 0; i < SETTLE_TICKS; i++)
            {
                tick("settling after enable");
            }
            trackingError = 0.0;
        }

        void queue(final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
        {
            queue.add(new double[][] {q, qd, qdd, qddd});
        }

        /** One lockstep tick: the setpoints that arrived are applied, then the cycle ticks on the new state. */
        void tick(final String what)
        {
            double[][] setpoint;
            while ((setpoint = queue.poll()) != null)
            {
                if (cycle.streamSetpoint(setpoint[0], setpoint[1], setpoint[2], setpoint[3]) != ControlCycle.ACCEPTED)
                {
                    refused++;
                }
            }
            tickWithoutApplying(what);
        }

        void tickWithoutApplying(final String what)
        {
            arm.sample(state);
            System.arraycopy(state.q(), 0, cycle.measuredQ(), 0, dof);
            System.arraycopy(state.qd(), 0, cycle.measuredQd(), 0, dof);
            System.arraycopy(state.theta(), 0, cycle.measuredTheta(), 0, dof);
            System.arraycopy(state.thetaDot(), 0, cycle.measuredThetaDot(), 0, dof);
            cycle.measuredStateTimeNs(arm.timeNs());
            cycle.tick(arm.timeNs(), true, 0L, false);
            assertEquals(0, cycle.faults(),
                what + ": " + Faults.describe(cycle.faults()) + " at " + arm.timeNs() / 1_000_000L + " ms");
            assertEquals(0L, cycle.limiter().rateClipTotal(), what + ": torque-rate clips");
            for (int j = 0; j < dof; j++)
            {
                trackingError = Math.max(trackingError, Math.abs(cycle.trackingError()[j]));
            }
            arm.command(cycle.tauCommand(), cycle.drivesEnabled() ? DriveMode.TORQUE : DriveMode.BRAKE, cycle.drivesEnabled());
            arm.step();
        }

        /**
         * Runs on (the stream stops after the command timeout) and measures, per joint, how far the arm
         * goes past the target, as a share of the step, and when it is within 2 % of the step for good.
         */
        Response observe(final double[] from, final double[] target, final double[] step, final long settleBoundMs, final String what)
        {
            trackingError = 0.0;
            double overshoot = 0.0;
            int lastOutside = -1;
            for (int t = 0; t < OBSERVE_TICKS; t++)
            {
                tick(what);
                for (int j = 0; j < dof; j++)
                {
                    final double progress = (state.q()[j] - from[j]) / step[j];
                    overshoot = Math.max(overshoot, progress - 1.0);
                    if (Math.abs(state.q()[j] - target[j]) > SETTLED_BAND * Math.abs(step[j]))
                    {
                        lastOutside = t;
                    }
                }
            }
            assertEquals(ControllerMode.HOLD, cycle.mode(), what + ": holds after the command timeout");
            final long settleMs = Math.round((lastOutside + 1) * periodS * 1e3);
            assertTrue(overshoot <= OVERSHOOT_BOUND, what + ": overshoot " + overshoot + " of the step");
            assertTrue(settleMs <= settleBoundMs, what + ": settled within 2 % after " + settleMs + " ms");
            return new Response(overshoot, settleMs, trackingError);
        }
    }
}
