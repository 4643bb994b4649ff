package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Joint torques and their time derivatives in one call: the generalized-force-derivative algorithm
 * of Guarino Lo Bianco ("Evaluation of generalized force derivatives by means of a recursive
 * Newton-Euler approach", IEEE 2009, eqs. 3-21), generalised to trees and written about the body
 * origins with Khalil's standard inertial parameters. Per body, forward: the Newton-Euler step of
 * {@link NewtonEulerPasses} (so tau is RNEA's to the bit), then the {@link #jerkStep} (eqs. 5, 8)
 * and the {@link #wrenchRateStep} (eqs. 12-13); backward: the joint projections (Khalil eq. 31 and
 * eqs. 19-21), the Newton-Euler backward step and the {@link #wrenchRateBackwardStep} (eqs. 16-17).
 *
 * <p>Convention (as in the paper): a "rate" is the time derivative in the inertial frame, expressed
 * in the body frame; angular and linear jerk are the inertial derivatives of angular and linear
 * acceleration. The external wrench rate, in contrast, is given as the derivative of its body-frame
 * components (what a body-mounted sensor differentiates); it is converted with d/dt = rate + omega x.
 *
 * <p>Per-body vectors are slotted as in {@link NewtonEulerPasses} (slot 0 the base), each in its
 * own body's frame. Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class TorqueDerivative
{
    private final CompiledModel model;
    private final NewtonEulerPasses newtonEuler;
    /** Angular jerk iota_j, inertial derivative of omegaDot_j, rad/s^3, slotted. */
    private final double[] angularJerk;
    /** Linear jerk of the origin, m/s^3, slotted; the base's is zero (gravity is constant). */
    private final double[] linearJerk;
    /** Inertial rate of the force the parent exerts on the body, N/s, slotted. */
    private final double[] forceRate;
    /** Inertial rate of the moment the parent exerts on the body about its origin, N m/s, slotted. */
    private final double[] momentRate;
    /** Inertial rate of iP_j, omega_i x iP_j + sigma_j qd_j iz_j, parent frame, m/s, 3 per body. */
    private final double[] offsetRate;
    /** Rate of the body-frame components of each external wrench, 6 per body. */
    private final double[] externalWrenchRate;

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
        newtonEuler = new NewtonEulerPasses(model);
        final int slots = 3 * (model.bodyCount + 1);
        angularJerk = new double[slots];
        linearJerk = new double[slots];
        forceRate = new double[slots];
        momentRate = new double[slots];
        offsetRate = new double[3 * model.bodyCount];
        externalWrenchRate = new double[6 * model.bodyCount];
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81), constant in time. Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        newtonEuler.gravity(gx, gy, gz);
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
        newtonEuler.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /**
     * Sets the time derivative of the body-frame components of the external wrench on a body, kept
     * until changed or cleared. Real-time safe when given a preallocated array.
     *
     * @param body body index.
     * @param six d/dt of (fx, fy, fz) in N/s then (mx, my, mz) in N m/s, body-frame components.
     */
    public void externalWrenchRate(final int body, final double... six)
    {
        System.arraycopy(six, 0, externalWrenchRate, 6 * body, 6);
        newtonEuler.externalLoads = true;
    }

    /** Sets every external wrench and wrench rate to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        newtonEuler.clearExternalWrenches();
        Arrays.fill(externalWrenchRate, 0.0);
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
        newtonEuler.friction = enabled;
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
        newtonEuler.joints.update(q);
        for (int j = 0; j < model.bodyCount; j++)
        {
            newtonEuler.forwardStep(j, qd, qdd);
            jerkStep(j, qd, qdd, qddd);
            wrenchRateStep(j);
        }
        backwardPass(qd, qdd, qddd, tau, tauDot);
    }

    /**
     * Joint torques and their rates, leaves first: each body's wrench and wrench rate are complete
     * when it is reached (its children have higher indices), so it is projected (Khalil 31,
     * eqs. 19-21) and then sent to its parent.
     */
    private void backwardPass(final double[] qd, final double[] qdd, final double[] qddd, final double[] tau, final double[] tauDot)
    {
        final CompiledModel model = this.model;
        final boolean friction = newtonEuler.friction;
        final double[] force = newtonEuler.force;
        final double[] moment = newtonEuler.moment;
        final double[] omega = newtonEuler.omega;
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            if (model.movable(j))
            {
                // (31), and (19)-(21): (ndot + n x omega) . z or (fdot + f x omega) . z, plus Ia qddd + Fv qdd
                final int k = model.coordinate[j];
                final int s = NewtonEulerPasses.slot(j);
                final double wx = omega[s];
                final double wy = omega[s + 1];
                final double ia = model.rotorInertia[k];
                tau[k] = model.jointForce(j, force[s + 2], moment[s + 2]) + ia * qdd[k] + model.friction(k, qd[k], friction);
                tauDot[k] = model.jointForce(j, forceRate[s + 2] + (force[s] * wy - force[s + 1] * wx),
                    momentRate[s + 2] + (moment[s] * wy - moment[s + 1] * wx))
                    + ia * qddd[k] + model.frictionRate(k, qdd[k], friction);
            }
            newtonEuler.backwardStep(j);
            wrenchRateBackwardStep(j);
        }
    }

    /**
     * Body j's angular and linear jerk from its parent's (eqs. 5 and 8 with the extraction errors
     * corrected: the stand-alone terms are the third derivatives), and the rate of its offset iP_j
     * for (17). Requires the Newton-Euler forward step of body j.
     */
    private void jerkStep(final int j, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int i = NewtonEulerPasses.slot(model.parent[j]);
        final double[] r = newtonEuler.joints.rotation;
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
        final double[] omega = newtonEuler.omega;
        final double[] omegaDot = newtonEuler.omegaDot;
        final double wix = omega[i];
        final double wiy = omega[i + 1];
        final double wiz = omega[i + 2];
        final double aix = omegaDot[i];
        final double aiy = omegaDot[i + 1];
        final double aiz = omegaDot[i + 2];
        final double iix = angularJerk[i];
        final double iiy = angularJerk[i + 1];
        final double iiz = angularJerk[i + 2];
        // e = omega_i x iP_j, d = omegaDot_i x iP_j + omega_i x e
        final int t = 3 * j;
        final double[] position = newtonEuler.joints.position;
        final double ox = position[t];
        final double oy = position[t + 1];
        final double oz = position[t + 2];
        final double ex = wiy * oz - wiz * oy;
        final double ey = wiz * ox - wix * oz;
        final double ez = wix * oy - wiy * ox;
        final double dx = aiy * oz - aiz * oy + wiy * ez - wiz * ey;
        final double dy = aiz * ox - aix * oz + wiz * ex - wix * ez;
        final double dz = aix * oy - aiy * ox + wix * ey - wiy * ex;
        // (5): jR_i iota_i
        double jx = r00 * iix + r10 * iiy + r20 * iiz;
        double jy = r01 * iix + r11 * iiy + r21 * iiz;
        double jz = r02 * iix + r12 * iiy + r22 * iiz;
        // (8): jR_i (jerk_i + iota_i x iP_j + 2 omegaDot_i x e + omega_i x d)
        final double gx = linearJerk[i] + (iiy * oz - iiz * oy + 2.0 * (aiy * ez - aiz * ey) + wiy * dz - wiz * dy);
        final double gy = linearJerk[i + 1] + (iiz * ox - iix * oz + 2.0 * (aiz * ex - aix * ez) + wiz * dx - wix * dz);
        final double gz = linearJerk[i + 2] + (iix * oy - iiy * ox + 2.0 * (aix * ey - aiy * ex) + wix * dy - wiy * dx);
        double lx = r00 * gx + r10 * gy + r20 * gz;
        double ly = r01 * gx + r11 * gy + r21 * gz;
        double lz = r02 * gx + r12 * gy + r22 * gz;
        double prx = ex;
        double pry = ey;
        double prz = ez;
        final int sigma = model.sigma[j];
        if (sigma != CompiledModel.FIXED)
        {
            // w = jR_i omega_i and wdot = jR_i omegaDot_i, the parent's motion seen in frame j
            final int k = model.coordinate[j];
            final double px = r00 * wix + r10 * wiy + r20 * wiz;
            final double py = r01 * wix + r11 * wiy + r21 * wiz;
            final double pz = r02 * wix + r12 * wiy + r22 * wiz;
            final double bx = r00 * aix + r10 * aiy + r20 * aiz;
            final double by = r01 * aix + r11 * aiy + r21 * aiz;
            if (sigma == CompiledModel.REVOLUTE)
            {
                // (5): + qddd z + 2 qdd (w x z) + qd (wdot x z) + qd w x (w x z), with u x z = (u_y, -u_x, 0)
                final double v = qd[k];
                final double a = 2.0 * qdd[k];
                jx += a * py + v * by + v * pz * px;
                jy += -a * px - v * bx + v * pz * py;
                jz += qddd[k] - v * (px * px + py * py);
            }
            else
            {
                // (8): + qddd z + 3 qdd (w x z) + 3 qd (wdot x z) + 3 qd w x (w x z)
                final double a = 3.0 * qdd[k];
                final double v = 3.0 * qd[k];
                lx += a * py + v * by + v * pz * px;
                ly += -a * px - v * bx + v * pz * py;
                lz += qddd[k] - v * (px * px + py * py);
                // the origin also slides along iz_j, the third column of iR_j
                prx += qd[k] * r02;
                pry += qd[k] * r12;
                prz += qd[k] * r22;
            }
        }
        angularJerk[s] = jx;
        angularJerk[s + 1] = jy;
        angularJerk[s + 2] = jz;
        linearJerk[s] = lx;
        linearJerk[s + 1] = ly;
        linearJerk[s + 2] = lz;
        offsetRate[t] = prx;
        offsetRate[t + 1] = pry;
        offsetRate[t + 2] = prz;
    }

    /**
     * Body j's link wrench rate (eqs. 12-13 moved to the body origin) minus the external wrench's
     * inertial rate: Fdot = M jerk + iota x MS + 2 omegaDot x c + omega x h and
     * Mdot = J (iota + omegaDot x omega) + omega x (2 J omegaDot + omega x J omega) + omegaDot x J omega
     * + c x vdot + MS x jerk, with c = omega x MS and h = omegaDot x MS + omega x c. Requires the
     * Newton-Euler forward step and the jerk step of body j.
     */
    private void wrenchRateStep(final int j)
    {
        final int s = NewtonEulerPasses.slot(j);
        final double[] omega = newtonEuler.omega;
        final double[] omegaDot = newtonEuler.omegaDot;
        final double[] acc = newtonEuler.linearAcceleration;
        final double wx = omega[s];
        final double wy = omega[s + 1];
        final double wz = omega[s + 2];
        final double ax = omegaDot[s];
        final double ay = omegaDot[s + 1];
        final double az = omegaDot[s + 2];
        final double vx = acc[s];
        final double vy = acc[s + 1];
        final double vz = acc[s + 2];
        final double jx = angularJerk[s];
        final double jy = angularJerk[s + 1];
        final double jz = angularJerk[s + 2];
        final double lx = linearJerk[s];
        final double ly = linearJerk[s + 1];
        final double lz = linearJerk[s + 2];
        final int t = 3 * j;
        final double hx = model.firstMoment[t];
        final double hy = model.firstMoment[t + 1];
        final double hz = model.firstMoment[t + 2];
        final double m = model.mass[j];
        final double cx = wy * hz - wz * hy;
        final double cy = wz * hx - wx * hz;
        final double cz = wx * hy - wy * hx;
        final double mx = ay * hz - az * hy + wy * cz - wz * cy;
        final double my = az * hx - ax * hz + wz * cx - wx * cz;
        final double mz = ax * hy - ay * hx + wx * cy - wy * cx;
        double fdx = jy * hz - jz * hy + 2.0 * (ay * cz - az * cy) + wy * mz - wz * my + m * lx;
        double fdy = jz * hx - jx * hz + 2.0 * (az * cx - ax * cz) + wz * mx - wx * mz + m * ly;
        double fdz = jx * hy - jy * hx + 2.0 * (ax * cy - ay * cx) + wx * my - wy * mx + m * lz;
        final double[] in = model.inertia;
        final int rj = 9 * j;
        final double jxx = in[rj];
        final double jxy = in[rj + 1];
        final double jxz = in[rj + 2];
        final double jyx = in[rj + 3];
        final double jyy = in[rj + 4];
        final double jyz = in[rj + 5];
        final double jzx = in[rj + 6];
        final double jzy = in[rj + 7];
        final double jzz = in[rj + 8];
        // J omega, J omegaDot
        final double ox = jxx * wx + jxy * wy + jxz * wz;
        final double oy = jyx * wx + jyy * wy + jyz * wz;
        final double oz = jzx * wx + jzy * wy + jzz * wz;
        final double kx = jxx * ax + jxy * ay + jxz * az;
        final double ky = jyx * ax + jyy * ay + jyz * az;
        final double kz = jzx * ax + jzy * ay + jzz * az;
        final double qx = jx + ay * wz - az * wy;
        final double qy = jy + az * wx - ax * wz;
        final double qz = jz + ax * wy - ay * wx;
        final double zx = 2.0 * kx + wy * oz - wz * oy;
        final double zy = 2.0 * ky + wz * ox - wx * oz;
        final double zz = 2.0 * kz + wx * oy - wy * ox;
        double ndx = jxx * qx + jxy * qy + jxz * qz + wy * zz - wz * zy + ay * oz - az * oy
            + cy * vz - cz * vy + hy * lz - hz * ly;
        double ndy = jyx * qx + jyy * qy + jyz * qz + wz * zx - wx * zz + az * ox - ax * oz
            + cz * vx - cx * vz + hz * lx - hx * lz;
        double ndz = jzx * qx + jzy * qy + jzz * qz + wx * zy - wy * zx + ax * oy - ay * ox
            + cx * vy - cy * vx + hx * ly - hy * lx;
        if (newtonEuler.externalLoads)
        {
            // minus the external wrench's inertial rate: d/dt(components) + omega x f
            final int e = 6 * j;
            final double[] ext = newtonEuler.externalWrench;
            final double[] rate = externalWrenchRate;
            fdx = fdx - rate[e] - (wy * ext[e + 2] - wz * ext[e + 1]);
            fdy = fdy - rate[e + 1] - (wz * ext[e] - wx * ext[e + 2]);
            fdz = fdz - rate[e + 2] - (wx * ext[e + 1] - wy * ext[e]);
            ndx = ndx - rate[e + 3] - (wy * ext[e + 5] - wz * ext[e + 4]);
            ndy = ndy - rate[e + 4] - (wz * ext[e + 3] - wx * ext[e + 5]);
            ndz = ndz - rate[e + 5] - (wx * ext[e + 4] - wy * ext[e + 3]);
        }
        forceRate[s] = fdx;
        forceRate[s + 1] = fdy;
        forceRate[s + 2] = fdz;
        momentRate[s] = ndx;
        momentRate[s + 1] = ndy;
        momentRate[s + 2] = ndz;
    }

    /**
     * Body j's wrench rate into its parent's (eqs. 16-17, the (17) correction recorded in
     * docs/VALIDATION.md): fdot_i += iR_j fdot_j; ndot_i += iR_j ndot_j + iP_j x iR_j fdot_j +
     * iPdot_j x iR_j f_j, where iPdot_j is the inertial rate of the child's origin offset.
     */
    private void wrenchRateBackwardStep(final int j)
    {
        final int p = model.parent[j];
        if (p < 0)
        {
            return;
        }
        final int s = NewtonEulerPasses.slot(j);
        final int i = NewtonEulerPasses.slot(p);
        final double[] r = newtonEuler.joints.rotation;
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
        final double[] force = newtonEuler.force;
        final double fx = force[s];
        final double fy = force[s + 1];
        final double fz = force[s + 2];
        final double fdx = forceRate[s];
        final double fdy = forceRate[s + 1];
        final double fdz = forceRate[s + 2];
        final double ndx = momentRate[s];
        final double ndy = momentRate[s + 1];
        final double ndz = momentRate[s + 2];
        // iR_j f_j and (16) iR_j fdot_j
        final double hx = r00 * fx + r01 * fy + r02 * fz;
        final double hy = r10 * fx + r11 * fy + r12 * fz;
        final double hz = r20 * fx + r21 * fy + r22 * fz;
        final double gx = r00 * fdx + r01 * fdy + r02 * fdz;
        final double gy = r10 * fdx + r11 * fdy + r12 * fdz;
        final double gz = r20 * fdx + r21 * fdy + r22 * fdz;
        forceRate[i] += gx;
        forceRate[i + 1] += gy;
        forceRate[i + 2] += gz;
        // (17)
        final int t = 3 * j;
        final double[] position = newtonEuler.joints.position;
        final double px = position[t];
        final double py = position[t + 1];
        final double pz = position[t + 2];
        final double dx = offsetRate[t];
        final double dy = offsetRate[t + 1];
        final double dz = offsetRate[t + 2];
        momentRate[i] += r00 * ndx + r01 * ndy + r02 * ndz + py * gz - pz * gy + dy * hz - dz * hy;
        momentRate[i + 1] += r10 * ndx + r11 * ndy + r12 * ndz + pz * gx - px * gz + dz * hx - dx * hz;
        momentRate[i + 2] += r20 * ndx + r21 * ndy + r22 * ndz + px * gy - py * gx + dx * hy - dy * hx;
    }
}
