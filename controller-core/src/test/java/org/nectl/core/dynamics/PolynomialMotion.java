package org.nectl.core.dynamics;

import java.util.SplittableRandom;

/**
 * A joint motion q(t) = q + qd t + qdd t^2/2 + qddd t^3/6 with its exact derivatives, and the
 * 4th-order central difference used to check time derivatives along it.
 */
final class PolynomialMotion
{
    /** The four sample times of the central difference, in units of the step. */
    static final double[] STEPS = {-2.0, -1.0, 1.0, 2.0};

    final double[] q0;
    final double[] qd0;
    final double[] qdd0;
    final double[] qddd;
    final double[] q;
    final double[] qd;
    final double[] qdd;

    /**
     * Draws a random state: q in [-pi, pi), |qd| in [0.2, 2) (away from 0, so Coulomb friction is
     * smooth along short motions), qdd in [-3, 3), qddd in [-5, 5).
     */
    PolynomialMotion(final SplittableRandom rnd, final int dof)
    {
        q0 = new double[dof];
        qd0 = new double[dof];
        qdd0 = new double[dof];
        qddd = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            q0[k] = rnd.nextDouble(-Math.PI, Math.PI);
            qd0[k] = rnd.nextDouble(0.2, 2.0) * (rnd.nextBoolean() ? 1.0 : -1.0);
            qdd0[k] = rnd.nextDouble(-3.0, 3.0);
            qddd[k] = rnd.nextDouble(-5.0, 5.0);
        }
        q = q0.clone();
        qd = qd0.clone();
        qdd = qdd0.clone();
    }

    /** Sets q, qd, qdd to their values at time t, s. */
    void at(final double t)
    {
        for (int k = 0; k < q0.length; k++)
        {
            q[k] = q0[k] + t * (qd0[k] + t * (qdd0[k] / 2.0 + t * qddd[k] / 6.0));
            qd[k] = qd0[k] + t * (qdd0[k] + t * qddd[k] / 2.0);
            qdd[k] = qdd0[k] + t * qddd[k];
        }
    }

    /**
     * @param samples f at -2h, -h, h, 2h.
     * @param h step, s.
     * @return f'(0) with truncation error h^4 f^(5) / 30.
     */
    static double centralDifference(final double[] samples, final double h)
    {
        return (samples[0] - 8.0 * samples[1] + 8.0 * samples[2] - samples[3]) / (12.0 * h);
    }
}
