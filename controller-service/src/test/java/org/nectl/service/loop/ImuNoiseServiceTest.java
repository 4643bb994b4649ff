package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.transport.sbe.ControllerKind;

/**
 * The three-joint arm with an elastic joint under the mixed law on a ship's deck (roll 10 degrees at
 * 0.2 Hz, heave 0.5 m at 0.1 Hz), lockstep through the whole service, with a noisy IMU on its base
 * ({@code nectl sim --imu-noise}): the tracking RMS and the torque command against an ideal IMU's
 * (docs/CONTROL.md, "A noisy IMU"). The same for the Panda under computed torque as
 * {@link CarriedBaseServiceTest} runs it.
 */
class ImuNoiseServiceTest
{
    private static final ShipMotion SHIP = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
    private static final Path MIXED_SHIP = Path.of("../config/deploy/lockstep-mixed3-ship.yaml");
    private static final double[] START = {0.0, 0.0, -0.4363};
    private static final double[] OUT = {0.4, 0.3, -0.7363};
    private static final int SETTLE = 300;
    private static final double MOVE_S = 4.0;
    private static final int TRACKED = 4500;
    private static final double PERIOD_S = 1e-3;

    /** A typical industrial IMU at 1 kHz: accelerometer noise, m/s^2, and gyro noise, rad/s, per sample. */
    private static final double ACCELEROMETER_NOISE = 0.005;
    private static final double GYRO_NOISE = 0.0005;
    /** The angular acceleration's low-pass docs/CONTROL.md recommends for an adapter that differences its gyro, ns. */
    private static final long ANGULAR_ACCELERATION_FILTER_NS = 10_000_000L;
    /** The Panda's torque-rate limit (effort_rate), N m/s: what a real drive takes, as a yardstick. */
    private static final double DRIVE_RATE_LIMIT = 1000.0;

    /** The worst joint's tracking RMS, rad, and the commanded torque per joint and tick from the trajectory's start, N m. */
    private record Run(double rms, double[][] tau, long collisions)
    {
        /** @return the largest RMS over the joints of this command minus another run's, N m. */
        double noiseRms(final Run ideal)
        {
            double worst = 0.0;
            for (int j = 0; j < tau.length; j++)
            {
                double sum = 0.0;
                for (int t = 0; t < tau[j].length; t++)
                {
                    final double d = tau[j][t] - ideal.tau[j][t];
                    sum += d * d;
                }
                worst = Math.max(worst, Math.sqrt(sum / tau[j].length));
            }
            return worst;
        }

        /** @return the largest |tau(t) - tau(t - T)| / T over the joints and ticks, N m/s. */
        double peakRate()
        {
            double peak = 0.0;
            for (final double[] joint : tau)
            {
                for (int t = 1; t < joint.length; t++)
                {
                    peak = Math.max(peak, Math.abs(joint[t] - joint[t - 1]) / PERIOD_S);
                }
            }
            return peak;
        }
    }

    /**
     * With the angular acceleration differenced from a noisy gyro and taken as received, the noise
     * reaches every joint's command at the size of the command itself, changing at several times a
     * drive's torque-rate limit; through the angular acceleration's 10 ms low-pass the command's noise
     * stays below 0.1 N m and its rate below the limit, the tracking stays within 2e-5 rad, and no
     * fault is raised.
     */
    @Test
    void withANoisyImuTheFilteredAngularAccelerationKeepsTheCommandSmoothAndTrackingBounded()
    {
        final ServiceSettings carried = MixedElasticServiceTest.settings(MIXED_SHIP);
        final CarriedBaseSettings filtered = carried.carriedBase().withAngularAccelerationFilter(ANGULAR_ACCELERATION_FILTER_NS);
        final Run fixed = run(carried.withCarriedBase(false), null, 0.0, 0.0);
        final Run ideal = run(carried.withCarriedBase(filtered), SHIP, 0.0, 0.0);
        final Run unfiltered = run(carried, SHIP, ACCELEROMETER_NOISE, GYRO_NOISE);
        final Run noisy = run(carried.withCarriedBase(filtered), SHIP, ACCELEROMETER_NOISE, GYRO_NOISE);
        System.out.printf(Locale.ROOT, "mixed-elastic 3-joint arm on the deck, IMU noise %.3f m/s^2 / %.4f rad/s: worst joint tracking"
            + " RMS %.3e rad (fixed base %.3e); command noise RMS %.3f N m, peak rate %.0f N m/s as received; with a %d ms"
            + " angular acceleration low-pass %.3e rad (ideal IMU %.3e), %.3f N m, %.0f N m/s%n", ACCELEROMETER_NOISE, GYRO_NOISE,
            unfiltered.rms, fixed.rms, unfiltered.noiseRms(ideal), unfiltered.peakRate(), ANGULAR_ACCELERATION_FILTER_NS / 1_000_000,
            noisy.rms, ideal.rms, noisy.noiseRms(ideal), noisy.peakRate());
        assertTrue(unfiltered.noiseRms(ideal) > 0.5, "the gyro's difference reaches the command: " + unfiltered.noiseRms(ideal));
        assertTrue(unfiltered.peakRate() > 2.0 * DRIVE_RATE_LIMIT, "unfiltered command rate " + unfiltered.peakRate());
        assertTrue(noisy.noiseRms(ideal) < 0.1, "filtered command noise " + noisy.noiseRms(ideal) + " N m");
        assertTrue(noisy.peakRate() < DRIVE_RATE_LIMIT, "filtered command rate " + noisy.peakRate() + " N m/s");
        assertTrue(noisy.rms < 2e-5, "tracking RMS " + noisy.rms + " rad");
    }

    /**
     * The Panda under computed torque on the same deck, with the same IMU noise: taken as received, the
     * gyro's difference puts 0.69 N m RMS of noise on the worst joint's command and drives the command
     * into the torque limiter's 1000 N m/s rate clip on a fifth of all joint-ticks, the tracking 30 times
     * the fixed base's 1.4e-6 rad; through the 10 ms low-pass the noise is 0.106 N m, the command
     * changes at most 607 N m/s, the tracking is 2.9e-6 rad (an ideal IMU through the same low-pass
     * 2.2e-6 rad), and the observer detects no collision at the example thresholds. The bounds leave a
     * margin of about 1.5 over the seeded, deterministic measurement: 0.15 N m and 5e-6 rad; the rate
     * must stay below the clip, so the limiter never acts on the noise.
     */
    @Test
    void withANoisyImuTheFilteredAngularAccelerationKeepsThePandasCommandBelowItsRateLimit()
    {
        final CarriedBaseSettings carried = CarriedBaseServiceTest.pandaSettings(true, CarriedBaseServiceTest.THRESHOLD_NM).carriedBase();
        final CarriedBaseSettings filtered = carried.withAngularAccelerationFilter(ANGULAR_ACCELERATION_FILTER_NS);
        final Run ideal = pandaRun(filtered, SHIP, 0.0, 0.0);
        final Run unfiltered = pandaRun(carried, SHIP, ACCELEROMETER_NOISE, GYRO_NOISE);
        final Run noisy = pandaRun(filtered, SHIP, ACCELEROMETER_NOISE, GYRO_NOISE);
        System.out.printf(Locale.ROOT, "Panda, computed torque, on the deck, IMU noise %.3f m/s^2 / %.4f rad/s: worst joint tracking"
            + " RMS %.3e rad, command noise RMS %.3f N m, peak rate %.0f N m/s as received; with a %d ms angular acceleration"
            + " low-pass %.3e rad (ideal IMU %.3e), %.3f N m, %.0f N m/s; collisions %d%n", ACCELEROMETER_NOISE, GYRO_NOISE,
            unfiltered.rms, unfiltered.noiseRms(ideal), unfiltered.peakRate(), ANGULAR_ACCELERATION_FILTER_NS / 1_000_000, noisy.rms,
            ideal.rms, noisy.noiseRms(ideal), noisy.peakRate(), noisy.collisions);
        assertTrue(unfiltered.noiseRms(ideal) > 0.5, "the gyro's difference reaches the command: " + unfiltered.noiseRms(ideal));
        assertTrue(unfiltered.peakRate() > 0.99 * DRIVE_RATE_LIMIT, "unfiltered command rate " + unfiltered.peakRate());
        assertTrue(noisy.noiseRms(ideal) < 0.15, "filtered command noise " + noisy.noiseRms(ideal) + " N m");
        assertTrue(noisy.peakRate() < DRIVE_RATE_LIMIT, "filtered command rate " + noisy.peakRate() + " N m/s");
        assertTrue(noisy.rms < 5e-6, "tracking RMS " + noisy.rms + " rad");
        assertEquals(0, noisy.collisions, "no collision detected from the IMU's noise");
    }

    private static Run run(final ServiceSettings settings, final BaseMotionProfile deck, final double accelerometerNoise,
        final double gyroNoise)
    {
        final SimulatedArmConfig config = new SimulatedArmConfig(settings.model()).periodNs(settings.cycle().periodNs())
            .initialQ(START).baseMotion(deck);
        final SimulatedArm arm = new SimulatedArm(settings.mixedLaw().model(), noisy(config, deck, accelerometerNoise, gyroNoise));
        final JointTrajectory trajectory = JointTrajectory.fromPositions(new double[] {0.0, MOVE_S / 2, MOVE_S},
            new double[][] {START.clone(), OUT.clone(), START.clone()});
        return run(settings, arm, ControllerKind.MIXED_ELASTIC, trajectory);
    }

    /** The Panda as {@link CarriedBaseServiceTest} runs it, under computed torque, on a carried base with these settings. */
    private static Run pandaRun(final CarriedBaseSettings base, final BaseMotionProfile deck, final double accelerometerNoise,
        final double gyroNoise)
    {
        final ServiceSettings settings = CarriedBaseServiceTest.pandaSettings(false, CarriedBaseServiceTest.THRESHOLD_NM)
            .withCarriedBase(base);
        final SimulatedArm arm = new SimulatedArm(ServiceRig.PANDA, noisy(ServiceRig.armConfig().baseMotion(deck), deck,
            accelerometerNoise, gyroNoise));
        return run(settings, arm, ControllerKind.COMPUTED_TORQUE, CarriedBaseServiceTest.pandaMove());
    }

    private static SimulatedArmConfig noisy(final SimulatedArmConfig config, final BaseMotionProfile deck,
        final double accelerometerNoise, final double gyroNoise)
    {
        return deck == null ? config : config.imuNoise(accelerometerNoise, gyroNoise);
    }

    private static Run run(final ServiceSettings settings, final SimulatedArm arm, final ControllerKind controller,
        final JointTrajectory trajectory)
    {
        final int dof = arm.dof();
        final int end = SETTLE + TRACKED;
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, controller, trajectory, SETTLE, end);
            assertEquals(0, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            assertTrue(rig.service.loop().mode() == ControllerMode.ENABLED || rig.service.loop().mode() == ControllerMode.TRACKING,
                "still controlling: " + rig.service.loop().mode());
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            double worst = 0.0;
            final double[][] tau = new double[dof][TRACKED];
            for (int j = 0; j < dof; j++)
            {
                double sum = 0.0;
                for (int t = SETTLE; t < end; t++)
                {
                    final double e = samples.get(t).values().trackingError()[j];
                    sum += e * e;
                    tau[j][t - SETTLE] = samples.get(t).values().tauCommand()[j];
                }
                worst = Math.max(worst, Math.sqrt(sum / TRACKED));
            }
            return new Run(worst, tau, rig.telemetry.last().values().collisionCount());
        }
    }
}
