package org.nectl.planning;

import java.util.Arrays;

/**
 * Joint torques along a {@link SplineTrajectory} and their derivatives with respect to the control
 * points and the duration, by the chain rule of Barman's thesis (2020, eq. 4.15) through nectl's
 * analytic d tau/d q, d tau/d qd and M = d tau/d qdd:
 * <pre>
 *   d tau / d p_ij = (d tau/d q)_:j N_i + (d tau/d qd)_:j N_i' / T + M_:j N_i'' / T^2
 *   d tau / d T    = -(d tau/d qd qd + 2 M qdd) / T          (at fixed u = t / T)
 * </pre>
 * Only the degree + 1 control points whose basis functions are non-zero at u have non-zero columns.
 *
 * <p>Not thread safe; allocates nothing per call.
 */
public final class SplineTorqueSensitivities
{
    private final PlanningDynamics dynamics;
    private final int dof;
    private final double[] q;
    private final double[] qd;
    private final double[] qdd;
    private final double[] qddd;
    private final double[] dTauDq;
    private final double[] dTauDqd;
    private final double[] massMatrix;

    /** @param dynamics the robot's dynamics. */
    public SplineTorqueSensitivities(final PlanningDynamics dynamics)
    {
        this.dynamics = dynamics;
        dof = dynamics.dof();
        q = new double[dof];
        qd = new double[dof];
        qdd = new double[dof];
        qddd = new double[dof];
        dTauDq = new double[dof * dof];
        dTauDqd = new double[dof * dof];
        massMatrix = new double[dof * dof];
    }

    /**
     * Computes tau(u) and its sensitivities.
     *
     * @param trajectory the motion.
     * @param u normalised time in [0, 1].
     * @param tau output joint torques or forces.
     * @param dTauDp output dof x (controlPointCount dof) row-major; column i dof + j is d tau / d p_ij.
     * @param dTauDT output d tau / d T at fixed u.
     */
    public void compute(
        final SplineTrajectory trajectory, final double u, final double[] tau, final double[] dTauDp, final double[] dTauDT)
    {
        final int first = trajectory.evaluate(u, q, qd, qdd, qddd);
        dynamics.torqueWithPartials(q, qd, qdd, tau, dTauDq, dTauDqd, massMatrix);
        final double rate = 1.0 / trajectory.durationS();
        final double[] basis = trajectory.basis();
        final int width = trajectory.spline().degree() + 1;
        final int columns = trajectory.spline().controlPointCount() * dof;
        Arrays.fill(dTauDp, 0, dof * columns, 0.0);
        for (int r = 0; r < dof; r++)
        {
            double sum = 0.0;
            for (int j = 0; j < dof; j++)
            {
                final double a = dTauDq[r * dof + j];
                final double b = dTauDqd[r * dof + j];
                final double m = massMatrix[r * dof + j];
                sum += b * qd[j] + 2.0 * m * qdd[j];
                for (int k = 0; k < width; k++)
                {
                    dTauDp[r * columns + (first + k) * dof + j] =
                        a * basis[k] + (b * basis[width + k] + m * basis[2 * width + k] * rate) * rate;
                }
            }
            dTauDT[r] = -sum * rate;
        }
    }
}
