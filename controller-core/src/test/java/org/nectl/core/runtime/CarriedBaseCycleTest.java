package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.identification.Payloads;
import org.nectl.core.mobile.CarriedBaseInverseDynamics;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/** The control cycle of a carried arm in lockstep with the simulator on a ship's deck. */
class CarriedBaseCycleTest
{
    private static final long SEED = 17;
    private static final ShipMotion SHIP = new ShipMotion(Math.toRadians(10), 0.2, Math.toRadians(3), 0.15, 0.5, 0.1);
    private static final CarriedBaseSettings CARRIED = CarriedBaseSettings.defaults(true, CycleHarness.PERIOD_NS);

    private final CycleHarness h = new CycleHarness(RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false));
    private final BaseMotion motion = new BaseMotion();
    private final double[] block = new double[BaseMotion.BLOCK_LENGTH];

    /** One period with the arm's base on the deck and its IMU block (possibly spoilt) fed to the cycle first. */
    private void step(final boolean present, final double spoil)
    {
        h.arm.baseMotionAt(h.timeNs * 1e-9, motion);
        motion.toBlock(block);
        block[0] *= spoil;
        h.cycle.carriedBase().measure(present, block);
        h.step(true, 0L);
    }

    private void start()
    {
        h.arm.baseMotion(SHIP);
        h.cycle.carriedBase().settings(CARRIED);
        step(true, 1.0);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(h.move(0.5, 4.0)));
    }

    @Test
    void aCarriedTickAllocatesNothing()
    {
        start();
        // fewer ticks than ControlCycleTest's: the carried simulator's Cholesky forward dynamics is the cost here
        final long bytes = AllocationMeter.bytesAllocated(() -> step(true, 1.0), 15_000, 10_000);
        assertEquals(0L, bytes, "bytes allocated over 10000 carried ticks");
    }

    @Test
    void spoiltOrMissingBaseBlocksWithinTheMaximumAgeAreCountedAndTheLastValidOneIsUsed()
    {
        start();
        for (int t = 0; t < 500; t++)
        {
            step(true, 1.0);
        }
        final double rmsBefore = worstRms();
        for (int t = 0; t < 30; t++)
        {
            // three bad blocks in a row: the held one grows 4 periods old, within the default 5
            step(true, Double.NaN);
            step(true, 1.01);
            step(false, 1.0);
            step(true, 1.0);
        }
        assertEquals(60, h.cycle.carriedBase().rejectedCount(), "non-finite and non-unit blocks refused");
        assertEquals(30, h.cycle.carriedBase().missingCount());
        assertEquals(531, h.cycle.carriedBase().acceptedCount());
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        assertEquals(ControllerMode.TRACKING, h.cycle.mode());
        for (int t = 0; t < 3600; t++)
        {
            step(true, 1.0);
        }
        assertEquals(ControllerMode.ENABLED, h.cycle.mode(), Faults.describe(h.cycle.faults()));
        assertTrue(worstRms() < 1e-3, "tracking RMS " + worstRms() + " rad (" + rmsBefore + " after 0.5 s)");
    }

    @Test
    void afterAModelChangeTheBaseTorqueIsThatOfTheNewModel()
    {
        final RobotModel loaded = Payloads.withPayload(h.model, h.model.bodyCount() - 1,
            InertialParameters.ofCentreOfMass(3.0, new double[] {0.1, 0.0, 0.05}, new double[9]));
        h.arm.baseMotion(SHIP);
        h.cycle.carriedBase().settings(CARRIED);
        step(true, 1.0);
        // drives off: the new model takes over at the next tick
        assertEquals(ControlCycle.ACCEPTED, h.cycle.changeModel(h.cycle.prepareModel(loaded), 1_000_000L));
        step(true, 1.0);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        for (int t = 0; t < 700; t++)
        {
            step(true, 1.0);
        }
        final double[] q = h.cycle.measuredQ();
        final double[] qd = h.cycle.measuredQd();
        final CompiledModel model = CompiledModel.of(loaded);
        final CarriedBaseInverseDynamics carried = new CarriedBaseInverseDynamics(model);
        carried.jointFriction(false);
        final InverseDynamics fixed = new InverseDynamics(model);
        fixed.jointFriction(false);
        final double[] expected = new double[7];
        final double[] fixedTorque = new double[7];
        carried.compute(q, qd, new double[7], h.cycle.carriedBase().baseMotion(), expected);
        fixed.compute(q, qd, new double[7], fixedTorque);
        double largest = 0.0;
        for (int j = 0; j < 7; j++)
        {
            expected[j] -= fixedTorque[j];
            largest = Math.max(largest, Math.abs(expected[j]));
            assertEquals(expected[j], h.cycle.carriedBase().baseTorque()[j], 1e-12 * Math.max(1.0, Math.abs(expected[j])), "joint " + j);
        }
        assertTrue(largest > 0.1, "the deck's torques at 0.7 s: " + largest + " N m");
    }

    @Test
    void aBaseMotionOlderThanItsMaximumAgeStopsTheArmWithItsCategory()
    {
        start();
        for (int t = 0; t < 300; t++)
        {
            step(true, 1.0);
        }
        final long lastValidNs = h.timeNs - CycleHarness.PERIOD_NS;
        for (int t = 1; t <= CarriedBaseSettings.DEFAULT_MAX_AGE_PERIODS; t++)
        {
            step(t % 2 == 0, Double.NaN);
            assertEquals(0, h.cycle.faults(), "block " + t + " periods old: " + Faults.describe(h.cycle.faults()));
        }
        step(false, 1.0);
        assertEquals(Faults.BASE_MOTION_LOST, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        assertEquals(ControllerMode.STOPPING, h.cycle.mode(), "category 1 by default: a controlled stop on the trusted joint state");
        assertEquals(6 * CycleHarness.PERIOD_NS, h.timeNs - CycleHarness.PERIOD_NS - lastValidNs,
            "the first tick with the held block more than 5 ms old");
        for (int t = 0; t < 1500 && h.cycle.mode() == ControllerMode.STOPPING; t++)
        {
            step(false, 1.0);
        }
        assertEquals(ControllerMode.FAULT, h.cycle.mode(), "stopped, then braked: " + Faults.describe(h.cycle.faults()));
        assertEquals(Faults.BASE_MOTION_LOST, h.cycle.faults(), "no other fault on the way: " + Faults.describe(h.cycle.faults()));
    }

    @Test
    void aCarriedArmDoesNotEnableWithoutABaseMotionWithinItsMaximumAge()
    {
        h.arm.baseMotion(SHIP);
        h.cycle.carriedBase().settings(CARRIED);
        step(false, 1.0);
        step(true, Double.NaN);
        assertEquals(ControlCycle.REJECTED_NO_STATE, h.cycle.enable(ControlLaw.COMPUTED_TORQUE), "no valid block yet");
        step(true, 1.0);
        for (int t = 0; t < CarriedBaseSettings.DEFAULT_MAX_AGE_PERIODS + 1; t++)
        {
            step(false, 1.0);
        }
        assertEquals(0, h.cycle.faults(), "the drives are off: a stale block is no fault, " + Faults.describe(h.cycle.faults()));
        assertEquals(ControlCycle.REJECTED_NO_STATE, h.cycle.enable(ControlLaw.COMPUTED_TORQUE), "the held block is 6 ms old");
        h.cycle.carriedBase().measure(true, validBlockNow());
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE), "a valid block taken since the last tick");
        assertEquals(ControllerMode.ENABLED, h.cycle.mode());
    }

    @Test
    void aFixedDeploymentEnablesWithoutBaseBlocks()
    {
        h.cycle.carriedBase().settings(CarriedBaseSettings.defaults(false, CycleHarness.PERIOD_NS));
        step(false, 1.0);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(20);
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
    }

    private double[] validBlockNow()
    {
        h.arm.baseMotionAt(h.timeNs * 1e-9, motion);
        motion.toBlock(block);
        return block;
    }

    /**
     * The published feedforward of a carried arm is the fixed base's along the reference, bit for bit:
     * a fixed-base cycle fed the same measured states computes the same tau_ff and its rate, and the
     * carried law's command exceeds the fixed one's by tau_base exactly.
     */
    @Test
    void theFeedforwardIsTheFixedBasesAlongTheReferenceAndTheLawAddsTheBaseTorque()
    {
        final ControlCycle fixed = new ControlCycle(h.model, CycleSettings.defaults(7, CycleHarness.PERIOD_NS),
            SafetySettings.defaults(7));
        h.arm.baseMotion(SHIP);
        h.cycle.carriedBase().settings(CARRIED);
        stepBoth(fixed);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        assertEquals(ControlCycle.ACCEPTED, fixed.enable(ControlLaw.COMPUTED_TORQUE));
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(h.move(0.5, 2.0)));
        assertEquals(ControlCycle.ACCEPTED, fixed.startTrajectory(h.move(0.5, 2.0)));
        double largestFeedforward = 0.0;
        double largestBase = 0.0;
        double worstDifference = 0.0;
        for (int t = 0; t < 2000; t++)
        {
            stepBoth(fixed);
            assertArrayEquals(fixed.tauFeedforward(), h.cycle.tauFeedforward(), "tau_ff at tick " + t);
            assertArrayEquals(fixed.tauFeedforwardRate(), h.cycle.tauFeedforwardRate(), "its rate at tick " + t);
            for (int j = 0; j < 7; j++)
            {
                final double base = h.cycle.carriedBase().baseTorque()[j];
                final double difference = h.cycle.tauLaw()[j] - fixed.tauLaw()[j] - base;
                worstDifference = Math.max(worstDifference, Math.abs(difference) / Math.max(1.0, Math.abs(h.cycle.tauLaw()[j])));
                largestFeedforward = Math.max(largestFeedforward, Math.abs(h.cycle.tauFeedforward()[j]));
                largestBase = Math.max(largestBase, Math.abs(base));
            }
        }
        System.out.printf(Locale.ROOT, "carried arm on the deck, 2000 ticks: tau_ff equal to the fixed base's, largest |tau_ff| %.3f N m;"
            + " tauLaw - fixed tauLaw - tau_base at most %.1e (relative), largest |tau_base| %.3f N m%n", largestFeedforward,
            worstDifference, largestBase);
        assertTrue(worstDifference <= 1e-12, "the carried command is the fixed one plus tau_base: " + worstDifference);
        assertTrue(largestBase > 0.1, "the deck's torques are not negligible: " + largestBase + " N m");
        assertTrue(largestFeedforward > 0.1, "a moving reference has a feedforward: " + largestFeedforward + " N m");
        assertEquals(ControllerMode.TRACKING, fixed.mode(), Faults.describe(fixed.faults()));
    }

    /** One period of the carried harness, and the fixed-base cycle ticked on the same measured state at the same time. */
    private void stepBoth(final ControlCycle fixed)
    {
        final long timeNs = h.timeNs;
        step(true, 1.0);
        System.arraycopy(h.cycle.measuredQ(), 0, fixed.measuredQ(), 0, 7);
        System.arraycopy(h.cycle.measuredQd(), 0, fixed.measuredQd(), 0, 7);
        fixed.tick(timeNs, true, 0L, false);
    }

    /**
     * Enabled at the deck's largest roll (10 degrees at 1.25 s), the arm starts its torque-rate window
     * at the holding torque with tau_base, so the first powered tick needs no rate clip: from the
     * fixed-base holding torque it would have to ramp the rotated gravity in at 1000 N m/s.
     */
    @Test
    void enabledOnARolledDeckTheTorqueRateWindowStartsAtTheCarriedHoldingTorque()
    {
        final CycleHarness limited = new CycleHarness(RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false,
            new JointLimits(-10.0, 10.0, 100.0, 1e4, 1000.0)));
        limited.arm.baseMotion(SHIP);
        limited.cycle.carriedBase().settings(CARRIED);
        for (int t = 0; t <= 1250; t++)
        {
            limited.arm.baseMotionAt(limited.timeNs * 1e-9, motion);
            motion.toBlock(block);
            limited.cycle.carriedBase().measure(true, block);
            if (t == 1250)
            {
                assertEquals(ControlCycle.ACCEPTED, limited.cycle.enable(ControlLaw.COMPUTED_TORQUE));
            }
            limited.step(true, 0L);
        }
        double largestBase = 0.0;
        for (final double tau : limited.cycle.carriedBase().baseTorque())
        {
            largestBase = Math.max(largestBase, Math.abs(tau));
        }
        System.out.printf(Locale.ROOT, "enabled on the deck rolled 10 deg: largest |tau_base| %.3f N m, limiter flags %d%n", largestBase,
            limited.cycle.limiterFlags());
        assertTrue(largestBase > 2.0, "the rolled deck's torque at the enable, beyond one tick of the rate window: " + largestBase);
        assertEquals(0L, limited.cycle.limiterFlags(), "no clip at the first powered tick");
        assertArrayEquals(limited.cycle.tauLaw(), limited.cycle.tauCommand());
    }

    @Test
    void aFixedDeploymentIgnoresBaseBlocks()
    {
        h.arm.baseMotion(SHIP);
        for (int t = 0; t < 10; t++)
        {
            step(true, Double.NaN);
        }
        assertEquals(0, h.cycle.carriedBase().acceptedCount() + h.cycle.carriedBase().rejectedCount());
        assertEquals(10, h.cycle.carriedBase().ignoredCount(), "counted as ignored, for the end-of-run summary");
    }

    private double worstRms()
    {
        double worst = 0.0;
        for (int j = 0; j < 7; j++)
        {
            worst = Math.max(worst, h.cycle.trackingRms(j));
        }
        return worst;
    }
}
