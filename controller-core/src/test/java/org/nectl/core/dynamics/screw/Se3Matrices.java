package org.nectl.core.dynamics.screw;

import java.util.SplittableRandom;

import org.nectl.core.testing.RandomRobots;

/**
 * Test oracle: 4x4 homogeneous matrices and the 4x4 form [V] of a twist, with plain matrix products,
 * so that identities can be checked without the flat-array operations under test.
 */
final class Se3Matrices
{
    private Se3Matrices()
    {
    }

    /** @return the 4x4 matrix of a transform held as 12 doubles (R row-major, p). */
    static double[][] homogeneous(final double[] t)
    {
        return new double[][] {
            {t[0], t[1], t[2], t[9]},
            {t[3], t[4], t[5], t[10]},
            {t[6], t[7], t[8], t[11]},
            {0, 0, 0, 1}};
    }

    /** @return [V] = [[w], v; 0, 0] for V = (w, v), scaled by s. */
    static double[][] bracket(final double[] v, final double s)
    {
        return new double[][] {
            {0, -v[2] * s, v[1] * s, v[3] * s},
            {v[2] * s, 0, -v[0] * s, v[4] * s},
            {-v[1] * s, v[0] * s, 0, v[5] * s},
            {0, 0, 0, 0}};
    }

    /** @return V from [V] (the vee map), reading the skew part from its lower triangle. */
    static double[] vee(final double[][] m)
    {
        return new double[] {m[2][1], m[0][2], m[1][0], m[0][3], m[1][3], m[2][3]};
    }

    static double[][] multiply(final double[][] a, final double[][] b)
    {
        final double[][] r = new double[4][4];
        for (int i = 0; i < 4; i++)
        {
            for (int j = 0; j < 4; j++)
            {
                for (int k = 0; k < 4; k++)
                {
                    r[i][j] += a[i][k] * b[k][j];
                }
            }
        }
        return r;
    }

    /** @return a random transform, 12 doubles. */
    static double[] randomTransform(final SplittableRandom rnd)
    {
        final double[] t = new double[RigidTransforms.SIZE];
        System.arraycopy(RandomRobots.randomRotation(rnd), 0, t, 0, 9);
        System.arraycopy(RandomRobots.vector(rnd, 3, 2), 0, t, 9, 3);
        return t;
    }

    static double maxDifference(final double[] a, final double[] b)
    {
        double d = 0.0;
        for (int k = 0; k < a.length; k++)
        {
            d = Math.max(d, Math.abs(a[k] - b[k]));
        }
        return d;
    }

    static double maxDifference(final double[][] a, final double[][] b)
    {
        double d = 0.0;
        for (int r = 0; r < a.length; r++)
        {
            d = Math.max(d, maxDifference(a[r], b[r]));
        }
        return d;
    }
}
