package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.UndampedElasticRobots;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

class MotorReferenceTest
{
    /** Two formulations of the same torque (ReNEAL and the twice-differentiated recursion): rounding only (observed 4e-14). */
    private static final double CONSISTENCY_TOLERANCE = 1e-9;
    /**
     * 4th-order central difference with h = 5e-4 s: truncation h^4 f^(5) / 30 and rounding
     * 1.5 eps |f| / h stay below 1e-8 of the derivative for these motions (observed 9.4e-12).
     */
    private static final double DIFFERENCE_TOLERANCE = 1e-7;
    private static final double STEP_S = 5e-4;
    private static final double[] STEPS = {-2.0, -1.0, 1.0, 2.0};

    /** q_d^(n)(t) of the quartic with Taylor coefficients c at 0, n = 0..4. */
    static double[][] reference(final double[][] c, final double t)
    {
        final double[][] out = new double[5][c[0].length];
        for (int d = 0; d < 5; d++)
        {
            for (int k = 0; k < c[0].length; k++)
            {
                double sum = 0.0;
                double term = 1.0;
                for (int m = d; m < 5; m++)
                {
                    sum += c[m][k] * term;
                    term *= t / (m - d + 1);
                }
                out[d][k] = sum;
            }
        }
        return out;
    }

    /** @return Taylor coefficients at 0 (q_d and its derivatives up to the 4th), random. */
    static double[][] coefficients(final SplittableRandom rnd, final int dof)
    {
        final double[][] c = new double[5][];
        final double[] scale = {Math.PI, 2.0, 3.0, 5.0, 10.0};
        for (int m = 0; m < 5; m++)
        {
            c[m] = RandomRobots.vector(rnd, dof, scale[m]);
        }
        return c;
    }

    @Test
    void motorReferenceMakesTheSpringTransmitTheTorqueMixedInverseDynamicsDemands()
    {
        int checked = 0;
        double worst = 0.0;
        for (long seed = 1; seed <= 200 && checked < 40; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            if (RandomElasticRobots.elasticRotorOutboardOfElasticJoint(model))
            {
                continue;
            }
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[][] ref = reference(coefficients(rnd, model.dof()), 0.0);
            final int ne = model.elasticCount();
            final double[] theta = new double[ne];
            final double[] thetaDot = new double[ne];
            final double[] thetaDdot = new double[ne];
            final MotorReference motorReference = new MotorReference(bodies);
            motorReference.gravity(1.0, -2.0, -9.0);
            motorReference.compute(ref, theta, thetaDot, thetaDdot);
            final MixedInverseDynamics inverse = new MixedInverseDynamics(bodies);
            inverse.gravity(1.0, -2.0, -9.0);
            final double[] jointTorque = new double[model.dof()];
            inverse.compute(ref[0], theta, ref[1], thetaDot, ref[2], thetaDdot, jointTorque, new double[ne]);
            for (int e = 0; e < ne; e++)
            {
                final int k = model.coordinateOfElastic(e);
                final double spring = model.elasticity(k).stiffness() * (theta[e] - ref[0][k]);
                final double error = Math.abs(spring - jointTorque[k]) / Math.max(1.0, Math.abs(jointTorque[k]));
                assertTrue(error <= CONSISTENCY_TOLERANCE, "seed " + seed + ", elastic joint " + e + ": relative error " + error);
                worst = Math.max(worst, error);
            }
            checked++;
        }
        assertEquals(40, checked, "robots with every elastic rotor inboard of the elastic joints");
        System.out.printf("motor reference vs mixed inverse dynamics over %d robots: max relative error %.3e%n", checked, worst);
    }

    @Test
    void motorRateAndAccelerationAreTheDerivativesOfTheMotorReferenceOnRandomMixedRobots()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 60; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final double[][] c = coefficients(new SplittableRandom(seed), model.dof());
            final MotorReference motorReference = new MotorReference(UnifiedBodies.of(model));
            final int ne = model.elasticCount();
            final double[][][] samples = new double[3][STEPS.length][ne];
            final double[] scratch = new double[ne];
            for (int s = 0; s < STEPS.length; s++)
            {
                motorReference.compute(reference(c, STEPS[s] * STEP_S), samples[0][s], samples[1][s], scratch);
            }
            final double[] theta = new double[ne];
            final double[] thetaDot = new double[ne];
            final double[] thetaDdot = new double[ne];
            motorReference.compute(reference(c, 0.0), theta, thetaDot, thetaDdot);
            for (int e = 0; e < ne; e++)
            {
                final double rate = difference(samples[0], e);
                final double acceleration = difference(samples[1], e);
                final double error = Math.max(Math.abs(rate - thetaDot[e]) / Math.max(1.0, Math.abs(rate)),
                    Math.abs(acceleration - thetaDdot[e]) / Math.max(1.0, Math.abs(acceleration)));
                assertTrue(error <= DIFFERENCE_TOLERANCE, "seed " + seed + ", elastic joint " + e + ": relative error " + error);
                worst = Math.max(worst, error);
            }
        }
        System.out.printf("motor reference derivatives vs central differences over 60 robots: max relative error %.3e%n", worst);
    }

    private static double difference(final double[][] samples, final int e)
    {
        return (samples[0][e] - 8.0 * samples[1][e] + 8.0 * samples[2][e] - samples[3][e]) / (12.0 * STEP_S);
    }

    @Test
    void rejectsADampedSpring()
    {
        final RobotModel links = RandomRobots.robot(3, 2, false, RandomRobots.Joints.REVOLUTE, false);
        final String joint = links.coordinateName(0);
        final ElasticRobotModel damped = ElasticRobotModel.builder(links)
            .motor(joint, Motor.onBase(0.01))
            .elasticity(joint, new JointElasticity(100.0, 0.5))
            .build();
        final UnifiedBodies bodies = UnifiedBodies.of(damped);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new MotorReference(bodies));
        assertTrue(e.getMessage().contains("damping 0.5"), e.getMessage());
    }

    @Test
    void computeAllocatesNothing()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(11, false);
        final double[][] ref = reference(coefficients(new SplittableRandom(11), model.dof()), 0.0);
        final int ne = model.elasticCount();
        final double[] theta = new double[ne];
        final double[] thetaDot = new double[ne];
        final double[] thetaDdot = new double[ne];
        final MotorReference motorReference = new MotorReference(UnifiedBodies.of(model));
        final long bytes = AllocationMeter.bytesAllocated(() -> motorReference.compute(ref, theta, thetaDot, thetaDdot),
            20_000, 100_000);
        assertEquals(0L, bytes, "seed 11: bytes allocated over 100000 calls");
    }
}
