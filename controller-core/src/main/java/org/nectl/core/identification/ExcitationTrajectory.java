package org.nectl.core.identification;

import java.util.SplittableRandom;

/**
 * A periodic excitation for identification: every joint moves as a finite Fourier series
 * q_j(t) = q0_j + sum_k a_jk (1 - cos(k w t)) + b_jk sin(k w t) - (sum_k b_jk k) sin(w t), k = 1..3,
 * w = 2 pi / T, whose last term makes qd(0) = 0 (Swevers, Ganseman, Tukel, De Schutter, Van Brussel,
 * "Optimal robot excitation and identification", IEEE TRA 1997, use such series for their
 * periodicity). It starts and ends at q0 at rest, and the seeded coefficients are scaled so that
 * each joint stays within +-amplitude of q0. Immutable.
 */
public final class ExcitationTrajectory
{
    private static final int HARMONICS = 3;

    private final double[] start;
    private final double omega;
    private final double periodS;
    /** a then b per joint and harmonic, [joint][2 * HARMONICS]. */
    private final double[][] coefficients;

    /**
     * @param start q0, rad or m.
     * @param periodS the period T, s.
     * @param amplitude largest excursion of any joint from q0, rad or m.
     * @param seed coefficient seed.
     */
    public ExcitationTrajectory(final double[] start, final double periodS, final double amplitude, final long seed)
    {
        if (!(periodS > 0.0) || !(amplitude > 0.0))
        {
            throw new IllegalArgumentException("period " + periodS + " s and amplitude " + amplitude + " must be > 0");
        }
        this.start = start.clone();
        this.periodS = periodS;
        omega = 2.0 * Math.PI / periodS;
        final SplittableRandom rnd = new SplittableRandom(seed);
        coefficients = new double[start.length][2 * HARMONICS];
        final double[] q = new double[start.length];
        final double[] scratch = new double[start.length];
        for (final double[] c : coefficients)
        {
            for (int k = 0; k < 2 * HARMONICS; k++)
            {
                c[k] = rnd.nextDouble(-1.0, 1.0) / (1 + k % HARMONICS);
            }
        }
        final double[] largest = new double[start.length];
        for (int i = 0; i <= 1000; i++)
        {
            sample(i * periodS / 1000, q, scratch, scratch);
            for (int j = 0; j < q.length; j++)
            {
                largest[j] = Math.max(largest[j], Math.abs(q[j] - start[j]));
            }
        }
        for (int j = 0; j < start.length; j++)
        {
            for (int k = 0; k < 2 * HARMONICS; k++)
            {
                coefficients[j][k] *= amplitude / largest[j];
            }
        }
    }

    /** @return the period, s. */
    public double periodS()
    {
        return periodS;
    }

    /**
     * @param timeS time since the start, s; the motion repeats with the period.
     * @param q output positions.
     * @param qd output velocities.
     * @param qdd output accelerations.
     */
    public void sample(final double timeS, final double[] q, final double[] qd, final double[] qdd)
    {
        for (int j = 0; j < start.length; j++)
        {
            final double[] c = coefficients[j];
            double p = start[j];
            double v = 0.0;
            double a = 0.0;
            double drift = 0.0;
            for (int k = 1; k <= HARMONICS; k++)
            {
                final double w = k * omega;
                final double cos = Math.cos(w * timeS);
                final double sin = Math.sin(w * timeS);
                final double ak = c[k - 1];
                final double bk = c[HARMONICS + k - 1];
                p += ak * (1.0 - cos) + bk * sin;
                v += ak * w * sin + bk * w * cos;
                a += ak * w * w * cos - bk * w * w * sin;
                drift += bk * k;
            }
            final double sin1 = Math.sin(omega * timeS);
            final double cos1 = Math.cos(omega * timeS);
            q[j] = p - drift * sin1;
            qd[j] = v - drift * omega * cos1;
            qdd[j] = a + drift * omega * omega * sin1;
        }
    }

    /**
     * @param stepS waypoint spacing, s.
     * @return waypoints [time, q...] over one period, for a planner (docs/PLANNING.md trajectory CSV).
     */
    public double[][] waypoints(final double stepS)
    {
        final int count = (int)Math.round(periodS / stepS) + 1;
        final double[][] rows = new double[count][start.length + 1];
        final double[] scratch = new double[start.length];
        final double[] q = new double[start.length];
        for (int i = 0; i < count; i++)
        {
            final double t = Math.min(periodS, i * stepS);
            sample(t, q, scratch, scratch);
            rows[i][0] = t;
            System.arraycopy(q, 0, rows[i], 1, start.length);
        }
        return rows;
    }
}
