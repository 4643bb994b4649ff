package org.nectl.core.control;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.GravityTorques;

/**
 * Joint-space PD control with gravity compensation: tau = Kp (q_d - q) + Kd (qd_d - qd) + g(q),
 * g(q) the torques that hold the arm still against gravity ({@link GravityTorques}). With
 * qd_d = 0 and positive gains the set point q_d is globally asymptotically stable for the rigid
 * model (Takegaki and Arimoto, "A new feedback method for dynamic control of manipulators", 1981),
 * which makes it the holding law of the ENABLED and HOLD states.
 *
 * <p>Arrays are indexed by generalised coordinate. Not thread safe: one instance per control thread.
 */
public final class PdGravityController
{
    private final int dof;
    private final LawDynamics dynamics;
    private final double[] kp;
    private final double[] kd;
    private final double[] gravityNm;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot, shared with other algorithms.
     * @param kp position gains per coordinate, N m/rad (N/m for prismatic), >= 0.
     * @param kd velocity gains per coordinate, N m s/rad (N s/m), >= 0.
     */
    public PdGravityController(final CompiledModel model, final double[] kp, final double[] kd)
    {
        this(new TreeLawDynamics(model), kp, kd);
    }

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param dynamics the dynamics in the controlled coordinates ({@link LawDynamics#gravityTorques}),
     *     used by this controller only.
     * @param kp position gains per coordinate, N m/rad or N/m, >= 0.
     * @param kd velocity gains per coordinate, N m s/rad or N s/m, >= 0.
     */
    public PdGravityController(final LawDynamics dynamics, final double[] kp, final double[] kd)
    {
        dof = dynamics.dof();
        this.dynamics = dynamics;
        JointGains.check(dof, kp, kd);
        this.kp = kp.clone();
        this.kd = kd.clone();
        gravityNm = new double[dof];
    }

    /**
     * Computes one tick's joint torques into a caller-owned array. Real-time safe.
     *
     * @param q measured positions, rad or m.
     * @param qd measured velocities.
     * @param qDesired desired positions.
     * @param qdDesired desired velocities (zero to hold a pose).
     * @param tauNm output torques, N m (N for prismatic).
     * @return {@link ControlStatus#OK}, {@link ControlStatus#SINGULAR_MODEL} if the dynamics is
     *     undefined at q, or {@link ControlStatus#NON_FINITE_OUTPUT}.
     */
    public int compute(
        final double[] q, final double[] qd, final double[] qDesired, final double[] qdDesired, final double[] tauNm)
    {
        if (!dynamics.gravityTorques(q, gravityNm))
        {
            return ControlStatus.SINGULAR_MODEL;
        }
        for (int j = 0; j < dof; j++)
        {
            tauNm[j] = kp[j] * (qDesired[j] - q[j]) + kd[j] * (qdDesired[j] - qd[j]) + gravityNm[j];
        }
        return ControlStatus.of(tauNm);
    }
}
