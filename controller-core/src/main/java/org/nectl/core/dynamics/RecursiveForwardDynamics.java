package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * Forward dynamics qdd = FD(q, qd, tau, external wrenches) of a tree in O(n) by the recursive
 * Newton-Euler direct dynamic model of Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §3.3.2 (eqs. 32-44), which is Featherstone's
 * articulated-body algorithm ("Rigid Body Dynamics Algorithms", 2008, §7.3, Table 7.1). Every
 * quantity is expressed in the base frame about its origin, so the screw transforms iT_j of
 * eqs. (39)-(43) are the identity and articulated inertias add without transformation.
 * Correspondence with Khalil's symbols: J*_j = articulated inertia, H_j = S^T J*_j S + Ia_j
 * (eq. 36), K_j = J*_j - J*_j S H_j^-1 S^T J*_j (eq. 37), -beta*_j = articulated bias wrench,
 * gamma_j = S_j-dot qd_j (eq. 34 in spatial form).
 *
 * <p>It inverts exactly the joint model of the inverse dynamics (Khalil 2010, eq. 31):
 * tau = S^T f + Ia qdd + Fs sign(qd) + Fv qd, by driving the articulated bodies with
 * tau - Fs sign(qd) - Fv qd (eq. 44) and adding Ia to H_j. Gravity, external wrench and friction
 * conventions are those of {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class RecursiveForwardDynamics
{
    private final BaseFrameBodies bodies;
    private final AppliedLoads loads;
    /** Articulated inertia J*_i, base frame, 36 per body, row-major. */
    private final double[] articulatedInertia;
    /** Articulated bias wrench (-beta*_i), base frame, 6 per body. */
    private final double[] biasWrench;
    /** U_i = J*_i S_i, 6 per body. */
    private final double[] projected;
    /** 1 / H_i per body (eq. 36). */
    private final double[] inverseH;
    /** tau_i - S_i . biasWrench_i per body. */
    private final double[] drive;
    /** Spatial acceleration a_i, base frame, 6 per body. */
    private final double[] acceleration;
    private final double[] momentum = new double[6];
    private final double[] scratch = new double[6];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public RecursiveForwardDynamics(final RobotModel model)
    {
        bodies = new BaseFrameBodies(model);
        loads = new AppliedLoads(bodies.bodyCount);
        articulatedInertia = new double[36 * bodies.bodyCount];
        biasWrench = new double[6 * bodies.bodyCount];
        projected = new double[6 * bodies.bodyCount];
        inverseH = new double[bodies.bodyCount];
        drive = new double[bodies.bodyCount];
        acceleration = new double[6 * bodies.bodyCount];
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
        loads.gravity(gx, gy, gz);
    }

    /**
     * Sets the wrench applied ON a body BY the environment, kept until changed or cleared.
     * Real-time safe.
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
        loads.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        loads.clearExternalWrenches();
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to subtract Fs sign(qd) + Fv qd from the applied torques.
     */
    public void jointFriction(final boolean enabled)
    {
        loads.friction = enabled;
    }

    /**
     * Computes the joint accelerations. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param tau applied joint torques or forces by coordinate, N m or N.
     * @param qdd output joint accelerations, rad/s^2 or m/s^2.
     * @return true on success; false if some H_j is not positive (massless end of a chain
     *     without rotor inertia), qdd then undefined.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final double[] qdd)
    {
        bodies.placements(q);
        bodies.velocities(qd);
        firstForwardPass();
        final boolean solvable = backwardPass(qd, tau);
        secondForwardPass(qdd);
        return solvable;
    }

    /** J*_i = J_i and -beta_i = v_i x* J_i v_i - f_ext,i (eqs. 33, 35). */
    private void firstForwardPass()
    {
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int s = 6 * i;
            rigidInertia(i);
            bodies.inertiaTimes(i, bodies.velocity, s, momentum, 0);
            for (int c = 0; c < 6; c++)
            {
                biasWrench[s + c] = 0.0;
            }
            SpatialAlgebra.addCrossForce(bodies.velocity, s, momentum, 0, biasWrench, s);
            loads.subtractExternalWrenchInBase(bodies, i, scratch, biasWrench, s);
        }
    }

    /** H_j, K_j, alpha_j and their accumulation into the parent (eqs. 36-40, 44). */
    private boolean backwardPass(final double[] qd, final double[] tau)
    {
        boolean solvable = true;
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            final int k = bodies.coordinate[i];
            if (k >= 0)
            {
                solvable &= articulate(i, k, tau[k] - loads.frictionTorque(bodies, k, qd[k]));
            }
            final int p = bodies.parent[i];
            if (p >= 0)
            {
                for (int c = 0; c < 36; c++)
                {
                    articulatedInertia[36 * p + c] += articulatedInertia[36 * i + c];
                }
                for (int c = 0; c < 6; c++)
                {
                    biasWrench[6 * p + c] += biasWrench[6 * i + c];
                }
            }
        }
        return solvable;
    }

    /**
     * Turns body i's articulated inertia and bias wrench into what its parent sees through the
     * joint: J* - U U^T / H (eq. 37) and bias + K gamma + U (tau - S . bias) / H (eq. 38).
     */
    private boolean articulate(final int i, final int k, final double jointTorque)
    {
        final int s = 6 * i;
        final int a = 36 * i;
        for (int r = 0; r < 6; r++)
        {
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += articulatedInertia[a + 6 * r + c] * bodies.axis[s + c];
            }
            projected[s + r] = sum;
        }
        final double h = SpatialAlgebra.dot6(bodies.axis, s, projected, s) + bodies.rotorInertia[k];
        inverseH[i] = 1.0 / h;
        drive[i] = jointTorque - SpatialAlgebra.dot6(bodies.axis, s, biasWrench, s);
        // K stays symmetric: update the upper triangle and mirror it.
        for (int r = 0; r < 6; r++)
        {
            final double ur = projected[s + r] * inverseH[i];
            for (int c = r; c < 6; c++)
            {
                final double reduced = articulatedInertia[a + 6 * r + c] - ur * projected[s + c];
                articulatedInertia[a + 6 * r + c] = reduced;
                articulatedInertia[a + 6 * c + r] = reduced;
            }
        }
        final double rate = bodies.jointRate[i];
        for (int r = 0; r < 6; r++)
        {
            double kGamma = 0.0;
            for (int c = 0; c < 6; c++)
            {
                kGamma += articulatedInertia[a + 6 * r + c] * bodies.axisRate[s + c];
            }
            biasWrench[s + r] += kGamma * rate + projected[s + r] * drive[i] * inverseH[i];
        }
        return h > 0.0;
    }

    /** qdd_j = (tau_j - S . bias - U . (a_parent + gamma_j)) / H_j and a_j (eqs. 41, 43). */
    private void secondForwardPass(final double[] qdd)
    {
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int s = 6 * i;
            bodies.accelerationFromParent(i, loads.baseAcceleration, acceleration, 0.0);
            final int k = bodies.coordinate[i];
            if (k >= 0)
            {
                final double accel = (drive[i] - SpatialAlgebra.dot6(projected, s, acceleration, s)) * inverseH[i];
                qdd[k] = accel;
                for (int c = 0; c < 6; c++)
                {
                    acceleration[s + c] += bodies.axis[s + c] * accel;
                }
            }
        }
    }

    /** J_i as a 6x6 matrix [[m 1, -h^], [h^, O]] (Khalil 2010, eq. 11, about the base origin). */
    private void rigidInertia(final int i)
    {
        final int a = 36 * i;
        final double m = bodies.mass[i];
        final double hx = bodies.firstMoment[3 * i];
        final double hy = bodies.firstMoment[3 * i + 1];
        final double hz = bodies.firstMoment[3 * i + 2];
        final double[] j = articulatedInertia;
        j[a] = m;
        j[a + 1] = 0.0;
        j[a + 2] = 0.0;
        j[a + 6] = 0.0;
        j[a + 7] = m;
        j[a + 8] = 0.0;
        j[a + 12] = 0.0;
        j[a + 13] = 0.0;
        j[a + 14] = m;
        j[a + 3] = 0.0;
        j[a + 4] = hz;
        j[a + 5] = -hy;
        j[a + 9] = -hz;
        j[a + 10] = 0.0;
        j[a + 11] = hx;
        j[a + 15] = hy;
        j[a + 16] = -hx;
        j[a + 17] = 0.0;
        j[a + 18] = 0.0;
        j[a + 19] = -hz;
        j[a + 20] = hy;
        j[a + 24] = hz;
        j[a + 25] = 0.0;
        j[a + 26] = -hx;
        j[a + 30] = -hy;
        j[a + 31] = hx;
        j[a + 32] = 0.0;
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                j[a + 6 * (3 + r) + 3 + c] = bodies.inertia[9 * i + 3 * r + c];
            }
        }
    }
}
