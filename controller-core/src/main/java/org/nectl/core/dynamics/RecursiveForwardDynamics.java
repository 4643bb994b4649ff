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
    /** Unique entries of a symmetric 6x6 articulated inertia. */
    private static final int PACKED = 21;

    private final BaseFrameBodies bodies;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    /** The base's spatial acceleration (-g, 0), base frame, set from each call's loads. */
    private final double[] baseAcceleration = new double[6];
    private boolean friction = true;
    /**
     * Articulated inertia J*_i = [[A, B], [B^T, C]], base frame, 21 per body: the upper triangle of
     * A (a00 a01 a02 a11 a12 a22), B row-major, the upper triangle of C. Symmetry halves the
     * rank-1 update and the accumulation into the parent.
     */
    private final double[] articulatedInertia;
    /** Articulated bias wrench (-beta*_i), base frame, 6 per body. */
    private final double[] biasWrench;
    /** gamma_i = S_i-dot qd_i = (v_i x S_i) qd_i, base frame, 6 per body (zero for fixed joints). */
    private final double[] velocityProduct;
    /** U_i = J*_i S_i, 6 per body. */
    private final double[] projected;
    /** 1 / H_i per body (eq. 36). */
    private final double[] inverseH;
    /** tau_i - S_i . biasWrench_i per body. */
    private final double[] drive;
    /** Spatial acceleration a_i, base frame, 6 per body. */
    private final double[] acceleration;
    private final double[] scratch = new double[6];

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public RecursiveForwardDynamics(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public RecursiveForwardDynamics(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
        final int n = bodies.bodyCount;
        noLoads = new AppliedLoads(model);
        articulatedInertia = new double[PACKED * n];
        biasWrench = new double[6 * n];
        velocityProduct = new double[6 * n];
        projected = new double[6 * n];
        inverseH = new double[n];
        drive = new double[n];
        acceleration = new double[6 * n];
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. Real-time safe.
     *
     * @param enabled true to subtract Fs sign(qd) + Fv qd from the applied torques.
     */
    public void jointFriction(final boolean enabled)
    {
        friction = enabled;
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
        return compute(q, qd, tau, noLoads, qdd);
    }

    /**
     * Computes the joint accelerations under the given loads. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param tau applied joint torques or forces by coordinate, N m or N.
     * @param loads gravity and external wrenches.
     * @param qdd output joint accelerations, rad/s^2 or m/s^2.
     * @return true on success; false if some H_j is not positive, qdd then undefined.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads, final double[] qdd)
    {
        return compute(q, qd, tau, loads, null, qdd);
    }

    /**
     * Computes the joint accelerations relative to a carried (moving) base: the base's measured
     * angular velocity is the root's velocity and its angular acceleration and specific force the
     * root's acceleration (Khalil 2010, §7.1), in the inertial frame that coincides with the base
     * frame and moves with the base origin at this instant. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities relative to the base, rad/s or m/s.
     * @param tau applied joint torques or forces by coordinate, N m or N.
     * @param loads external wrenches (world-fixed ones in base coordinates); their gravity is not used.
     * @param base the base's motion, base coordinates; null for a fixed base under the loads' gravity.
     * @param qdd output joint accelerations relative to the base, rad/s^2 or m/s^2.
     * @return true on success; false if some H_j is not positive, qdd then undefined.
     */
    public boolean compute(final double[] q, final double[] qd, final double[] tau, final AppliedLoads loads,
        final BaseMotion base, final double[] qdd)
    {
        NewtonEulerPasses.rootMotion(loads, base, bodies.baseVelocity, 3, baseAcceleration, 3, baseAcceleration, 0);
        bodies.placements(q);
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            firstForward(i, qd, loads);
        }
        boolean solvable = true;
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            final int k = bodies.coordinate[i];
            solvable &= k < 0 ? transmitFixed(i) : articulate(i, k, tau[k] - bodies.model.friction(k, qd[k], friction));
        }
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            secondForward(i, qdd);
        }
        return solvable;
    }

    /**
     * After {@link BaseFrameBodies#placements}: body i's v_i = v_parent + S_i qd_i
     * ({@link BaseFrameBodies#velocity}), then gamma_i = (v_i x S_i) qd_i, -beta_i = v_i x* J_i v_i
     * - f_ext,i and J*_i = J_i (eqs. 33-35).
     */
    private void firstForward(final int i, final double[] qd, final AppliedLoads loads)
    {
        final int r = 9 * i;
        final int t = 3 * i;
        final int s = 6 * i;
        bodies.velocity(i, qd);
        final double rate = bodies.jointRate[i];
        // gamma = S-dot qd
        final double[] sdot = bodies.axisRate;
        final double[] g = velocityProduct;
        for (int c = 0; c < 6; c++)
        {
            g[s + c] = sdot[s + c] * rate;
        }
        // -beta = v x* (J v) - f_ext (eq. 35)
        bodies.inertiaTimes(i, bodies.velocity, s, scratch, 0);
        SpatialAlgebra.crossForce(bodies.velocity, s, scratch, 0, biasWrench, s);
        if (loads.any())
        {
            loads.subtractInBase(i, bodies.rotation, bodies.position, scratch, biasWrench, s);
        }
        final double m = bodies.mass[i];
        final double hx = bodies.firstMoment[t];
        final double hy = bodies.firstMoment[t + 1];
        final double hz = bodies.firstMoment[t + 2];
        final double[] o = bodies.inertia;
        // J = [[m 1, -h^], [h^, O]] (eq. 11), packed as documented at articulatedInertia
        final int a = PACKED * i;
        final double[] j = articulatedInertia;
        j[a] = m;
        j[a + 1] = 0.0;
        j[a + 2] = 0.0;
        j[a + 3] = m;
        j[a + 4] = 0.0;
        j[a + 5] = m;
        j[a + 6] = 0.0;
        j[a + 7] = hz;
        j[a + 8] = -hy;
        j[a + 9] = -hz;
        j[a + 10] = 0.0;
        j[a + 11] = hx;
        j[a + 12] = hy;
        j[a + 13] = -hx;
        j[a + 14] = 0.0;
        j[a + 15] = o[r];
        j[a + 16] = o[r + 1];
        j[a + 17] = o[r + 2];
        j[a + 18] = o[r + 4];
        j[a + 19] = o[r + 5];
        j[a + 20] = o[r + 8];
    }

    /**
     * Body i through its joint k: U = J* S, H = S^T U + Ia (eq. 36), and into the parent
     * J* - U U^T / H (eq. 37) and -beta* + J* gamma + U (tau - S . (-beta*) - U . gamma) / H
     * (eq. 38 with K gamma expanded), all on locals.
     *
     * @return H > 0.
     * Over 80 lines on purpose: the 21 packed articulated-inertia entries stay in locals through the update.
     */
    private boolean articulate(final int i, final int k, final double jointTorque)
    {
        final int s = 6 * i;
        final int a = PACKED * i;
        final double[] j = articulatedInertia;
        final double a00 = j[a];
        final double a01 = j[a + 1];
        final double a02 = j[a + 2];
        final double a11 = j[a + 3];
        final double a12 = j[a + 4];
        final double a22 = j[a + 5];
        final double b00 = j[a + 6];
        final double b01 = j[a + 7];
        final double b02 = j[a + 8];
        final double b10 = j[a + 9];
        final double b11 = j[a + 10];
        final double b12 = j[a + 11];
        final double b20 = j[a + 12];
        final double b21 = j[a + 13];
        final double b22 = j[a + 14];
        final double c00 = j[a + 15];
        final double c01 = j[a + 16];
        final double c02 = j[a + 17];
        final double c11 = j[a + 18];
        final double c12 = j[a + 19];
        final double c22 = j[a + 20];
        final double[] axis = bodies.axis;
        final double s0 = axis[s];
        final double s1 = axis[s + 1];
        final double s2 = axis[s + 2];
        final double s3 = axis[s + 3];
        final double s4 = axis[s + 4];
        final double s5 = axis[s + 5];
        final double u0 = a00 * s0 + a01 * s1 + a02 * s2 + b00 * s3 + b01 * s4 + b02 * s5;
        final double u1 = a01 * s0 + a11 * s1 + a12 * s2 + b10 * s3 + b11 * s4 + b12 * s5;
        final double u2 = a02 * s0 + a12 * s1 + a22 * s2 + b20 * s3 + b21 * s4 + b22 * s5;
        final double u3 = b00 * s0 + b10 * s1 + b20 * s2 + c00 * s3 + c01 * s4 + c02 * s5;
        final double u4 = b01 * s0 + b11 * s1 + b21 * s2 + c01 * s3 + c11 * s4 + c12 * s5;
        final double u5 = b02 * s0 + b12 * s1 + b22 * s2 + c02 * s3 + c12 * s4 + c22 * s5;
        final double h = s0 * u0 + s1 * u1 + s2 * u2 + s3 * u3 + s4 * u4 + s5 * u5 + bodies.model.rotorInertia[k];
        final double inv = 1.0 / h;
        final double[] bias = biasWrench;
        final double f0 = bias[s];
        final double f1 = bias[s + 1];
        final double f2 = bias[s + 2];
        final double f3 = bias[s + 3];
        final double f4 = bias[s + 4];
        final double f5 = bias[s + 5];
        final double d = jointTorque - (s0 * f0 + s1 * f1 + s2 * f2 + s3 * f3 + s4 * f4 + s5 * f5);
        final double[] u = projected;
        u[s] = u0;
        u[s + 1] = u1;
        u[s + 2] = u2;
        u[s + 3] = u3;
        u[s + 4] = u4;
        u[s + 5] = u5;
        inverseH[i] = inv;
        drive[i] = d;
        final int p = bodies.parent[i];
        if (p >= 0)
        {
            final double[] g = velocityProduct;
            final double g0 = g[s];
            final double g1 = g[s + 1];
            final double g2 = g[s + 2];
            final double g3 = g[s + 3];
            final double g4 = g[s + 4];
            final double g5 = g[s + 5];
            final double w = (d - (u0 * g0 + u1 * g1 + u2 * g2 + u3 * g3 + u4 * g4 + u5 * g5)) * inv;
            final int e = 6 * p;
            bias[e] += f0 + a00 * g0 + a01 * g1 + a02 * g2 + b00 * g3 + b01 * g4 + b02 * g5 + u0 * w;
            bias[e + 1] += f1 + a01 * g0 + a11 * g1 + a12 * g2 + b10 * g3 + b11 * g4 + b12 * g5 + u1 * w;
            bias[e + 2] += f2 + a02 * g0 + a12 * g1 + a22 * g2 + b20 * g3 + b21 * g4 + b22 * g5 + u2 * w;
            bias[e + 3] += f3 + b00 * g0 + b10 * g1 + b20 * g2 + c00 * g3 + c01 * g4 + c02 * g5 + u3 * w;
            bias[e + 4] += f4 + b01 * g0 + b11 * g1 + b21 * g2 + c01 * g3 + c11 * g4 + c12 * g5 + u4 * w;
            bias[e + 5] += f5 + b02 * g0 + b12 * g1 + b22 * g2 + c02 * g3 + c12 * g4 + c22 * g5 + u5 * w;
            final double v0 = u0 * inv;
            final double v1 = u1 * inv;
            final double v2 = u2 * inv;
            final double v3 = u3 * inv;
            final double v4 = u4 * inv;
            final double v5 = u5 * inv;
            final int z = PACKED * p;
            j[z] += a00 - v0 * u0;
            j[z + 1] += a01 - v0 * u1;
            j[z + 2] += a02 - v0 * u2;
            j[z + 3] += a11 - v1 * u1;
            j[z + 4] += a12 - v1 * u2;
            j[z + 5] += a22 - v2 * u2;
            j[z + 6] += b00 - v0 * u3;
            j[z + 7] += b01 - v0 * u4;
            j[z + 8] += b02 - v0 * u5;
            j[z + 9] += b10 - v1 * u3;
            j[z + 10] += b11 - v1 * u4;
            j[z + 11] += b12 - v1 * u5;
            j[z + 12] += b20 - v2 * u3;
            j[z + 13] += b21 - v2 * u4;
            j[z + 14] += b22 - v2 * u5;
            j[z + 15] += c00 - v3 * u3;
            j[z + 16] += c01 - v3 * u4;
            j[z + 17] += c02 - v3 * u5;
            j[z + 18] += c11 - v4 * u4;
            j[z + 19] += c12 - v4 * u5;
            j[z + 20] += c22 - v5 * u5;
        }
        return h > 0.0;
    }

    /** A fixed joint transmits J* and -beta* unchanged (eqs. 39, 40 with no joint freedom). */
    private boolean transmitFixed(final int i)
    {
        final int p = bodies.parent[i];
        if (p >= 0)
        {
            final double[] j = articulatedInertia;
            final int a = PACKED * i;
            final int z = PACKED * p;
            for (int c = 0; c < PACKED; c++)
            {
                j[z + c] += j[a + c];
            }
            final double[] bias = biasWrench;
            for (int c = 0; c < 6; c++)
            {
                bias[6 * p + c] += bias[6 * i + c];
            }
        }
        return true;
    }

    /** a_i = a_parent + gamma_i + S_i qdd_i with qdd_i = (tau_i - S . (-beta*) - U . (a_parent + gamma_i)) / H_i (eqs. 41, 43). */
    private void secondForward(final int i, final double[] qdd)
    {
        final int s = 6 * i;
        final int p = bodies.parent[i];
        final double[] from = p < 0 ? baseAcceleration : acceleration;
        final int f = p < 0 ? 0 : 6 * p;
        final double[] g = velocityProduct;
        double x0 = from[f] + g[s];
        double x1 = from[f + 1] + g[s + 1];
        double x2 = from[f + 2] + g[s + 2];
        double x3 = from[f + 3] + g[s + 3];
        double x4 = from[f + 4] + g[s + 4];
        double x5 = from[f + 5] + g[s + 5];
        final int k = bodies.coordinate[i];
        if (k >= 0)
        {
            final double[] u = projected;
            final double accel = (drive[i] - (u[s] * x0 + u[s + 1] * x1 + u[s + 2] * x2 + u[s + 3] * x3
                + u[s + 4] * x4 + u[s + 5] * x5)) * inverseH[i];
            qdd[k] = accel;
            final double[] axis = bodies.axis;
            x0 += axis[s] * accel;
            x1 += axis[s + 1] * accel;
            x2 += axis[s + 2] * accel;
            x3 += axis[s + 3] * accel;
            x4 += axis[s + 4] * accel;
            x5 += axis[s + 5] * accel;
        }
        acceleration[s] = x0;
        acceleration[s + 1] = x1;
        acceleration[s + 2] = x2;
        acceleration[s + 3] = x3;
        acceleration[s + 4] = x4;
        acceleration[s + 5] = x5;
    }
}
