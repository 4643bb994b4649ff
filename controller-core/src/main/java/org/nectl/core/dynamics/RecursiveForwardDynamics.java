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

    private final KinematicTree tree;
    private final AppliedLoads loads;
    /**
     * Articulated inertia J*_i = [[A, B], [B^T, C]], base frame, 21 per body: the upper triangle of
     * A (a00 a01 a02 a11 a12 a22), B row-major, the upper triangle of C. Symmetry halves the
     * rank-1 update and the accumulation into the parent.
     */
    private final double[] articulatedInertia;
    /** Articulated bias wrench (-beta*_i), base frame, 6 per body. */
    private final double[] biasWrench;
    /** Centre of mass per body, body frame, m, 3 per body. */
    private final double[] centreOfMass;
    /** Inertia about the centre of mass per body, body axes, kg m^2, 9 per body, row-major. */
    private final double[] inertiaAtCentre;
    /** 0R_i: body i's axes in the base frame, 9 per body, row-major. */
    private final double[] rotation;
    /** Body i's origin in the base frame, m, 3 per body. */
    private final double[] origin;
    /** Joint motion subspace S_i, base frame, 6 per body; zero for fixed joints. */
    private final double[] axis;
    /** Spatial velocity v_i, base frame, 6 per body. */
    private final double[] velocity;
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
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public RecursiveForwardDynamics(final RobotModel model)
    {
        tree = new KinematicTree(model);
        final int n = tree.bodyCount;
        loads = new AppliedLoads(n);
        centreOfMass = new double[3 * n];
        inertiaAtCentre = new double[9 * n];
        for (int i = 0; i < n; i++)
        {
            System.arraycopy(model.inertialParameters(i).centreOfMass(), 0, centreOfMass, 3 * i, 3);
            System.arraycopy(model.inertialParameters(i).inertiaAtCentreOfMass(), 0, inertiaAtCentre, 9 * i, 9);
        }
        rotation = new double[9 * n];
        origin = new double[3 * n];
        axis = new double[6 * n];
        articulatedInertia = new double[PACKED * n];
        biasWrench = new double[6 * n];
        velocity = new double[6 * n];
        velocityProduct = new double[6 * n];
        projected = new double[6 * n];
        inverseH = new double[n];
        drive = new double[n];
        acceleration = new double[6 * n];
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
        tree.update(q);
        for (int i = 0; i < tree.bodyCount; i++)
        {
            firstForward(i, qd);
        }
        boolean solvable = true;
        for (int i = tree.bodyCount - 1; i >= 0; i--)
        {
            final int k = tree.coordinate[i];
            solvable &= k < 0 ? transmitFixed(i) : articulate(i, k, tau[k] - frictionTorque(k, qd[k]));
        }
        for (int i = 0; i < tree.bodyCount; i++)
        {
            secondForward(i, qdd);
        }
        return solvable;
    }

    /**
     * Body i's pose, joint axis and rigid inertia in the base frame, then v_i = v_parent + S_i qd_i,
     * gamma_i = (v_i x S_i) qd_i, -beta_i = v_i x* J_i v_i - f_ext,i and J*_i = J_i (eqs. 33-35).
     * The pose and inertia lines repeat {@link WorldKinematics} and {@link BaseFrameBodies}
     * (placements) so that pose, axis and inertia stay on locals and feed the bias wrench and J*
     * directly, without a store and reload per body: 1 213 instructions per call fewer on the
     * Panda (docs/PERFORMANCE.md).
     */
    private void firstForward(final int i, final double[] qd)
    {
        final int p = tree.parent[i];
        final int r = 9 * i;
        final int t = 3 * i;
        final double[] jr = tree.rotation;
        final double[] jp = tree.position;
        final double[] rot = rotation;
        final double[] org = origin;
        final double r00;
        final double r01;
        final double r02;
        final double r10;
        final double r11;
        final double r12;
        final double r20;
        final double r21;
        final double r22;
        final double ox;
        final double oy;
        final double oz;
        if (p < 0)
        {
            r00 = jr[r];
            r01 = jr[r + 1];
            r02 = jr[r + 2];
            r10 = jr[r + 3];
            r11 = jr[r + 4];
            r12 = jr[r + 5];
            r20 = jr[r + 6];
            r21 = jr[r + 7];
            r22 = jr[r + 8];
            ox = jp[t];
            oy = jp[t + 1];
            oz = jp[t + 2];
        }
        else
        {
            // 0R_i = 0R_p pR_i, 0p_i = 0p_p + 0R_p pp_i
            final int rp = 9 * p;
            final int tp = 3 * p;
            final double p00 = rot[rp];
            final double p01 = rot[rp + 1];
            final double p02 = rot[rp + 2];
            final double p10 = rot[rp + 3];
            final double p11 = rot[rp + 4];
            final double p12 = rot[rp + 5];
            final double p20 = rot[rp + 6];
            final double p21 = rot[rp + 7];
            final double p22 = rot[rp + 8];
            final double j00 = jr[r];
            final double j01 = jr[r + 1];
            final double j02 = jr[r + 2];
            final double j10 = jr[r + 3];
            final double j11 = jr[r + 4];
            final double j12 = jr[r + 5];
            final double j20 = jr[r + 6];
            final double j21 = jr[r + 7];
            final double j22 = jr[r + 8];
            r00 = p00 * j00 + p01 * j10 + p02 * j20;
            r01 = p00 * j01 + p01 * j11 + p02 * j21;
            r02 = p00 * j02 + p01 * j12 + p02 * j22;
            r10 = p10 * j00 + p11 * j10 + p12 * j20;
            r11 = p10 * j01 + p11 * j11 + p12 * j21;
            r12 = p10 * j02 + p11 * j12 + p12 * j22;
            r20 = p20 * j00 + p21 * j10 + p22 * j20;
            r21 = p20 * j01 + p21 * j11 + p22 * j21;
            r22 = p20 * j02 + p21 * j12 + p22 * j22;
            final double lx = jp[t];
            final double ly = jp[t + 1];
            final double lz = jp[t + 2];
            ox = org[tp] + p00 * lx + p01 * ly + p02 * lz;
            oy = org[tp + 1] + p10 * lx + p11 * ly + p12 * lz;
            oz = org[tp + 2] + p20 * lx + p21 * ly + p22 * lz;
        }
        rot[r] = r00;
        rot[r + 1] = r01;
        rot[r + 2] = r02;
        rot[r + 3] = r10;
        rot[r + 4] = r11;
        rot[r + 5] = r12;
        rot[r + 6] = r20;
        rot[r + 7] = r21;
        rot[r + 8] = r22;
        org[t] = ox;
        org[t + 1] = oy;
        org[t + 2] = oz;
        // S = (p x z, z) for a revolute joint, (z, 0) for a prismatic one, z = third column of 0R_i
        final int sigma = tree.sigma[i];
        final double s0;
        final double s1;
        final double s2;
        final double s3;
        final double s4;
        final double s5;
        if (sigma == KinematicTree.REVOLUTE)
        {
            s0 = oy * r22 - oz * r12;
            s1 = oz * r02 - ox * r22;
            s2 = ox * r12 - oy * r02;
            s3 = r02;
            s4 = r12;
            s5 = r22;
        }
        else if (sigma == KinematicTree.PRISMATIC)
        {
            s0 = r02;
            s1 = r12;
            s2 = r22;
            s3 = 0.0;
            s4 = 0.0;
            s5 = 0.0;
        }
        else
        {
            s0 = 0.0;
            s1 = 0.0;
            s2 = 0.0;
            s3 = 0.0;
            s4 = 0.0;
            s5 = 0.0;
        }
        final int s = 6 * i;
        final double[] axis = this.axis;
        axis[s] = s0;
        axis[s + 1] = s1;
        axis[s + 2] = s2;
        axis[s + 3] = s3;
        axis[s + 4] = s4;
        axis[s + 5] = s5;
        final int k = tree.coordinate[i];
        final double rate = k >= 0 ? qd[k] : 0.0;
        final double[] v = velocity;
        final double vx;
        final double vy;
        final double vz;
        final double wx;
        final double wy;
        final double wz;
        if (p < 0)
        {
            vx = s0 * rate;
            vy = s1 * rate;
            vz = s2 * rate;
            wx = s3 * rate;
            wy = s4 * rate;
            wz = s5 * rate;
        }
        else
        {
            final int f = 6 * p;
            vx = v[f] + s0 * rate;
            vy = v[f + 1] + s1 * rate;
            vz = v[f + 2] + s2 * rate;
            wx = v[f + 3] + s3 * rate;
            wy = v[f + 4] + s4 * rate;
            wz = v[f + 5] + s5 * rate;
        }
        v[s] = vx;
        v[s + 1] = vy;
        v[s + 2] = vz;
        v[s + 3] = wx;
        v[s + 4] = wy;
        v[s + 5] = wz;
        // gamma = (v x S) qd: (w x S_v + v x S_w, w x S_w) qd
        final double[] g = velocityProduct;
        g[s] = (wy * s2 - wz * s1 + vy * s5 - vz * s4) * rate;
        g[s + 1] = (wz * s0 - wx * s2 + vz * s3 - vx * s5) * rate;
        g[s + 2] = (wx * s1 - wy * s0 + vx * s4 - vy * s3) * rate;
        g[s + 3] = (wy * s5 - wz * s4) * rate;
        g[s + 4] = (wz * s3 - wx * s5) * rate;
        g[s + 5] = (wx * s4 - wy * s3) * rate;
        // h = m c_w, O = R Ic R^T + m (|c_w|^2 1 - c_w c_w^T), c_w = p + R c (parallel axes to the base origin)
        final double m = tree.mass[i];
        final double[] com = centreOfMass;
        final double cx = com[t];
        final double cy = com[t + 1];
        final double cz = com[t + 2];
        final double qx = r00 * cx + r01 * cy + r02 * cz + ox;
        final double qy = r10 * cx + r11 * cy + r12 * cz + oy;
        final double qz = r20 * cx + r21 * cy + r22 * cz + oz;
        final double hx = m * qx;
        final double hy = m * qy;
        final double hz = m * qz;
        final double c2 = qx * qx + qy * qy + qz * qz;
        final double[] ic = inertiaAtCentre;
        final double i00 = ic[r];
        final double i01 = ic[r + 1];
        final double i02 = ic[r + 2];
        final double i10 = ic[r + 3];
        final double i11 = ic[r + 4];
        final double i12 = ic[r + 5];
        final double i20 = ic[r + 6];
        final double i21 = ic[r + 7];
        final double i22 = ic[r + 8];
        // T = R Ic (Ic as given, not assumed exactly symmetric), then the upper triangle of T R^T
        final double t00 = r00 * i00 + r01 * i10 + r02 * i20;
        final double t01 = r00 * i01 + r01 * i11 + r02 * i21;
        final double t02 = r00 * i02 + r01 * i12 + r02 * i22;
        final double t10 = r10 * i00 + r11 * i10 + r12 * i20;
        final double t11 = r10 * i01 + r11 * i11 + r12 * i21;
        final double t12 = r10 * i02 + r11 * i12 + r12 * i22;
        final double t20 = r20 * i00 + r21 * i10 + r22 * i20;
        final double t21 = r20 * i01 + r21 * i11 + r22 * i21;
        final double t22 = r20 * i02 + r21 * i12 + r22 * i22;
        final double o00 = t00 * r00 + t01 * r01 + t02 * r02 + m * (c2 - qx * qx);
        final double o11 = t10 * r10 + t11 * r11 + t12 * r12 + m * (c2 - qy * qy);
        final double o22 = t20 * r20 + t21 * r21 + t22 * r22 + m * (c2 - qz * qz);
        final double o01 = t00 * r10 + t01 * r11 + t02 * r12 - m * qx * qy;
        final double o02 = t00 * r20 + t01 * r21 + t02 * r22 - m * qx * qz;
        final double o12 = t10 * r20 + t11 * r21 + t12 * r22 - m * qy * qz;
        // J v = (m v - h x w, O w + h x v), then v x* (J v) = (w x f, w x n + v x f)
        final double fx = m * vx + wy * hz - wz * hy;
        final double fy = m * vy + wz * hx - wx * hz;
        final double fz = m * vz + wx * hy - wy * hx;
        final double nx = o00 * wx + o01 * wy + o02 * wz + hy * vz - hz * vy;
        final double ny = o01 * wx + o11 * wy + o12 * wz + hz * vx - hx * vz;
        final double nz = o02 * wx + o12 * wy + o22 * wz + hx * vy - hy * vx;
        final double[] b = biasWrench;
        b[s] = wy * fz - wz * fy;
        b[s + 1] = wz * fx - wx * fz;
        b[s + 2] = wx * fy - wy * fx;
        b[s + 3] = wy * nz - wz * ny + vy * fz - vz * fy;
        b[s + 4] = wz * nx - wx * nz + vz * fx - vx * fz;
        b[s + 5] = wx * ny - wy * nx + vx * fy - vy * fx;
        final double[] e = loads.externalWrench;
        if (e[s] != 0.0 || e[s + 1] != 0.0 || e[s + 2] != 0.0 || e[s + 3] != 0.0 || e[s + 4] != 0.0 || e[s + 5] != 0.0)
        {
            SpatialAlgebra.wrenchToBase(rot, r, org, t, e, s, scratch, 0);
            for (int c = 0; c < 6; c++)
            {
                b[s + c] -= scratch[c];
            }
        }
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
        j[a + 15] = o00;
        j[a + 16] = o01;
        j[a + 17] = o02;
        j[a + 18] = o11;
        j[a + 19] = o12;
        j[a + 20] = o22;
    }

    /**
     * Body i through its joint k: U = J* S, H = S^T U + Ia (eq. 36), and into the parent
     * J* - U U^T / H (eq. 37) and -beta* + J* gamma + U (tau - S . (-beta*) - U . gamma) / H
     * (eq. 38 with K gamma expanded), all on locals.
     *
     * @return H > 0.
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
        final double[] axis = this.axis;
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
        final double h = s0 * u0 + s1 * u1 + s2 * u2 + s3 * u3 + s4 * u4 + s5 * u5 + tree.rotorInertia[k];
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
        final int p = tree.parent[i];
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

    /** @return Fs sign(qd) + Fv qd of the coordinate when friction is on, else 0 (Khalil 2010, eq. 31). */
    private double frictionTorque(final int k, final double rate)
    {
        return loads.friction ? tree.coulombFriction[k] * Math.signum(rate) + tree.viscousFriction[k] * rate : 0.0;
    }

    /** A fixed joint transmits J* and -beta* unchanged (eqs. 39, 40 with no joint freedom). */
    private boolean transmitFixed(final int i)
    {
        final int p = tree.parent[i];
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
        final int p = tree.parent[i];
        final double[] from = p < 0 ? loads.baseAcceleration : acceleration;
        final int f = p < 0 ? 0 : 6 * p;
        final double[] g = velocityProduct;
        double x0 = from[f] + g[s];
        double x1 = from[f + 1] + g[s + 1];
        double x2 = from[f + 2] + g[s + 2];
        double x3 = from[f + 3] + g[s + 3];
        double x4 = from[f + 4] + g[s + 4];
        double x5 = from[f + 5] + g[s + 5];
        final int k = tree.coordinate[i];
        if (k >= 0)
        {
            final double[] u = projected;
            final double accel = (drive[i] - (u[s] * x0 + u[s + 1] * x1 + u[s + 2] * x2 + u[s + 3] * x3
                + u[s + 4] * x4 + u[s + 5] * x5)) * inverseH[i];
            qdd[k] = accel;
            final double[] axis = this.axis;
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
