package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.BiFunction;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.ModelVariants;
import org.nectl.core.testing.RandomRobots;

/**
 * Online time scaling in closed loop: the control cycle (computed torque, RNEA and tau-dot along
 * the reference, torque limiter) drives the RK4 arm simulator through a trajectory whose middle
 * swing needs more torque rate, or more torque, than the robot's limits allow at its nominal pace.
 * The oracle for "within the limits" is the torque limiter itself: its clip counters stay at zero
 * only if the control law's own output never left the limits, i.e. nothing was clipped to hide the
 * demand. The same run without time scaling must clip, or the test could not fail.
 */
class TimeScaledTrackingTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final double PERIOD_S = 1e-3;
    private static final int DOF = 7;
    private static final double[] TIMES_S = {0.0, 1.0, 1.5, 2.0, 4.0};
    /** Ticks of holding before the trajectory starts: the enable transient settles. */
    private static final int SETTLE_TICKS = 200;
    private static final int MAX_TICKS = 20_000;
    /** Largest distance of the measured position from the path point q(s(t)), rad (stated bound). */
    private static final double PATH_TOLERANCE_RAD = 2e-3;

    /** What one closed-loop run leaves. */
    private record Run(
        long torqueClips, long rateClips, long trackingTicks, double minimumRate, double finalRate,
        double worstPathErrorRad, double worstTauRatio, double worstTauRateRatio, double worstFeedforwardRateRatio,
        double worstRateAcceleration, double worstRateJerk, boolean monotonic, long scaledTicks, long unreachable,
        int faults, long counterMismatches, boolean finite)
    {
    }

    /** Rest to rest: a slow start, a fast 0.5 s swing and back, a slow 2 s return. */
    private static TrajectorySampler swing(final RobotModel model, final double[] start)
    {
        final double[][] q = new double[TIMES_S.length][DOF];
        for (int j = 0; j < DOF; j++)
        {
            final double sign = j % 2 == 0 ? 1.0 : -1.0;
            q[0][j] = start[j];
            q[1][j] = start[j] + 0.05 * sign;
            q[2][j] = start[j] + 0.6 * sign;
            q[3][j] = start[j] + 0.1 * sign;
            q[4][j] = start[j];
        }
        return new TrajectorySampler(model, new JointWaypoints(TIMES_S, q));
    }

    /** A random 7-DoF revolute chain (no friction) with limits chosen from its swing's unscaled demand. */
    private static RobotModel limitedArm(final long seed, final BiFunction<RobotModel, double[][], RobotModel> limits)
    {
        final RobotModel base = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.REVOLUTE, false);
        return limits.apply(base, demand(base, swing(base, startPose(seed))));
    }

    private static double[] startPose(final long seed)
    {
        return RandomRobots.vector(new SplittableRandom(seed), DOF, 1.0);
    }

    /** {max |tau_ff|, max |tau_ff'|, max |gravity|} per joint along the unscaled reference, 1 kHz scan. */
    private static double[][] demand(final RobotModel model, final TrajectorySampler sampler)
    {
        final CompiledModel compiled = CompiledModel.of(model);
        final ComputedTorqueController law = new ComputedTorqueController(compiled, new double[DOF], new double[DOF]);
        final InverseDynamics gravity = new InverseDynamics(compiled);
        gravity.jointFriction(false);
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[] qdd = new double[DOF];
        final double[] qddd = new double[DOF];
        final double[] qdddd = new double[DOF];
        final double[] tau = new double[DOF];
        final double[] ff = new double[DOF];
        final double[] ffRate = new double[DOF];
        final double[] zero = new double[DOF];
        final double[][] peak = new double[3][DOF];
        for (double t = sampler.startTimeS(); t <= sampler.endTimeS(); t += PERIOD_S)
        {
            sampler.sample(t, q, qd, qdd, qddd, qdddd);
            law.compute(q, qd, q, qd, qdd, qddd, tau, ff, ffRate);
            gravity.compute(q, zero, zero, tau);
            for (int j = 0; j < DOF; j++)
            {
                peak[0][j] = Math.max(peak[0][j], Math.abs(ff[j]));
                peak[1][j] = Math.max(peak[1][j], Math.abs(ffRate[j]));
                peak[2][j] = Math.max(peak[2][j], Math.abs(tau[j]));
            }
        }
        return peak;
    }

    /**
     * Rate limits that the swing exceeds about 2x (half its peak plus a floor, so that the feedback
     * on a light distal joint keeps some room); torque limits far above the demand.
     */
    private static RobotModel rateLimited(final RobotModel model, final double[][] peak, final double floorNmPerS)
    {
        final double[] effort = new double[DOF];
        final double[] rate = new double[DOF];
        for (int j = 0; j < DOF; j++)
        {
            effort[j] = 3.0 * peak[0][j] + 20.0;
            rate[j] = 0.5 * peak[1][j] + floorNmPerS;
        }
        return ModelVariants.withEffortLimits(model, effort, rate);
    }

    /** Torque limits 30 % under the swing's peak (but at least twice gravity); rate limits far above. */
    private static RobotModel torqueLimited(final RobotModel model, final double[][] peak)
    {
        final double[] effort = new double[DOF];
        final double[] rate = new double[DOF];
        for (int j = 0; j < DOF; j++)
        {
            effort[j] = Math.max(0.7 * peak[0][j], 2.0 * peak[2][j] + 2.0);
            rate[j] = 3.0 * peak[1][j] + 1000.0;
        }
        return ModelVariants.withEffortLimits(model, effort, rate);
    }

    /** Runs enable, settling and the trajectory to its end in lockstep; the plant may differ from the model. */
    private static Run run(
        final RobotModel model, final RobotModel plant, final TrajectorySampler sampler,
        final ReferenceTimeScaling.Settings scaling)
    {
        final ControlCycle cycle = new ControlCycle(model, CycleSettings.defaults(DOF, PERIOD_NS), SafetySettings.defaults(DOF), scaling);
        final ArmSimulator arm = new ArmSimulator(plant, PERIOD_NS, 4);
        final double[] start = new double[DOF];
        final double[] path = new double[DOF];
        final double[] scratch = new double[DOF];
        sampler.sample(sampler.startTimeS(), start, scratch, scratch, scratch, scratch);
        arm.reset(start, new double[DOF]);
        final double[] previousCommand = new double[DOF];
        long timeNs = 0;
        double worstPath = 0.0;
        double worstTau = 0.0;
        double worstTauRate = 0.0;
        double worstFeedforwardRate = 0.0;
        double worstRateAcceleration = 0.0;
        double worstRateJerk = 0.0;
        double minimumRate = 1.0;
        double previousPathTime = Double.NEGATIVE_INFINITY;
        double previousRateAcceleration = 0.0;
        boolean monotonic = true;
        boolean finite = true;
        long mismatches = 0;
        long clipsBefore = 0;
        long rateClipsBefore = 0;
        long trackingTicks = 0;
        for (int tick = 0; tick < MAX_TICKS; tick++)
        {
            arm.positions(cycle.measuredQ());
            arm.velocities(cycle.measuredQd());
            cycle.tick(timeNs, true, 0L, false);
            if (tick == 0)
            {
                assertEquals(ControlCycle.ACCEPTED, cycle.enable(ControlLaw.COMPUTED_TORQUE));
            }
            if (tick == SETTLE_TICKS)
            {
                assertEquals(ControlCycle.ACCEPTED, cycle.startTrajectory(sampler));
                clipsBefore = totalTorqueClips(cycle);
                rateClipsBefore = totalRateClips(cycle);
            }
            final double[] command = cycle.tauCommand();
            if (cycle.mode() == ControllerMode.TRACKING)
            {
                trackingTicks++;
                final ReferenceTimeScaling clock = cycle.timeScaling();
                final double s = clock.pathTimeS();
                monotonic &= s > previousPathTime;
                previousPathTime = s;
                minimumRate = Math.min(minimumRate, clock.rate());
                worstRateAcceleration = Math.max(worstRateAcceleration, Math.abs(clock.rateAcceleration()));
                worstRateJerk = Math.max(worstRateJerk,
                    Math.abs(clock.rateAcceleration() - previousRateAcceleration) / PERIOD_S);
                previousRateAcceleration = clock.rateAcceleration();
                sampler.sample(s, path, scratch, scratch, scratch, scratch);
                for (int j = 0; j < DOF; j++)
                {
                    worstPath = Math.max(worstPath, Math.abs(path[j] - cycle.measuredQ()[j]));
                    final double torqueLimit = model.limits(j).effortMax();
                    final double rateLimit = model.limits(j).effortRateMax();
                    worstTau = Math.max(worstTau, Math.abs(command[j]) / torqueLimit);
                    worstTauRate = Math.max(worstTauRate, Math.abs(command[j] - previousCommand[j]) / PERIOD_S / rateLimit);
                    worstFeedforwardRate = Math.max(worstFeedforwardRate,
                        Math.abs(cycle.tauFeedforwardRate()[j]) / rateLimit);
                }
                mismatches += clipMismatches(cycle, command, previousCommand);
            }
            for (int j = 0; j < DOF; j++)
            {
                finite &= Double.isFinite(command[j]) && Double.isFinite(cycle.measuredQ()[j]);
            }
            System.arraycopy(command, 0, previousCommand, 0, DOF);
            arm.torque(command);
            arm.step();
            timeNs += PERIOD_NS;
            if (tick > SETTLE_TICKS && cycle.mode() != ControllerMode.TRACKING)
            {
                break;
            }
        }
        return new Run(totalTorqueClips(cycle) - clipsBefore, totalRateClips(cycle) - rateClipsBefore, trackingTicks,
            minimumRate, cycle.timeScaling().rate(), worstPath, worstTau, worstTauRate, worstFeedforwardRate,
            worstRateAcceleration, worstRateJerk, monotonic, cycle.timeScaling().scaledTicks(),
            cycle.timeScaling().unreachablePoints(), cycle.faults(), mismatches, finite);
    }

    /**
     * An independent reading of limiter clips from the commands alone: a torque clip leaves the
     * command exactly on the torque limit, a rate clip exactly on the edge of the rate window (or on
     * the torque limit). Compared tick by tick with the limiter's flags.
     *
     * @return joints whose flags disagree with the command this tick.
     */
    private static long clipMismatches(final ControlCycle cycle, final double[] command, final double[] previous)
    {
        final TorqueLimiter limiter = cycle.limiter();
        final long flags = cycle.limiterFlags();
        long mismatches = 0;
        for (int j = 0; j < DOF; j++)
        {
            final boolean onTorqueLimit = Math.abs(command[j]) == limiter.torqueLimitNm(j);
            final boolean onRateEdge = Math.abs(Math.abs(command[j] - previous[j]) - limiter.torqueStepLimitNm(j))
                <= 1e-9 * limiter.torqueStepLimitNm(j);
            final boolean flaggedTorque = (flags & TorqueLimiter.torqueFlag(j)) != 0;
            final boolean flaggedRate = (flags & TorqueLimiter.rateFlag(j)) != 0;
            if (flaggedTorque && !onTorqueLimit && !flaggedRate || flaggedRate && !onRateEdge && !onTorqueLimit
                || !flaggedTorque && !flaggedRate && (onTorqueLimit || onRateEdge))
            {
                mismatches++;
            }
        }
        return mismatches;
    }

    private static long totalTorqueClips(final ControlCycle cycle)
    {
        long n = 0;
        for (int j = 0; j < DOF; j++)
        {
            n += cycle.limiter().torqueClipCount(j);
        }
        return n;
    }

    private static long totalRateClips(final ControlCycle cycle)
    {
        long n = 0;
        for (int j = 0; j < DOF; j++)
        {
            n += cycle.limiter().rateClipCount(j);
        }
        return n;
    }

    /** Prints the run's figures. @return the run. */
    private static Run printed(final String what, final long seed, final Run r)
    {
        System.out.printf(Locale.ROOT, "%s, seed %d: ticks tracking %d (nominal %d), scaled %d, min s' %.3f, final s' %.6f,"
            + " max |q - q(s)| %.2e rad, max |tau|/limit %.3f, max |dtau/dt|/limit %.3f, max |tau_ff'|/limit %.3f,"
            + " max |s''| %.3f 1/s, max |ds''/dt| %.2f 1/s^2, clips torque %d rate %d, unreachable %d, faults %s%n",
            what, seed, r.trackingTicks, Math.round(TIMES_S[TIMES_S.length - 1] / PERIOD_S), r.scaledTicks, r.minimumRate,
            r.finalRate, r.worstPathErrorRad, r.worstTauRatio, r.worstTauRateRatio, r.worstFeedforwardRateRatio,
            r.worstRateAcceleration, r.worstRateJerk, r.torqueClips, r.rateClips, r.unreachable, Faults.describe(r.faults));
        return r;
    }

    /** The time-scaled run: within the limits unclipped, on the path, slower, smooth and recovered. */
    private static void assertScaled(final String what, final long seed, final Run scaled, final ReferenceTimeScaling.Settings s)
    {
        final String at = what + ", seed " + seed;
        assertEquals(0, scaled.faults, at + ": " + Faults.describe(scaled.faults));
        assertTrue(scaled.finite, at);
        assertEquals(0, scaled.torqueClips + scaled.rateClips, at + ": the limiter had to clip");
        assertTrue(scaled.worstTauRatio <= 1.0 && scaled.worstTauRateRatio <= 1.0, at);
        assertTrue(scaled.monotonic, at + ": the path time must only advance");
        assertTrue(scaled.worstPathErrorRad <= PATH_TOLERANCE_RAD, at + ": off the path by " + scaled.worstPathErrorRad);
        assertTrue(scaled.minimumRate < 0.95 && scaled.minimumRate >= s.minimumRate(), at + ": min rate " + scaled.minimumRate);
        assertTrue(scaled.trackingTicks > 4000 + 50, at + ": not slower");
        assertEquals(1.0, scaled.finalRate, at + ": the clock did not recover to s' = 1");
        assertTrue(scaled.worstRateAcceleration <= s.accelerationMax() * (1 + 1e-9), at);
        // s''' is bounded by jerkMax; the recovery snap to s' = 1 may step s'' by at most 1e-6 kv.
        assertTrue(scaled.worstRateJerk <= s.jerkMax() * (1 + 1e-6), at + ": s''' " + scaled.worstRateJerk);
        assertEquals(0, scaled.counterMismatches, at + ": limiter counters disagree with the commands");
        assertEquals(0, scaled.unreachable, at);
    }

    @Test
    void aReferenceDemandingTwiceTheTorqueRateIsSlowedOnTheSamePathWithoutAClip()
    {
        final ReferenceTimeScaling.Settings settings = ReferenceTimeScaling.Settings.defaults();
        for (long seed = 1; seed <= 3; seed++)
        {
            final RobotModel model = limitedArm(seed, (base, peak) -> rateLimited(base, peak, 20.0));
            final TrajectorySampler sampler = swing(model, startPose(seed));
            final Run unscaled = printed("torque-rate limited, unscaled", seed, run(model, model, sampler, settings.disabled()));
            final Run scaled = printed("torque-rate limited, scaled", seed, run(model, model, sampler, settings));
            assertTrue(unscaled.rateClips > 0, "seed " + seed + ": the unscaled swing must exceed the rate limit");
            assertTrue(unscaled.worstFeedforwardRateRatio > 1.5, "seed " + seed);
            assertTrue(scaled.worstFeedforwardRateRatio <= 1.0, "seed " + seed + ": feedforward rate over the limit");
            assertScaled("torque-rate limited", seed, scaled, settings);
        }
    }

    @Test
    void aReferenceDemandingMoreTorqueThanTheLimitIsSlowedOnTheSamePathWithoutAClip()
    {
        final ReferenceTimeScaling.Settings settings = ReferenceTimeScaling.Settings.defaults();
        for (long seed = 4; seed <= 6; seed++)
        {
            final RobotModel model = limitedArm(seed, TimeScaledTrackingTest::torqueLimited);
            final TrajectorySampler sampler = swing(model, startPose(seed));
            final Run unscaled = printed("torque limited, unscaled", seed, run(model, model, sampler, settings.disabled()));
            final Run scaled = printed("torque limited, scaled", seed, run(model, model, sampler, settings));
            assertTrue(unscaled.torqueClips > 0, "seed " + seed + ": the unscaled swing must exceed the torque limit");
            assertScaled("torque limited", seed, scaled, settings);
        }
    }

    /**
     * The plant's masses and inertias are each off by up to 20 % from the controller's model:
     * computed torque with time scaling still tracks the rate-limited swing to within 1e-2 rad of
     * the path, nothing is non-finite, and every limiter count agrees with what the commands show,
     * in the scaled run (few or no clips) and in the unscaled one (many). The rate floor is
     * 100 N m/s here: with 20 N m/s the feedback that holds a light joint against its 20 % error
     * already saturates the rate while ENABLED and the 10 Hz loop limit-cycles (seed 9, joint 4),
     * with or without time scaling.
     */
    @Test
    void withTwentyPercentInertiaErrorsTheScaledSwingStillTracksAndTheCountersAreTrue()
    {
        final ReferenceTimeScaling.Settings settings = ReferenceTimeScaling.Settings.defaults();
        for (long seed = 7; seed <= 9; seed++)
        {
            final RobotModel model = limitedArm(seed, (base, peak) -> rateLimited(base, peak, 100.0));
            final RobotModel plant = ModelVariants.withInertiaErrors(model, seed, 0.2);
            final TrajectorySampler sampler = swing(model, startPose(seed));
            final Run unscaled = printed("+/-20 % inertia errors, unscaled", seed, run(model, plant, sampler, settings.disabled()));
            final Run scaled = printed("+/-20 % inertia errors, scaled", seed, run(model, plant, sampler, settings));
            assertTrue(unscaled.rateClips > 0, "seed " + seed);
            assertEquals(0, unscaled.counterMismatches, "seed " + seed + ": unscaled counters disagree with the commands");
            assertEquals(0, scaled.faults, "seed " + seed + ": " + Faults.describe(scaled.faults));
            assertTrue(scaled.finite, "seed " + seed);
            assertEquals(0, scaled.counterMismatches, "seed " + seed + ": limiter counters disagree with the commands");
            assertTrue(scaled.worstPathErrorRad < 1e-2, "seed " + seed + ": off the path by " + scaled.worstPathErrorRad);
            assertTrue(scaled.minimumRate < 0.95, "seed " + seed);
            assertEquals(1.0, scaled.finalRate, "seed " + seed);
        }
    }

    @Test
    void aTimeScaledTickAllocatesNothing()
    {
        final double[] start = startPose(1);
        final RobotModel model = limitedArm(1, (base, peak) -> rateLimited(base, peak, 20.0));
        final ControlCycle cycle = new ControlCycle(model, CycleSettings.defaults(DOF, PERIOD_NS));
        final ArmSimulator arm = new ArmSimulator(model, PERIOD_NS, 4);
        arm.reset(start, new double[DOF]);
        final long[] timeNs = {0};
        final Runnable tick = () ->
        {
            arm.positions(cycle.measuredQ());
            arm.velocities(cycle.measuredQd());
            cycle.tick(timeNs[0], true, 0L, false);
            arm.torque(cycle.tauCommand());
            arm.step();
            timeNs[0] += PERIOD_NS;
        };
        arm.positions(cycle.measuredQ());
        arm.velocities(cycle.measuredQd());
        cycle.tick(0, true, 0L, false);
        cycle.enable(ControlLaw.COMPUTED_TORQUE);
        final TrajectorySampler sampler = swing(model, start);
        cycle.startTrajectory(sampler);
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            tick.run();
            if (cycle.mode() != ControllerMode.TRACKING)
            {
                cycle.startTrajectory(sampler);
            }
        }, 5_000, 20_000);
        assertTrue(cycle.timeScaling().scaledTicks() > 1000, "the clock was scaled");
        assertEquals(0L, bytes, "bytes allocated over 20000 time-scaled ticks");
    }
}
