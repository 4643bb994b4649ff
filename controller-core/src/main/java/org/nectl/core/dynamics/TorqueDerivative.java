package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * Joint torques and their time derivatives in one call: the generalized-force-derivative algorithm
 * of Guarino Lo Bianco ("Evaluation of generalized force derivatives by means of a recursive
 * Newton-Euler approach", IEEE 2009, eqs. 3-21), generalised to trees and written about the body
 * origins with Khalil's standard inertial parameters. The Newton-Euler passes of
 * {@link NewtonEulerPasses} give tau (it is RNEA's, pass for pass); named rate passes over their
 * motion and wrenches give tau-dot: the jerk pass (eqs. 5, 8), the wrench-rate pass (eqs. 12-13),
 * the wrench-rate backward pass (eqs. 16-17) and the projection (eqs. 19-21). Each rate pass is a
 * loop of its own and recomputes the few transport terms it shares with the step it differentiates
 * (omega_i x iP_j and its transport, omega x MS, J omega, J omegaDot) rather than run fused with
 * it; written as methods called once per body instead, the steps were too large for C2 to inline
 * and tau plus tau-dot measured 61 % (Panda) and 37 % (tree-32) slower (docs/PERFORMANCE.md).
 *
 * <p>Convention (as in the paper): a "rate" is the time derivative in the inertial frame, expressed
 * in the body frame; angular and linear jerk are the inertial derivatives of angular and linear
 * acceleration. The external wrench rate, in contrast, is given as the derivative of its body-frame
 * components (what a body-mounted sensor differentiates); it is converted with d/dt = rate + omega x.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class TorqueDerivative
{
    /** tau: RNEA's passes; their motion, wrenches and workspace are read by the rate passes. */
    private final NewtonEulerPasses passes;
    private final CompiledModel model;
    /**
     * Per slot (0 the base, j + 1 body j), body frame: the angular jerk iota (rad/s^3), then the
     * linear jerk of the origin (m/s^3); the base's stay zero: the base is at rest and gravity constant.
     */
    private final double[] jerk;
    /** Per slot: the inertial rates of the force and of the moment (about the origin) the parent exerts on the body, N/s, N m/s, body frame. */
    private final double[] wrenchRate;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;

    /**
     * Compiles the model for this instance alone. Not real-time safe.
     *
     * @param model the robot.
     */
    public TorqueDerivative(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot, shared with other algorithms.
     */
    public TorqueDerivative(final CompiledModel model)
    {
        this.model = model;
        passes = new NewtonEulerPasses(model);
        jerk = new double[6 * (model.bodyCount + 1)];
        wrenchRate = new double[6 * (model.bodyCount + 1)];
        noLoads = new AppliedLoads(model);
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on); rotor inertia is always
     * included. The Coulomb term's derivative is taken as zero (exact away from qd = 0).
     * Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void jointFriction(final boolean enabled)
    {
        passes.friction = enabled;
    }

    /**
     * Computes joint torques and their time derivatives. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities.
     * @param qdd joint accelerations.
     * @param qddd joint jerks, rad/s^3 or m/s^3.
     * @param tau output joint torques or forces by coordinate, N m or N.
     * @param tauDot output their time derivatives, N m/s or N/s.
     */
    public void compute(
        final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        compute(q, qd, qdd, qddd, noLoads, tau, tauDot);
    }

    /**
     * Computes joint torques and their time derivatives under the given loads and load rates.
     * Gravity is constant in time. Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities.
     * @param qdd joint accelerations.
     * @param qddd joint jerks, rad/s^3 or m/s^3.
     * @param loads gravity, external wrenches and their rates.
     * @param tau output joint torques or forces by coordinate, N m or N.
     * @param tauDot output their time derivatives, N m/s or N/s.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final AppliedLoads loads, final double[] tau, final double[] tauDot)
    {
        final NewtonEulerPasses p = passes;
        p.joints.update(q);
        NewtonEulerPasses.rootMotion(loads, p.omega, 0, p.omegaDot, 0, p.linearAcceleration, 0);
        if (loads.worldLoads)
        {
            loads.resolveInBodyFrames(p.joints);
        }
        p.motionPass(qd, qdd);
        jerkPass(qd, qdd, qddd);
        p.linkWrenchPass(loads);
        wrenchRatePass(loads);
        p.backwardPass();
        wrenchRateBackwardPass(qd);
        p.jointForces(qd, qdd, tau);
        jointForceRates(qdd, qddd, tauDot);
    }

    /**
     * Angular and linear jerks from the base outwards (eqs. 5, 8), from the parent's motion of
     * {@link NewtonEulerPasses#motionPass}: iota_j = jR_i iota_i + sigma-bar (qddd z + 2 qdd (w x z)
     * + qd (wdot x z) + qd w x (w x z)) and jerk_j = jR_i (jerk_i + iota_i x iP_j + 2 omegaDot_i x e
     * + omega_i x d) + sigma (qddd z + 3 qdd (w x z) + 3 qd (wdot x z) + 3 qd w x (w x z)), with
     * w = jR_i omega_i, wdot = jR_i omegaDot_i, e = omega_i x iP_j and d = omegaDot_i x iP_j +
     * omega_i x e.
     * Over 80 lines on purpose: one body's jerk step on locals, each input read once and each result
     * stored once, as the step it differentiates ({@link NewtonEulerPasses#motionPass}).
     */
    private void jerkPass(final double[] qd, final double[] qdd, final double[] qddd)
    {
        final double[] r = passes.joints.rotation;
        final double[] position = passes.joints.position;
        final double[] omega = passes.omega;
        final double[] omegaDot = passes.omegaDot;
        final int[] parent = model.parent;
        final int[] sigmas = model.sigma;
        final int[] coordinate = model.coordinate;
        final double[] iota = jerk;
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int i = NewtonEulerPasses.slot(parent[j]);
            final int ji = 2 * i;
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
            final double wix = omega[i];
            final double wiy = omega[i + 1];
            final double wiz = omega[i + 2];
            final double aix = omegaDot[i];
            final double aiy = omegaDot[i + 1];
            final double aiz = omegaDot[i + 2];
            final double iix = iota[ji];
            final double iiy = iota[ji + 1];
            final double iiz = iota[ji + 2];
            // (5): jR_i iota_i
            double jx = r00 * iix + r10 * iiy + r20 * iiz;
            double jy = r01 * iix + r11 * iiy + r21 * iiz;
            double jz = r02 * iix + r12 * iiy + r22 * iiz;
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
            // (8): jerk_i + iota_i x iP_j + 2 omegaDot_i x e + omega_i x d, then into frame j
            final double gx = iota[ji + 3] + (iiy * oz - iiz * oy + 2.0 * (aiy * ez - aiz * ey) + wiy * dz - wiz * dy);
            final double gy = iota[ji + 4] + (iiz * ox - iix * oz + 2.0 * (aiz * ex - aix * ez) + wiz * dx - wix * dz);
            final double gz = iota[ji + 5] + (iix * oy - iiy * ox + 2.0 * (aix * ey - aiy * ex) + wix * dy - wiy * dx);
            double lx = r00 * gx + r10 * gy + r20 * gz;
            double ly = r01 * gx + r11 * gy + r21 * gz;
            double lz = r02 * gx + r12 * gy + r22 * gz;
            final int sigma = sigmas[j];
            if (sigma != CompiledModel.FIXED)
            {
                // qddd z + c qdd (w x z) + b qd (wdot x z) + b qd w x (w x z), (c, b) = (2, 1) into
                // iota (5), (3, 3) into the jerk (8); w = jR_i omega_i, wdot = jR_i omegaDot_i
                final int k = coordinate[j];
                final boolean revolute = sigma == CompiledModel.REVOLUTE;
                final double a = (revolute ? 2.0 : 3.0) * qdd[k];
                final double v = (revolute ? 1.0 : 3.0) * qd[k];
                final double px = r00 * wix + r10 * wiy + r20 * wiz;
                final double py = r01 * wix + r11 * wiy + r21 * wiz;
                final double pz = r02 * wix + r12 * wiy + r22 * wiz;
                final double bx = r00 * aix + r10 * aiy + r20 * aiz;
                final double by = r01 * aix + r11 * aiy + r21 * aiz;
                final double tx = a * py + v * by + v * pz * px;
                final double ty = -a * px - v * bx + v * pz * py;
                final double tz = qddd[k] - v * (px * px + py * py);
                if (revolute)
                {
                    jx += tx;
                    jy += ty;
                    jz += tz;
                }
                else
                {
                    lx += tx;
                    ly += ty;
                    lz += tz;
                }
            }
            final int js = 2 * NewtonEulerPasses.slot(j);
            Vec3.set(iota, js, jx, jy, jz);
            Vec3.set(iota, js + 3, lx, ly, lz);
        }
    }

    /**
     * Each link wrench's inertial rate from the body's motion and jerk (eqs. 12-13 moved to the
     * origin): Fdot = M jerk + iota x MS + 2 omegaDot x c + omega x h with c = omega x MS and h its
     * transport term omegaDot x MS + omega x c; Mdot = J (iota + omegaDot x omega) + omega x
     * (2 J omegaDot + omega x J omega) + omegaDot x J omega + c x vdot + MS x jerk; minus the
     * external loads' rates.
     */
    private void wrenchRatePass(final AppliedLoads loads)
    {
        final double[] firstMoment = model.firstMoment;
        final double[] mass = model.mass;
        final double[] in = model.inertia;
        final double[] omega = passes.omega;
        final double[] omegaDot = passes.omegaDot;
        final double[] acc = passes.linearAcceleration;
        final double[] iota = jerk;
        final boolean loaded = loads.any();
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int s = NewtonEulerPasses.slot(j);
            final int js = 2 * s;
            final int t = 3 * j;
            final int rj = 9 * j;
            final double wx = omega[s];
            final double wy = omega[s + 1];
            final double wz = omega[s + 2];
            final double ax = omegaDot[s];
            final double ay = omegaDot[s + 1];
            final double az = omegaDot[s + 2];
            final double vx = acc[s];
            final double vy = acc[s + 1];
            final double vz = acc[s + 2];
            final double jx = iota[js];
            final double jy = iota[js + 1];
            final double jz = iota[js + 2];
            final double lx = iota[js + 3];
            final double ly = iota[js + 4];
            final double lz = iota[js + 5];
            final double hx = firstMoment[t];
            final double hy = firstMoment[t + 1];
            final double hz = firstMoment[t + 2];
            final double m = mass[j];
            final double cx = wy * hz - wz * hy;
            final double cy = wz * hx - wx * hz;
            final double cz = wx * hy - wy * hx;
            final double mx = ay * hz - az * hy + wy * cz - wz * cy;
            final double my = az * hx - ax * hz + wz * cx - wx * cz;
            final double mz = ax * hy - ay * hx + wx * cy - wy * cx;
            final double jxx = in[rj];
            final double jxy = in[rj + 1];
            final double jxz = in[rj + 2];
            final double jyx = in[rj + 3];
            final double jyy = in[rj + 4];
            final double jyz = in[rj + 5];
            final double jzx = in[rj + 6];
            final double jzy = in[rj + 7];
            final double jzz = in[rj + 8];
            // J omega, 2 J omegaDot + omega x J omega, iota + omegaDot x omega
            final double ox2 = jxx * wx + jxy * wy + jxz * wz;
            final double oy2 = jyx * wx + jyy * wy + jyz * wz;
            final double oz2 = jzx * wx + jzy * wy + jzz * wz;
            final double zx = 2.0 * (jxx * ax + jxy * ay + jxz * az) + wy * oz2 - wz * oy2;
            final double zy = 2.0 * (jyx * ax + jyy * ay + jyz * az) + wz * ox2 - wx * oz2;
            final double zz = 2.0 * (jzx * ax + jzy * ay + jzz * az) + wx * oy2 - wy * ox2;
            final double qx = jx + ay * wz - az * wy;
            final double qy = jy + az * wx - ax * wz;
            final double qz = jz + ax * wy - ay * wx;
            final int ws = 2 * s;
            Vec3.set(wrenchRate, ws,
                jy * hz - jz * hy + 2.0 * (ay * cz - az * cy) + wy * mz - wz * my + m * lx,
                jz * hx - jx * hz + 2.0 * (az * cx - ax * cz) + wz * mx - wx * mz + m * ly,
                jx * hy - jy * hx + 2.0 * (ax * cy - ay * cx) + wx * my - wy * mx + m * lz);
            Vec3.set(wrenchRate, ws + 3,
                jxx * qx + jxy * qy + jxz * qz + wy * zz - wz * zy + ay * oz2 - az * oy2 + cy * vz - cz * vy + hy * lz - hz * ly,
                jyx * qx + jyy * qy + jyz * qz + wz * zx - wx * zz + az * ox2 - ax * oz2 + cz * vx - cx * vz + hz * lx - hx * lz,
                jzx * qx + jzy * qy + jzz * qz + wx * zy - wy * zx + ax * oy2 - ay * ox2 + cx * vy - cy * vx + hx * ly - hy * lx);
            if (loaded)
            {
                externalLoadRate(loads, j, wx, wy, wz, wrenchRate, ws);
            }
        }
    }

    /**
     * out -= the inertial rate of the external loads on body j (the rates in (12)-(13)). A
     * body-fixed wrench's inertial rate is the rate of its components plus omega x f; a world-fixed
     * force F at the body point c and a world-fixed moment M have, in the body frame, the inertial
     * rates 0R^T Fdot and (omega x c) x F + c x 0R^T Fdot + 0R^T Mdot.
     */
    private static void externalLoadRate(final AppliedLoads loads, final int j,
        final double wx, final double wy, final double wz, final double[] w, final int ws)
    {
        final int e = 6 * j;
        final double[] b = loads.bodyWrench;
        final double[] r = loads.bodyWrenchRate;
        w[ws] -= r[e] + (wy * b[e + 2] - wz * b[e + 1]);
        w[ws + 1] -= r[e + 1] + (wz * b[e] - wx * b[e + 2]);
        w[ws + 2] -= r[e + 2] + (wx * b[e + 1] - wy * b[e]);
        w[ws + 3] -= r[e + 3] + (wy * b[e + 5] - wz * b[e + 4]);
        w[ws + 4] -= r[e + 4] + (wz * b[e + 3] - wx * b[e + 5]);
        w[ws + 5] -= r[e + 5] + (wx * b[e + 4] - wy * b[e + 3]);
        if (loads.worldLoads)
        {
            final double[] g = loads.worldInBody;
            final int k = 12 * j;
            final double[] p = loads.worldPoint;
            final int t = 3 * j;
            final double cx = p[t];
            final double cy = p[t + 1];
            final double cz = p[t + 2];
            // u = omega x c; the force F = g[k..k+2], its rate g[k+6..k+8], the moment's rate g[k+9..k+11]
            final double ux = wy * cz - wz * cy;
            final double uy = wz * cx - wx * cz;
            final double uz = wx * cy - wy * cx;
            w[ws] -= g[k + 6];
            w[ws + 1] -= g[k + 7];
            w[ws + 2] -= g[k + 8];
            w[ws + 3] -= uy * g[k + 2] - uz * g[k + 1] + cy * g[k + 8] - cz * g[k + 7] + g[k + 9];
            w[ws + 4] -= uz * g[k] - ux * g[k + 2] + cz * g[k + 6] - cx * g[k + 8] + g[k + 10];
            w[ws + 5] -= ux * g[k + 1] - uy * g[k] + cx * g[k + 7] - cy * g[k + 6] + g[k + 11];
        }
    }

    /**
     * Child wrench rates summed into their parents, leaves first, after
     * {@link NewtonEulerPasses#backwardPass} has completed every subtree wrench: (16) fdot_i +=
     * iR_j fdot_j and (17, corrected) ndot_i += iR_j ndot_j + iP_j x iR_j fdot_j + iPdot_j x iR_j f_j,
     * where iPdot_j = omega_i x iP_j + sigma_j qd_j iz_j is the inertial rate of the child's origin
     * offset (the paper's (17) omits it; docs/VALIDATION.md).
     */
    private void wrenchRateBackwardPass(final double[] qd)
    {
        final double[] r = passes.joints.rotation;
        final double[] position = passes.joints.position;
        final double[] force = passes.force;
        final double[] omega = passes.omega;
        final int[] parent = model.parent;
        final double[] w = wrenchRate;
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            if (parent[j] < 0)
            {
                continue;
            }
            final int fs = NewtonEulerPasses.slot(j);
            final int s = 2 * fs;
            final int ps = NewtonEulerPasses.slot(parent[j]);
            final int i = 2 * ps;
            final int rj = 9 * j;
            final int pj = 3 * j;
            final double r00 = r[rj];
            final double r01 = r[rj + 1];
            final double r02 = r[rj + 2];
            final double r10 = r[rj + 3];
            final double r11 = r[rj + 4];
            final double r12 = r[rj + 5];
            final double r20 = r[rj + 6];
            final double r21 = r[rj + 7];
            final double r22 = r[rj + 8];
            final double px = position[pj];
            final double py = position[pj + 1];
            final double pz = position[pj + 2];
            // iR_j f_j, iR_j fdot_j, iR_j ndot_j
            final double hx = r00 * force[fs] + r01 * force[fs + 1] + r02 * force[fs + 2];
            final double hy = r10 * force[fs] + r11 * force[fs + 1] + r12 * force[fs + 2];
            final double hz = r20 * force[fs] + r21 * force[fs + 1] + r22 * force[fs + 2];
            final double gx = r00 * w[s] + r01 * w[s + 1] + r02 * w[s + 2];
            final double gy = r10 * w[s] + r11 * w[s + 1] + r12 * w[s + 2];
            final double gz = r20 * w[s] + r21 * w[s + 1] + r22 * w[s + 2];
            final double nx = r00 * w[s + 3] + r01 * w[s + 4] + r02 * w[s + 5];
            final double ny = r10 * w[s + 3] + r11 * w[s + 4] + r12 * w[s + 5];
            final double nz = r20 * w[s + 3] + r21 * w[s + 4] + r22 * w[s + 5];
            // iPdot_j = omega_i x iP_j, plus qd iz_j (the third column of iR_j) for a prismatic joint
            final double u = model.sigma[j] == CompiledModel.PRISMATIC ? qd[model.coordinate[j]] : 0.0;
            final double dx = omega[ps + 1] * pz - omega[ps + 2] * py + u * r02;
            final double dy = omega[ps + 2] * px - omega[ps] * pz + u * r12;
            final double dz = omega[ps] * py - omega[ps + 1] * px + u * r22;
            Vec3.addTo(w, i, gx, gy, gz);
            Vec3.addTo(w, i + 3, nx + py * gz - pz * gy + dy * hz - dz * hy, ny + pz * gx - px * gz + dz * hx - dx * hz,
                nz + px * gy - py * gx + dx * hy - dy * hx);
        }
    }

    /**
     * tau-dot: d/dt of Khalil (31) by Guarino Lo Bianco (19)-(21), (ndot + n x omega) . z or
     * (fdot + f x omega) . z (the body-frame derivative of the projected wrench), plus Ia qddd and
     * Fv qdd; the Coulomb term's derivative is taken as zero.
     */
    private void jointForceRates(final double[] qdd, final double[] qddd, final double[] tauDot)
    {
        final double[] force = passes.force;
        final double[] moment = passes.moment;
        final double[] omega = passes.omega;
        for (int k = 0; k < model.dof; k++)
        {
            final int j = model.bodyOfCoordinate[k];
            final int s = NewtonEulerPasses.slot(j);
            final int ws = 2 * s;
            final double wx = omega[s];
            final double wy = omega[s + 1];
            tauDot[k] = model.jointForce(j, wrenchRate[ws + 2] + (force[s] * wy - force[s + 1] * wx),
                wrenchRate[ws + 5] + (moment[s] * wy - moment[s + 1] * wx))
                + model.rotorInertia[k] * qddd[k] + model.frictionRate(k, qdd[k], passes.friction);
        }
    }
}
