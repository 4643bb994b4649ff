package org.nectl.core.dynamics.screw;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.core.dynamics.screw.Se3Matrices.bracket;
import static org.nectl.core.dynamics.screw.Se3Matrices.homogeneous;
import static org.nectl.core.dynamics.screw.Se3Matrices.maxDifference;
import static org.nectl.core.dynamics.screw.Se3Matrices.multiply;
import static org.nectl.core.dynamics.screw.Se3Matrices.randomTransform;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

final class RigidTransformsTest
{
    private static final int CASES = 500;

    @Test
    void exponentialOfAScrewMatchesTheMatrixExponentialSeries()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            // Unnormalised screws, including pure translations every fifth case.
            final double[] screw = RandomRobots.vector(rnd, 6, 1.5);
            if (seed % 5 == 0)
            {
                screw[0] = 0;
                screw[1] = 0;
                screw[2] = 0;
            }
            final double theta = rnd.nextDouble(-2, 2);
            final double[] t = new double[RigidTransforms.SIZE];
            RigidTransforms.exp(screw, 0, theta, t, 0);
            final double[][] series = seriesExponential(bracket(screw, theta));
            // |[S] theta| <= ~6: the series' terms peak near 6^6/6! ~ 65, so ~1e-14 of rounding.
            final double error = maxDifference(series, homogeneous(t));
            assertTrue(error <= 1e-12, "seed " + seed + ": exp differs from its series by " + error);
        }
    }

    @Test
    void exponentialsAlongOneScrewCompose()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] screw = RandomRobots.vector(rnd, 6, 1.5);
            final double a = rnd.nextDouble(-4, 4);
            final double b = rnd.nextDouble(-4, 4);
            final double[] ta = new double[12];
            final double[] tb = new double[12];
            final double[] sum = new double[12];
            final double[] product = new double[12];
            RigidTransforms.exp(screw, 0, a, ta, 0);
            RigidTransforms.exp(screw, 0, b, tb, 0);
            RigidTransforms.exp(screw, 0, a + b, sum, 0);
            RigidTransforms.compose(ta, 0, tb, 0, product, 0);
            assertTrue(maxDifference(sum, product) <= 1e-12, "seed " + seed);
        }
    }

    @Test
    void composeAndInvertAgreeWithHomogeneousMatrices()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] a = randomTransform(rnd);
            final double[] b = randomTransform(rnd);
            final double[] ab = new double[12];
            final double[] inverse = new double[12];
            RigidTransforms.compose(a, 0, b, 0, ab, 0);
            RigidTransforms.invert(a, 0, inverse, 0);
            assertTrue(maxDifference(multiply(homogeneous(a), homogeneous(b)), homogeneous(ab)) <= 1e-14,
                "seed " + seed);
            final double[][] identity = multiply(homogeneous(a), homogeneous(inverse));
            final double[] id = new double[12];
            RigidTransforms.identity(id, 0);
            assertTrue(maxDifference(homogeneous(id), identity) <= 1e-14, "seed " + seed);
        }
    }

    @Test
    void adjointIsConjugationOfTheTwistMatrix()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] t = randomTransform(rnd);
            final double[] twist = RandomRobots.vector(rnd, 6, 3);
            final double[] inverse = new double[12];
            RigidTransforms.invert(t, 0, inverse, 0);
            final double[] image = new double[6];
            RigidTransforms.adjoint(t, 0, twist, 0, image, 0);
            // [Ad_T V] = T [V] T^-1
            final double[][] conjugated = multiply(multiply(homogeneous(t), bracket(twist, 1)), homogeneous(inverse));
            assertTrue(maxDifference(Se3Matrices.vee(conjugated), image) <= 1e-13, "seed " + seed);
        }
    }

    @Test
    void adjointsComposeAndInvertLikeTheirTransforms()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] a = randomTransform(rnd);
            final double[] b = randomTransform(rnd);
            final double[] twist = RandomRobots.vector(rnd, 6, 3);
            final double[] ab = new double[12];
            RigidTransforms.compose(a, 0, b, 0, ab, 0);
            final double[] viaB = new double[6];
            final double[] viaBa = new double[6];
            final double[] direct = new double[6];
            // Ad_{AB} = Ad_A Ad_B
            RigidTransforms.adjoint(b, 0, twist, 0, viaB, 0);
            RigidTransforms.adjoint(a, 0, viaB, 0, viaBa, 0);
            RigidTransforms.adjoint(ab, 0, twist, 0, direct, 0);
            assertTrue(maxDifference(viaBa, direct) <= 1e-13, "seed " + seed + ": Ad_AB != Ad_A Ad_B");
            // Ad_{A^-1} Ad_A = 1
            final double[] inverse = new double[12];
            RigidTransforms.invert(a, 0, inverse, 0);
            final double[] back = new double[6];
            final double[] there = new double[6];
            RigidTransforms.adjoint(a, 0, twist, 0, there, 0);
            RigidTransforms.adjoint(inverse, 0, there, 0, back, 0);
            assertTrue(maxDifference(twist, back) <= 1e-13, "seed " + seed + ": Ad_A^-1 Ad_A != 1");
        }
    }

    @Test
    void wrenchTransformPreservesPowerAndMatchesTheAdjointMatrix()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] t = randomTransform(rnd);
            final double[] twist = RandomRobots.vector(rnd, 6, 3);
            final double[] wrench = RandomRobots.vector(rnd, 6, 3);
            final double[] twistA = new double[6];
            final double[] wrenchB = new double[6];
            RigidTransforms.adjoint(t, 0, twist, 0, twistA, 0);
            RigidTransforms.adjointTranspose(t, 0, wrench, 0, wrenchB, 0);
            // <F_a, Ad V_b> = <Ad^T F_a, V_b>: the power is frame independent.
            final double powerA = dot(wrench, twistA);
            final double powerB = dot(wrenchB, twist);
            assertTrue(Math.abs(powerA - powerB) <= 1e-12 * Math.max(1, Math.abs(powerA)), "seed " + seed);
            final double[] matrix = new double[36];
            RigidTransforms.adjointMatrix(t, 0, matrix);
            final double[] transposeApplied = new double[6];
            for (int r = 0; r < 6; r++)
            {
                for (int c = 0; c < 6; c++)
                {
                    transposeApplied[r] += matrix[6 * c + r] * wrench[c];
                }
            }
            assertTrue(maxDifference(transposeApplied, wrenchB) <= 1e-13, "seed " + seed);
        }
    }

    static double dot(final double[] a, final double[] b)
    {
        double s = 0.0;
        for (int k = 0; k < a.length; k++)
        {
            s += a[k] * b[k];
        }
        return s;
    }

    /** exp(X) = sum X^k / k!, summed until the terms vanish in double precision. */
    private static double[][] seriesExponential(final double[][] x)
    {
        final double[][] sum = new double[4][4];
        double[][] term = new double[4][4];
        for (int i = 0; i < 4; i++)
        {
            sum[i][i] = 1.0;
            term[i][i] = 1.0;
        }
        for (int k = 1; k < 60; k++)
        {
            term = multiply(term, x);
            for (int i = 0; i < 4; i++)
            {
                for (int j = 0; j < 4; j++)
                {
                    term[i][j] /= k;
                    sum[i][j] += term[i][j];
                }
            }
        }
        return sum;
    }
}
