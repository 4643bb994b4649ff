package org.nectl.planning;

/**
 * Basis functions of a clamped B-spline of any degree on the normalised interval u in [0, 1], with
 * evenly spaced interior knots (Barman, "Recursive Newton-Euler dynamics and sensitivity analysis
 * for dynamic motion planning", MSc thesis, Oklahoma State University, 2020, eqs. 4.13-4.14), and
 * their derivatives with respect to u up to any order, by Cox-de Boor's recursion in the form of
 * Piegl and Tiller, "The NURBS Book", 2nd ed., 1997, algorithms A2.1 (span) and A2.3 (basis
 * function derivatives).
 *
 * <p>The knot vector has degree + 1 zeros, the interior knots k / s for k = 1 .. s - 1 with
 * s = controlPointCount - degree spans, and degree + 1 ones. A curve q(u) = sum_i N_i(u) p_i then
 * passes through its first and last control points, and q'(0) = degree s (p_1 - p_0), so a rest
 * start or end is p_1 = p_0 or p_{m-2} = p_{m-1}. The curve is linear in its control points, so
 * d q^(r)(u) / d p_i = N_i^(r)(u): the basis values are the sensitivities.
 *
 * <p>Why hand-written: no library on Maven Central found gives B-spline basis functions with their
 * derivatives. Hipparchus 4.0.3 (analysis.interpolation: SplineInterpolator, AkimaSplineInterpolator,
 * HermiteInterpolator, the bicubic and tricubic interpolators; analysis.polynomials:
 * PolynomialSplineFunction) and Apache Commons Math 3.6.1 (the same set) interpolate data with
 * piecewise polynomials in their power basis; none exposes a B-spline basis, control points or
 * derivatives with respect to them. EJML and ojAlgo have no splines. The recursion is thirty lines.
 *
 * <p>Not thread safe (a workspace is reused); allocates nothing per call.
 */
public final class ClampedBSpline
{
    private final int degree;
    private final int controlPointCount;
    private final double[] knots;
    private final double[] left;
    private final double[] right;
    /** Piegl and Tiller's ndu: basis values in the lower triangle, knot differences in the upper. */
    private final double[][] ndu;
    private final double[][] a;

    /**
     * @param degree polynomial degree, at least 1 (3: cubic).
     * @param controlPointCount number of control points per coordinate, at least degree + 1.
     */
    public ClampedBSpline(final int degree, final int controlPointCount)
    {
        if (degree < 1)
        {
            throw new IllegalArgumentException("B-spline degree must be at least 1, got " + degree);
        }
        if (controlPointCount < degree + 1)
        {
            throw new IllegalArgumentException("a degree-" + degree + " B-spline needs at least " + (degree + 1)
                + " control points, got " + controlPointCount);
        }
        this.degree = degree;
        this.controlPointCount = controlPointCount;
        final int spans = controlPointCount - degree;
        knots = new double[controlPointCount + degree + 1];
        for (int k = 0; k < knots.length; k++)
        {
            knots[k] = Math.min(1.0, Math.max(0.0, (double)(k - degree) / spans));
        }
        left = new double[degree + 1];
        right = new double[degree + 1];
        ndu = new double[degree + 1][degree + 1];
        a = new double[2][degree + 1];
    }

    /** @return the polynomial degree. */
    public int degree()
    {
        return degree;
    }

    /** @return the number of control points per coordinate. */
    public int controlPointCount()
    {
        return controlPointCount;
    }

    /** @return the number of knot spans (polynomial pieces) on [0, 1]. */
    public int spanCount()
    {
        return controlPointCount - degree;
    }

    /**
     * Greville abscissa of a control point: the mean of its degree interior knots, where a control
     * polygon placed on a straight line gives a curve moving uniformly along it.
     *
     * @param index control point index.
     * @return its abscissa in [0, 1].
     */
    public double greville(final int index)
    {
        double sum = 0.0;
        for (int k = 1; k <= degree; k++)
        {
            sum += knots[index + k];
        }
        return sum / degree;
    }

    /**
     * Evaluates the degree + 1 basis functions that are non-zero at u, and their derivatives.
     *
     * @param u normalised time, clamped into [0, 1].
     * @param orders number of orders wanted: 1 for values only, 4 for values and three derivatives.
     * @param out output, orders x (degree + 1) row-major: out[r (degree + 1) + j] = d^r N_{first + j} / du^r.
     * @return first, the index of the first control point whose basis function is in out.
     */
    public int evaluate(final double u, final int orders, final double[] out)
    {
        final double x = Math.min(1.0, Math.max(0.0, u));
        final int span = span(x);
        final int p = degree;
        ndu[0][0] = 1.0;
        for (int j = 1; j <= p; j++)
        {
            left[j] = x - knots[span + 1 - j];
            right[j] = knots[span + j] - x;
            double saved = 0.0;
            for (int r = 0; r < j; r++)
            {
                ndu[j][r] = right[r + 1] + left[j - r];
                final double temp = ndu[r][j - 1] / ndu[j][r];
                ndu[r][j] = saved + right[r + 1] * temp;
                saved = left[j - r] * temp;
            }
            ndu[j][j] = saved;
        }
        for (int j = 0; j <= p; j++)
        {
            out[j] = ndu[j][p];
        }
        for (int r = 0; r <= p; r++)
        {
            derivativesOfOne(r, orders, out);
        }
        // A2.3 leaves the k-th derivative without the factor p! / (p - k)!
        double factor = p;
        for (int k = 1; k < orders; k++)
        {
            for (int j = 0; j <= p; j++)
            {
                out[k * (p + 1) + j] *= factor;
            }
            factor *= p - k;
        }
        return span - p;
    }

    /** Derivatives of basis function span - p + r (Piegl and Tiller A2.3, inner loop). */
    private void derivativesOfOne(final int r, final int orders, final double[] out)
    {
        final int p = degree;
        int s1 = 0;
        int s2 = 1;
        a[0][0] = 1.0;
        for (int k = 1; k < orders; k++)
        {
            double d = 0.0;
            final int rk = r - k;
            final int pk = p - k;
            if (k > p)
            {
                out[k * (p + 1) + r] = 0.0;
                continue;
            }
            if (r >= k)
            {
                a[s2][0] = a[s1][0] / ndu[pk + 1][rk];
                d = a[s2][0] * ndu[rk][pk];
            }
            final int j1 = rk >= -1 ? 1 : -rk;
            final int j2 = r - 1 <= pk ? k - 1 : p - r;
            for (int j = j1; j <= j2; j++)
            {
                a[s2][j] = (a[s1][j] - a[s1][j - 1]) / ndu[pk + 1][rk + j];
                d += a[s2][j] * ndu[rk + j][pk];
            }
            if (r <= pk)
            {
                a[s2][k] = -a[s1][k - 1] / ndu[pk + 1][r];
                d += a[s2][k] * ndu[r][pk];
            }
            out[k * (p + 1) + r] = d;
            final int swap = s1;
            s1 = s2;
            s2 = swap;
        }
    }

    /** The knot span index k with knots[k] <= u < knots[k + 1] (the last span for u = 1). */
    private int span(final double u)
    {
        final int last = controlPointCount - 1;
        if (u >= knots[last + 1])
        {
            return last;
        }
        // even interior knots: the span follows from u directly
        final int span = degree + (int)Math.floor(u * spanCount());
        return Math.min(last, Math.max(degree, span));
    }
}
