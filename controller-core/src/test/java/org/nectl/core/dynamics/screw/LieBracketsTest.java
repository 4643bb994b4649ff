package org.nectl.core.dynamics.screw;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.core.dynamics.screw.RigidTransformsTest.dot;
import static org.nectl.core.dynamics.screw.Se3Matrices.bracket;
import static org.nectl.core.dynamics.screw.Se3Matrices.maxDifference;
import static org.nectl.core.dynamics.screw.Se3Matrices.multiply;
import static org.nectl.core.dynamics.screw.Se3Matrices.randomTransform;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

final class LieBracketsTest
{
    private static final int CASES = 500;

    @Test
    void adIsTheCommutatorOfTwistMatrices()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] v = RandomRobots.vector(rnd, 6, 3);
            final double[] w = RandomRobots.vector(rnd, 6, 3);
            final double[] ad = new double[6];
            LieBrackets.ad(v, 0, w, 0, ad, 0);
            // [ad_V W] = [V][W] - [W][V]
            final double[][] vw = multiply(bracket(v, 1), bracket(w, 1));
            final double[][] wv = multiply(bracket(w, 1), bracket(v, 1));
            final double[][] commutator = new double[4][4];
            for (int i = 0; i < 4; i++)
            {
                for (int j = 0; j < 4; j++)
                {
                    commutator[i][j] = vw[i][j] - wv[i][j];
                }
            }
            assertTrue(maxDifference(Se3Matrices.vee(commutator), ad) <= 1e-13, "seed " + seed);
        }
    }

    @Test
    void adTransposeIsTheDualOfAd()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] v = RandomRobots.vector(rnd, 6, 3);
            final double[] w = RandomRobots.vector(rnd, 6, 3);
            final double[] f = RandomRobots.vector(rnd, 6, 3);
            final double[] adW = new double[6];
            final double[] adTf = new double[6];
            LieBrackets.ad(v, 0, w, 0, adW, 0);
            LieBrackets.adTranspose(v, 0, f, 0, adTf, 0);
            final double lhs = dot(f, adW);
            final double rhs = dot(adTf, w);
            assertTrue(Math.abs(lhs - rhs) <= 1e-12 * Math.max(1, Math.abs(lhs)), "seed " + seed);
        }
    }

    @Test
    void adOfATransformedTwistIsTheConjugatedAd()
    {
        for (long seed = 1; seed <= CASES; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] t = randomTransform(rnd);
            final double[] v = RandomRobots.vector(rnd, 6, 3);
            final double[] w = RandomRobots.vector(rnd, 6, 3);
            // ad_{Ad_T V} Ad_T W = Ad_T ad_V W
            final double[] tv = new double[6];
            final double[] tw = new double[6];
            final double[] lhs = new double[6];
            final double[] adVW = new double[6];
            final double[] rhs = new double[6];
            RigidTransforms.adjoint(t, 0, v, 0, tv, 0);
            RigidTransforms.adjoint(t, 0, w, 0, tw, 0);
            LieBrackets.ad(tv, 0, tw, 0, lhs, 0);
            LieBrackets.ad(v, 0, w, 0, adVW, 0);
            RigidTransforms.adjoint(t, 0, adVW, 0, rhs, 0);
            assertTrue(maxDifference(lhs, rhs) <= 1e-12, "seed " + seed);
        }
    }
}
