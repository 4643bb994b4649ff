package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.GravityTorques;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Collision detection in the control cycle against the RK4 plant ({@link CycleHarness}, lockstep) on
 * seeded random 7-joint chains with rotor inertia and friction: no detection in free motion, a wrench
 * on the last link detected while tracking, and each reaction (stop, hold, retract) carried out.
 */
final class CollisionCycleTest
{
    private static final int DOF = 7;
    /** Above the Coulomb friction of every joint (at most 2 N m in these chains) and the free-motion estimate. */
    private static final double THRESHOLD_NM = 4.0;
    private static final double[] PUSH = {0.0, 60.0, 40.0, 0.0, 0.0, 0.0};

    @Test
    void randomTrajectoriesWithoutContactRaiseNoDetection()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final CycleHarness h = harness(seed, CollisionSettings.Reaction.STOP);
            h.run(1);
            assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
            h.run(100);
            assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(randomMove(h.model, seed)));
            double largest = 0.0;
            for (int tick = 0; tick < 2600; tick++)
            {
                h.run(1);
                for (final double r : h.cycle.externalTorque())
                {
                    largest = Math.max(largest, Math.abs(r));
                }
            }
            System.out.printf("seed %d: free motion, largest |tau_ext| %.3f N m, threshold %.1f N m, %d trajectories done%n",
                seed, largest, THRESHOLD_NM, h.cycle.completedTrajectories());
            assertEquals(1, h.cycle.completedTrajectories(), "seed " + seed);
            assertEquals(0, h.cycle.collisionCount(), "seed " + seed + ": largest |tau_ext| " + largest);
            assertEquals(0, h.cycle.faults(), "seed " + seed + ": " + Faults.describe(h.cycle.faults()));
        }
    }

    @Test
    void aPushOnTheLastLinkWhileTrackingStopsTheArmWithTheCollisionCategory()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final CycleHarness h = harness(seed, CollisionSettings.Reaction.STOP);
            final long pushNs = pushWhileTracking(h, seed).timeNs();
            assertEquals(1, h.cycle.collisionCount(), "seed " + seed);
            assertEquals(Faults.COLLISION, h.cycle.faults(), "seed " + seed + ": " + Faults.describe(h.cycle.faults()));
            final long delayNs = h.cycle.lastCollisionTimeNs() - pushNs;
            System.out.printf("seed %d: push detected after %.1f ms on joint %d (tau_ext %.2f N m), mode %s%n",
                seed, delayNs * 1e-6, h.cycle.lastCollisionJoint(), h.cycle.lastCollisionTorque(), h.cycle.mode());
            assertTrue(delayNs <= 20_000_000L, "seed " + seed + ": detected " + delayNs + " ns after the push");
            assertTrue(Math.abs(h.cycle.lastCollisionTorque()) > THRESHOLD_NM, "seed " + seed);
            assertEquals(ControllerMode.FAULT, h.cycle.mode(), "seed " + seed + ": category 1 ends in FAULT at standstill");
            assertEquals(StopCategory.CATEGORY_1, h.cycle.stopCategory(), "seed " + seed);
        }
    }

    @Test
    void theHoldReflexHoldsWhereThePushFoundTheArmWithoutAFault()
    {
        final CycleHarness h = harness(2, CollisionSettings.Reaction.HOLD);
        pushWhileTracking(h, 2);
        assertEquals(1, h.cycle.collisionCount());
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        assertEquals(ControllerMode.HOLD, h.cycle.mode());
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        h.arm.positions(q);
        h.arm.velocities(qd);
        for (int j = 0; j < DOF; j++)
        {
            assertEquals(0.0, qd[j], 1e-3, "joint " + j + " at rest");
        }
    }

    @Test
    void theRetractReflexHoldsATargetMovedBackAlongTheExternalTorque()
    {
        final CycleHarness h = harness(3, CollisionSettings.Reaction.RETRACT);
        final Push push = pushWhileTracking(h, 3);
        assertEquals(1, h.cycle.collisionCount());
        assertEquals(ControllerMode.HOLD, h.cycle.mode());
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        double largest = 0.0;
        for (final double r : push.externalTorque)
        {
            largest = Math.max(largest, Math.abs(r) / THRESHOLD_NM);
        }
        for (int j = 0; j < DOF; j++)
        {
            // 1.6 s after the detection the blend's offset has decayed: the reference is the target
            final double expected = push.q[j] + 0.01 * push.externalTorque[j] / THRESHOLD_NM / largest;
            assertEquals(expected, h.cycle.referenceQ()[j], 1e-9, "joint " + j);
        }
        final int joint = h.cycle.lastCollisionJoint();
        System.out.printf("retract: joint %d, tau_ext %.2f N m, reference moved %.4f rad from the pose at detection%n",
            joint, h.cycle.lastCollisionTorque(), h.cycle.referenceQ()[joint] - push.q[joint]);
    }

    /**
     * The observer must take g(q) under the cycle's configured gravity, as the laws do: holding a
     * random pose at rest under a tilted gravity (a tilted mounting), the estimate stays at zero, on
     * the cycle's first model and on one set by a model change. An observer under the default
     * gravity would report g_tilted(q) - g_default(q), printed as the mismatch.
     */
    @Test
    void underAConfiguredGravityTheEstimateAtRestStaysZeroBeforeAndAfterAModelChange()
    {
        final double[] tilted = {3.0, -2.0, -9.0};
        final RobotModel model = RandomRobots.robot(6, DOF, false, RandomRobots.Joints.REVOLUTE, false);
        final CycleSettings d = CycleSettings.defaults(DOF, CycleHarness.PERIOD_NS);
        final CycleSettings settings = new CycleSettings(d.periodNs(), d.kp(), d.kd(), d.pdKp(), d.pdKd(), tilted,
            d.heartbeatTimeoutNs(), d.maxMissingStates(), d.commandTimeoutNs(), d.positionMargin(), d.maxSaturatedTicks(),
            d.frictionFeedforward());
        final CycleHarness h = new CycleHarness(model, settings, SafetySettings.defaults(DOF));
        h.arm.gravity(tilted[0], tilted[1], tilted[2]);
        final double[] pose = RandomRobots.vector(new SplittableRandom(6), DOF, 1.0);
        h.arm.reset(pose, new double[DOF]);
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
        final double first = largestEstimate(h, 500);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.changeModel(h.cycle.prepareModel(model), 50_000_000L));
        final double changed = largestEstimate(h, 500);
        assertEquals(1, h.cycle.modelChanges());

        final double[] tiltedG = new double[DOF];
        final double[] defaultG = new double[DOF];
        new GravityTorques(CompiledModel.of(model, tilted[0], tilted[1], tilted[2])).compute(pose, tiltedG);
        new GravityTorques(CompiledModel.of(model)).compute(pose, defaultG);
        double mismatch = 0.0;
        for (int j = 0; j < DOF; j++)
        {
            mismatch = Math.max(mismatch, Math.abs(tiltedG[j] - defaultG[j]));
        }
        System.out.printf("tilted gravity, at rest: largest |tau_ext| %.2e N m on the first model, %.2e N m after the change;"
            + " an observer under the default gravity would see up to %.2f N m%n", first, changed, mismatch);
        assertTrue(mismatch > 1.0, "the tilt changes g(q) by " + mismatch + " N m only");
        assertTrue(first < 1e-3, "first model: largest |tau_ext| " + first + " N m");
        assertTrue(changed < 1e-3, "after the model change: largest |tau_ext| " + changed + " N m");
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
    }

    private static double largestEstimate(final CycleHarness h, final int ticks)
    {
        double largest = 0.0;
        for (int tick = 0; tick < ticks; tick++)
        {
            h.run(1);
            for (final double r : h.cycle.externalTorque())
            {
                largest = Math.max(largest, Math.abs(r));
            }
        }
        return largest;
    }

    /** When the push began, and the measured pose and estimate at the tick of the detection. */
    private record Push(long timeNs, double[] q, double[] externalTorque)
    {
    }

    /** Enables, starts a move, pushes the last link from 0.4 s on and runs 1.6 s more. */
    private static Push pushWhileTracking(final CycleHarness h, final long seed)
    {
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
        h.run(100);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(randomMove(h.model, seed)));
        h.run(400);
        final long pushNs = h.timeNs;
        h.arm.externalWrench(h.model.bodyCount() - 1, PUSH);
        double[] q = null;
        double[] externalTorque = null;
        for (int tick = 0; tick < 1600; tick++)
        {
            h.run(1);
            if (q == null && h.cycle.collisionCount() > 0)
            {
                q = h.cycle.measuredQ().clone();
                externalTorque = h.cycle.externalTorque().clone();
            }
        }
        return new Push(pushNs, q, externalTorque);
    }

    private static CycleHarness harness(final long seed, final CollisionSettings.Reaction reaction)
    {
        final RobotModel model = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.REVOLUTE, true);
        final CollisionSettings collision = new CollisionSettings(CycleSettings.filled(DOF, CollisionSettings.DEFAULT_GAIN),
            true, CycleSettings.filled(DOF, THRESHOLD_NM), reaction, 0.01);
        return new CycleHarness(model, CycleSettings.defaults(DOF, CycleHarness.PERIOD_NS), SafetySettings.defaults(DOF),
            collision);
    }

    /** Rest to rest from the pose at enable (0) through a random pose within +-0.5 rad, in 2 s. */
    private static TrajectorySampler randomMove(final RobotModel model, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed * 31);
        final double[][] positions = {new double[DOF], RandomRobots.vector(rnd, DOF, 0.5), new double[DOF]};
        return new TrajectorySampler(model, new JointWaypoints(new double[] {0, 1.0, 2.0}, positions));
    }
}
