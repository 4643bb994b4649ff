package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * The body-frame Newton-Euler step, written once, and its workspace: the recursive Newton-Euler
 * passes for a tree (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques",
 * ICINCO 2010, eqs. 13-31) and, in the rate build, their time derivatives (Guarino Lo Bianco,
 * "Evaluation of generalized force derivatives by means of a recursive Newton-Euler approach",
 * IEEE 2009, eqs. 3-21): forward {@link #motionPass} and {@link #linkWrenchPass}, then
 * {@link #backwardPass}, each with its equations. {@link InverseDynamics} and {@link BiasForces}
 * run this class; {@link TorqueDerivative} runs NewtonEulerRatePasses, this file compiled a second
 * time with {@link #RATES} true (copied by controller-core/pom.xml into target/generated-sources).
 *
 * <p>The rate terms sit in the step's loop bodies, after the step's own work, behind a
 * compile-time constant: they share the rotation, iP_j, omega_i x iP_j and its transport term,
 * omega x MS, J omega and J omegaDot with the step, and javac drops them from this class; per-body
 * methods (beyond C2's inlining limit), separate rate passes and a runtime flag were all slower
 * (docs/PERFORMANCE.md, section "One Newton-Euler step").
 *
 * <p>Per-body values are stored per slot ({@link #motion}, {@link #wrench}); slot 0 is the base and
 * body j is slot j + 1, so a body and its parent are addressed alike. Every vector is expressed in
 * its own body's frame; moments are about the body-frame origin. A "rate" is the time derivative in
 * the inertial frame, expressed in the body frame; the base's jerks are zero (gravity is constant).
 * Not thread safe.
 */
final class NewtonEulerPasses
{
    final CompiledModel model;
    final JointTransforms joints;
    /** Values per slot of {@link #motion}. */
    static final int MOTION = 15;
    /** Values per slot of {@link #wrench}. */
    static final int WRENCH = 15;
    /**
     * Per slot: angular velocity omega_j (rad/s), angular acceleration (rad/s^2), linear acceleration
     * of the body origin (gravity entered as base acceleration -g, m/s^2), then, with rates, angular
     * jerk iota_j (eq. 5, rad/s^3) and linear jerk of the origin (eq. 8, m/s^3). One array rather
     * than one per quantity: a body's step reads its parent's state under one range check
     * (docs/PERFORMANCE.md).
     */
    final double[] motion;
    /**
     * Per slot: the force and moment (about the origin) the parent exerts on body j (eqs. 26-27,
     * 29-30), N, N m; then, with rates, their inertial rates (eqs. 12-13, 16-17), N/s, N m/s; then
     * the inertial rate of the offset iP_j, omega_i x iP_j + sigma_j qd_j iz_j, in the parent frame
     * (m/s), formed by the forward pass (which has omega_i x iP_j anyway) for the backward pass's (17).
     */
    final double[] wrench;
    /** True in the rate build (NewtonEulerRatePasses): the passes also compute the rates. */
    static final boolean RATES = false;
    boolean friction = true;

    /** Not real-time safe: allocates the workspace. */
    NewtonEulerPasses(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        motion = new double[MOTION * (model.bodyCount + 1)];
        wrench = new double[WRENCH * (model.bodyCount + 1)];
    }

    /** @return the offset of body j's vectors in an array of 3 per slot (slot j + 1). */
    static int slot(final int body)
    {
        return 3 * (body + 1);
    }

    /**
     * The root's motion, the initial condition of every Newton-Euler forward pass, body or base
     * frame (Khalil 2010, initialisation of eqs. 18-23, §7.1): a fixed base (null) at rest with
     * vdot_0 = -g; a carried base its measured omega_0, omegaDot_0 and specific force, which
     * replaces the loads' gravity. Written to omega at io, omegaDot at iod, acceleration at ia, base
     * coordinates. Real-time safe.
     */
    static void rootMotion(final AppliedLoads loads, final BaseMotion base, final double[] omega, final int io,
        final double[] omegaDot, final int iod, final double[] acceleration, final int ia)
    {
        for (int k = 0; k < 3; k++)
        {
            omega[io + k] = base == null ? 0.0 : base.angularVelocity(k);
            omegaDot[iod + k] = base == null ? 0.0 : base.angularAcceleration(k);
            acceleration[ia + k] = base == null ? -loads.gravity[k] : base.specificForce(k);
        }
    }

    /** As {@link InverseDynamics#baseWrench}: the backward recursion continued to the base. Real-time safe. */
    void baseWrench(final double[] wrench6)
    {
        System.arraycopy(wrench, 0, wrench6, 0, 6);
    }

    /** As {@link InverseDynamics#reactionWrench}. Real-time safe. */
    void reactionWrench(final int body, final double[] wrench6)
    {
        System.arraycopy(wrench, WRENCH * (body + 1), wrench6, 0, 6);
    }

    /** Joint forces (RNEA). Real-time safe. */
    void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final BaseMotion base,
        final double[] tau)
    {
        compute(q, qd, qdd, null, loads, base, tau, null);
    }

    /** Joint forces and, in the rate build only, their rates tauDot from jerks qddd (the base's zero). Real-time safe. */
    void compute(final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final AppliedLoads loads,
        final BaseMotion base, final double[] tau, final double[] tauDot)
    {
        joints.update(q);
        rootMotion(loads, base, motion, 0, motion, 3, motion, 6);
        if (loads.worldLoads)
        {
            loads.resolveInBodyFrames(joints);
        }
        motionPass(qd, qdd, qddd);
        linkWrenchPass(loads);
        backwardPass(qd, qdd, qddd, tau, tauDot);
    }

    /**
     * Velocities, accelerations and, with rates, jerks from the base outwards (eqs. 18-21; 5, 8).
     * On locals, each input read once and each result stored once: aliasing kernels and
     * non-inlined methods made the compiler reload inputs (docs/PERFORMANCE.md).
     * Over 80 lines on purpose: the motion step and its jerk step share one loop body (class comment).
     * The jerks qddd are read in the rate build only.
     */
    void motionPass(final double[] qd, final double[] qdd, final double[] qddd)
    {
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final int[] sigmas = model.sigma;
        final int[] coordinate = model.coordinate;
        final double[] state = motion;
        final double[] w = wrench;
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int s = MOTION * (j + 1);
            final int i = MOTION * (parent[j] + 1);
            final int rj = 9 * j;
            final double r00 = r[rj];
            final double r01 = r[rj + 1];
            final double r02 = r[rj + 2];
            final double r10 = r[rj + 3];
            final double r11 = r[rj + 4];
            final double r12 = r[rj + 5];
            final double r20 = r[rj + 6];
            final double r21 = r[rj + 7];
            final double r22 = r[rj + 8];
            final double wix = state[i];
            final double wiy = state[i + 1];
            final double wiz = state[i + 2];
            final double aix = state[i + 3];
            final double aiy = state[i + 4];
            final double aiz = state[i + 5];
            // (18), (20): p = jR_i omega_i, b = jR_i omegaDot_i
            final double px = r00 * wix + r10 * wiy + r20 * wiz;
            final double py = r01 * wix + r11 * wiy + r21 * wiz;
            final double pz = r02 * wix + r12 * wiy + r22 * wiz;
            final double bx = r00 * aix + r10 * aiy + r20 * aiz;
            final double by = r01 * aix + r11 * aiy + r21 * aiz;
            final double bz = r02 * aix + r12 * aiy + r22 * aiz;
            // (21): vdot_i + U_i iP_j, with e = omega_i x iP_j and the transport term d, then into frame j
            final int t = 3 * j;
            final double ox = position[t];
            final double oy = position[t + 1];
            final double oz = position[t + 2];
            final double ex = wiy * oz - wiz * oy;
            final double ey = wiz * ox - wix * oz;
            final double ez = wix * oy - wiy * ox;
            final double dx = aiy * oz - aiz * oy + wiy * ez - wiz * ey;
            final double dy = aiz * ox - aix * oz + wiz * ex - wix * ez;
            final double dz = aix * oy - aiy * ox + wix * ey - wiy * ex;
            final int sigma = sigmas[j];
            final double ux = state[i + 6] + dx;
            final double uy = state[i + 7] + dy;
            final double uz = state[i + 8] + dz;
            double vx = r00 * ux + r10 * uy + r20 * uz;
            double vy = r01 * ux + r11 * uy + r21 * uz;
            double vz = r02 * ux + r12 * uy + r22 * uz;
            double wz = pz;
            double ax = bx;
            double ay = by;
            double az = bz;
            if (sigma == CompiledModel.REVOLUTE)
            {
                // (18), (20): qd z and qdd z + qd (p x z), with u x z = (u_y, -u_x, 0)
                final int k = coordinate[j];
                ax += qd[k] * py;
                ay -= qd[k] * px;
                az += qdd[k];
                wz += qd[k];
            }
            else if (sigma == CompiledModel.PRISMATIC)
            {
                // (21): qdd z + 2 qd (p x z)
                final int k = coordinate[j];
                vx += 2.0 * qd[k] * py;
                vy -= 2.0 * qd[k] * px;
                vz += qdd[k];
            }
            Vec3.set(state, s, px, py, wz);
            Vec3.set(state, s + 3, ax, ay, az);
            Vec3.set(state, s + 6, vx, vy, vz);
            if (RATES)
            {
                final double iix = state[i + 9];
                final double iiy = state[i + 10];
                final double iiz = state[i + 11];
                // (5): jR_i iota_i
                double jx = r00 * iix + r10 * iiy + r20 * iiz;
                double jy = r01 * iix + r11 * iiy + r21 * iiz;
                double jz = r02 * iix + r12 * iiy + r22 * iiz;
                // (8): jerk_i + iota_i x iP_j + 2 omegaDot_i x e + omega_i x d, then into frame j
                final double gx = state[i + 12] + (iiy * oz - iiz * oy + 2.0 * (aiy * ez - aiz * ey) + wiy * dz - wiz * dy);
                final double gy = state[i + 13] + (iiz * ox - iix * oz + 2.0 * (aiz * ex - aix * ez) + wiz * dx - wix * dz);
                final double gz = state[i + 14] + (iix * oy - iiy * ox + 2.0 * (aix * ey - aiy * ex) + wix * dy - wiy * dx);
                double lx = r00 * gx + r10 * gy + r20 * gz;
                double ly = r01 * gx + r11 * gy + r21 * gz;
                double lz = r02 * gx + r12 * gy + r22 * gz;
                // iPdot_j for the backward pass's (17)
                double drx = ex;
                double dry = ey;
                double drz = ez;
                if (sigma == CompiledModel.REVOLUTE)
                {
                    // (5): qddd z + 2 qdd (p x z) + qd (b x z) + qd p x (p x z)
                    final int k = coordinate[j];
                    final double v = qd[k];
                    final double a = 2.0 * qdd[k];
                    jx += a * py + v * by + v * pz * px;
                    jy += -a * px - v * bx + v * pz * py;
                    jz += qddd[k] - v * (px * px + py * py);
                }
                else if (sigma == CompiledModel.PRISMATIC)
                {
                    // (8): qddd z + 3 qdd (p x z) + 3 qd (b x z) + 3 qd p x (p x z)
                    final int k = coordinate[j];
                    final double a = 3.0 * qdd[k];
                    final double v = 3.0 * qd[k];
                    lx += a * py + v * by + v * pz * px;
                    ly += -a * px - v * bx + v * pz * py;
                    lz += qddd[k] - v * (px * px + py * py);
                    // (17): the origin also moves along iz_j, the third column of iR_j
                    drx += qd[k] * r02;
                    dry += qd[k] * r12;
                    drz += qd[k] * r22;
                }
                Vec3.set(state, s + 9, jx, jy, jz);
                Vec3.set(state, s + 12, lx, ly, lz);
                Vec3.set(w, WRENCH * (j + 1) + 12, drx, dry, drz);
            }
        }
    }

    /**
     * Each link's wrench about its origin from its motion (eqs. 22-23) minus the external wrench
     * (eqs. 26-27 before the children are added) and, with rates, its inertial rate from the jerks
     * (eqs. 12-13 moved to the origin) minus the external wrench's rate. The rate shares
     * c = omega x MS, its transport term, J omega and J omegaDot with the wrench.
     * Over 80 lines on purpose: the link-wrench step and its rate share one loop body (class comment).
     */
    void linkWrenchPass(final AppliedLoads loads)
    {
        final double[] firstMoment = model.firstMoment;
        final double[] mass = model.mass;
        final double[] in = model.inertia;
        final double[] state = motion;
        final double[] w = wrench;
        final boolean loaded = loads.any();
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int s = MOTION * (j + 1);
            final int ws = WRENCH * (j + 1);
            final int t = 3 * j;
            final int rj = 9 * j;
            final double wx = state[s];
            final double wy = state[s + 1];
            final double wz = state[s + 2];
            final double ax = state[s + 3];
            final double ay = state[s + 4];
            final double az = state[s + 5];
            final double vx = state[s + 6];
            final double vy = state[s + 7];
            final double vz = state[s + 8];
            final double hx = firstMoment[t];
            final double hy = firstMoment[t + 1];
            final double hz = firstMoment[t + 2];
            final double m = mass[j];
            // (22) F = M vdot + U MS, with c = omega x MS and the transport term (mx, my, mz)
            final double cx = wy * hz - wz * hy;
            final double cy = wz * hx - wx * hz;
            final double cz = wx * hy - wy * hx;
            final double mx = ay * hz - az * hy + wy * cz - wz * cy;
            final double my = az * hx - ax * hz + wz * cx - wx * cz;
            final double mz = ax * hy - ay * hx + wx * cy - wy * cx;
            // (23) M = J omegaDot + omega x (J omega) + MS x vdot, with o = J omega and k = J omegaDot
            final double jxx = in[rj];
            final double jxy = in[rj + 1];
            final double jxz = in[rj + 2];
            final double jyx = in[rj + 3];
            final double jyy = in[rj + 4];
            final double jyz = in[rj + 5];
            final double jzx = in[rj + 6];
            final double jzy = in[rj + 7];
            final double jzz = in[rj + 8];
            final double ox = jxx * wx + jxy * wy + jxz * wz;
            final double oy = jyx * wx + jyy * wy + jyz * wz;
            final double oz = jzx * wx + jzy * wy + jzz * wz;
            final double kx = jxx * ax + jxy * ay + jxz * az;
            final double ky = jyx * ax + jyy * ay + jyz * az;
            final double kz = jzx * ax + jzy * ay + jzz * az;
            double fx = m * vx + mx;
            double fy = m * vy + my;
            double fz = m * vz + mz;
            double nx = kx + wy * oz - wz * oy + hy * vz - hz * vy;
            double ny = ky + wz * ox - wx * oz + hz * vx - hx * vz;
            double nz = kz + wx * oy - wy * ox + hx * vy - hy * vx;
            if (loaded)
            {
                final int e = 6 * j;
                final int x = 12 * j;
                final double[] b = loads.bodyWrench;
                final double[] g = loads.worldInBody;
                fx -= b[e] + g[x];
                fy -= b[e + 1] + g[x + 1];
                fz -= b[e + 2] + g[x + 2];
                nx -= b[e + 3] + g[x + 3];
                ny -= b[e + 4] + g[x + 4];
                nz -= b[e + 5] + g[x + 5];
            }
            Vec3.set(w, ws, fx, fy, fz);
            Vec3.set(w, ws + 3, nx, ny, nz);
            if (RATES)
            {
                final double jx = state[s + 9];
                final double jy = state[s + 10];
                final double jz = state[s + 11];
                final double lx = state[s + 12];
                final double ly = state[s + 13];
                final double lz = state[s + 14];
                // (12) Fdot = M jerk + iota x MS + 2 omegaDot x c + omega x (mx, my, mz)
                final double fdx = jy * hz - jz * hy + 2.0 * (ay * cz - az * cy) + wy * mz - wz * my + m * lx;
                final double fdy = jz * hx - jx * hz + 2.0 * (az * cx - ax * cz) + wz * mx - wx * mz + m * ly;
                final double fdz = jx * hy - jy * hx + 2.0 * (ax * cy - ay * cx) + wx * my - wy * mx + m * lz;
                // (13) Mdot = J (iota + omegaDot x omega) + omega x (2 J omegaDot + omega x J omega)
                //   + omegaDot x J omega + (omega x MS) x vdot + MS x jerk
                final double qx = jx + ay * wz - az * wy;
                final double qy = jy + az * wx - ax * wz;
                final double qz = jz + ax * wy - ay * wx;
                final double zx = 2.0 * kx + wy * oz - wz * oy;
                final double zy = 2.0 * ky + wz * ox - wx * oz;
                final double zz = 2.0 * kz + wx * oy - wy * ox;
                final double ndx = jxx * qx + jxy * qy + jxz * qz + wy * zz - wz * zy + ay * oz - az * oy
                    + cy * vz - cz * vy + hy * lz - hz * ly;
                final double ndy = jyx * qx + jyy * qy + jyz * qz + wz * zx - wx * zz + az * ox - ax * oz
                    + cz * vx - cx * vz + hz * lx - hx * lz;
                final double ndz = jzx * qx + jzy * qy + jzz * qz + wx * zy - wy * zx + ax * oy - ay * ox
                    + cx * vy - cy * vx + hx * ly - hy * lx;
                Vec3.set(w, ws + 6, fdx, fdy, fdz);
                Vec3.set(w, ws + 9, ndx, ndy, ndz);
                if (loaded)
                {
                    externalLoadRates(loads, j, wx, wy, wz, w, ws);
                }
            }
        }
    }

    /**
     * Body j's wrench rate minus the external loads' rates (the rates of eqs. 26-27 in (12)-(13)). A
     * body-fixed wrench's inertial rate is the rate of its components plus omega x f; a world-fixed
     * force F at the body point c and a world-fixed moment M have, in the body frame, the inertial
     * rates 0R^T Fdot and (omega x c) x F + c x 0R^T Fdot + 0R^T Mdot.
     */
    private static void externalLoadRates(final AppliedLoads loads, final int j, final double wx, final double wy,
        final double wz, final double[] w, final int s)
    {
        final int e = 6 * j;
        final double[] b = loads.bodyWrench;
        final double[] r = loads.bodyWrenchRate;
        w[s + 6] -= r[e] + (wy * b[e + 2] - wz * b[e + 1]);
        w[s + 7] -= r[e + 1] + (wz * b[e] - wx * b[e + 2]);
        w[s + 8] -= r[e + 2] + (wx * b[e + 1] - wy * b[e]);
        w[s + 9] -= r[e + 3] + (wy * b[e + 5] - wz * b[e + 4]);
        w[s + 10] -= r[e + 4] + (wz * b[e + 3] - wx * b[e + 5]);
        w[s + 11] -= r[e + 5] + (wx * b[e + 4] - wy * b[e + 3]);
        if (loads.worldLoads)
        {
            final double[] g = loads.worldInBody;
            final double[] p = loads.worldPoint;
            final int k = 12 * j;
            final int t = 3 * j;
            final double cx = p[t];
            final double cy = p[t + 1];
            final double cz = p[t + 2];
            // u = omega x c; the force F = g[k..k+2], its rate g[k+6..k+8], the moment's rate g[k+9..k+11]
            final double ux = wy * cz - wz * cy;
            final double uy = wz * cx - wx * cz;
            final double uz = wx * cy - wy * cx;
            w[s + 6] -= g[k + 6];
            w[s + 7] -= g[k + 7];
            w[s + 8] -= g[k + 8];
            w[s + 9] -= uy * g[k + 2] - uz * g[k + 1] + cy * g[k + 8] - cz * g[k + 7] + g[k + 9];
            w[s + 10] -= uz * g[k] - ux * g[k + 2] + cz * g[k + 6] - cx * g[k + 8] + g[k + 10];
            w[s + 11] -= ux * g[k + 1] - uy * g[k] + cx * g[k + 7] - cy * g[k + 6] + g[k + 11];
        }
    }

    /**
     * Leaves first, each body's joint force (eq. 31: projection on the joint axis plus rotor inertia
     * and friction) and, with rates, its rate (eqs. 19-21 plus Ia qddd + Fv qdd), then its wrench and
     * wrench rate summed into its parent (eqs. 28-30; 16-17), the rate sharing the rotation, iP_j and
     * iR_j f_j with the step. A body's wrench is complete when it is reached (children have higher
     * indices), so the projection reads it from registers. A root's parent is slot 0, the base: its
     * sums are the wrench the base exerts ({@link #baseWrench}, Khalil 2010, §7.1). Eq. 17 as derived,
     * not as printed: the offset's rate multiplies the force itself (docs/VALIDATION.md).
     * Over 80 lines on purpose: the backward step and its rate share one loop body (class comment).
     */
    void backwardPass(final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        final CompiledModel model = this.model;
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final int[] coordinate = model.coordinate;
        final double[] rotorInertia = model.rotorInertia;
        final boolean friction = this.friction;
        final double[] state = motion;
        final double[] w = wrench;
        Arrays.fill(w, 0, WRENCH, 0.0);
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            final int s = WRENCH * (j + 1);
            final double fx = w[s];
            final double fy = w[s + 1];
            final double fz = w[s + 2];
            final double nx = w[s + 3];
            final double ny = w[s + 4];
            final double nz = w[s + 5];
            if (model.movable(j))
            {
                // (31) and, with rates, (19)-(21): (fdot + f x omega) . z or (ndot + n x omega) . z
                final int k = coordinate[j];
                tau[k] = model.jointForce(j, fz, nz) + rotorInertia[k] * qdd[k] + model.friction(k, qd[k], friction);
                if (RATES)
                {
                    final int ks = MOTION * (j + 1);
                    final double wjx = state[ks];
                    final double wjy = state[ks + 1];
                    tauDot[k] = model.jointForce(j, w[s + 8] + (fx * wjy - fy * wjx), w[s + 11] + (nx * wjy - ny * wjx))
                        + rotorInertia[k] * qddd[k] + model.frictionRate(k, qdd[k], friction);
                }
            }
            final int i = WRENCH * (parent[j] + 1);
            final int rj = 9 * j;
            final double r00 = r[rj];
            final double r01 = r[rj + 1];
            final double r02 = r[rj + 2];
            final double r10 = r[rj + 3];
            final double r11 = r[rj + 4];
            final double r12 = r[rj + 5];
            final double r20 = r[rj + 6];
            final double r21 = r[rj + 7];
            final double r22 = r[rj + 8];
            // (28) iF_j = iR_j jf_j
            final double gx = r00 * fx + r01 * fy + r02 * fz;
            final double gy = r10 * fx + r11 * fy + r12 * fz;
            final double gz = r20 * fx + r21 * fy + r22 * fz;
            // (29)
            Vec3.addTo(w, i, gx, gy, gz);
            final int t = 3 * j;
            final double ox = position[t];
            final double oy = position[t + 1];
            final double oz = position[t + 2];
            // (30) iR_j jn_j + iP_j x iF_j
            w[i + 3] += r00 * nx + r01 * ny + r02 * nz + oy * gz - oz * gy;
            w[i + 4] += r10 * nx + r11 * ny + r12 * nz + oz * gx - ox * gz;
            w[i + 5] += r20 * nx + r21 * ny + r22 * nz + ox * gy - oy * gx;
            if (RATES)
            {
                final double fdx = w[s + 6];
                final double fdy = w[s + 7];
                final double fdz = w[s + 8];
                final double ndx = w[s + 9];
                final double ndy = w[s + 10];
                final double ndz = w[s + 11];
                final double dx = w[s + 12];
                final double dy = w[s + 13];
                final double dz = w[s + 14];
                // (16) iR_j fdot_j
                final double hx = r00 * fdx + r01 * fdy + r02 * fdz;
                final double hy = r10 * fdx + r11 * fdy + r12 * fdz;
                final double hz = r20 * fdx + r21 * fdy + r22 * fdz;
                Vec3.addTo(w, i + 6, hx, hy, hz);
                // (17), corrected: iR_j ndot_j + iP_j x iR_j fdot_j + iPdot_j x iR_j f_j
                w[i + 9] += r00 * ndx + r01 * ndy + r02 * ndz + oy * hz - oz * hy + dy * gz - dz * gy;
                w[i + 10] += r10 * ndx + r11 * ndy + r12 * ndz + oz * hx - ox * hz + dz * gx - dx * gz;
                w[i + 11] += r20 * ndx + r21 * ndy + r22 * ndz + ox * hy - oy * hx + dx * gy - dy * gx;
            }
        }
    }
}
