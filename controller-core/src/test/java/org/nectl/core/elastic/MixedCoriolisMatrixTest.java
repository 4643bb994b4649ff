package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomElasticRobots;

class MixedCoriolisMatrixTest
{
    @Test
    void timesTheVelocitiesGivesTheBiasWithoutGravityAndItsInertiaRateMinusTwiceItIsSkew()
    {
        for (long seed = 0; seed < 100; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final MixedState s = new MixedState(new SplittableRandom(seed), model);
            final int n = model.dof();
            final int size = n + model.elasticCount();
            final double[] c = new double[size * size];
            new MixedCoriolisMatrix(bodies).compute(s.q, s.qd, s.thetad, c);
            final MixedBiasForces bias = new MixedBiasForces(bodies);
            bias.gravity(0, 0, 0);
            bias.friction(false);
            final double[] zeta = new double[size];
            bias.compute(s.q, s.qd, s.thetad, zeta);
            final double[] xd = new double[size];
            System.arraycopy(s.qd, 0, xd, 0, n);
            System.arraycopy(s.thetad, 0, xd, n, size - n);
            for (int i = 0; i < size; i++)
            {
                double sum = 0.0;
                for (int j = 0; j < size; j++)
                {
                    sum += c[i * size + j] * xd[j];
                }
                // Two factorisations of the same torques: rounding only.
                assertEquals(zeta[i], sum, 1e-11 * Math.max(1.0, Math.abs(zeta[i])), "seed " + seed + " row " + i);
            }
            assertInertiaRateMinusTwiceCoriolisIsSkew(model, s, c, seed);
        }
    }

    /** A-dot by a fourth-order central difference along q + t qd (step 1e-4: error ~1e-14). */
    private static void assertInertiaRateMinusTwiceCoriolisIsSkew(
        final ElasticRobotModel model, final MixedState s, final double[] c, final long seed)
    {
        final int n = model.dof();
        final int size = n + model.elasticCount();
        final MixedMassMatrix inertia = new MixedMassMatrix(UnifiedBodies.of(model));
        final double h = 1e-4;
        final double[][] a = new double[4][size * size];
        final double[] steps = {2 * h, h, -h, -2 * h};
        for (int m = 0; m < 4; m++)
        {
            final double[] q = s.q.clone();
            for (int k = 0; k < n; k++)
            {
                q[k] += steps[m] * s.qd[k];
            }
            inertia.compute(q, a[m]);
        }
        for (int i = 0; i < size; i++)
        {
            for (int j = 0; j < size; j++)
            {
                final double rateIj = (8 * (a[1][i * size + j] - a[2][i * size + j]) - (a[0][i * size + j] - a[3][i * size + j])) / (12 * h);
                final double rateJi = (8 * (a[1][j * size + i] - a[2][j * size + i]) - (a[0][j * size + i] - a[3][j * size + i])) / (12 * h);
                final double sum = rateIj - 2 * c[i * size + j] + rateJi - 2 * c[j * size + i];
                assertEquals(0.0, sum, 1e-8 * Math.max(1.0, Math.abs(rateIj)), "seed " + seed + " (" + i + ", " + j + ")");
            }
        }
    }
}
