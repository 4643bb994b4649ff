package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.RestingMotorPositions;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.simulation.MixedArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;
import org.nectl.core.testing.UndampedElasticRobots;

/**
 * The control cycle running {@link ControlLaw#MIXED_ELASTIC} in lockstep with the in-process mixed
 * rigid/elastic arm: the measured motor state goes in by coordinate, the command is a motor torque
 * per joint.
 */
class MixedElasticCycleTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final long SEED = 3;
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final ShipMotion SHIP = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);

    /** A seeded random mixed robot, the cycle and its plant at rest with the springs holding the load. */
    private static final class Harness
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(SEED, true);
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int dof = model.dof();
        final MixedArmSimulator arm = new MixedArmSimulator(bodies, PERIOD_NS, 4);
        final ControlCycle cycle = new ControlCycle(model.links(), CycleSettings.defaults(dof, PERIOD_NS),
            SafetySettings.defaults(dof), ReferenceTimeScaling.Settings.defaults(), MixedLawSettings.defaults(model));
        final double[] theta = new double[model.elasticCount()];
        final double[] thetaDot = new double[model.elasticCount()];
        final BaseMotion base = new BaseMotion();
        final double[] block = new double[BaseMotion.BLOCK_LENGTH];
        final boolean moving;
        long timeNs;

        Harness()
        {
            this(null, false);
        }

        /**
         * @param deck the arm's base motion, or null for a fixed base.
         * @param carried true to declare the arm carried, so that the cycle takes the base's motion in.
         */
        Harness(final BaseMotionProfile deck, final boolean carried)
        {
            arm.reset(new double[dof], RestingMotorPositions.compute(bodies, new double[dof], GRAVITY), new double[dof],
                new double[model.elasticCount()]);
            arm.baseMotion(deck);
            moving = deck != null;
            cycle.carriedBase().settings(CarriedBaseSettings.defaults(carried, PERIOD_NS));
        }

        void step()
        {
            if (moving)
            {
                arm.baseMotionAt(timeNs * 1e-9, base);
                base.toBlock(block);
                cycle.carriedBase().measure(true, block);
            }
            arm.positions(cycle.measuredQ());
            arm.velocities(cycle.measuredQd());
            arm.motorPositions(theta);
            arm.motorVelocities(thetaDot);
            for (int e = 0; e < theta.length; e++)
            {
                cycle.measuredTheta()[model.coordinateOfElastic(e)] = theta[e];
                cycle.measuredThetaDot()[model.coordinateOfElastic(e)] = thetaDot[e];
            }
            cycle.tick(timeNs, true, 0L, false);
            if (cycle.drivesEnabled())
            {
                arm.command(cycle.tauCommand());
                arm.step();
            }
            timeNs += PERIOD_NS;
        }

        void run(final int ticks)
        {
            for (int i = 0; i < ticks; i++)
            {
                step();
            }
        }

        /** From rest at 0 out by {@code amplitude} (alternating signs) and back in {@code durationS}. */
        TrajectorySampler move(final double amplitude, final double durationS)
        {
            final double[][] positions = new double[3][dof];
            for (int k = 0; k < dof; k++)
            {
                positions[1][k] = amplitude * (k % 2 == 0 ? 1 : -1);
            }
            return new TrajectorySampler(model.links(), new JointWaypoints(new double[] {0, durationS / 2, durationS}, positions));
        }
    }

    @Test
    void mixedLawTracksATrajectoryOnAnArmWithElasticJoints()
    {
        final Harness h = new Harness();
        assertTrue(h.cycle.elastic());
        track(h);
        assertEquals(ControlLaw.MIXED_ELASTIC, h.cycle.law());
        final double[] rms = new double[h.dof];
        for (int k = 0; k < h.dof; k++)
        {
            rms[k] = h.cycle.trackingRms(k);
        }
        for (int k = 0; k < h.dof; k++)
        {
            // Exact model from rest in equilibrium; the law's error dynamics (Lambda_q = 20 1/s,
            // Lambda_theta = 10 1/s) and the 1 ms zero-order hold leave about a milliradian.
            assertTrue(rms[k] < 2e-3, "seed " + SEED + " joint " + k + " rms " + Arrays.toString(rms));
        }
    }

    /** Enables the mixed law, tracks 0.3 rad out and back in 4 s, and checks the cycle is still ENABLED without a fault. */
    private static void track(final Harness h)
    {
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.MIXED_ELASTIC));
        h.run(200);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(h.move(0.3, 4.0)), "seed " + SEED);
        h.run(4100);
        assertEquals(ControllerMode.ENABLED, h.cycle.mode(), "seed " + SEED + " faults: " + Faults.describe(h.cycle.faults()));
    }

    /** The worst joint's tracking RMS of {@link #track}. */
    private static double worstRms(final Harness h)
    {
        track(h);
        double worst = 0.0;
        for (int k = 0; k < h.dof; k++)
        {
            worst = Math.max(worst, h.cycle.trackingRms(k));
        }
        return worst;
    }

    /**
     * On a ship's deck (roll 10 degrees at 0.2 Hz, heave 0.5 m at 0.1 Hz) the mixed law with the
     * base's motion tracks within twice the fixed-base RMS; declared fixed, it does not.
     */
    @Test
    void onAShipsDeckTheCarriedMixedLawTracksWithinTwiceTheFixedBase()
    {
        final double fixed = worstRms(new Harness());
        final double compensated = worstRms(new Harness(SHIP, true));
        final double uncompensated = worstRms(new Harness(SHIP, false));
        System.out.printf("mixed law, random %d-joint robot (seed %d), 4 s move: worst tracking RMS %.3e rad fixed base, on a"
            + " ship's deck %.3e rad compensated (%.2fx), %.3e rad uncompensated (%.1fx)%n", new Harness().dof, SEED, fixed,
            compensated, compensated / fixed, uncompensated, uncompensated / fixed);
        assertTrue(compensated <= 2.0 * fixed, "compensated " + compensated + " rad, fixed " + fixed + " rad");
        assertTrue(uncompensated > 2.0 * fixed, "the deck disturbs an uncompensated arm: " + uncompensated + " rad");
    }

    @Test
    void aCarriedMixedTickAllocatesNothing()
    {
        assertCarriedTicksAllocateNothing(new Harness(SHIP, true), "");
    }

    @Test
    void aCarriedMixedTickWithTheAngularAccelerationFilteredAllocatesNothing()
    {
        final Harness h = new Harness(SHIP, true);
        h.cycle.carriedBase().settings(CarriedBaseSettings.defaults(true, PERIOD_NS).withAngularAccelerationFilter(10_000_000L));
        assertCarriedTicksAllocateNothing(h, ", angular acceleration low-passed");
    }

    /** Tracks a move on the carried base under the mixed law and counts the bytes 20000 ticks allocate. */
    private static void assertCarriedTicksAllocateNothing(final Harness h, final String what)
    {
        h.run(1);
        h.cycle.enable(ControlLaw.MIXED_ELASTIC);
        h.cycle.startTrajectory(h.move(0.05, 1000.0));
        final long bytes = AllocationMeter.bytesAllocated(h::step, 20_000, 20_000);
        assertEquals(0L, bytes, "bytes allocated over 20000 carried ticks" + what);
    }

    @Test
    void aNonFiniteMotorPositionFaultsTheCycle()
    {
        final Harness h = new Harness();
        h.run(1);
        h.cycle.enable(ControlLaw.MIXED_ELASTIC);
        h.run(10);
        h.arm.positions(h.cycle.measuredQ());
        h.cycle.measuredTheta()[h.model.coordinateOfElastic(0)] = Double.NaN;
        h.cycle.tick(h.timeNs, true, 0L, false);
        assertTrue((h.cycle.faults() & Faults.NON_FINITE_STATE) != 0, Faults.describe(h.cycle.faults()));
    }

    @Test
    void theMixedLawIsRefusedOnARigidRobot()
    {
        final ControlCycle cycle = new ControlCycle(RandomRobots.robot(SEED, 3, false, RandomRobots.Joints.REVOLUTE, false),
            CycleSettings.defaults(3, PERIOD_NS));
        assertEquals(false, cycle.elastic());
        assertEquals(ControlCycle.REJECTED_LAW, cycle.selectLaw(ControlLaw.MIXED_ELASTIC));
        cycle.tick(0L, true, 0L, false);
        assertEquals(ControlCycle.REJECTED_LAW, cycle.enable(ControlLaw.MIXED_ELASTIC));
        assertEquals(ControllerMode.IDLE, cycle.mode());
        assertEquals(ControlCycle.ACCEPTED, cycle.enable(ControlLaw.COMPUTED_TORQUE));
        assertEquals(ControlCycle.REJECTED_LAW, cycle.hold(ControlLaw.MIXED_ELASTIC));
        assertEquals(ControlLaw.COMPUTED_TORQUE, cycle.law());
    }

    @Test
    void aMixedTickAllocatesNothing()
    {
        final Harness h = new Harness();
        h.run(1);
        h.cycle.enable(ControlLaw.MIXED_ELASTIC);
        h.cycle.startTrajectory(h.move(0.05, 1000.0));
        final long bytes = AllocationMeter.bytesAllocated(h::step, 20_000, 50_000);
        assertEquals(0L, bytes, "bytes allocated over 50000 ticks");
    }
}
