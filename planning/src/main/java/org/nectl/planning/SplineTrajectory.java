package org.nectl.planning;

import java.util.Arrays;

/**
 * A joint trajectory q(t) = sum_i N_i(t / T) p_i on [0, T]: one clamped B-spline per coordinate over
 * shared basis functions ({@link ClampedBSpline}), so the r-th time derivative is
 * q^(r)(t) = T^-r sum_i N_i^(r)(u) p_i with u = t / T.
 *
 * <p>Sensitivities are taken at a fixed normalised time u (constraint samples move with T):
 * d q^(r) / d p_ij = T^-r N_i^(r)(u) e_j and d q^(r) / d T = -r q^(r) / T.
 *
 * <p>Not thread safe (the basis workspace is shared).
 */
public final class SplineTrajectory
{
    /** Orders evaluated: position, velocity, acceleration, jerk. */
    public static final int ORDERS = 4;

    private final ClampedBSpline spline;
    private final int dof;
    private final double[] controlPoints;
    private double durationS;
    private final double[] basis;

    /**
     * @param spline the basis.
     * @param dof number of coordinates.
     * @param controlPoints control points, point-major: entry i dof + j is coordinate j of point i (copied).
     * @param durationS T, s, positive.
     */
    public SplineTrajectory(final ClampedBSpline spline, final int dof, final double[] controlPoints, final double durationS)
    {
        if (controlPoints.length != spline.controlPointCount() * dof)
        {
            throw new IllegalArgumentException("expected " + spline.controlPointCount() * dof + " control point values, got "
                + controlPoints.length);
        }
        this.spline = spline;
        this.dof = dof;
        this.controlPoints = controlPoints.clone();
        this.durationS = durationS;
        basis = new double[ORDERS * (spline.degree() + 1)];
    }

    /** @return the basis. */
    public ClampedBSpline spline()
    {
        return spline;
    }

    /** @return number of coordinates. */
    public int dof()
    {
        return dof;
    }

    /** @return T, s. */
    public double durationS()
    {
        return durationS;
    }

    /** @return a copy of the control points, point-major. */
    public double[] controlPoints()
    {
        return controlPoints.clone();
    }

    /**
     * Replaces the control points and the duration.
     *
     * @param points control points, point-major (read, not kept).
     * @param duration T, s.
     */
    public void set(final double[] points, final double duration)
    {
        System.arraycopy(points, 0, controlPoints, 0, controlPoints.length);
        durationS = duration;
    }

    /**
     * Evaluates the motion at normalised time u = t / T.
     *
     * @param u normalised time in [0, 1].
     * @param q output positions.
     * @param qd output velocities.
     * @param qdd output accelerations.
     * @param qddd output jerks.
     * @return index of the first control point that moves the curve at u (see {@link #basis()}).
     */
    public int evaluate(final double u, final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final int first = spline.evaluate(u, ORDERS, basis);
        final int width = spline.degree() + 1;
        Arrays.fill(q, 0, dof, 0.0);
        Arrays.fill(qd, 0, dof, 0.0);
        Arrays.fill(qdd, 0, dof, 0.0);
        Arrays.fill(qddd, 0, dof, 0.0);
        for (int k = 0; k < width; k++)
        {
            final int offset = (first + k) * dof;
            for (int j = 0; j < dof; j++)
            {
                final double p = controlPoints[offset + j];
                q[j] += basis[k] * p;
                qd[j] += basis[width + k] * p;
                qdd[j] += basis[2 * width + k] * p;
                qddd[j] += basis[3 * width + k] * p;
            }
        }
        final double rate = 1.0 / durationS;
        for (int j = 0; j < dof; j++)
        {
            qd[j] *= rate;
            qdd[j] *= rate * rate;
            qddd[j] *= rate * rate * rate;
        }
        return first;
    }

    /**
     * After {@link #evaluate}: the non-zero basis functions and their u-derivatives (not scaled by
     * T), {@link #ORDERS} x (degree + 1) row-major. Read-only view of the workspace.
     *
     * @return the basis workspace.
     */
    public double[] basis()
    {
        return basis;
    }
}
