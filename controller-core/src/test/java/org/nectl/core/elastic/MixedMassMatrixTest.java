package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

class MixedMassMatrixTest
{
    @Test
    void matchesTheHandDerivedInertiaOfThePlanarArm()
    {
        final MixedMassMatrix crba = new MixedMassMatrix(UnifiedBodies.of(MixedInverseDynamicsTest.planarArm()));
        final double[] a = new double[9];
        for (final double q2 : new double[] {-2.0, 0.0, 0.7, 3.0})
        {
            crba.compute(new double[] {0.3, q2}, a);
            assertArrayEquals(MixedInverseDynamicsTest.planarInertia(q2), a, 1e-14, "q2 = " + q2);
        }
    }

    /**
     * Algorithm 2 of Hua, Poursina and Sanfilippo builds A column by column with ReNEAL at zero
     * velocity and gravity and a unit acceleration (eqs. 34-35), and zeta with ReNEAL at zero
     * acceleration (eqs. 32-33): both must equal the composite-rigid-body route.
     */
    @Test
    void equalsTheColumnsAndBiasOfInverseDynamicsOnRandomMixedRobots()
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final int n = model.dof();
            final int size = n + model.elasticCount();
            final double[] a = new double[size * size];
            new MixedMassMatrix(bodies).compute(s.q, a);
            final MixedInverseDynamics columns = new MixedInverseDynamics(bodies);
            columns.gravity(0, 0, 0);
            columns.friction(false);
            final double[] link = new double[n];
            final double[] motor = new double[model.elasticCount()];
            for (int j = 0; j < size; j++)
            {
                final double[] unitQ = new double[n];
                final double[] unitTheta = new double[model.elasticCount()];
                if (j < n)
                {
                    unitQ[j] = 1.0;
                }
                else
                {
                    unitTheta[j - n] = 1.0;
                }
                // theta = q at the elastic joints: zero spring torque, so eq. (35) needs no correction
                columns.compute(s.q, restAngles(model, s.q), new double[n], new double[model.elasticCount()],
                    unitQ, unitTheta, link, motor);
                for (int i = 0; i < size; i++)
                {
                    final double expected = i < n ? link[i] : motor[i - n];
                    assertEquals(expected, a[i * size + j], 1e-12 * Math.max(1.0, Math.abs(expected)),
                        "seed " + seed + " A[" + i + "][" + j + "]");
                }
            }
            assertBiasIsInverseDynamicsAtZeroAcceleration(model, s, rnd);
        }
    }

    private static void assertBiasIsInverseDynamicsAtZeroAcceleration(
        final ElasticRobotModel model, final MixedState s, final SplittableRandom rnd)
    {
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int n = model.dof();
        final double[] wrench = RandomRobots.vector(rnd, 6, 2.0);
        final MixedBiasForces bias = new MixedBiasForces(bodies);
        final MixedInverseDynamics inverse = new MixedInverseDynamics(bodies);
        bias.externalWrench(0, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
        inverse.externalWrench(0, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
        final double[] zeta = new double[bias.size()];
        bias.compute(s.q, s.qd, s.thetad, zeta);
        final double[] link = new double[n];
        final double[] motor = new double[model.elasticCount()];
        final double[] theta = restAngles(model, s.q);
        inverse.compute(s.q, theta, s.qd, s.thetad, new double[n], new double[model.elasticCount()], link, motor);
        for (int i = 0; i < n; i++)
        {
            assertEquals(link[i], zeta[i], 1e-12 * Math.max(1.0, Math.abs(link[i])), "zeta[" + i + "]");
        }
        final double[] sigma = new double[model.elasticCount()];
        // The motor torque holds the damper's share too: zeta excludes springs and dampers.
        new SpringTorques(model).compute(s.q, theta, s.qd, s.thetad, sigma);
        for (int e = 0; e < motor.length; e++)
        {
            final double expected = motor[e] - sigma[e];
            assertEquals(expected, zeta[n + e], 1e-12 * Math.max(1.0, Math.abs(expected)), "zeta[" + (n + e) + "]");
        }
    }

    private static double[] restAngles(final ElasticRobotModel model, final double[] q)
    {
        final double[] theta = new double[model.elasticCount()];
        for (int e = 0; e < theta.length; e++)
        {
            theta[e] = q[model.coordinateOfElastic(e)];
        }
        return theta;
    }
}
