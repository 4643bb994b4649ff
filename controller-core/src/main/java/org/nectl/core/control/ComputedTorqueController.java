package org.nectl.core.control;

import org.nectl.core.dynamics.CompiledModel;

/**
 * Computed-torque (inverse-dynamics) control of a rigid arm:
 * tau = RNEA(q, qd, qdd_d + Kd (qd_d - qd) + Kp (q_d - q)), which with an exact model leaves the
 * decoupled linear error dynamics e'' + Kd e' + Kp e = 0 per joint (e = q_d - q). Joint friction
 * (Coulomb and viscous, at the measured velocity) is part of the model inversion unless switched
 * off; rotor inertia always is.
 *
 * <p>Each tick also evaluates the feedforward along the reference, tau_ff = RNEA(q_d, qd_d, qdd_d),
 * and its time derivative tau_ff' from the jerk-propagating recursion (Guarino Lo Bianco,
 * "Evaluation of generalized force derivatives by means of a recursive Newton-Euler approach",
 * 2009) fed with the reference jerk: analytic, not a difference of torques. The service publishes
 * tau_ff' and checks it against the torque-rate limits.
 *
 * <p>The law runs on any {@link LawDynamics}: a tree's own, or a closed-loop robot's in its active
 * coordinates (Gamma_c = G^T Gamma_tree, whose A_c = G^T A G the law inverts implicitly).
 *
 * <p>Arrays are indexed by controlled coordinate. Not thread safe: one instance per control thread.
 */
public final class ComputedTorqueController
{
    private final int dof;
    private final LawDynamics dynamics;
    private final double[] kp;
    private final double[] kd;
    private final double[] qddCommand;

    /**
     * Not real-time safe: allocates the workspaces.
     *
     * @param model the compiled robot (the controller's model of it), shared by the feedback and feedforward.
     * @param kp position gains per coordinate, 1/s^2, >= 0 (they multiply an error to give an acceleration).
     * @param kd velocity gains per coordinate, 1/s, >= 0; critical damping is kd = 2 sqrt(kp).
     */
    public ComputedTorqueController(final CompiledModel model, final double[] kp, final double[] kd)
    {
        this(new TreeLawDynamics(model), kp, kd);
    }

    /**
     * Not real-time safe.
     *
     * @param dynamics the dynamics in the controlled coordinates, used by this controller only.
     * @param kp position gains per coordinate, 1/s^2, >= 0.
     * @param kd velocity gains per coordinate, 1/s, >= 0.
     */
    public ComputedTorqueController(final LawDynamics dynamics, final double[] kp, final double[] kd)
    {
        dof = dynamics.dof();
        JointGains.check(dof, kp, kd);
        this.dynamics = dynamics;
        this.kp = kp.clone();
        this.kd = kd.clone();
        qddCommand = new double[dof];
    }

    /**
     * Switches the Coulomb and viscous friction feedforward on or off (default on), in the
     * commanded torque and in tau_ff and its rate. Real-time safe.
     *
     * @param enabled true to compensate the model's joint friction.
     */
    public void frictionFeedforward(final boolean enabled)
    {
        dynamics.jointFriction(enabled);
    }

    /**
     * Computes one tick into caller-owned arrays. Real-time safe: no allocation, no exceptions.
     *
     * @param q measured positions, rad or m.
     * @param qd measured velocities.
     * @param qDesired reference positions.
     * @param qdDesired reference velocities.
     * @param qddDesired reference accelerations.
     * @param qdddDesired reference jerks.
     * @param tauNm output: commanded torques, N m (N for prismatic).
     * @param tauFeedforwardNm output: RNEA along the reference, N m.
     * @param tauFeedforwardRateNmPerS output: its time derivative, N m/s.
     * @return {@link ControlStatus#OK}, {@link ControlStatus#SINGULAR_MODEL} if the dynamics is
     *     undefined at the measured or the reference state, or {@link ControlStatus#NON_FINITE_OUTPUT}
     *     if any of the three outputs has a non-finite element.
     */
    public int compute(
        final double[] q, final double[] qd,
        final double[] qDesired, final double[] qdDesired, final double[] qddDesired, final double[] qdddDesired,
        final double[] tauNm, final double[] tauFeedforwardNm, final double[] tauFeedforwardRateNmPerS)
    {
        for (int j = 0; j < dof; j++)
        {
            qddCommand[j] = qddDesired[j] + kd[j] * (qdDesired[j] - qd[j]) + kp[j] * (qDesired[j] - q[j]);
        }
        if (!dynamics.inverseDynamics(q, qd, qddCommand, tauNm)
            || !dynamics.torqueAndRate(qDesired, qdDesired, qddDesired, qdddDesired, tauFeedforwardNm, tauFeedforwardRateNmPerS))
        {
            return ControlStatus.SINGULAR_MODEL;
        }
        return ControlStatus.of(tauNm) | ControlStatus.of(tauFeedforwardNm) | ControlStatus.of(tauFeedforwardRateNmPerS);
    }
}
