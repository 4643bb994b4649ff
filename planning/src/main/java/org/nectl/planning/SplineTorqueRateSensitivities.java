package org.nectl.planning;

import java.util.Arrays;

/**
 * Torque rates along a {@link SplineTrajectory} and their derivatives with respect to the control
 * points and the duration, by the chain rule through the analytic partials of tau-dot
 * ({@link TorqueRatePartials}; tau is never differenced):
 * <pre>
 *   d tau-dot / d p_ij = J_q,:j N_i + J_qd,:j N_i' / T + J_qdd,:j N_i'' / T^2 + J_qddd,:j N_i''' / T^3
 *   d tau-dot / d T    = -(J_qd qd + 2 J_qdd qdd + 3 J_qddd qddd) / T      (at fixed u = t / T)
 * </pre>
 * A cubic's third derivative jumps at the knots: bound tau-dot on a spline of degree 4 or more.
 *
 * <p>Not thread safe.
 */
public final class SplineTorqueRateSensitivities
{
    private final TorqueRatePartials partials;
    private final int dof;
    private final double[] q;
    private final double[] qd;
    private final double[] qdd;
    private final double[] qddd;
    private final double[] tau;
    private final double[] jacobian;

    /** @param partials the torque-rate partials of the robot. */
    public SplineTorqueRateSensitivities(final TorqueRatePartials partials, final int dof)
    {
        this.partials = partials;
        this.dof = dof;
        q = new double[dof];
        qd = new double[dof];
        qdd = new double[dof];
        qddd = new double[dof];
        tau = new double[dof];
        jacobian = new double[dof * 4 * dof];
    }

    /**
     * Computes tau-dot(u) and its sensitivities.
     *
     * @param trajectory the motion.
     * @param u normalised time in [0, 1].
     * @param tauDot output torque rates.
     * @param dTauDotDp output dof x (controlPointCount dof) row-major; column i dof + j is d tau-dot / d p_ij.
     * @param dTauDotDT output d tau-dot / d T at fixed u.
     */
    public void compute(
        final SplineTrajectory trajectory, final double u, final double[] tauDot, final double[] dTauDotDp, final double[] dTauDotDT)
    {
        final int first = trajectory.evaluate(u, q, qd, qdd, qddd);
        partials.compute(q, qd, qdd, qddd, tau, tauDot, jacobian);
        final double rate = 1.0 / trajectory.durationS();
        final double[] basis = trajectory.basis();
        final int width = trajectory.spline().degree() + 1;
        final int columns = trajectory.spline().controlPointCount() * dof;
        final int stride = 4 * dof;
        Arrays.fill(dTauDotDp, 0, dof * columns, 0.0);
        for (int r = 0; r < dof; r++)
        {
            double sum = 0.0;
            for (int j = 0; j < dof; j++)
            {
                final double jq = jacobian[r * stride + j];
                final double jqd = jacobian[r * stride + dof + j];
                final double jqdd = jacobian[r * stride + 2 * dof + j];
                final double jqddd = jacobian[r * stride + 3 * dof + j];
                sum += jqd * qd[j] + 2.0 * jqdd * qdd[j] + 3.0 * jqddd * qddd[j];
                for (int k = 0; k < width; k++)
                {
                    dTauDotDp[r * columns + (first + k) * dof + j] = jq * basis[k]
                        + (jqd * basis[width + k] + (jqdd * basis[2 * width + k] + jqddd * basis[3 * width + k] * rate) * rate) * rate;
                }
            }
            dTauDotDT[r] = -sum * rate;
        }
    }
}
