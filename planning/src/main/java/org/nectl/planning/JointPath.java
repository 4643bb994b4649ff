package org.nectl.planning;

/**
 * A geometric joint path q(s), s in [0, 1], through waypoints: per coordinate a natural cubic
 * spline on chord-length knots. Cubic because it is the lowest degree whose second derivative q''(s)
 * is continuous (so the path acceleration q'' s-dot^2 + q' s-ddot has no jump from the geometry, and
 * the torque rate along a smooth time law stays bounded); natural (q'' = 0 at both ends) because it
 * leaves q'(s) free at the ends, where the motion starts and stops through s-dot = 0; chord length
 * because uniform knots overshoot between unevenly spaced waypoints. q'''(s) is piecewise constant.
 * The tridiagonal system of the second derivatives is a dozen lines (no spline library is on the
 * module's class path).
 */
public final class JointPath
{
    private final int dof;
    private final double[] knots;
    private final double[][] values;
    private final double[][] secondDerivatives;

    /**
     * @param waypoints waypoints[k][j]: coordinate j of waypoint k; at least 2, consecutive ones distinct.
     * @throws IllegalArgumentException if fewer than 2 waypoints, coordinates disagree, or two consecutive waypoints coincide.
     */
    public JointPath(final double[][] waypoints)
    {
        final int count = waypoints.length;
        if (count < 2)
        {
            throw new IllegalArgumentException("a path needs at least 2 waypoints, got " + count);
        }
        dof = waypoints[0].length;
        knots = new double[count];
        for (int k = 1; k < count; k++)
        {
            if (waypoints[k].length != dof)
            {
                throw new IllegalArgumentException("waypoint " + (k + 1) + " has " + waypoints[k].length + " coordinates, the first has " + dof);
            }
            double squared = 0.0;
            for (int j = 0; j < dof; j++)
            {
                final double d = waypoints[k][j] - waypoints[k - 1][j];
                squared += d * d;
            }
            final double chord = Math.sqrt(squared);
            if (!(chord > 1e-9))
            {
                throw new IllegalArgumentException("waypoints " + k + " and " + (k + 1) + " coincide (a path must move between consecutive waypoints)");
            }
            knots[k] = knots[k - 1] + chord;
        }
        final double length = knots[count - 1];
        for (int k = 0; k < count; k++)
        {
            knots[k] /= length;
        }
        knots[count - 1] = 1.0;
        values = new double[dof][count];
        secondDerivatives = new double[dof][count];
        for (int j = 0; j < dof; j++)
        {
            for (int k = 0; k < count; k++)
            {
                values[j][k] = waypoints[k][j];
            }
            solveNatural(knots, values[j], secondDerivatives[j]);
        }
    }

    /** @return the number of coordinates. */
    public int dof()
    {
        return dof;
    }

    /** @return the waypoints' path parameters (chord length, normalised to [0, 1]). */
    public double[] knots()
    {
        return knots.clone();
    }

    /**
     * q and its first three derivatives with respect to s.
     *
     * @param s path parameter, clamped to [0, 1].
     * @param q output q(s).
     * @param dq output q'(s).
     * @param ddq output q''(s).
     * @param dddq output q'''(s) (piecewise constant; the right-hand value at a knot).
     */
    public void evaluate(final double s, final double[] q, final double[] dq, final double[] ddq, final double[] dddq)
    {
        final double clamped = Math.max(0.0, Math.min(1.0, s));
        int span = 0;
        int high = knots.length - 2;
        while (span < high)
        {
            final int mid = (span + high + 1) >>> 1;
            if (knots[mid] <= clamped)
            {
                span = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        final double h = knots[span + 1] - knots[span];
        final double a = (knots[span + 1] - clamped) / h;
        final double b = (clamped - knots[span]) / h;
        for (int j = 0; j < dof; j++)
        {
            final double y0 = values[j][span];
            final double y1 = values[j][span + 1];
            final double m0 = secondDerivatives[j][span];
            final double m1 = secondDerivatives[j][span + 1];
            q[j] = a * y0 + b * y1 + ((a * a * a - a) * m0 + (b * b * b - b) * m1) * h * h / 6.0;
            dq[j] = (y1 - y0) / h - (3.0 * a * a - 1.0) * h * m0 / 6.0 + (3.0 * b * b - 1.0) * h * m1 / 6.0;
            ddq[j] = a * m0 + b * m1;
            dddq[j] = (m1 - m0) / h;
        }
    }

    /** Second derivatives of the natural cubic spline through (x, y): the Thomas algorithm on the tridiagonal system. */
    private static void solveNatural(final double[] x, final double[] y, final double[] second)
    {
        final int n = x.length;
        if (n < 3)
        {
            return;
        }
        final double[] diagonal = new double[n];
        final double[] rhs = new double[n];
        final double[] upper = new double[n];
        for (int k = 1; k < n - 1; k++)
        {
            final double h0 = x[k] - x[k - 1];
            final double h1 = x[k + 1] - x[k];
            final double lower = h0 / 6.0;
            double d = (h0 + h1) / 3.0;
            double r = (y[k + 1] - y[k]) / h1 - (y[k] - y[k - 1]) / h0;
            if (k > 1)
            {
                final double factor = lower / diagonal[k - 1];
                d -= factor * upper[k - 1];
                r -= factor * rhs[k - 1];
            }
            diagonal[k] = d;
            upper[k] = h1 / 6.0;
            rhs[k] = r;
        }
        for (int k = n - 2; k >= 1; k--)
        {
            second[k] = (rhs[k] - (k < n - 2 ? upper[k] * second[k + 1] : 0.0)) / diagonal[k];
        }
    }
}
