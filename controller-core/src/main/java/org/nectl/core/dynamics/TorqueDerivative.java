package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Joint torques and their time derivatives in one call: the generalized-force-derivative algorithm
 * of Guarino Lo Bianco ("Evaluation of generalized force derivatives by means of a recursive
 * Newton-Euler approach", IEEE 2009, eqs. 3-21), generalised to trees and written about the body
 * origins with Khalil's standard inertial parameters. The Newton-Euler passes of
 * {@link InverseDynamics} give tau; jerk propagation forward and wrench-rate accumulation backward
 * give tau-dot. Each body's Newton-Euler step and its derivative run in one loop body, forward and
 * backward, so that the rotation, offsets and transport terms are loaded or computed once.
 *
 * <p>The one fused variant of the Newton-Euler step: its step expressions are those of
 * {@link NewtonEulerPasses} (tau is RNEA's to the bit), fused with the jerk step (eqs. 5, 8) in
 * {@link #motionPass} and with the wrench-rate steps (eqs. 12-13 forward in {@link #wrenchPass},
 * 16-17 backward in {@link #backwardPass}). Three unfused forms were built and measured against it
 * (docs/PERFORMANCE.md): the shared step, jerk step and wrench-rate step as methods called per
 * body made tau plus tau-dot 61 % (Panda) and 37 % (tree-32) slower, the steps being too large
 * for C2 to inline; RNEA's own passes followed by separate jerk, wrench-rate and rate-backward
 * passes made it 43 % and 17 % slower and the 7-DoF control tick 8 %, every rate pass recomputing
 * the transport terms it shares with the step (omega_i x iP_j and its transport, omega x MS,
 * J omega, J omegaDot) and reloading the rotations; RNEA's passes with these rate terms in the same
 * loop bodies behind a loop-invariant flag left RNEA unchanged but made tau plus tau-dot 11-17 %
 * (Panda) and 17-21 % (tree-32) slower, and 16-21 % with the flag a compile-time constant.
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
    private final CompiledModel model;
    private final JointTransforms joints;
    /** Values per slot of {@link #motion}. */
    private static final int MOTION = 15;
    /** Values per slot of {@link #wrenches}. */
    private static final int WRENCH = 15;
    /**
     * Per slot (0 the base, j + 1 body j), each in its body's frame: omega (rad/s), omegaDot (rad/s^2),
     * linear acceleration of the origin (gravity entered as base acceleration -g, m/s^2), angular
     * jerk iota (rad/s^3), linear jerk (m/s^3; the base's is zero: gravity is constant). One array
     * rather than one per quantity: a body's step reads its parent's state from one place, with one
     * range check, which measured 3 % faster on a 32-joint tree.
     */
    private final double[] motion;
    /**
     * Per slot: the force and moment (about the origin) the parent exerts on the body, then their
     * inertial rates, N, N m, N/s, N m/s, body frame; then the inertial rate of iP_j,
     * omega_i x iP_j + sigma_j qd_j iz_j, in the parent frame (m/s), formed by the forward loop
     * (which has omega_i x iP_j anyway) for the backward loop's (17).
     */
    private final double[] wrenches;
    /** The model's gravity and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    private boolean friction = true;

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
        joints = new JointTransforms(model);
        motion = new double[MOTION * (model.bodyCount + 1)];
        wrenches = new double[WRENCH * (model.bodyCount + 1)];
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
        friction = enabled;
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
        joints.update(q);
        NewtonEulerPasses.rootMotion(loads, null, motion, 0, motion, 3, motion, 6);
        if (loads.worldLoads)
        {
            loads.resolveInBodyFrames(joints);
        }
        motionPass(qd, qdd, qddd);
        wrenchPass(loads);
        backwardPass(qd, qdd, qddd, tau, tauDot);
    }

    /**
     * Velocities, accelerations and jerks from the base outwards: the motion step of
     * {@link NewtonEulerPasses#motionPass} (Khalil 18-21, the same expressions, so tau is the same
     * to the bit) and the jerk step (eqs. 5, 8) in one loop body on locals. The two share the
     * rotation, the offset iP_j, the parent's omega and omegaDot, e = omega_i x iP_j and its
     * transport term d, which a separate jerk step would recompute; the inertial rate of iP_j for
     * the backward pass's (17) falls out of e.
     * Over 80 lines on purpose: the motion step and its derivative fused (class comment).
     */
    private void motionPass(final double[] qd, final double[] qdd, final double[] qddd)
    {
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final int[] sigmas = model.sigma;
        final int[] coordinate = model.coordinate;
        final double[] state = motion;
        final double[] w = wrenches;
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
            final double iix = state[i + 9];
            final double iiy = state[i + 10];
            final double iiz = state[i + 11];
            // Khalil (18), (20): jR_i omega_i, jR_i omegaDot_i
            final double px = r00 * wix + r10 * wiy + r20 * wiz;
            final double py = r01 * wix + r11 * wiy + r21 * wiz;
            final double pz = r02 * wix + r12 * wiy + r22 * wiz;
            final double bx = r00 * aix + r10 * aiy + r20 * aiz;
            final double by = r01 * aix + r11 * aiy + r21 * aiz;
            final double bz = r02 * aix + r12 * aiy + r22 * aiz;
            // (5): jR_i iota_i
            double jx = r00 * iix + r10 * iiy + r20 * iiz;
            double jy = r01 * iix + r11 * iiy + r21 * iiz;
            double jz = r02 * iix + r12 * iiy + r22 * iiz;
            // Khalil (21): vdot_i + U_i iP_j, with e = omega_i x iP_j and the transport term d
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
            final double ux = state[i + 6] + dx;
            final double uy = state[i + 7] + dy;
            final double uz = state[i + 8] + dz;
            double vx = r00 * ux + r10 * uy + r20 * uz;
            double vy = r01 * ux + r11 * uy + r21 * uz;
            double vz = r02 * ux + r12 * uy + r22 * uz;
            // (8): jerk_i + iota_i x iP_j + 2 omegaDot_i x e + omega_i x d, then into frame j
            final double gx = state[i + 12] + (iiy * oz - iiz * oy + 2.0 * (aiy * ez - aiz * ey) + wiy * dz - wiz * dy);
            final double gy = state[i + 13] + (iiz * ox - iix * oz + 2.0 * (aiz * ex - aix * ez) + wiz * dx - wix * dz);
            final double gz = state[i + 14] + (iix * oy - iiy * ox + 2.0 * (aix * ey - aiy * ex) + wix * dy - wiy * dx);
            double lx = r00 * gx + r10 * gy + r20 * gz;
            double ly = r01 * gx + r11 * gy + r21 * gz;
            double lz = r02 * gx + r12 * gy + r22 * gz;
            final double wx = px;
            final double wy = py;
            double wz = pz;
            double ax = bx;
            double ay = by;
            double az = bz;
            // iPdot_j for the backward loop's (17)
            double drx = ex;
            double dry = ey;
            double drz = ez;
            final int sigma = sigmas[j];
            if (sigma == CompiledModel.REVOLUTE)
            {
                final int k = coordinate[j];
                final double v = qd[k];
                // Khalil: qd z and qdd z + qd (jomega_i x z), with u x z = (u_y, -u_x, 0)
                wz += v;
                ax += v * py;
                ay -= v * px;
                az += qdd[k];
                // (5): qddd z + 2 qdd (w x z) + qd (wdot x z) + qd w x (w x z), w = jR_i omega_i
                final double a = 2.0 * qdd[k];
                jx += a * py + v * by + v * pz * px;
                jy += -a * px - v * bx + v * pz * py;
                jz += qddd[k] - v * (px * px + py * py);
            }
            else if (sigma == CompiledModel.PRISMATIC)
            {
                final int k = coordinate[j];
                // Khalil: qdd z + 2 qd (jomega_i x z)
                vx += 2.0 * qd[k] * py;
                vy -= 2.0 * qd[k] * px;
                vz += qdd[k];
                // (8): qddd z + 3 qdd (w x z) + 3 qd (wdot x z) + 3 qd w x (w x z)
                final double a = 3.0 * qdd[k];
                final double v = 3.0 * qd[k];
                lx += a * py + v * by + v * pz * px;
                ly += -a * px - v * bx + v * pz * py;
                lz += qddd[k] - v * (px * px + py * py);
                // (17): the origin also moves along iz_j, the third column of iR_j
                final double u = qd[k];
                drx += u * r02;
                dry += u * r12;
                drz += u * r22;
            }
            final int ws = WRENCH * (j + 1);
            Vec3.set(w, ws + 12, drx, dry, drz);
            Vec3.set(state, s, wx, wy, wz);
            Vec3.set(state, s + 3, ax, ay, az);
            Vec3.set(state, s + 6, vx, vy, vz);
            Vec3.set(state, s + 9, jx, jy, jz);
            Vec3.set(state, s + 12, lx, ly, lz);
        }
    }

    /**
     * Each link's wrench (Khalil 22-23) and its inertial rate (eqs. 12-13 moved to the origin) from
     * the body's motion and jerk, both minus the external wrench when there is one. The rate shares
     * c = omega x MS, its transport term, J omega and J omegaDot with the wrench.
     * Over 80 lines on purpose: the link-wrench step and its derivative fused (class comment).
     */
    private void wrenchPass(final AppliedLoads applied)
    {
        final CompiledModel model = this.model;
        final double[] firstMoment = model.firstMoment;
        final double[] mass = model.mass;
        final double[] in = model.inertia;
        final double[] state = motion;
        final double[] w = wrenches;
        final boolean loads = applied.any();
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
            final double jx = state[s + 9];
            final double jy = state[s + 10];
            final double jz = state[s + 11];
            final double lx = state[s + 12];
            final double ly = state[s + 13];
            final double lz = state[s + 14];
            // c = omega x MS and its transport term (mx, my, mz)
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
            double fx = m * vx + mx;
            double fy = m * vy + my;
            double fz = m * vz + mz;
            // Fdot = M jerk + iota x MS + 2 omegaDot x c + omega x h
            double fdx = jy * hz - jz * hy + 2.0 * (ay * cz - az * cy) + wy * mz - wz * my + m * lx;
            double fdy = jz * hx - jx * hz + 2.0 * (az * cx - ax * cz) + wz * mx - wx * mz + m * ly;
            double fdz = jx * hy - jy * hx + 2.0 * (ax * cy - ay * cx) + wx * my - wy * mx + m * lz;
            final double jxx = in[rj];
            final double jxy = in[rj + 1];
            final double jxz = in[rj + 2];
            final double jyx = in[rj + 3];
            final double jyy = in[rj + 4];
            final double jyz = in[rj + 5];
            final double jzx = in[rj + 6];
            final double jzy = in[rj + 7];
            final double jzz = in[rj + 8];
            // J omega, J omegaDot; Khalil (23): M = J omegaDot + omega x (J omega) + MS x vdot
            final double ox2 = jxx * wx + jxy * wy + jxz * wz;
            final double oy2 = jyx * wx + jyy * wy + jyz * wz;
            final double oz2 = jzx * wx + jzy * wy + jzz * wz;
            final double kx = jxx * ax + jxy * ay + jxz * az;
            final double ky = jyx * ax + jyy * ay + jyz * az;
            final double kz = jzx * ax + jzy * ay + jzz * az;
            double nx = kx + wy * oz2 - wz * oy2 + hy * vz - hz * vy;
            double ny = ky + wz * ox2 - wx * oz2 + hz * vx - hx * vz;
            double nz = kz + wx * oy2 - wy * ox2 + hx * vy - hy * vx;
            // Mdot = J (iota + omegaDot x omega) + omega x (2 J omegaDot + omega x J omega)
            //   + omegaDot x J omega + (omega x MS) x vdot + MS x jerk
            final double qx = jx + ay * wz - az * wy;
            final double qy = jy + az * wx - ax * wz;
            final double qz = jz + ax * wy - ay * wx;
            final double zx = 2.0 * kx + wy * oz2 - wz * oy2;
            final double zy = 2.0 * ky + wz * ox2 - wx * oz2;
            final double zz = 2.0 * kz + wx * oy2 - wy * ox2;
            double ndx = jxx * qx + jxy * qy + jxz * qz + wy * zz - wz * zy + ay * oz2 - az * oy2
                + cy * vz - cz * vy + hy * lz - hz * ly;
            double ndy = jyx * qx + jyy * qy + jyz * qz + wz * zx - wx * zz + az * ox2 - ax * oz2
                + cz * vx - cx * vz + hz * lx - hx * lz;
            double ndz = jzx * qx + jzy * qy + jzz * qz + wx * zy - wy * zx + ax * oy2 - ay * ox2
                + cx * vy - cy * vx + hx * ly - hy * lx;
            Vec3.set(w, ws, fx, fy, fz);
            Vec3.set(w, ws + 3, nx, ny, nz);
            Vec3.set(w, ws + 6, fdx, fdy, fdz);
            Vec3.set(w, ws + 9, ndx, ndy, ndz);
            if (loads)
            {
                externalLoadStep(applied, j, wx, wy, wz, w, ws);
            }
        }
    }

    /**
     * Body j's link wrench and wrench rate minus the external loads' (Khalil eqs. 26-27 and their
     * rates in (12)-(13)). A body-fixed wrench's inertial rate is the rate of its components plus
     * omega x f; a world-fixed force F at the body point c and a world-fixed moment M have, in the
     * body frame, the inertial rates 0R^T Fdot and (omega x c) x F + c x 0R^T Fdot + 0R^T Mdot.
     */
    private static void externalLoadStep(final AppliedLoads loads, final int j,
        final double wx, final double wy, final double wz, final double[] w, final int ws)
    {
        final int e = 6 * j;
        final int k = 12 * j;
        final double[] b = loads.bodyWrench;
        final double[] g = loads.worldInBody;
        for (int c = 0; c < 6; c++)
        {
            w[ws + c] -= b[e + c] + g[k + c];
        }
        final double[] r = loads.bodyWrenchRate;
        w[ws + 6] -= r[e] + (wy * b[e + 2] - wz * b[e + 1]);
        w[ws + 7] -= r[e + 1] + (wz * b[e] - wx * b[e + 2]);
        w[ws + 8] -= r[e + 2] + (wx * b[e + 1] - wy * b[e]);
        w[ws + 9] -= r[e + 3] + (wy * b[e + 5] - wz * b[e + 4]);
        w[ws + 10] -= r[e + 4] + (wz * b[e + 3] - wx * b[e + 5]);
        w[ws + 11] -= r[e + 5] + (wx * b[e + 4] - wy * b[e + 3]);
        if (loads.worldLoads)
        {
            final double[] p = loads.worldPoint;
            final int t = 3 * j;
            final double cx = p[t];
            final double cy = p[t + 1];
            final double cz = p[t + 2];
            // u = omega x c; the force F = g[k..k+2], its rate g[k+6..k+8], the moment's rate g[k+9..k+11]
            final double ux = wy * cz - wz * cy;
            final double uy = wz * cx - wx * cz;
            final double uz = wx * cy - wy * cx;
            w[ws + 6] -= g[k + 6];
            w[ws + 7] -= g[k + 7];
            w[ws + 8] -= g[k + 8];
            w[ws + 9] -= uy * g[k + 2] - uz * g[k + 1] + cy * g[k + 8] - cz * g[k + 7] + g[k + 9];
            w[ws + 10] -= uz * g[k] - ux * g[k + 2] + cz * g[k + 6] - cx * g[k + 8] + g[k + 10];
            w[ws + 11] -= ux * g[k + 1] - uy * g[k] + cx * g[k + 7] - cy * g[k + 6] + g[k + 11];
        }
    }

    /**
     * Leaves first, each body's joint force and its rate, then its wrench and wrench rate summed into
     * its parent. Bodies are in topological order (parent before child), so when body j is reached
     * every child has already added into it and its wrench is complete: the projection (Khalil 31,
     * eqs. 19-21) runs on the wrench already in registers instead of in a separate loop per output.
     * Transmission: Khalil (28-30) and (16-17, corrected) sharing the rotation, iP_j and iR_j f_j:
     * fdot_i += iR_j fdot_j; ndot_i += iR_j ndot_j + iPdot_j x iR_j f_j + iP_j x iR_j fdot_j, where
     * iPdot_j = omega_i x iP_j + sigma_j qd_j iz_j is the inertial rate of the child's origin offset.
     * Over 80 lines on purpose: one loop body on locals (see the class comment for the measured cost of splitting it).
     */
    private void backwardPass(final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        final CompiledModel model = this.model;
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final int[] coordinate = model.coordinate;
        final double[] rotorInertia = model.rotorInertia;
        final boolean friction = this.friction;
        final double[] kin = motion;
        final double[] w = wrenches;
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            final int s = WRENCH * (j + 1);
            final int ks = MOTION * (j + 1);
            final double fx = w[s];
            final double fy = w[s + 1];
            final double fz = w[s + 2];
            final double nx = w[s + 3];
            final double ny = w[s + 4];
            final double nz = w[s + 5];
            final double fdx = w[s + 6];
            final double fdy = w[s + 7];
            final double fdz = w[s + 8];
            final double ndx = w[s + 9];
            final double ndy = w[s + 10];
            final double ndz = w[s + 11];
            if (model.movable(j))
            {
                // Khalil (31) as in NewtonEulerPasses.jointForces (the same expression, so tau is the
                // same to the bit); (19)-(21): (ndot + n x omega) . z or (fdot + f x omega) . z, plus
                // d/dt of (31): Ia qddd + Fv qdd
                final int k = coordinate[j];
                final double wjx = kin[ks];
                final double wjy = kin[ks + 1];
                final double ia = rotorInertia[k];
                tau[k] = model.jointForce(j, fz, nz) + ia * qdd[k] + model.friction(k, qd[k], friction);
                tauDot[k] = model.jointForce(j, fdz + (fx * wjy - fy * wjx), ndz + (nx * wjy - ny * wjx))
                    + ia * qddd[k] + model.frictionRate(k, qdd[k], friction);
            }
            final int p = parent[j];
            if (p < 0)
            {
                continue;
            }
            final int i = WRENCH * (p + 1);
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
            // Khalil (28) iF_j = iR_j jf_j, (29), (30) iR_j jn_j + iP_j x iF_j
            final double hx = r00 * fx + r01 * fy + r02 * fz;
            final double hy = r10 * fx + r11 * fy + r12 * fz;
            final double hz = r20 * fx + r21 * fy + r22 * fz;
            Vec3.addTo(w, i, hx, hy, hz);
            w[i + 3] += r00 * nx + r01 * ny + r02 * nz + py * hz - pz * hy;
            w[i + 4] += r10 * nx + r11 * ny + r12 * nz + pz * hx - px * hz;
            w[i + 5] += r20 * nx + r21 * ny + r22 * nz + px * hy - py * hx;
            // (16) iR_j fdot_j
            final double gx = r00 * fdx + r01 * fdy + r02 * fdz;
            final double gy = r10 * fdx + r11 * fdy + r12 * fdz;
            final double gz = r20 * fdx + r21 * fdy + r22 * fdz;
            Vec3.addTo(w, i + 6, gx, gy, gz);
            // (17), corrected: iPdot_j = omega_i x iP_j (+ qd iz_j when prismatic); its term uses the force itself
            final double dx = w[s + 12];
            final double dy = w[s + 13];
            final double dz = w[s + 14];
            // (17): iR_j ndot_j + iP_j x iR_j fdot_j + iPdot_j x iR_j f_j
            w[i + 9] += r00 * ndx + r01 * ndy + r02 * ndz + py * gz - pz * gy + dy * hz - dz * hy;
            w[i + 10] += r10 * ndx + r11 * ndy + r12 * ndz + pz * gx - px * gz + dz * hx - dx * hz;
            w[i + 11] += r20 * ndx + r21 * ndy + r22 * ndz + px * gy - py * gx + dx * hy - dy * hx;
        }
    }
}
