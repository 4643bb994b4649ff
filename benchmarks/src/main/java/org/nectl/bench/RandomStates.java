package org.nectl.bench;

import java.util.SplittableRandom;

/**
 * A fixed, seeded set of joint states that benchmarks cycle through, so that branch predictors and
 * caches see varied inputs rather than one state repeated. Not thread safe.
 */
final class RandomStates
{
    private static final int COUNT = 1024;

    private final double[][] q;
    private final double[][] qd;
    private final double[][] qdd;
    private final double[][] qddd;
    private int next;

    RandomStates(final int dof, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        q = fill(rnd, dof, Math.PI);
        qd = fill(rnd, dof, 2.0);
        qdd = fill(rnd, dof, 5.0);
        qddd = fill(rnd, dof, 20.0);
    }

    private static double[][] fill(final SplittableRandom rnd, final int dof, final double scale)
    {
        final double[][] values = new double[COUNT][dof];
        for (final double[] v : values)
        {
            for (int i = 0; i < dof; i++)
            {
                v[i] = rnd.nextDouble(-scale, scale);
            }
        }
        return values;
    }

    /** Advances to the next state; returns its index. */
    int advance()
    {
        next = (next + 1) & (COUNT - 1);
        return next;
    }

    double[] q(final int i)
    {
        return q[i];
    }

    double[] qd(final int i)
    {
        return qd[i];
    }

    double[] qdd(final int i)
    {
        return qdd[i];
    }

    double[] qddd(final int i)
    {
        return qddd[i];
    }
}
