package org.nectl.planning;

/** Fourth-order central differences, the oracle of the sensitivity tests (truncation h^4 f^(5) / 30). */
final class Differences
{
    /** A vector function of a vector writing into a caller-owned array. */
    interface VectorFunction
    {
        void apply(double[] x, double[] out);
    }

    private Differences()
    {
    }

    /**
     * @param f the function.
     * @param x the point (unchanged).
     * @param outputs length of f's value.
     * @param h step.
     * @return Jacobian, outputs x x.length row-major.
     */
    static double[] jacobian(final VectorFunction f, final double[] x, final int outputs, final double h)
    {
        final double[] jacobian = new double[outputs * x.length];
        final double[] value = new double[outputs];
        final double[] point = x.clone();
        final double[] steps = {-2.0, -1.0, 1.0, 2.0};
        final double[] weights = {1.0, -8.0, 8.0, -1.0};
        for (int k = 0; k < x.length; k++)
        {
            for (int s = 0; s < 4; s++)
            {
                point[k] = x[k] + steps[s] * h;
                f.apply(point, value);
                for (int r = 0; r < outputs; r++)
                {
                    jacobian[r * x.length + k] += weights[s] * value[r] / (12.0 * h);
                }
            }
            point[k] = x[k];
        }
        return jacobian;
    }

    /** A vector function of a trajectory's state (q, qd, qdd, qddd) writing into a caller-owned array. */
    interface StateFunction
    {
        void apply(double[] q, double[] qd, double[] qdd, double[] qddd, double[] out);
    }

    /**
     * @param spline the basis.
     * @param dof joints.
     * @param points control points, dof per point (unchanged).
     * @param duration T, s.
     * @param u normalised time t / T the state is taken at.
     * @param f the function of the state.
     * @return d f / d (points, T), dof x (points.length + 1) row-major, by {@link #jacobian} with
     *     the step 1e-4 min(1, T).
     */
    static double[] ofTrajectory(final ClampedBSpline spline, final int dof, final double[] points, final double duration,
        final double u, final StateFunction f)
    {
        final int columns = points.length;
        final double[] x = new double[columns + 1];
        System.arraycopy(points, 0, x, 0, columns);
        x[columns] = duration;
        final SplineTrajectory probe = new SplineTrajectory(spline, dof, points, duration);
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        return jacobian((xs, out) ->
        {
            probe.set(xs, xs[columns]);
            probe.evaluate(u, q, qd, qdd, qddd);
            f.apply(q, qd, qdd, qddd, out);
        }, x, dof, 1e-4 * Math.min(1.0, duration));
    }

    /** @return max |a - b| / max(max |b|, floor): the error relative to the Jacobian's scale. */
    static double relativeError(final double[] a, final double[] b, final double floor)
    {
        double scale = floor;
        double error = 0.0;
        for (int i = 0; i < a.length; i++)
        {
            scale = Math.max(scale, Math.abs(b[i]));
            error = Math.max(error, Math.abs(a[i] - b[i]));
        }
        return error / scale;
    }
}
