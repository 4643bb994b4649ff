package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.elastic.ElasticJointInverseDynamics;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MixedForwardDynamics;
import org.nectl.core.elastic.MixedInverseDynamics;
import org.nectl.core.elastic.MixedMassMatrix;
import org.nectl.core.elastic.RecursiveMixedForwardDynamics;
import org.nectl.core.elastic.SpringTorques;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.testing.RandomRobots;

/** The shipped mixed rigid/elastic 3-DoF arm of Hua, Poursina and Sanfilippo (§V, Table I). */
final class MixedElasticArmTest
{
    private static final ElasticRobotModel ARM =
        ElasticDescriptions.load(ShippedRobots.directory().resolve("mixed-elastic-3dof.yaml"));

    @Test
    void hasTwoRigidJointsAndAnElasticThirdWithMotorsOnTheBaseAndLinkOne()
    {
        assertEquals(3, ARM.dof());
        assertEquals(1, ARM.elasticCount());
        assertFalse(ARM.isElastic(0));
        assertFalse(ARM.isElastic(1));
        assertTrue(ARM.isElastic(2));
        assertEquals(100.0, ARM.elasticity(2).stiffness());
        assertEquals(-1, ARM.motor(0).mountBody());
        assertEquals(ARM.links().bodyIndex("link1"), ARM.motor(1).mountBody());
        assertEquals(ARM.links().bodyIndex("link1"), ARM.motor(2).mountBody());
        assertEquals(5.0, ARM.links().totalMass(), 1e-12, "links only: the three 1 kg rotors are in the motors");
    }

    @Test
    void inertiaMatrixHasTheReflectedRotorInertiaAndNoCouplingForShoulderParallelRotors()
    {
        final double[] a = new double[16];
        new MixedMassMatrix(UnifiedBodies.of(ARM)).compute(new double[] {0.3, -0.4, 0.9}, a);
        // B = eta^2 Im_z; a rotor on link 1 spinning about the shoulder axis (normal to the waist)
        // has no momentum about any joint axis that moves link 1, so S = 0 for this arm.
        assertEquals(0.004, a[15], 1e-15);
        assertArrayEquals(new double[] {0, 0, 0}, new double[] {a[3], a[7], a[11]}, 1e-15);
    }

    @Test
    void forwardDynamicsInvertsInverseDynamicsWithAPayload()
    {
        final UnifiedBodies bodies = UnifiedBodies.of(ARM);
        final MixedInverseDynamics inverse = new MixedInverseDynamics(bodies);
        final MixedForwardDynamics forward = new MixedForwardDynamics(bodies);
        final int tip = ARM.links().bodyIndex("link3");
        final SplittableRandom rnd = new SplittableRandom(5);
        for (int trial = 0; trial < 100; trial++)
        {
            final double[] q = RandomRobots.vector(rnd, 3, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, 3, 2.0);
            final double[] qdd = RandomRobots.vector(rnd, 3, 5.0);
            final double[] thetad = RandomRobots.vector(rnd, 1, 2.0);
            final double[] thetadd = RandomRobots.vector(rnd, 1, 5.0);
            final double[] force = RandomRobots.vector(rnd, 3, 3.0);
            inverse.externalWrench(tip, force[0], force[1], force[2], 0, 0, 0);
            forward.externalWrench(tip, force[0], force[1], force[2], 0, 0, 0);
            final double[] jointTorque = new double[3];
            final double[] motorTorque = new double[1];
            inverse.compute(q, new double[] {q[2]}, qd, thetad, qdd, thetadd, jointTorque, motorTorque);
            // The motion is the plant's when the spring transmits joint 3's torque: theta from eq. (28).
            final double[] theta = {q[2] + jointTorque[2] / 100.0};
            inverse.compute(q, theta, qd, thetad, qdd, thetadd, jointTorque, motorTorque);
            final double[] sigma = new double[1];
            new SpringTorques(ARM).compute(q, theta, qd, thetad, sigma);
            assertEquals(jointTorque[2], sigma[0], 1e-12 * Math.max(1.0, Math.abs(sigma[0])));
            final double[] applied = {jointTorque[0], jointTorque[1], 0.0};
            final double[] qddOut = new double[3];
            final double[] thetaddOut = new double[1];
            assertTrue(forward.compute(q, theta, qd, thetad, applied, motorTorque, qddOut, thetaddOut));
            // 1e-9 relative: a 4x4 Cholesky solve of a well-conditioned matrix loses a digit or two.
            for (int k = 0; k < 3; k++)
            {
                assertEquals(qdd[k], qddOut[k], 1e-9 * Math.max(1.0, Math.abs(qdd[k])), "trial " + trial);
            }
            assertEquals(thetadd[0], thetaddOut[0], 1e-9 * Math.max(1.0, Math.abs(thetadd[0])), "trial " + trial);
        }
    }

    /**
     * Motor 2 sits on link 1 and drives the rigid shoulder: its rotor is tied to q2, and the
     * recursive route enforces that instead of refusing the arm.
     */
    @Test
    void theRecursiveRoutesAgreeWithTheInertiaMatrixRouteAndReNeal()
    {
        final UnifiedBodies bodies = UnifiedBodies.of(ARM);
        final MixedForwardDynamics cholesky = new MixedForwardDynamics(bodies);
        final RecursiveMixedForwardDynamics recursive = new RecursiveMixedForwardDynamics(bodies);
        final ElasticJointInverseDynamics threePasses = new ElasticJointInverseDynamics(bodies);
        final MixedInverseDynamics reneal = new MixedInverseDynamics(bodies);
        final SplittableRandom rnd = new SplittableRandom(17);
        double worst = 0.0;
        for (int trial = 0; trial < 200; trial++)
        {
            final double[] q = RandomRobots.vector(rnd, 3, Math.PI);
            final double[] theta = {q[2] + rnd.nextDouble(-0.3, 0.3)};
            final double[] qd = RandomRobots.vector(rnd, 3, 2.0);
            final double[] thetad = RandomRobots.vector(rnd, 1, 2.0);
            final double[] jointTorque = {rnd.nextDouble(-20, 20), rnd.nextDouble(-20, 20), 0.0};
            final double[] motorTorque = RandomRobots.vector(rnd, 1, 10.0);
            final double[] qdd = new double[3];
            final double[] thetadd = new double[1];
            assertTrue(cholesky.compute(q, theta, qd, thetad, jointTorque, motorTorque, qdd, thetadd));
            final double[] qddRecursive = new double[3];
            final double[] thetaddRecursive = new double[1];
            assertTrue(recursive.compute(q, theta, qd, thetad, jointTorque, motorTorque, qddRecursive, thetaddRecursive));
            // 1e-9 relative: the two routes differ by rounding only (measured ~1e-14).
            for (int k = 0; k < 3; k++)
            {
                worst = Math.max(worst, close(qdd[k], qddRecursive[k], "trial " + trial + " qdd" + k));
            }
            worst = Math.max(worst, close(thetadd[0], thetaddRecursive[0], "trial " + trial + " thetadd"));
            final double[] completed = {qdd[0], qdd[1], 0.0};
            final double[] torque = new double[3];
            final double[] motor = new double[1];
            assertTrue(threePasses.compute(q, theta, qd, thetad, completed, thetadd, torque, motor));
            final double[] expectedTorque = new double[3];
            final double[] expectedMotor = new double[1];
            reneal.compute(q, theta, qd, thetad, qdd, thetadd, expectedTorque, expectedMotor);
            worst = Math.max(worst, close(qdd[2], completed[2], "trial " + trial + " elastic qdd"));
            for (int k = 0; k < 2; k++)
            {
                worst = Math.max(worst, close(jointTorque[k], torque[k], "trial " + trial + " torque" + k));
                worst = Math.max(worst, close(expectedTorque[k], torque[k], "trial " + trial + " ReNEAL torque" + k));
            }
            worst = Math.max(worst, close(motorTorque[0], motor[0], "trial " + trial + " motor torque"));
            worst = Math.max(worst, close(expectedMotor[0], motor[0], "trial " + trial + " ReNEAL motor torque"));
        }
        System.out.printf("mixed-elastic-3dof: recursive vs Cholesky forward, three passes vs ReNEAL: worst %.2e%n", worst);
    }

    private static double close(final double expected, final double actual, final String what)
    {
        final double error = Math.abs(expected - actual) / Math.max(1.0, Math.abs(expected));
        assertTrue(error <= 1e-9, what + ": expected " + expected + " got " + actual);
        return error;
    }
}
