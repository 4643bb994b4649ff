package org.nectl.core.identification;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.dense.row.factory.LinearSolverFactory_DDRM;
import org.ejml.interfaces.decomposition.SingularValueDecomposition_F64;
import org.ejml.interfaces.linsol.LinearSolverDense;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;

/**
 * Least-squares estimate of a payload's inertial parameters from motion samples: stack, for every
 * sample, Y(q, qd, qdd) pi = tau - RNEA_nominal(q, qd, qdd) ({@link PayloadRegressor}) and solve with
 * EJML's QR least squares. Conditioning is judged on the regressor with every column scaled to unit
 * norm (so units do not enter): its singular values and condition number, and the standard error of
 * every parameter from the residual. If the inertia columns are too weakly excited (scaled condition
 * number above {@value #MAX_CONDITION}), the inertia is not identified: mass and first moment are
 * solved alone and the inertia is reported as unknown.
 *
 * <p>Not real-time safe. Not thread safe.
 */
public final class PayloadIdentification
{
    /** Largest condition number of the column-scaled regressor for which every parameter counts as identified. */
    public static final double MAX_CONDITION = 1e4;
    private static final int MASS_AND_MOMENT = 4;

    private final PayloadRegressor regressor;
    private final int dof;
    private final double[] y;
    private final double[] nominalTau;
    private double[] rows = new double[0];
    private double[] rhs = new double[0];
    private int samples;

    /**
     * @param model the robot without payload, as the controller knows it.
     * @param body the body that carries the payload.
     */
    public PayloadIdentification(final RobotModel model, final int body)
    {
        regressor = new PayloadRegressor(model, body);
        dof = model.dof();
        y = new double[dof * PayloadRegressor.PARAMETERS];
        nominalTau = new double[dof];
    }

    /**
     * @param gx x component of gravity in the base frame, m/s^2.
     * @param gy y component.
     * @param gz z component.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        regressor.gravity(gx, gy, gz);
    }

    /**
     * Adds one sample.
     *
     * @param q positions, rad or m.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tau the joint torques that produced them (measured, or commanded on ideal drives), N m or N.
     */
    public void add(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        regressor.compute(q, qd, qdd, y, nominalTau);
        final int n = PayloadRegressor.PARAMETERS;
        if ((samples + 1) * dof > rhs.length)
        {
            final int capacity = Math.max(64, 2 * (samples + 1)) * dof;
            rows = Arrays.copyOf(rows, capacity * n);
            rhs = Arrays.copyOf(rhs, capacity);
        }
        System.arraycopy(y, 0, rows, samples * dof * n, dof * n);
        for (int k = 0; k < dof; k++)
        {
            rhs[samples * dof + k] = tau[k] - nominalTau[k];
        }
        samples++;
    }

    /** @return samples added. */
    public int samples()
    {
        return samples;
    }

    /**
     * @return the estimate with its conditioning report.
     * @throws IllegalStateException with fewer equations than parameters.
     */
    public PayloadEstimate estimate()
    {
        final int n = PayloadRegressor.PARAMETERS;
        final int m = samples * dof;
        if (m < 2 * n)
        {
            throw new IllegalStateException(samples + " samples give " + m + " equations; at least " + 2 * n + " are needed");
        }
        final DMatrixRMaj a = DMatrixRMaj.wrap(m, n, Arrays.copyOf(rows, m * n));
        final DMatrixRMaj b = DMatrixRMaj.wrap(m, 1, Arrays.copyOf(rhs, m));
        final double[] scale = columnNorms(a, n);
        final double[] singular = scaledSingularValues(a, scale);
        final double condition = singular[0] / singular[singular.length - 1];
        final boolean inertiaIdentified = condition <= MAX_CONDITION;
        final int solved = inertiaIdentified ? n : MASS_AND_MOMENT;
        final DMatrixRMaj used = inertiaIdentified ? a : CommonOps_DDRM.extract(a, 0, m, 0, MASS_AND_MOMENT);
        final double[] usedScale = Arrays.copyOf(scale, solved);
        final double[] x = solve(used, b, usedScale);
        final double rss = residualSumOfSquares(used, b, x);
        final double[] standardError = standardErrors(used, usedScale, rss / Math.max(1, m - solved));
        final double[] parameters = Arrays.copyOf(x, n);
        final double[] errors = Arrays.copyOf(standardError, n);
        if (!inertiaIdentified)
        {
            Arrays.fill(parameters, MASS_AND_MOMENT, n, Double.NaN);
            Arrays.fill(errors, MASS_AND_MOMENT, n, Double.NaN);
        }
        return new PayloadEstimate(parameters, errors, singular, condition, inertiaIdentified, Math.sqrt(rss / m), samples);
    }

    private static double[] columnNorms(final DMatrixRMaj a, final int n)
    {
        final double[] norms = new double[n];
        for (int r = 0; r < a.numRows; r++)
        {
            for (int c = 0; c < n; c++)
            {
                norms[c] += a.get(r, c) * a.get(r, c);
            }
        }
        for (int c = 0; c < n; c++)
        {
            norms[c] = norms[c] > 0.0 ? Math.sqrt(norms[c]) : 1.0;
        }
        return norms;
    }

    private static DMatrixRMaj scaled(final DMatrixRMaj a, final double[] scale)
    {
        final DMatrixRMaj s = new DMatrixRMaj(a.numRows, scale.length);
        for (int r = 0; r < a.numRows; r++)
        {
            for (int c = 0; c < scale.length; c++)
            {
                s.set(r, c, a.get(r, c) / scale[c]);
            }
        }
        return s;
    }

    /** @return singular values of the column-scaled regressor, largest first. */
    private static double[] scaledSingularValues(final DMatrixRMaj a, final double[] scale)
    {
        final SingularValueDecomposition_F64<DMatrixRMaj> svd = DecompositionFactory_DDRM.svd(a.numRows, scale.length,
            false, false, true);
        if (!svd.decompose(scaled(a, scale)))
        {
            throw new IllegalStateException("singular value decomposition of the regressor failed");
        }
        final double[] values = Arrays.copyOf(svd.getSingularValues(), scale.length);
        Arrays.sort(values);
        for (int i = 0; i < values.length / 2; i++)
        {
            final double t = values[i];
            values[i] = values[values.length - 1 - i];
            values[values.length - 1 - i] = t;
        }
        return values;
    }

    /** QR least squares on the column-scaled problem, scaled back. */
    private static double[] solve(final DMatrixRMaj a, final DMatrixRMaj b, final double[] scale)
    {
        final LinearSolverDense<DMatrixRMaj> solver = LinearSolverFactory_DDRM.leastSquares(a.numRows, scale.length);
        if (!solver.setA(scaled(a, scale)))
        {
            throw new IllegalStateException("the regressor is rank deficient: the motion does not excite these parameters");
        }
        final DMatrixRMaj x = new DMatrixRMaj(scale.length, 1);
        solver.solve(b, x);
        final double[] parameters = new double[scale.length];
        for (int c = 0; c < scale.length; c++)
        {
            parameters[c] = x.get(c) / scale[c];
        }
        return parameters;
    }

    private static double residualSumOfSquares(final DMatrixRMaj a, final DMatrixRMaj b, final double[] x)
    {
        double sum = 0.0;
        for (int r = 0; r < a.numRows; r++)
        {
            double e = -b.get(r);
            for (int c = 0; c < x.length; c++)
            {
                e += a.get(r, c) * x[c];
            }
            sum += e * e;
        }
        return sum;
    }

    /** sqrt(diag(sigma^2 (A^T A)^-1)), through the scaled matrix for accuracy. */
    private static double[] standardErrors(final DMatrixRMaj a, final double[] scale, final double variance)
    {
        final DMatrixRMaj s = scaled(a, scale);
        final DMatrixRMaj normal = new DMatrixRMaj(scale.length, scale.length);
        CommonOps_DDRM.multTransA(s, s, normal);
        final double[] errors = new double[scale.length];
        if (!CommonOps_DDRM.invert(normal))
        {
            Arrays.fill(errors, Double.POSITIVE_INFINITY);
            return errors;
        }
        for (int c = 0; c < scale.length; c++)
        {
            errors[c] = Math.sqrt(Math.max(0.0, variance * normal.get(c, c))) / scale[c];
        }
        return errors;
    }

    /**
     * @param parameters the ten parameters.
     * @return them as a body, for {@link Payloads#withPayload}; a payload whose inertia was not
     *     identified gets that of a point mass at its centre of mass.
     */
    public static InertialParameters body(final double[] parameters)
    {
        if (Double.isNaN(parameters[MASS_AND_MOMENT]))
        {
            final double m = parameters[0];
            return InertialParameters.ofCentreOfMass(m, new double[] {parameters[1] / m, parameters[2] / m, parameters[3] / m},
                new double[9]);
        }
        return Payloads.ofVector(parameters);
    }
}
