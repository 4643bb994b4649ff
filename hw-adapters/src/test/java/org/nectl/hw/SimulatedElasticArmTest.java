package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.RestingMotorPositions;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.simulation.MixedArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;
import org.nectl.core.testing.UndampedElasticRobots;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/** The simulated arm of a robot with elastic joints: mixed physics, motor torques, motor encoders. */
class SimulatedElasticArmTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final long SEED = 7;
    private static final ElasticRobotModel ROBOT = UndampedElasticRobots.robot(SEED, true);
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    private static SimulatedArmConfig config(final double[] q0)
    {
        return new SimulatedArmConfig(ROBOT.links()).periodNs(PERIOD_NS).initialQ(q0);
    }

    @Test
    void drivenArmIsExactlyTheMixedSimulatorAndPublishesTheMotorState()
    {
        final UnifiedBodies bodies = UnifiedBodies.of(ROBOT);
        final int dof = ROBOT.dof();
        final int elastic = ROBOT.elasticCount();
        final SplittableRandom rnd = new SplittableRandom(SEED);
        final double[] q0 = RandomRobots.vector(rnd, dof, 0.5);
        final SimulatedArm arm = new SimulatedArm(ROBOT, config(q0));
        final MixedArmSimulator reference = new MixedArmSimulator(bodies, PERIOD_NS, 4);
        reference.reset(q0, RestingMotorPositions.compute(bodies, q0, GRAVITY), new double[dof], new double[elastic]);
        final JointStateSample state = new JointStateSample(dof);
        final double[] theta = new double[elastic];
        final double[] thetaDot = new double[elastic];
        final double[] q = new double[dof];
        for (int period = 0; period < 50; period++)
        {
            final double[] tau = RandomRobots.vector(rnd, dof, 2.0);
            arm.command(tau, DriveMode.TORQUE, true);
            arm.step();
            reference.command(tau);
            reference.step();
            arm.sample(state);
            reference.positions(q);
            reference.motorPositions(theta);
            reference.motorVelocities(thetaDot);
            assertArrayEquals(q, state.q(), 0.0, "seed " + SEED + " period " + period);
            for (int e = 0; e < elastic; e++)
            {
                final int k = ROBOT.coordinateOfElastic(e);
                assertEquals(theta[e], state.theta()[k], 0.0, "seed " + SEED + " theta of joint " + k);
                assertEquals(thetaDot[e], state.thetaDot()[k], 0.0, "seed " + SEED + " theta-dot of joint " + k);
            }
        }
        int mask = 0;
        for (int e = 0; e < elastic; e++)
        {
            mask |= 1 << ROBOT.coordinateOfElastic(e);
        }
        assertEquals(mask, state.elasticMask());
        for (int k = 0; k < dof; k++)
        {
            if (!ROBOT.isElastic(k))
            {
                assertEquals(0.0, state.theta()[k], "rigid joint " + k + " has no motor-side state");
            }
        }
    }

    @Test
    void brakedArmStartsAndStaysAtRestWithTheSpringsHoldingTheLoad()
    {
        final double[] q0 = RandomRobots.vector(new SplittableRandom(SEED + 1), ROBOT.dof(), 0.5);
        final SimulatedArm arm = new SimulatedArm(ROBOT, config(q0));
        final double[] expectedTheta = RestingMotorPositions.compute(UnifiedBodies.of(ROBOT), q0, GRAVITY);
        for (int period = 0; period < 20; period++)
        {
            arm.step();
        }
        final double[] q = new double[ROBOT.dof()];
        final double[] theta = new double[ROBOT.dof()];
        arm.truePositions(q);
        arm.trueMotorPositions(theta);
        assertArrayEquals(q0, q, 0.0);
        for (int e = 0; e < ROBOT.elasticCount(); e++)
        {
            assertEquals(expectedTheta[e], theta[ROBOT.coordinateOfElastic(e)], 0.0);
        }
        assertEquals(20 * PERIOD_NS, arm.timeNs());
    }

    @Test
    void aFailedEncoderReadsNaNOnBothSidesOfAnElasticJoint()
    {
        final int k = ROBOT.coordinateOfElastic(0);
        final SimulatedArm arm = new SimulatedArm(ROBOT,
            config(new double[ROBOT.dof()]).fault(new InjectedFault(FaultKind.NAN, 3 * PERIOD_NS, k, 0.0)));
        final JointStateSample state = new JointStateSample(ROBOT.dof());
        for (int period = 0; period < 5; period++)
        {
            arm.step();
        }
        arm.sample(state);
        assertTrue(Double.isNaN(state.q()[k]) && Double.isNaN(state.theta()[k]));
    }

    @Test
    void aDrivenPeriodAllocatesNothing()
    {
        // No gravity and no torque: the arm rests, so every period integrates the same finite state.
        final SimulatedArm arm = new SimulatedArm(ROBOT, config(new double[ROBOT.dof()]).gravity(0, 0, 0));
        final JointStateSample state = new JointStateSample(ROBOT.dof());
        final double[] tau = new double[ROBOT.dof()];
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            arm.command(tau, DriveMode.TORQUE, true);
            arm.step();
            arm.sample(state);
        }, 5_000, 20_000);
        assertEquals(0L, bytes);
    }
}
