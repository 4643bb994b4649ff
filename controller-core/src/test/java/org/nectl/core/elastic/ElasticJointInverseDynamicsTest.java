package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

/**
 * Khalil and Gautier's three-pass inverse dynamics of elastic joints against the inertia-matrix
 * forward dynamics: drive a random robot with random rigid-joint and motor torques, read all
 * accelerations from forward dynamics, give the rigid joints' and motors' accelerations back to the
 * recursive algorithm, and expect the elastic joints' accelerations and the torques back.
 */
class ElasticJointInverseDynamicsTest
{
    private static final int ROBOTS = 300;
    /** Relative to max(1, |value|); see MixedDynamicsConsistencyTest for why 1e-9. */
    private static final double TOLERANCE = 1e-9;

    @Test
    void recoversElasticAccelerationsAndDrivingTorquesOfForwardDynamicsOnRandomRobots()
    {
        recoversForwardDynamics(true);
    }

    @Test
    void recoversForwardDynamicsWithRigidJointsMotorsOnMovingLinks()
    {
        recoversForwardDynamics(false);
    }

    /**
     * Given the rigid joints' and motors' accelerations, the three passes complete the motion that
     * {@link MixedInverseDynamics} (ReNEAL) takes whole: its rigid-joint and motor torques, and its
     * elastic joints' transmitted torques, which the springs must then be supplying.
     */
    @Test
    void agreesWithReNealAtTheAccelerationsItCompletes()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final MixedState s = new MixedState(new SplittableRandom(seed), model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final double[] qdd = s.qdd.clone();
            final double[] torque = new double[n];
            final double[] motor = new double[ne];
            assertTrue(new ElasticJointInverseDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, qdd, s.thetadd, torque,
                motor), "seed " + seed);
            final double[] expectedTorque = new double[n];
            final double[] expectedMotor = new double[ne];
            new MixedInverseDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, qdd, s.thetadd, expectedTorque,
                expectedMotor);
            for (int k = 0; k < n; k++)
            {
                worst = Math.max(worst, check(expectedTorque[k], torque[k], "seed " + seed + " joint torque[" + k + "]"));
            }
            for (int e = 0; e < ne; e++)
            {
                worst = Math.max(worst, check(expectedMotor[e], motor[e], "seed " + seed + " motor torque[" + e + "]"));
            }
        }
        System.out.printf("Khalil-Gautier recursive vs ReNEAL, rigid joints' motors on any link, %d robots: worst %.2e%n",
            ROBOTS, worst);
    }

    private static void recoversForwardDynamics(final boolean rigidMotorsOnBase)
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, rigidMotorsOnBase);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final double[] jointTorque = RandomRobots.vector(rnd, n, 10.0);
            final double[] motorTorque = RandomRobots.vector(rnd, ne, 10.0);
            for (int e = 0; e < ne; e++)
            {
                jointTorque[model.coordinateOfElastic(e)] = 0.0;
            }
            final double[] wrench = RandomRobots.vector(rnd, 6, 3.0);
            final int body = rnd.nextInt(model.links().bodyCount());
            final MixedForwardDynamics forward = new MixedForwardDynamics(bodies);
            final ElasticJointInverseDynamics hybrid = new ElasticJointInverseDynamics(bodies);
            forward.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
            hybrid.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
            final double[] qdd = new double[n];
            final double[] thetadd = new double[ne];
            assertTrue(forward.compute(s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, qdd, thetadd));
            final double[] driven = qdd.clone();
            for (int e = 0; e < ne; e++)
            {
                driven[model.coordinateOfElastic(e)] = rnd.nextDouble(-100, 100);
            }
            final double[] torqueOut = new double[n];
            final double[] motorOut = new double[ne];
            assertTrue(hybrid.compute(s.q, s.theta, s.qd, s.thetad, driven, thetadd, torqueOut, motorOut));
            final double[] sigma = new double[ne];
            new SpringTorques(model).compute(s.q, s.theta, s.qd, s.thetad, sigma);
            for (int k = 0; k < n; k++)
            {
                final int e = model.elasticIndex(k);
                worst = Math.max(worst, check(qdd[k], driven[k], "seed " + seed + " qdd[" + k + "]"));
                worst = Math.max(worst, check(e >= 0 ? sigma[e] : jointTorque[k], torqueOut[k],
                    "seed " + seed + " joint torque[" + k + "]"));
            }
            for (int e = 0; e < ne; e++)
            {
                worst = Math.max(worst, check(motorTorque[e], motorOut[e], "seed " + seed + " motor torque[" + e + "]"));
            }
        }
        System.out.printf("Khalil-Gautier recursive vs inertia-matrix route, %d robots, rigid motors on the base %b:"
            + " worst relative error %.2e%n", ROBOTS, rigidMotorsOnBase, worst);
    }

    @Test
    void allocatesNothingPerCall()
    {
        final ElasticRobotModel model = RandomElasticRobots.robot(11, true);
        final MixedState s = new MixedState(new SplittableRandom(11), model);
        final ElasticJointInverseDynamics hybrid = new ElasticJointInverseDynamics(UnifiedBodies.of(model));
        hybrid.externalWrench(0, 1, 2, 3, 4, 5, 6);
        final double[] torque = new double[model.dof()];
        final double[] motor = new double[model.elasticCount()];
        final double[] qdd = s.qdd.clone();
        final long bytes = AllocationMeter.bytesAllocated(
            () -> hybrid.compute(s.q, s.theta, s.qd, s.thetad, qdd, s.thetadd, torque, motor), 20_000, 100_000);
        assertEquals(0L, bytes, "seed 11: bytes allocated over 100000 calls");
    }

    private static double check(final double expected, final double actual, final String what)
    {
        final double error = Math.abs(expected - actual) / Math.max(1.0, Math.abs(expected));
        assertTrue(error <= TOLERANCE, what + ": expected " + expected + " got " + actual);
        return error;
    }
}
