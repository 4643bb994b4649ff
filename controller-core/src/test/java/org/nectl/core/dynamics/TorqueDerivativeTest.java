package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class TorqueDerivativeTest
{
    /**
     * FD step, s. The 4th-order central difference errs by h^4 tau^(5) / 30 (truncation) plus about
     * 1.5 eps |tau| / h (rounding). On these robots |tau| is O(10-100) N m and tau^(5) reaches
     * O(1e5) N m/s^5 on the larger trees; h = 5e-4 s keeps truncation near 1e-11 and rounding near
     * 1e-13 of |tau-dot|. The observed error falls 16-fold per halving of h (truncation-dominated):
     * max 8e-9 at h = 2e-3, 5e-10 at 1e-3, 3e-11 at 5e-4 s, so 1e-7 leaves a wide margin.
     */
    private static final double H = 5e-4;
    private static final double TOLERANCE = 1e-7;

    /** Alternately any random robot, and a random tree of 4-12 bodies with all joint kinds. */
    private static RobotModel robot(final long seed)
    {
        if (seed % 2 == 0)
        {
            return RandomRobots.any(seed);
        }
        return RandomRobots.robot(seed, 4 + (int)(seed % 9), seed % 3 != 0, RandomRobots.Joints.ALL, true);
    }

    @Test
    void torqueDerivativeMatchesFourthOrderCentralDifferenceOnRandomChainsAndTrees()
    {
        double worst = 0.0;
        int states = 0;
        for (long seed = 1000; seed < 1060; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RobotModel model = robot(seed);
            final int n = model.bodyCount();
            final int dof = model.dof();
            final TorqueDerivative derivative = new TorqueDerivative(model);
            final InverseDynamics rnea = new InverseDynamics(model);
            final double[] g = RandomRobots.vector(rnd, 3, 10.0);
            derivative.gravity(g[0], g[1], g[2]);
            rnea.gravity(g[0], g[1], g[2]);
            // External wrenches on every body, varying linearly in their body-frame components.
            final double[] wrench = RandomRobots.vector(rnd, 6 * n, 10.0);
            final double[] wrenchRate = RandomRobots.vector(rnd, 6 * n, 20.0);
            for (int b = 0; b < n; b++)
            {
                derivative.externalWrenchRate(b, Arrays.copyOfRange(wrenchRate, 6 * b, 6 * b + 6));
            }
            for (int i = 0; i < 2; i++)
            {
                // Friction on: |qd| >= 0.2 keeps Coulomb friction smooth over +-2h.
                final PolynomialMotion motion = new PolynomialMotion(rnd, dof);
                final double[][] samples = new double[4][dof];
                for (int s = 0; s < 4; s++)
                {
                    final double t = PolynomialMotion.STEPS[s] * H;
                    motion.at(t);
                    applyWrenches(rnea, wrench, wrenchRate, t);
                    rnea.compute(motion.q, motion.qd, motion.qdd, samples[s]);
                }
                final double[] expected = new double[dof];
                for (int k = 0; k < dof; k++)
                {
                    expected[k] = PolynomialMotion.centralDifference(
                        new double[] {samples[0][k], samples[1][k], samples[2][k], samples[3][k]}, H);
                }
                motion.at(0.0);
                applyWrenches(rnea, wrench, wrenchRate, 0.0);
                applyWrenches(derivative, wrench);
                final double[] tau = new double[dof];
                final double[] tauRnea = new double[dof];
                final double[] tauDot = new double[dof];
                derivative.compute(motion.q, motion.qd, motion.qdd, motion.qddd, tau, tauDot);
                rnea.compute(motion.q, motion.qd, motion.qdd, tauRnea);
                assertArrayEquals(tauRnea, tau, 0.0, "seed " + seed + " state " + i + ": tau differs from InverseDynamics");
                worst = Math.max(worst, InverseDynamicsTest.assertClose(
                    expected, tauDot, TOLERANCE, "seed " + seed + " state " + i + " (" + dof + " dof)"));
                states++;
            }
        }
        System.out.printf("tau-dot vs 4th-order central difference over %d states: max relative error %.3e%n", states, worst);
    }

    private static void applyWrenches(
        final InverseDynamics rnea, final double[] wrench, final double[] wrenchRate, final double t)
    {
        for (int b = 0; b < wrench.length / 6; b++)
        {
            final int e = 6 * b;
            rnea.externalWrench(b, wrench[e] + t * wrenchRate[e], wrench[e + 1] + t * wrenchRate[e + 1],
                wrench[e + 2] + t * wrenchRate[e + 2], wrench[e + 3] + t * wrenchRate[e + 3],
                wrench[e + 4] + t * wrenchRate[e + 4], wrench[e + 5] + t * wrenchRate[e + 5]);
        }
    }

    private static void applyWrenches(final TorqueDerivative derivative, final double[] wrench)
    {
        for (int b = 0; b < wrench.length / 6; b++)
        {
            final int e = 6 * b;
            derivative.externalWrench(b, wrench[e], wrench[e + 1], wrench[e + 2], wrench[e + 3], wrench[e + 4], wrench[e + 5]);
        }
    }
}
