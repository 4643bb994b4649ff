package org.nectl.planning;

import org.nectl.core.dynamics.CholeskyForwardDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.InverseDynamicsDerivatives;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;

/**
 * The one place where planning calls nectl's dynamics: inverse dynamics with its analytic partial
 * derivatives (the mass matrix M = d tau/d qdd among them), an independent inverse dynamics for
 * checking results, the torque rate, joint reaction forces and forward dynamics, all with one
 * gravity vector and joint friction as the robot description gives it.
 *
 * <p>Not thread safe: use one instance per thread. Not real-time code, but allocates nothing per call.
 */
public final class PlanningDynamics
{
    private final RobotModel model;
    private final InverseDynamicsDerivatives derivatives;
    private final InverseDynamics inverseDynamics;
    private final TorqueDerivative torqueDerivative;
    private final CholeskyForwardDynamics forwardDynamics;
    private final double[] wrench = new double[6];
    private final InverseDynamics frictionless;
    private final double[] zero;

    /**
     * @param model the robot.
     * @param gravity gravity vector in the base frame, m/s^2 (3 values).
     */
    public PlanningDynamics(final RobotModel model, final double[] gravity)
    {
        this.model = model;
        final CompiledModel compiled = CompiledModel.of(model, gravity[0], gravity[1], gravity[2]);
        derivatives = new InverseDynamicsDerivatives(compiled);
        inverseDynamics = new InverseDynamics(compiled);
        torqueDerivative = new TorqueDerivative(compiled);
        forwardDynamics = new CholeskyForwardDynamics(compiled);
        frictionless = new InverseDynamics(compiled);
        frictionless.jointFriction(false);
        zero = new double[model.dof()];
    }

    /**
     * The coefficients of tau = m u + c x + g + friction along a path q(s), with u = s-ddot and
     * x = s-dot^2 (rigid-body terms only, rotor inertia included; friction is left to the caller),
     * by three inverse dynamics calls: g = ID(q, 0, 0), m = ID(q, 0, q') - g, c = ID(q, q', q'') - g
     * (the velocity-product terms are quadratic in qd, so scaling qd by s-dot scales them by x).
     *
     * @param q path point.
     * @param dq dq/ds.
     * @param ddq d2q/ds2.
     * @param m output coefficient of u.
     * @param c output coefficient of x.
     * @param g output gravity torque.
     */
    public void pathCoefficients(
        final double[] q, final double[] dq, final double[] ddq, final double[] m, final double[] c, final double[] g)
    {
        frictionless.compute(q, zero, zero, g);
        frictionless.compute(q, zero, dq, m);
        frictionless.compute(q, dq, ddq, c);
        for (int j = 0; j < g.length; j++)
        {
            m[j] -= g[j];
            c[j] -= g[j];
        }
    }

    /** @return the robot. */
    public RobotModel model()
    {
        return model;
    }

    /** @return the number of coordinates. */
    public int dof()
    {
        return model.dof();
    }

    /**
     * tau with d tau/d q, d tau/d qd and M, each dof x dof row-major (row i: d tau_i).
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tau output torques or forces.
     * @param dTauDq output d tau/d q.
     * @param dTauDqd output d tau/d qd.
     * @param massMatrix output M(q) = d tau/d qdd.
     */
    public void torqueWithPartials(
        final double[] q, final double[] qd, final double[] qdd, final double[] tau,
        final double[] dTauDq, final double[] dTauDqd, final double[] massMatrix)
    {
        derivatives.compute(q, qd, qdd, tau, dTauDq, dTauDqd, massMatrix);
    }

    /**
     * tau by the plain recursive Newton-Euler algorithm, independent of {@link #torqueWithPartials}:
     * used to check a result, never inside an optimisation.
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param tau output torques or forces.
     */
    public void torque(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        inverseDynamics.compute(q, qd, qdd, tau);
    }

    /**
     * After {@link #torque}: the norm of the force the parent exerts on a body through its joint.
     *
     * @param body body index.
     * @return |f|, N.
     */
    public double reactionForceNorm(final int body)
    {
        inverseDynamics.reactionWrench(body, wrench);
        return Math.sqrt(wrench[0] * wrench[0] + wrench[1] * wrench[1] + wrench[2] * wrench[2]);
    }

    /**
     * tau and its time derivative along a motion.
     *
     * @param q positions.
     * @param qd velocities.
     * @param qdd accelerations.
     * @param qddd jerks.
     * @param tau output torques or forces.
     * @param tauDot output their time derivatives.
     */
    public void torqueRate(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        torqueDerivative.compute(q, qd, qdd, qddd, tau, tauDot);
    }

    /**
     * Forward dynamics.
     *
     * @param q positions.
     * @param qd velocities.
     * @param tau applied torques or forces.
     * @param qdd output accelerations.
     * @return false if M(q) is not positive definite.
     */
    public boolean acceleration(final double[] q, final double[] qd, final double[] tau, final double[] qdd)
    {
        return forwardDynamics.compute(q, qd, tau, qdd);
    }
}
