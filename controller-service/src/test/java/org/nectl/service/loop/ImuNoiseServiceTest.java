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
 * ({@code nectl sim --imu-noise}): the tracking RMS and the motor torque command against an ideal IMU.
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

    /** Worst joint's tracking RMS; per joint the command's RMS, its largest |value| and rate, and its difference to a reference run. */
    private record Run(double rms, double[] tau, double[][] tauSeries)
    {
    }

    @Test
    void measure()
    {
        final ServiceSettings carried = MixedElasticServiceTest.settings(MIXED_SHIP);
        final Run fixed = run(carried.withCarriedBase(false), null, 0, 0, 1);
        System.out.printf(Locale.ROOT, "fixed base: RMS %.3e%n", fixed.rms);
        final double[][] noises = {{0, 0}, {0.005, 0.0005}, {0.02, 0.002}};
        final String[] treatments = {"estimated 5 2", "estimated 5 5", "estimated 20 5", "estimated 5 10", "estimated 20 10",
            "estimated 10 10", "constant 0 10"};
        for (final String treatment : treatments)
        {
            final String[] t = treatment.split(" ");
            final CarriedBaseSettings base = carried.carriedBase().withRates(t[0].equals("constant") ? CarriedBaseSettings.Rates.CONSTANT
                : CarriedBaseSettings.Rates.ESTIMATED, Long.parseLong(t[1]) * 1_000_000L)
                .withAngularAccelerationFilter(Long.parseLong(t[2]) * 1_000_000L);
            final Run ideal = run(carried.withCarriedBase(base), SHIP, 0, 0, 1);
            for (final double[] noise : noises)
            {
                final Run r = noise[0] == 0 && noise[1] == 0 ? ideal : run(carried.withCarriedBase(base), SHIP, noise[0], noise[1], 1);
                report(treatment, noise, r, ideal, fixed);
            }
        }
    }

    private static void report(final String treatment, final double[] noise, final Run r, final Run ideal, final Run fixed)
    {
        final StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "%-13s noise %.4f/%.5f: RMS %.3e (%.2fx fixed)", treatment, noise[0], noise[1], r.rms,
            r.rms / fixed.rms));
        for (int j = 0; j < 3; j++)
        {
            double sum = 0;
            double peak = 0;
            double diffSum = 0;
            double diffPeak = 0;
            double rateSum = 0;
            double ratePeak = 0;
            final int n = r.tauSeries[j].length;
            for (int t = 0; t < n; t++)
            {
                final double v = r.tauSeries[j][t];
                sum += v * v;
                peak = Math.max(peak, Math.abs(v));
                final double d = v - ideal.tauSeries[j][t];
                diffSum += d * d;
                diffPeak = Math.max(diffPeak, Math.abs(d));
                if (t > 0)
                {
                    final double rate = (v - r.tauSeries[j][t - 1]) / PERIOD_S;
                    rateSum += rate * rate;
                    ratePeak = Math.max(ratePeak, Math.abs(rate));
                }
            }
            b.append(String.format(Locale.ROOT, " | j%d tau rms %.3f pk %.3f, -ideal rms %.2e pk %.2e, rate rms %.2f pk %.2f", j, Math.sqrt(sum / n),
                peak, Math.sqrt(diffSum / n), diffPeak, Math.sqrt(rateSum / (n - 1)), ratePeak));
        }
        System.out.println(b);
    }

    private static Run run(final ServiceSettings settings, final BaseMotionProfile deck, final double accelerometerNoise,
        final double gyroNoise, final long seed)
    {
        final SimulatedArmConfig config = new SimulatedArmConfig(settings.model()).periodNs(settings.cycle().periodNs())
            .initialQ(START).baseMotion(deck).noise(0.0, 0.0, seed);
        if (deck != null)
        {
            config.imuNoise(accelerometerNoise, gyroNoise);
        }
        final SimulatedArm arm = new SimulatedArm(settings.mixedLaw().model(), config);
        final JointTrajectory trajectory = JointTrajectory.fromPositions(new double[] {0.0, MOVE_S / 2, MOVE_S},
            new double[][] {START.clone(), OUT.clone(), START.clone()});
        final int end = SETTLE + TRACKED;
        try (ServiceRig rig = new ServiceRig(settings))
        {
            final SimulatedArmAdapter adapter = rig.adapter(arm, SimulationMode.LOCKSTEP);
            rig.trackInLockstep(arm, adapter, ControllerKind.MIXED_ELASTIC, trajectory, SETTLE, end);
            assertEquals(0, rig.service.loop().faults(), Faults.describe(rig.service.loop().faults()));
            assertTrue(rig.service.loop().mode() == ControllerMode.ENABLED || rig.service.loop().mode() == ControllerMode.TRACKING,
                "still controlling: " + rig.service.loop().mode());
            final List<TelemetryRecorder.Sample> samples = rig.telemetry.samples;
            double worst = 0.0;
            final double[][] tau = new double[3][TRACKED];
            for (int j = 0; j < 3; j++)
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
            return new Run(worst, null, tau);
        }
    }
}
