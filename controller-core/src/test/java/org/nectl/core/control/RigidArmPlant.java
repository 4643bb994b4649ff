package org.nectl.core.control;

import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.model.RobotModel;

/**
 * A simulated rigid arm for closed-loop tests: the state (q, qd) advanced over one control period
 * under a torque held constant (zero-order hold, as a drive applies it) by classic fourth-order
 * Runge-Kutta sub-steps of the recursive forward dynamics. Deterministic; allocation-free after
 * construction. Not thread safe.
 */
final class RigidArmPlant
{
    private final int dof;
    private final RecursiveForwardDynamics forwardDynamics;
    private final double[] q;
    private final double[] qd;
    private final double[][] kq = new double[4][];
    private final double[][] kqd = new double[4][];
    private final double[] qStage;
    private final double[] qdStage;
    private boolean solvable = true;

    RigidArmPlant(final RobotModel model)
    {
        dof = model.dof();
        forwardDynamics = new RecursiveForwardDynamics(model);
        q = new double[dof];
        qd = new double[dof];
        qStage = new double[dof];
        qdStage = new double[dof];
        for (int s = 0; s < 4; s++)
        {
            kq[s] = new double[dof];
            kqd[s] = new double[dof];
        }
    }

    void state(final double[] position, final double[] velocity)
    {
        System.arraycopy(position, 0, q, 0, dof);
        System.arraycopy(velocity, 0, qd, 0, dof);
    }

    double[] q()
    {
        return q;
    }

    double[] qd()
    {
        return qd;
    }

    /** @return false if the forward dynamics ever reported an unsolvable step. */
    boolean solvable()
    {
        return solvable;
    }

    /** Advances by periodS under tauNm, in subSteps RK4 steps. */
    void advance(final double[] tauNm, final double periodS, final int subSteps)
    {
        final double h = periodS / subSteps;
        for (int i = 0; i < subSteps; i++)
        {
            derivative(q, qd, tauNm, 0);
            stage(0.5 * h, 0);
            derivative(qStage, qdStage, tauNm, 1);
            stage(0.5 * h, 1);
            derivative(qStage, qdStage, tauNm, 2);
            stage(h, 2);
            derivative(qStage, qdStage, tauNm, 3);
            for (int j = 0; j < dof; j++)
            {
                q[j] += h / 6.0 * (kq[0][j] + 2 * kq[1][j] + 2 * kq[2][j] + kq[3][j]);
                qd[j] += h / 6.0 * (kqd[0][j] + 2 * kqd[1][j] + 2 * kqd[2][j] + kqd[3][j]);
            }
        }
    }

    private void derivative(final double[] position, final double[] velocity, final double[] tauNm, final int s)
    {
        System.arraycopy(velocity, 0, kq[s], 0, dof);
        solvable &= forwardDynamics.compute(position, velocity, tauNm, kqd[s]);
    }

    private void stage(final double h, final int s)
    {
        for (int j = 0; j < dof; j++)
        {
            qStage[j] = q[j] + h * kq[s][j];
            qdStage[j] = qd[j] + h * kqd[s][j];
        }
    }
}
