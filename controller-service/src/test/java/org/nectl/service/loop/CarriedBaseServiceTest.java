package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.mobile.PlatformMotion;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerKind;

/**
 * The Panda on a ship's deck (roll 10 degrees at 0.2 Hz, heave 0.5 m at 0.1 Hz), lockstep through
 * the whole service: the same move tracked on a fixed base, on the deck with the base's motion in
 * the feedforward and the momentum observer (a carried deployment), and on the deck without (a
 * fixed-base deployment). With the compensation, tracking stays within twice the fixed-base RMS and
 * the observer, watching for collisions at the shipped example thresholds, detects none. The same
 * for the three-joint arm with an elastic joint under the mixed rigid/elastic law
 * (config/deploy/lockstep-mixed3-ship.yaml), which has no momentum observer.
 */
class CarriedBaseServiceTest
{
    private static final int DOF = 7;
    private static final ShipMotion SHIP = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
    /** docs/DEPLOYMENT.md's example collision thresholds, N m. */
    static final double[] THRESHOLD_NM = {6, 6, 6, 6, 3, 3, 3};
    private static final int SETTLE = 300;
    /** Steps from ENABLE to the move for an arm switched on away from its springs' equilibrium. */
    private static final int SETTLED = 3000;
    private static final double MOVE_S = 4.0;
    /** Steps over which the tracking RMS is taken, from the trajectory's start. */
    private static final int TRACKED = 4500;
    /** Time into the deck's motion at which it is at its 10 degree roll: the time the simulation starts there. */
    private static final double ROLLED_S = 1.25;
    private static Run fixedBaseRun;
    private static final Path MIXED_SHIP = Path.of("../config/deploy/lockstep-mixed3-ship.yaml");
    /** The mixed arm's start, as in {@link MixedElasticServiceTest}: the spring holding the load, rad. */
    private static final double[] MIXED_START = {0.0, 0.0, -0.4363};
    private static final double[] MIXED_OUT = {0.4, 0.3, -0.7363};

    @Test
    void onAShipsDeckCompensatedTrackingStaysWithinTwiceTheFixedBaseAndNoCollisionIsDetected()
    {
        final Run fixed = fixedBase();
        final Run compensated = run(SHIP, true, THRESHOLD_NM);
        final double[] unmonitored = new double[DOF];
        Arrays.fill(unmonitored, Double.POSITIVE_INFINITY);
        final Run uncompensated = run(SHIP, false, unmonitored);
        System.out.printf(Locale.ROOT, "Panda, %.0f s out-and-back move, lockstep: worst joint tracking RMS %.3e rad on a fixed base;"
            + " on a deck rolling 10 deg at 0.2 Hz and heaving 0.5 m at 0.1 Hz %.3e rad with the base motion compensated (%.2fx),"
            + " %.3e rad without (%.1fx); largest |tau_ext| %.2e / %.2e / %.2e N m (joint %d of 0-6 without compensation);"
            + " collisions %d / %d%n", MOVE_S, fixed.rms,
            compensated.rms, compensated.rms / fixed.rms, uncompensated.rms, uncompensated.rms / fixed.rms, fixed.largestExternal,
            compensated.largestExternal, uncompensated.largestExternal, uncompensated.largestExternalJoint, fixed.collisions,
            compensated.collisions);
        assertTrue(compensated.rms <= 2.0 * fixed.rms, "compensated RMS " + compensated.rms + " rad, fixed " + fixed.rms + " rad");
        assertTrue(uncompensated.rms > 2.0 * fixed.rms, "the deck's motion disturbs an uncompensated arm: " + uncompensated.rms + " rad");
        assertEquals(0, fixed.collisions, "no collision on a fixed base");
        assertEquals(0, compensated.collisions, "no collision detected from the deck's motion");
        assertTrue(uncompensated.largestExternal > 100.0 * compensated.largestExternal,
            "without compensation the observer takes the deck's motion for an external torque: " + uncompensated.largestExternal
                + " N m, with " + compensated.largestExternal + " N m");
    }

    /**
     * A platform accelerating at 2 m/s^2 to 1 m/s, cruising 1 s, braking at 3 m/s^2, standing 1 s, and
     * back: with its acceleration ramped at 10 m/s^3 (0.2 s and 0.3 s ramps) and, for comparison, stepping.
     */
    @Test
    void onAnAcceleratingAndBrakingPlatformCompensatedTrackingStaysWithinTwiceTheFixedBase()
    {
        final PlatformMotion ramped = new PlatformMotion(2.0, 3.0, 1.0, 1.0, 10.0);
        final PlatformMotion stepping = new PlatformMotion(2.0, 3.0, 1.0, 1.0, Double.POSITIVE_INFINITY);
        final Run fixed = fixedBase();
        final Run compensated = run(ramped, true, THRESHOLD_NM);
        final double[] unmonitored = new double[DOF];
        Arrays.fill(unmonitored, Double.POSITIVE_INFINITY);
        final Run uncompensated = run(ramped, false, unmonitored);
        final Run steps = run(stepping, true, THRESHOLD_NM);
        System.out.printf(Locale.ROOT, "Panda, %.0f s out-and-back move, lockstep, on a platform accelerating at 2 m/s^2 and braking"
            + " at 3 m/s^2 at jerk 10 m/s^3: worst joint tracking RMS %.3e rad compensated (%.2fx fixed), %.3e rad without (%.1fx);"
            + " largest |tau_ext| %.2e / %.2e N m (joint %d of 0-6 without), collisions %d; the same platform with stepping"
            + " acceleration, compensated: %.3e rad (%.1fx), largest |tau_ext| %.2e N m, collisions %d%n", MOVE_S, compensated.rms,
            compensated.rms / fixed.rms, uncompensated.rms, uncompensated.rms / fixed.rms, compensated.largestExternal,
            uncompensated.largestExternal, uncompensated.largestExternalJoint, compensated.collisions, steps.rms,
            steps.rms / fixed.rms, steps.largestExternal, steps.collisions);
        assertTrue(compensated.rms <= 2.0 * fixed.rms, "compensated RMS " + compensated.rms + " rad, fixed " + fixed.rms + " rad");
        assertTrue(uncompensated.rms > 2.0 * fixed.rms, "the platform disturbs an uncompensated arm: " + uncompensated.rms + " rad");
        assertEquals(0, compensated.collisions, "no collision detected from the platform's motion");
        assertTrue(steps.rms < uncompensated.rms / 10.0, "steps compensated a sample late still mostly compensated: " + steps.rms);
    }

    /**
     * The three-joint arm with an elastic joint under the mixed law on the same deck and move shape:
     * with the base's motion in its link-side torques and motor reference it tracks within twice the
     * fixed-base RMS, with no fault in any run.
     */
    @Test
    void onAShipsDeckTheMixedElasticArmTracksWithinTwiceTheFixedBase()
    {
        final ServiceSettings carried = MixedElasticServiceTest.settings(MIXED_SHIP);
        assertTrue(carried.carriedBase().carried(), MIXED_SHIP + " declares the base carried");
        final Run fixed = mixedRun(carried.withCarriedBase(false), null, SETTLE);
        final Run compensated = mixedRun(carried, SHIP, SETTLE);
        final Run uncompensated = mixedRun(carried.withCarriedBase(false), SHIP, SETTLE);
        System.out.printf(Locale.ROOT, "mixed-elastic 3-joint arm, %.0f s out-and-back move, lockstep, mixed law: worst joint"
            + " tracking RMS %.3e rad on a fixed base; on a deck rolling 10 deg at 0.2 Hz and heaving 0.5 m at 0.1 Hz %.3e rad"
            + " with the base motion compensated (%.2fx), %.3e rad without (%.1fx)%n", MOVE_S, fixed.rms, compensated.rms,
            compensated.rms / fixed.rms, uncompensated.rms, uncompensated.rms / fixed.rms);
        assertTrue(compensated.rms <= 2.0 * fixed.rms, "compensated RMS " + compensated.rms + " rad, fixed " + fixed.rms + " rad");
        assertTrue(uncompensated.rms > 2.0 * fixed.rms, "the deck's motion disturbs an uncompensated arm: " + uncompensated.rms);
    }

    /**
     * The same arm switched on while the deck is rolled 10 degrees: until ENABLE the brakes hold links
     * and motors as the simulation set them, the springs carrying a level deck's load, so at ENABLE the
     * links move until the springs carry the deck's. The move sent 0.3 s after ENABLE tracks worse than
     * on a fixed base while that transient decays; sent 3 s after, it tracks within twice the
     * fixed-base RMS.
     */
    @Test
    void switchedOnOnARolledDeckTheMixedElasticArmTracksWithinTwiceTheFixedBaseOnceSettled()
    {
        final ServiceSettings carried = MixedElasticServiceTest.settings(MIXED_SHIP);
        final BaseMotionProfile rolled = (timeS, gravity, out) -> SHIP.at(timeS + ROLLED_S, gravity, out);
        final Run fixed = mixedRun(carried.withCarriedBase(false), null, SETTLED);
        final Run early = mixedRun(carried, rolled, SETTLE);
        final Run settled = mixedRun(carried, rolled, SETTLED);
        System.out.printf(Locale.ROOT, "mixed-elastic 3-joint arm switched on at 10 deg of roll, lockstep, mixed law: worst joint"
            + " tracking RMS %.3e rad with the move %.1f s after ENABLE (%.2fx the fixed base's %.3e rad), %.3e rad with it %.1f s"
            + " after (%.2fx)%n", early.rms, SETTLE / 1000.0, early.rms / fixed.rms, fixed.rms, settled.rms, SETTLED / 1000.0,
            settled.rms / fixed.rms);
        assertTrue(settled.rms <= 2.0 * fixed.rms, "settled RMS " + settled.rms + " rad, fixed " + fixed.rms + " rad");
    }

    private static Run mixedRun(final ServiceSettings settings, final BaseMotionProfile deck, final int settleSteps)
    {
        final SimulatedArm arm = new SimulatedArm(settings.mixedLaw().model(), new SimulatedArmConfig(settings.model())
            .periodNs(settings.cycle().periodNs()).initialQ(MIXED_START).baseMotion(deck));
        return run(settings, arm, ControllerKind.MIXED_ELASTIC, JointTrajectory.fromPositions(new double[] {0.0, MOVE_S / 2, MOVE_S},
            new double[][] {MIXED_START.clone(), MIXED_OUT.clone(), MIXED_START.clone()}), settleSteps);
    }

    /** The fixed-base run, the same for every test (lockstep is deterministic), computed once. */
    private static synchronized Run fixedBase()
    {
        if (fixedBaseRun == null)
        {
            fixedBaseRun = run(null, false, THRESHOLD_NM);
        }
        return fixedBaseRun;
    }

    private record Run(double rms, double largestExternal, int largestExternalJoint, long collisions)
    {
    }

    private static Run run(final BaseMotionProfile deck, final boolean carried, final double[] thresholdNm)
    {
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, ServiceRig.armConfig().baseMotion(deck));
        return run(pandaSettings(carried, thresholdNm), arm, ControllerKind.COMPUTED_TORQUE, pandaMove(), SETTLE);
    }

    /** @return the Panda's lockstep service settings, on a carried base or not, its observer stopping at these thresholds, N m. */
    static ServiceSettings pandaSettings(final boolean carried, final double[] thresholdNm)
    {
        final ServiceSettings held = ServiceRig.heldLockstepSettings();
        final CollisionSettings defaults = held.collision();
        return held.withCarriedBase(carried).withCollision(new CollisionSettings(defaults.observerGain(),
            defaults.modelFriction(), thresholdNm, CollisionSettings.Reaction.STOP, 0.0));
    }

    /** @return the Panda's out-and-back move from the ready pose: even joints +0.4 rad, odd -0.3 rad, and back. */
    static JointTrajectory pandaMove()
    {
        final double[] out = ServiceRig.READY.clone();
        for (int j = 0; j < DOF; j++)
        {
            out[j] += j % 2 == 0 ? 0.4 : -0.3;
        }
        return JointTrajectory.fromPositions(new double[] {0.0, MOVE_S / 2, MOVE_S},
            new double[][] {ServiceRig.READY.clone(), out, ServiceRig.READY.clone()});
    }

    /**
     * One lockstep run of the whole service: enabled with the controller, the trajectory sent after
     * {@code settleSteps} steps, run {@link #TRACKED} steps more; no fault, still controlling at the end.
     *
     * @return the worst joint's tracking RMS from the trajectory's start on, the largest external torque the
     *     observer reported (0 without one), and the collisions it detected.
     */
    private static Run run(final ServiceSettings settings, final SimulatedArm arm, final ControllerKind controller,
        final JointTrajectory trajectory, final int settleSteps)
    {
        final int dof = arm.dof();
        final int end = settleSteps + TRACKED;
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, controller, trajectory, settleSteps, end);
            assertEquals(0, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            assertTrue(rig.service.loop().mode() == ControllerMode.ENABLED || rig.service.loop().mode() == ControllerMode.TRACKING,
                "still controlling: " + rig.service.loop().mode());
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            double worst = 0.0;
            double largestExternal = 0.0;
            int largestExternalJoint = 0;
            for (int j = 0; j < dof; j++)
            {
                double sum = 0.0;
                for (int t = settleSteps; t < end; t++)
                {
                    final double e = samples.get(t).values().trackingError()[j];
                    sum += e * e;
                    final double external = Math.abs(samples.get(t).values().externalTorque()[j]);
                    if (external > largestExternal)
                    {
                        largestExternal = external;
                        largestExternalJoint = j;
                    }
                }
                worst = Math.max(worst, Math.sqrt(sum / TRACKED));
            }
            return new Run(worst, largestExternal, largestExternalJoint, rig.telemetry.last().values().collisionCount());
        }
    }
}
