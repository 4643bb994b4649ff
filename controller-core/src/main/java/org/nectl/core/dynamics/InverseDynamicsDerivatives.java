package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Analytic partial derivatives of inverse dynamics, d tau/d q, d tau/d qd and d tau/d qdd, and of
 * the joint reaction wrenches, for trees with revolute, prismatic and fixed joints, with gravity,
 * external wrenches (constant in their body frames) and Khalil's joint terms (ICINCO 2010,
 * eq. 31: d/d qd of Fv qd is Fv; Fs sign(qd) has derivative 0 away from qd = 0; Ia adds to
 * d tau/d qdd).
 *
 * <p><b>Method.</b> The recursive analytic derivatives of Carpentier and Mansard, "Analytical
 * derivatives of rigid body dynamics algorithms", RSS 2018, derived here in base coordinates
 * (about the base origin), rather than the forward-mode sensitivities of Barman's thesis
 * (Oklahoma State, 2020), which push d/d q_k of every link's velocity, acceleration and wrench
 * through the whole recursion once per coordinate: about n Newton-Euler passes, in standard DH on
 * chains. Here one Newton-Euler pass plus subtree sums (composite inertia Ic, composite coupling
 * Bc with B(v, I) psi = I (psi x v) + psi x* (I v) + v x* (I psi)) leave a 6-term dot product
 * per (joint, ancestor) pair. In base coordinates a joint j moves its whole subtree rigidly along
 * S_j, which gives, for a body k that j supports:
 * <pre>
 *   dS_k/dq_j = S_j x S_k,   dv_k/dq_j = S_j x v_k + S_j-dot,
 *   da_k/dq_j = S_j x a_k + S_j-dot x v_k + da_j,   da_j = -S_j x a_j - S_j-dot x v_j,
 *   dv_k/dqd_j = S_j,        da_k/dqd_j = S_j x v_k + 2 S_j-dot,
 * </pre>
 * with S_j-dot = v_j x S_j. Summing the body wrenches f_k = I_k a_k + v_k x* I_k v_k - f_ext,k over
 * a subtree, the rigid part S_j x* F cancels in tau_i = S_i . F_i when j supports i, so
 * <pre>
 *   j supports i:   d tau_i/d q_j  = S_i . (Ic_i da_j + Bc_i S_j-dot)
 *                   d tau_i/d qd_j = S_i . (Bc_i S_j + 2 Ic_i S_j-dot)  (= 2 C_ij)
 *   i supports j:   d tau_i/d q_j  = S_i . (S_j x* F_j + Ic_j da_j + Bc_j S_j-dot)
 *                   d tau_i/d qd_j = S_i . (Bc_j S_j + 2 Ic_j S_j-dot)  (= 2 C_ij)
 *   otherwise 0;    d tau/d qdd = M (composite-rigid-body algorithm).
 * </pre>
 * A reaction wrench F_i seen in body i's own frame loses the rigid term too: its derivatives are
 * the bracketed 6-vectors above, re-expressed in body i's frame. All quantities come from one
 * forward and one backward pass; the cost is O(n d) with small constants.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} and the reaction-wrench
 * readers are real-time safe.
 */
public final class InverseDynamicsDerivatives
{
    private final BaseFrameNewtonEuler newtonEuler;
    private final BaseFrameBodies bodies;
    /** da_j = -S_j x a_j - S_j-dot x v_j, base frame, 6 per body. */
    private final double[] accelerationShift;
    /** S_j x* F_j + Ic_j da_j + Bc_j S_j-dot: dF_i/dq_j for every i that supports j, base frame, 6 per body. */
    private final double[] subtreeWrenchRate;
    private final double[] scratch = new double[CoriolisMatrix.SCRATCH];
    private final double[] column = new double[12];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public InverseDynamicsDerivatives(final RobotModel model)
    {
        newtonEuler = new BaseFrameNewtonEuler(model);
        bodies = newtonEuler.bodies;
        accelerationShift = new double[6 * bodies.bodyCount];
        subtreeWrenchRate = new double[6 * bodies.bodyCount];
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        newtonEuler.loads.gravity(gx, gy, gz);
    }

    /**
     * Sets the wrench applied ON a body BY the environment, constant in the body frame, kept until
     * changed or cleared. Real-time safe.
     *
     * @param body body index.
     * @param fx force x, N, body frame.
     * @param fy force y, N, body frame.
     * @param fz force z, N, body frame.
     * @param mx moment x about the body-frame origin, N m, body frame.
     * @param my moment y about the body-frame origin, N m, body frame.
     * @param mz moment z about the body-frame origin, N m, body frame.
     */
    public void externalWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        newtonEuler.loads.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        newtonEuler.loads.clearExternalWrenches();
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to include Fs sign(qd) + Fv qd in tau and Fv in d tau/d qd.
     */
    public void jointFriction(final boolean enabled)
    {
        newtonEuler.loads.friction = enabled;
    }

    /**
     * Computes tau and its partial derivatives. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param tau output joint torques or forces, as the inverse dynamics, N m or N.
     * @param dtauDq output dof x dof row-major, row i = d tau_i / d q.
     * @param dtauDqd output dof x dof row-major, row i = d tau_i / d qd.
     * @param dtauDqdd output dof x dof row-major, row i = d tau_i / d qdd (= M(q)).
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] tau,
        final double[] dtauDq, final double[] dtauDqd, final double[] dtauDqdd)
    {
        newtonEuler.compute(q, qd, qdd, tau);
        bodies.compositeInertias();
        bodies.compositeCouplings();
        MassMatrix.fill(bodies, scratch, dtauDqdd);
        CoriolisMatrix.fill(bodies, scratch, 2.0, dtauDqd);
        viscousFriction(dtauDqd);
        jointShifts();
        positionDerivatives(dtauDq);
    }

    /**
     * After {@link #compute}: the wrench the parent exerts on the body through its joint.
     * Real-time safe.
     *
     * @param body body index.
     * @param wrench6 output: force (N) then moment about the body-frame origin (N m), body frame.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        SpatialAlgebra.wrenchToFrame(
            bodies.rotation, 9 * body, bodies.position, 3 * body, newtonEuler.wrench, 6 * body, wrench6, 0);
    }

    /**
     * After {@link #compute}: partial derivatives of {@link #reactionWrench} of a body, in that
     * body's frame. Real-time safe.
     *
     * @param body body index.
     * @param dWrenchDq output 6 x dof row-major: row r = d wrench_r / d q.
     * @param dWrenchDqd output 6 x dof row-major: row r = d wrench_r / d qd.
     * @param dWrenchDqdd output 6 x dof row-major: row r = d wrench_r / d qdd.
     */
    public void reactionWrenchDerivatives(
        final int body, final double[] dWrenchDq, final double[] dWrenchDqd, final double[] dWrenchDqdd)
    {
        for (int k = 0; k < bodies.dof; k++)
        {
            final int j = bodies.bodyOfCoordinate[k];
            if (bodies.supports(j, body))
            {
                reactionColumns(body, j);
            }
            else if (bodies.supports(body, j))
            {
                reactionColumns(j, j);
                System.arraycopy(subtreeWrenchRate, 6 * j, column, 0, 6);
            }
            else
            {
                Arrays.fill(column, 0.0);
                Arrays.fill(scratch, 0.0);
            }
            storeColumn(body, column, 0, dWrenchDq, k);
            storeColumn(body, column, 6, dWrenchDqd, k);
            storeColumn(body, scratch, 0, dWrenchDqdd, k);
        }
    }

    /**
     * column[0..5] = Ic_s da_j + Bc_s S_j-dot, column[6..11] = Bc_s S_j + 2 Ic_s S_j-dot and
     * scratch[0..5] = Ic_s S_j, s being the subtree whose wrench moves (base frame).
     */
    private void reactionColumns(final int subtree, final int j)
    {
        final int sj = 6 * j;
        bodies.compositeInertiaTimes(subtree, accelerationShift, sj, column, 0);
        bodies.compositeCouplingTimes(subtree, bodies.axisRate, sj, scratch, 6);
        bodies.compositeCouplingTimes(subtree, bodies.axis, sj, column, 6);
        bodies.compositeInertiaTimes(subtree, bodies.axisRate, sj, scratch, 0);
        for (int c = 0; c < 6; c++)
        {
            column[c] += scratch[6 + c];
            column[6 + c] += 2.0 * scratch[c];
        }
        bodies.compositeInertiaTimes(subtree, bodies.axis, sj, scratch, 0);
    }

    /** Re-expresses a base-frame column in the body's frame and stores it as column k of a 6 x dof matrix. */
    private void storeColumn(final int body, final double[] from, final int offset, final double[] out, final int k)
    {
        SpatialAlgebra.wrenchToFrame(bodies.rotation, 9 * body, bodies.position, 3 * body, from, offset, from, offset);
        for (int r = 0; r < 6; r++)
        {
            out[r * bodies.dof + k] = from[offset + r];
        }
    }

    /** d (Fv qd)/d qd = Fv on the diagonal (Khalil 2010, eq. 31); Coulomb's derivative is 0 off qd = 0. */
    private void viscousFriction(final double[] dtauDqd)
    {
        if (newtonEuler.loads.friction)
        {
            for (int k = 0; k < bodies.dof; k++)
            {
                dtauDqd[k * bodies.dof + k] += bodies.viscousFriction[k];
            }
        }
    }

    /** da_j = -S_j x a_j - S_j-dot x v_j and S_j x* F_j + Ic_j da_j + Bc_j S_j-dot, per movable body. */
    private void jointShifts()
    {
        final double[] a = newtonEuler.acceleration;
        for (int j = 0; j < bodies.bodyCount; j++)
        {
            if (!bodies.movable(j))
            {
                continue;
            }
            final int s = 6 * j;
            SpatialAlgebra.crossMotion(bodies.axis, s, a, s, column, 0);
            SpatialAlgebra.crossMotion(bodies.axisRate, s, bodies.velocity, s, column, 6);
            for (int c = 0; c < 6; c++)
            {
                accelerationShift[s + c] = -column[c] - column[6 + c];
            }
            bodies.compositeInertiaTimes(j, accelerationShift, s, subtreeWrenchRate, s);
            bodies.compositeCouplingTimes(j, bodies.axisRate, s, column, 0);
            for (int c = 0; c < 6; c++)
            {
                subtreeWrenchRate[s + c] += column[c];
            }
            SpatialAlgebra.addCrossForce(bodies.axis, s, newtonEuler.wrench, s, subtreeWrenchRate, s);
        }
    }

    /** The (joint, ancestor) pairs of d tau/d q. */
    private void positionDerivatives(final double[] dtauDq)
    {
        final int n = bodies.dof;
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int ci = bodies.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            final int si = 6 * i;
            bodies.compositeInertiaTimes(i, bodies.axis, si, column, 0);
            bodies.compositeCouplingTransposedTimes(i, bodies.axis, si, column, 6);
            for (int j = i; j >= 0; j = bodies.parent[j])
            {
                final int cj = bodies.coordinate[j];
                if (cj >= 0)
                {
                    final int sj = 6 * j;
                    dtauDq[ci * n + cj] = SpatialAlgebra.dot6(column, 0, accelerationShift, sj)
                        + column[6] * bodies.axisRate[sj + 3] + column[7] * bodies.axisRate[sj + 4]
                        + column[8] * bodies.axisRate[sj + 5];
                    if (j != i)
                    {
                        dtauDq[cj * n + ci] = SpatialAlgebra.dot6(bodies.axis, sj, subtreeWrenchRate, si);
                    }
                }
            }
        }
        bodies.zeroUncoupledEntries(dtauDq);
    }
}
