package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.JointStateStatusDecoder;

class SimulatedArmTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final long SEED = 42;
    /** A 4-joint revolute chain without friction or rotor inertia. */
    private static final RobotModel MODEL = RandomRobots.robot(SEED, 4, false, RandomRobots.Joints.REVOLUTE, false);

    @Test
    void aCommandActsExactlyLatencyPeriodsAfterItArrives()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config().gravity(0, 0, 0).latencyPeriods(3));
        final double[] tau = {1.0, -2.0, 0.5, 0.3};
        arm.command(tau, DriveMode.TORQUE, true);
        final double[] qd = new double[4];
        for (int period = 1; period <= 3; period++)
        {
            arm.step();
            arm.trueVelocities(qd);
            assertArrayEquals(new double[4], qd, 0.0, "period " + period + ": still braked, the command is in transit");
        }
        arm.step();
        final ArmSimulator reference = new ArmSimulator(MODEL, PERIOD_NS, 4);
        reference.gravity(0, 0, 0);
        reference.torque(tau);
        reference.step();
        final double[] expected = new double[4];
        reference.velocities(expected);
        arm.trueVelocities(qd);
        assertArrayEquals(expected, qd, 0.0, "period 4: the command acts, exactly as one period of the simulator");
        assertTrue(Arrays.stream(qd).anyMatch(v -> v != 0.0));
    }

    @Test
    void drivesClampTorquesToTheirLimitsAndCountTheSaturatedPeriods()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config().torqueLimitNm(1.0, 2.0, 3.0, 4.0));
        arm.command(new double[] {5.0, -0.5, -7.0, 4.0}, DriveMode.TORQUE, true);
        arm.step();
        final double[] applied = new double[4];
        arm.appliedTorques(applied);
        assertArrayEquals(new double[] {1.0, -0.5, -3.0, 4.0}, applied, 0.0);
        arm.step();
        assertEquals(2, arm.saturationCount());
    }

    @Test
    void aNonFiniteTorqueIsRefusedByTheDrive()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config());
        arm.command(new double[] {1.0, Double.NaN, 1.0, Double.POSITIVE_INFINITY}, DriveMode.TORQUE, true);
        assertEquals(ArmSimulator.STEP_OK, arm.step());
        final double[] applied = new double[4];
        arm.appliedTorques(applied);
        assertArrayEquals(new double[] {1.0, 0.0, 1.0, 0.0}, applied, 0.0);
        assertEquals(1, arm.refusedCommandCount());
    }

    @Test
    void disabledOrBrakedDrivesHoldTheArmWhileZeroTorqueLetsItFall()
    {
        final double[] q0 = {0.3, -0.4, 0.5, 0.1};
        for (final DriveMode mode : DriveMode.values())
        {
            if (mode == DriveMode.NULL_VAL)
            {
                continue;
            }
            for (final boolean enable : new boolean[] {false, true})
            {
                final SimulatedArm arm = new SimulatedArm(MODEL, config().initialQ(q0));
                arm.command(new double[] {1.0, 1.0, 1.0, 1.0}, mode, enable);
                for (int i = 0; i < 10; i++)
                {
                    arm.step();
                }
                final double[] q = new double[4];
                arm.truePositions(q);
                final boolean held = !enable || mode == DriveMode.BRAKE;
                assertEquals(held, Arrays.equals(q0, q), mode + ", enable " + enable + ": " + Arrays.toString(q));
                final JointStateSample sample = new JointStateSample(4);
                arm.sample(sample);
                assertEquals(!held, JointStateStatusDecoder.drivesEnabled(sample.statusBits()), mode + ", enable " + enable);
            }
        }
    }

    @Test
    void aTrippedWatchdogZeroesTheTorqueAtOnceDespiteLatency()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config().gravity(0, 0, 0).latencyPeriods(2));
        arm.command(new double[] {1.0, 1.0, 1.0, 1.0}, DriveMode.TORQUE, true);
        for (int i = 0; i < 4; i++)
        {
            arm.step();
        }
        final double[] applied = new double[4];
        arm.appliedTorques(applied);
        assertArrayEquals(new double[] {1.0, 1.0, 1.0, 1.0}, applied, 0.0);
        arm.watchdogTripped(true);
        arm.step();
        arm.appliedTorques(applied);
        assertArrayEquals(new double[4], applied, 0.0);
        final JointStateSample sample = new JointStateSample(4);
        arm.sample(sample);
        assertTrue(JointStateStatusDecoder.watchdogTripped(sample.statusBits()));
        assertFalse(JointStateStatusDecoder.drivesEnabled(sample.statusBits()));
        assertTrue(JointStateStatusDecoder.simulated(sample.statusBits()));
    }

    /** Positions are whole counts of 2 pi / 4096 rad, within half a count of the truth. */
    @Test
    void encodersReportWholeCounts()
    {
        final double resolution = 2.0 * Math.PI / 4096;
        final double[] q0 = RandomRobots.vector(new SplittableRandom(SEED), 4, Math.PI);
        final SimulatedArm arm = new SimulatedArm(MODEL, config().countsPerRevolution(4096).initialQ(q0));
        final JointStateSample sample = new JointStateSample(4);
        arm.sample(sample);
        for (int k = 0; k < 4; k++)
        {
            final double counts = sample.q()[k] / resolution;
            assertEquals(Math.rint(counts), counts, 1e-9, "joint " + k);
            assertTrue(Math.abs(sample.q()[k] - q0[k]) <= 0.5 * resolution + 1e-15, "joint " + k);
        }
    }

    /**
     * Over n = 20000 samples of a braked arm the noise has mean 0 within 4 standard errors
     * (sigma / sqrt(n)) and a standard deviation within 5 % of sigma (its standard error is
     * sigma / sqrt(2 n) = 0.5 %); the same seed repeats the sequence, another seed does not.
     */
    @Test
    void seededGaussianNoiseHasTheConfiguredSpreadAndRepeatsWithTheSeed()
    {
        final int n = 20_000;
        final double sigmaQ = 1e-3;
        final double sigmaQd = 1e-2;
        final double[][] first = noiseSamples(n, sigmaQ, sigmaQd, 7);
        final double[][] again = noiseSamples(n, sigmaQ, sigmaQd, 7);
        final double[][] other = noiseSamples(n, sigmaQ, sigmaQd, 8);
        assertArrayEquals(first[0], again[0], 0.0);
        assertArrayEquals(first[1], again[1], 0.0);
        assertFalse(Arrays.equals(first[0], other[0]));
        assertSpread(first[0], sigmaQ, "position noise, seed 7");
        assertSpread(first[1], sigmaQd, "velocity noise, seed 7");
    }

    /** Faults at 5 ms and 10.5 ms on a 1 ms period first show in samples 5 and 11. */
    @Test
    void encoderFaultsCorruptOnlyTheirJointFromTheirPeriodOn()
    {
        final double[] q0 = {0.1, 0.2, 0.3, 0.4};
        final SimulatedArm arm = new SimulatedArm(MODEL, config().initialQ(q0)
            .fault(InjectedFault.parse("jump@0.005:0:0.25"))
            .fault(InjectedFault.parse("nan@0.0105:1")));
        final JointStateSample sample = new JointStateSample(4);
        for (int step = 0; step <= 15; step++)
        {
            if (step > 0)
            {
                arm.step();
            }
            arm.sample(sample);
            assertEquals(step >= 5 ? 0.35 : 0.1, sample.q()[0], 1e-15, "step " + step);
            assertEquals(step >= 11, Double.isNaN(sample.q()[1]), "step " + step);
            assertEquals(0.3, sample.q()[2], 0.0, "step " + step);
            assertEquals(0.4, sample.q()[3], 0.0, "step " + step);
        }
    }

    @Test
    void stallAndCrashAreDueFromTheirPeriodOn()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config()
            .fault(InjectedFault.parse("stall@0.003")).fault(InjectedFault.parse("crash@0.0031")));
        for (int step = 1; step <= 5; step++)
        {
            arm.step();
            assertEquals(step >= 3, arm.stalled(), "step " + step);
            assertEquals(step >= 4, arm.crashed(), "step " + step);
        }
    }

    @Test
    void aSimulationStepAllocatesNothing()
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config().countsPerRevolution(1 << 20).noise(1e-4, 1e-3, SEED)
            .latencyPeriods(2).fault(InjectedFault.parse("jump@0.5:1:0.01")).fault(InjectedFault.parse("nan@1:2")));
        final JointStateSample sample = new JointStateSample(4);
        final double[] tau = {0.5, -0.5, 0.2, 0.1};
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            arm.command(tau, DriveMode.TORQUE, true);
            arm.step();
            arm.sample(sample);
        }, 10_000, 20_000);
        assertEquals(0L, bytes, "bytes allocated over 20000 steps");
    }

    @Test
    void anArmOnASharedCompiledRobotMovesExactlyAsOneBuiltFromTheRobot()
    {
        final SimulatedArmConfig tilted = config().gravity(1.5, -2.0, -9.5).initialQ(0.3, -0.2, 0.1, 0.4);
        final SimulatedArm own = new SimulatedArm(MODEL, tilted);
        // Compiled without gravity: the configuration's must replace it.
        final SimulatedArm shared = new SimulatedArm(CompiledModel.of(MODEL, 0.0, 0.0, 0.0), tilted);
        final double[] tau = {0.4, -0.3, 0.2, -0.1};
        final double[] expected = new double[4];
        final double[] actual = new double[4];
        for (int period = 1; period <= 50; period++)
        {
            own.command(tau, DriveMode.TORQUE, true);
            shared.command(tau, DriveMode.TORQUE, true);
            own.step();
            shared.step();
            own.truePositions(expected);
            shared.truePositions(actual);
            assertArrayEquals(expected, actual, 0.0, "period " + period);
        }
        assertNotEquals(0.3, actual[0], "the arm moved");
        final double[] g = tilted.gravity();
        assertTrue(SimulatedArmWarmUp.run(CompiledModel.of(MODEL, g[0], g[1], g[2]), tilted, 200));
    }

    private static SimulatedArmConfig config()
    {
        return new SimulatedArmConfig(MODEL).periodNs(PERIOD_NS);
    }

    /** Measured minus true q and qd of joint 0 of a braked arm, one per period. */
    private static double[][] noiseSamples(final int n, final double sigmaQ, final double sigmaQd, final long seed)
    {
        final SimulatedArm arm = new SimulatedArm(MODEL, config().noise(sigmaQ, sigmaQd, seed));
        final JointStateSample sample = new JointStateSample(4);
        final double[][] noise = new double[2][n];
        for (int i = 0; i < n; i++)
        {
            arm.step();
            arm.sample(sample);
            noise[0][i] = sample.q()[0];
            noise[1][i] = sample.qd()[0];
        }
        return noise;
    }

    private static void assertSpread(final double[] values, final double sigma, final String what)
    {
        final double mean = Arrays.stream(values).average().orElseThrow();
        final double variance = Arrays.stream(values).map(v -> (v - mean) * (v - mean)).sum() / (values.length - 1);
        assertTrue(Math.abs(mean) < 4.0 * sigma / Math.sqrt(values.length), what + ": mean " + mean);
        assertEquals(sigma, Math.sqrt(variance), 0.05 * sigma, what + ": standard deviation");
        assertNotEquals(0.0, variance, what);
    }
}
