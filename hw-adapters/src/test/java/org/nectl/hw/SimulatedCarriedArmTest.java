package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.mobile.PlatformMotion;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/** A simulated arm on a moving base: its physics feel the base's motion and its samples carry the IMU block. */
class SimulatedCarriedArmTest
{
    private static final long SEED = 42;
    private static final RobotModel MODEL = RandomRobots.robot(SEED, 4, false, RandomRobots.Joints.REVOLUTE, true);
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    /** A platform accelerating at 1 m/s^2 along x for its first 5 s is a fixed base under gravity (-1, 0, -9.81). */
    @Test
    void constantlyAcceleratingPlatformEqualsFixedBaseUnderTiltedGravity()
    {
        final SimulatedArm carried = new SimulatedArm(MODEL, config().baseMotion(new PlatformMotion(1.0, 1.0, 5.0, 0.0, Double.POSITIVE_INFINITY)));
        final SimulatedArm tilted = new SimulatedArm(MODEL, config().gravity(-1.0, 0.0, -9.81));
        final SimulatedArm fixed = new SimulatedArm(MODEL, config());
        final double[] tau = {1.0, -2.0, 0.5, 0.2};
        final JointStateSample a = new JointStateSample(MODEL.dof());
        final JointStateSample b = new JointStateSample(MODEL.dof());
        final JointStateSample c = new JointStateSample(MODEL.dof());
        for (int n = 0; n < 500; n++)
        {
            for (final SimulatedArm arm : new SimulatedArm[] {carried, tilted, fixed})
            {
                arm.command(tau, DriveMode.TORQUE, true);
                arm.step();
            }
        }
        carried.sample(a);
        tilted.sample(b);
        fixed.sample(c);
        double moved = 0.0;
        for (int k = 0; k < MODEL.dof(); k++)
        {
            assertEquals(b.q()[k], a.q()[k], 1e-12 * Math.max(1.0, Math.abs(b.q()[k])), "q " + k);
            assertEquals(b.qd()[k], a.qd()[k], 1e-12 * Math.max(1.0, Math.abs(b.qd()[k])), "qd " + k);
            moved = Math.max(moved, Math.abs(a.q()[k] - c.q()[k]));
        }
        assertTrue(moved > 1e-3, "the platform's acceleration moves the arm: " + moved + " rad");
        assertTrue(a.baseMotionValid());
        assertEquals(1.0, a.baseMotion()[10], 1e-12, "specific force x: the platform's acceleration");
        assertEquals(9.81, a.baseMotion()[12], 1e-12, "specific force z: minus gravity");
        assertFalse(c.baseMotionValid(), "a fixed base sends no block");
    }

    @Test
    void samplesCarryTheShipsMotionAtTheSampleTime()
    {
        assertEquals(BaseMotion.BLOCK_LENGTH, JointStateSample.BASE_MOTION_LENGTH, "one block layout on the wire and in the core");
        final ShipMotion ship = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
        final SimulatedArm arm = new SimulatedArm(MODEL, config().baseMotion(ship));
        final JointStateSample sample = new JointStateSample(MODEL.dof());
        for (int n = 0; n < 1234; n++)
        {
            arm.command(new double[MODEL.dof()], DriveMode.TORQUE, true);
            arm.step();
        }
        arm.sample(sample);
        final BaseMotion expected = new BaseMotion();
        ship.at(1.234, GRAVITY, expected);
        assertTrue(sample.baseMotionValid());
        for (int i = 0; i < 4; i++)
        {
            assertEquals(expected.orientation(i), sample.baseMotion()[i], 1e-12, "quaternion " + i);
        }
        for (int i = 0; i < 3; i++)
        {
            assertEquals(expected.angularVelocity(i), sample.baseMotion()[4 + i], 1e-12, "omega " + i);
            assertEquals(expected.angularAcceleration(i), sample.baseMotion()[7 + i], 1e-12, "omegaDot " + i);
            assertEquals(expected.specificForce(i), sample.baseMotion()[10 + i], 1e-12, "f " + i);
        }
    }

    /**
     * An arm with elastic joints on a ship's deck: its physics feel the deck (it leaves the fixed-base
     * arm's motion under the same torques) and its samples carry the deck's motion at the sample time.
     */
    @Test
    void elasticArmOnAShipsDeckFeelsTheDeckAndPublishesItsMotion()
    {
        final ElasticRobotModel robot = RandomElasticRobots.robot(SEED, false);
        final int n = robot.dof();
        final double[] limits = new double[n];
        java.util.Arrays.fill(limits, 1e3);
        final ShipMotion ship = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
        final SimulatedArm carried = new SimulatedArm(robot, new SimulatedArmConfig(robot.links()).periodNs(1_000_000L)
            .torqueLimitNm(limits).baseMotion(ship));
        final SimulatedArm fixed = new SimulatedArm(robot, new SimulatedArmConfig(robot.links()).periodNs(1_000_000L)
            .torqueLimitNm(limits));
        final double[] tau = RandomRobots.vector(new java.util.SplittableRandom(SEED), n, 1.0);
        for (int t = 0; t < 1234; t++)
        {
            for (final SimulatedArm arm : new SimulatedArm[] {carried, fixed})
            {
                arm.command(tau, DriveMode.TORQUE, true);
                arm.step();
            }
        }
        final JointStateSample a = new JointStateSample(n);
        final JointStateSample c = new JointStateSample(n);
        carried.sample(a);
        fixed.sample(c);
        assertTrue(a.elasticMask() != 0, "seed " + SEED + " has elastic joints");
        double moved = 0.0;
        for (int k = 0; k < n; k++)
        {
            moved = Math.max(moved, Math.abs(a.q()[k] - c.q()[k]));
        }
        assertTrue(moved > 1e-3, "the deck moves the elastic arm: " + moved + " rad");
        assertTrue(a.baseMotionValid(), "the elastic arm's samples carry the base block");
        assertFalse(c.baseMotionValid(), "a fixed base sends no block");
        final BaseMotion expected = new BaseMotion();
        ship.at(1.234, GRAVITY, expected);
        for (int i = 0; i < 3; i++)
        {
            assertEquals(expected.angularVelocity(i), a.baseMotion()[4 + i], 1e-12, "omega " + i);
            assertEquals(expected.specificForce(i), a.baseMotion()[10 + i], 1e-12, "f " + i);
        }
    }

    @Test
    void anImuLossWithdrawsTheBaseBlockFromItsPeriodOn()
    {
        final ShipMotion ship = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
        final SimulatedArm arm = new SimulatedArm(MODEL, config().baseMotion(ship)
            .fault(new InjectedFault(FaultKind.IMU_LOSS, 3_000_000L, -1, 0.0)));
        final JointStateSample sample = new JointStateSample(MODEL.dof());
        for (int n = 0; n < 6; n++)
        {
            arm.sample(sample);
            assertEquals(n < 3, sample.baseMotionValid(), "sample of period " + n);
            if (n >= 3)
            {
                for (final double value : sample.baseMotion())
                {
                    assertEquals(0.0, value, "a withdrawn block is zero, period " + n);
                }
            }
            arm.command(new double[MODEL.dof()], DriveMode.TORQUE, true);
            arm.step();
        }
    }

    /**
     * The IMU's noise: per sample and axis of the stated standard deviation on the specific force and
     * the angular velocity, the gyro's backward difference on the angular acceleration, the orientation
     * exact; seeded, so two arms with the same seed publish the same blocks and another seed others.
     */
    @Test
    void aNoisyImuAddsSeededNoiseOfTheStatedSizeAndTheGyrosDifferenceToTheAngularAcceleration()
    {
        final ShipMotion ship = new ShipMotion(Math.toRadians(10), 0.2, 0.0, 0.0, 0.5, 0.1);
        final double accelerometer = 0.01;
        final double gyro = 0.001;
        final SimulatedArm arm = new SimulatedArm(MODEL, config().baseMotion(ship).noise(0.0, 0.0, 7).imuNoise(accelerometer, gyro));
        final SimulatedArm twin = new SimulatedArm(MODEL, config().baseMotion(ship).noise(0.0, 0.0, 7).imuNoise(accelerometer, gyro));
        final SimulatedArm other = new SimulatedArm(MODEL, config().baseMotion(ship).noise(0.0, 0.0, 8).imuNoise(accelerometer, gyro));
        final JointStateSample sample = new JointStateSample(MODEL.dof());
        final JointStateSample twinSample = new JointStateSample(MODEL.dof());
        final JointStateSample otherSample = new JointStateSample(MODEL.dof());
        final BaseMotion truth = new BaseMotion();
        final int n = 20_000;
        final double[] sumSquares = new double[3];
        double lastGyroNoise = Double.NaN;
        double differenceError = 0.0;
        double orientationError = 0.0;
        boolean othersDiffer = false;
        for (int t = 1; t <= n; t++)
        {
            for (final SimulatedArm a : new SimulatedArm[] {arm, twin, other})
            {
                a.command(new double[MODEL.dof()], DriveMode.BRAKE, false);
                a.step();
            }
            arm.sample(sample);
            twin.sample(twinSample);
            other.sample(otherSample);
            ship.at(t * 1e-3, GRAVITY, truth);
            assertTrue(Arrays.equals(sample.baseMotion(), twinSample.baseMotion()), "same seed, same blocks at " + t);
            othersDiffer |= !Arrays.equals(sample.baseMotion(), otherSample.baseMotion());
            final double gyroNoise = sample.baseMotion()[4] - truth.angularVelocity(0);
            sumSquares[0] += sq(sample.baseMotion()[10] - truth.specificForce(0));
            sumSquares[1] += sq(gyroNoise);
            sumSquares[2] += sq(sample.baseMotion()[7] - truth.angularAcceleration(0));
            if (t > 1)
            {
                differenceError = Math.max(differenceError,
                    Math.abs(sample.baseMotion()[7] - truth.angularAcceleration(0) - (gyroNoise - lastGyroNoise) / 1e-3));
            }
            lastGyroNoise = gyroNoise;
            for (int i = 0; i < 4; i++)
            {
                orientationError = Math.max(orientationError, Math.abs(sample.baseMotion()[i] - truth.orientation(i)));
            }
        }
        assertTrue(othersDiffer, "another seed, other noise");
        // 20 000 samples: the standard deviation is estimated to about 0.5 % (one sigma)
        assertEquals(accelerometer, Math.sqrt(sumSquares[0] / n), 0.04 * accelerometer, "accelerometer noise");
        assertEquals(gyro, Math.sqrt(sumSquares[1] / n), 0.04 * gyro, "gyro noise");
        assertEquals(Math.sqrt(2.0) * gyro / 1e-3, Math.sqrt(sumSquares[2] / n), 0.04 * Math.sqrt(2.0) * gyro / 1e-3,
            "angular acceleration noise: the gyro's difference");
        assertEquals(0.0, differenceError, 1e-9, "the angular acceleration's noise is the gyro noise's backward difference");
        assertEquals(0.0, orientationError, 1e-12, "the orientation is exact");
    }

    private static double sq(final double x)
    {
        return x * x;
    }

    private static SimulatedArmConfig config()
    {
        return new SimulatedArmConfig(MODEL).periodNs(1_000_000L).torqueLimitNm(1e3, 1e3, 1e3, 1e3);
    }
}
