package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Joint torques and their time derivatives in one call: the generalized-force-derivative algorithm
 * of Guarino Lo Bianco ("Evaluation of generalized force derivatives by means of a recursive
 * Newton-Euler approach", IEEE 2009, eqs. 3-21), generalised to trees and written about the body
 * origins with Khalil's standard inertial parameters. The Newton-Euler passes of
 * {@link InverseDynamics} give tau; jerk propagation forward and wrench-rate accumulation backward
 * give tau-dot.
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
    private final NewtonEulerPasses passes;
    private final KinematicTree tree;
    /** Angular jerk iota_j, rad/s^3, body frame, slotted like {@link NewtonEulerPasses}. */
    private final double[] angularJerk;
    /** Linear jerk of the body origin, m/s^3, body frame (the base's is zero: gravity is constant). */
    private final double[] linearJerk;
    /** Inertial rate of the force the parent exerts on the body, N/s, body frame. */
    private final double[] forceRate;
    /** Inertial rate of the moment the parent exerts on the body about its origin, N m/s, body frame. */
    private final double[] momentRate;
    /** Rate of the body-frame components of each external wrench, 6 per body. */
    private final double[] externalWrenchRate;
    private final double[] scratch = new double[3];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public TorqueDerivative(final RobotModel model)
    {
        passes = new NewtonEulerPasses(model);
        tree = passes.tree;
        final int slots = 3 * (tree.bodyCount + 1);
        angularJerk = new double[slots];
        linearJerk = new double[slots];
        forceRate = new double[slots];
        momentRate = new double[slots];
        externalWrenchRate = new double[6 * tree.bodyCount];
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
        passes.gravity(gx, gy, gz);
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
        passes.externalWrench(body, fx, fy, fz, mx, my, mz);
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
    }

    /** Sets every external wrench and wrench rate to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        passes.clearExternalWrenches();
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
        passes.compute(q, qd, qdd, tau);
        forwardJerkPass(qd, qdd, qddd);
        backwardRatePass(qd);
        jointForceRates(qdd, qddd, tauDot);
    }

    /** Jerks and link wrench rates from the base outwards. */
    private void forwardJerkPass(final double[] qd, final double[] qdd, final double[] qddd)
    {
        for (int j = 0; j < tree.bodyCount; j++)
        {
            jerkStep(j, qd, qdd, qddd);
            linkWrenchRate(j);
        }
    }

    /**
     * Angular jerk (5) and linear jerk (8), both corrected, on locals: the parent's quantities are
     * read once and each result is stored once; jR_i omega_i and jR_i omegaDot_i come from the
     * forward pass.
     */
    private void jerkStep(final int j, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int i = NewtonEulerPasses.slot(tree.parent[j]);
        final double[] r = tree.rotation;
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
        final double ix = angularJerk[i];
        final double iy = angularJerk[i + 1];
        final double iz = angularJerk[i + 2];
        // (5): iota_j = jR_i iota_i + joint terms
        double jx = r00 * ix + r10 * iy + r20 * iz;
        double jy = r01 * ix + r11 * iy + r21 * iz;
        double jz = r02 * ix + r12 * iy + r22 * iz;
        // (8): j_j = jR_i [j_i + transport jerk of iP_j] + joint terms
        Vec3.transportJerk(passes.omega, i, passes.omegaDot, i, angularJerk, i, tree.position, 3 * j, scratch, 0);
        final double ux = linearJerk[i] + scratch[0];
        final double uy = linearJerk[i + 1] + scratch[1];
        final double uz = linearJerk[i + 2] + scratch[2];
        double lx = r00 * ux + r10 * uy + r20 * uz;
        double ly = r01 * ux + r11 * uy + r21 * uz;
        double lz = r02 * ux + r12 * uy + r22 * uz;
        final int k = tree.coordinate[j];
        if (k >= 0)
        {
            // w = jR_i omega_i, wdot = jR_i omegaDot_i
            final double wx = passes.omegaParent[s];
            final double wy = passes.omegaParent[s + 1];
            final double wz = passes.omegaParent[s + 2];
            final double bx = passes.omegaDotParent[s];
            final double by = passes.omegaDotParent[s + 1];
            final double w2 = wx * wx + wy * wy;
            if (tree.sigma[j] == KinematicTree.REVOLUTE)
            {
                // qddd z + 2 qdd (w x z) + qd (wdot x z) + qd w x (w x z), with u x z = (u_y, -u_x, 0)
                final double a = 2.0 * qdd[k];
                final double v = qd[k];
                jx += a * wy + v * by + v * wz * wx;
                jy += -a * wx - v * bx + v * wz * wy;
                jz += qddd[k] - v * w2;
            }
            else
            {
                // qddd z + 3 qdd (w x z) + 3 qd (wdot x z) + 3 qd w x (w x z)
                final double a = 3.0 * qdd[k];
                final double v = 3.0 * qd[k];
                lx += a * wy + v * by + v * wz * wx;
                ly += -a * wx - v * bx + v * wz * wy;
                lz += qddd[k] - v * w2;
            }
        }
        angularJerk[s] = jx;
        angularJerk[s + 1] = jy;
        angularJerk[s + 2] = jz;
        linearJerk[s] = lx;
        linearJerk[s + 1] = ly;
        linearJerk[s + 2] = lz;
    }

    /**
     * Inertial rate of body j's Newton-Euler wrench about its origin, minus the external wrench rate
     * (eqs. 12-13 moved from the centre of mass to the origin, J and MS rotating with the body):
     * Fdot = M jerk + transport jerk of MS;
     * Mdot = J (iota + omegaDot x omega) + omega x (2 J omegaDot + omega x J omega) + omegaDot x J omega
     * + (omega x MS) x vdot + MS x jerk.
     */
    private void linkWrenchRate(final int j)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int ms = 3 * j;
        final int e = 6 * j;
        final double[] omega = passes.omega;
        final double[] omegaDot = passes.omegaDot;
        final double wx = omega[s];
        final double wy = omega[s + 1];
        final double wz = omega[s + 2];
        final double ax = omegaDot[s];
        final double ay = omegaDot[s + 1];
        final double az = omegaDot[s + 2];
        final double hx = tree.firstMoment[ms];
        final double hy = tree.firstMoment[ms + 1];
        final double hz = tree.firstMoment[ms + 2];
        final double lx = linearJerk[s];
        final double ly = linearJerk[s + 1];
        final double lz = linearJerk[s + 2];
        final double m = tree.mass[j];
        final double[] ext = passes.externalWrench;
        final double fx = ext[e];
        final double fy = ext[e + 1];
        final double fz = ext[e + 2];
        final double nx = ext[e + 3];
        final double ny = ext[e + 4];
        final double nz = ext[e + 5];
        Vec3.transportJerk(omega, s, omegaDot, s, angularJerk, s, tree.firstMoment, ms, scratch, 0);
        // minus the external force's inertial rate: d/dt(components) + omega x f
        forceRate[s] = scratch[0] + m * lx - externalWrenchRate[e] - (wy * fz - wz * fy);
        forceRate[s + 1] = scratch[1] + m * ly - externalWrenchRate[e + 1] - (wz * fx - wx * fz);
        forceRate[s + 2] = scratch[2] + m * lz - externalWrenchRate[e + 2] - (wx * fy - wy * fx);

        final double[] in = tree.inertia;
        final int b = 9 * j;
        // J (iota + omegaDot x omega)
        final double px = angularJerk[s] + ay * wz - az * wy;
        final double py = angularJerk[s + 1] + az * wx - ax * wz;
        final double pz = angularJerk[s + 2] + ax * wy - ay * wx;
        final double jpx = in[b] * px + in[b + 1] * py + in[b + 2] * pz;
        final double jpy = in[b + 3] * px + in[b + 4] * py + in[b + 5] * pz;
        final double jpz = in[b + 6] * px + in[b + 7] * py + in[b + 8] * pz;
        // 2 J omegaDot + omega x J omega
        final double[] jw = passes.inertiaOmega;
        final double[] jwd = passes.inertiaOmegaDot;
        final double gx = jw[s];
        final double gy = jw[s + 1];
        final double gz = jw[s + 2];
        final double qx = 2.0 * jwd[s] + wy * gz - wz * gy;
        final double qy = 2.0 * jwd[s + 1] + wz * gx - wx * gz;
        final double qz = 2.0 * jwd[s + 2] + wx * gy - wy * gx;
        // omega x MS, crossed with vdot below
        final double cx = wy * hz - wz * hy;
        final double cy = wz * hx - wx * hz;
        final double cz = wx * hy - wy * hx;
        final double[] acc = passes.linearAcceleration;
        final double vx = acc[s];
        final double vy = acc[s + 1];
        final double vz = acc[s + 2];
        // minus the external moment's inertial rate, as for the force
        momentRate[s] = jpx + wy * qz - wz * qy + ay * gz - az * gy + cy * vz - cz * vy + hy * lz - hz * ly
            - externalWrenchRate[e + 3] - (wy * nz - wz * ny);
        momentRate[s + 1] = jpy + wz * qx - wx * qz + az * gx - ax * gz + cz * vx - cx * vz + hz * lx - hx * lz
            - externalWrenchRate[e + 4] - (wz * nx - wx * nz);
        momentRate[s + 2] = jpz + wx * qy - wy * qx + ax * gy - ay * gx + cx * vy - cy * vx + hx * ly - hy * lx
            - externalWrenchRate[e + 5] - (wx * ny - wy * nx);
    }

    /**
     * Child wrench rates summed into their parents, leaves first (eqs. 16-17, corrected):
     * fdot_i += iR_j fdot_j; ndot_i += iR_j ndot_j + iPdot_j x iR_j f_j + iP_j x iR_j fdot_j, where
     * iPdot_j = omega_i x iP_j + sigma_j qd_j iz_j is the inertial rate of the child's origin offset.
     */
    private void backwardRatePass(final double[] qd)
    {
        final double[] r = tree.rotation;
        for (int j = tree.bodyCount - 1; j >= 0; j--)
        {
            if (tree.parent[j] < 0)
            {
                continue;
            }
            final int s = NewtonEulerPasses.slot(j);
            final int i = NewtonEulerPasses.slot(tree.parent[j]);
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
            final double fx = forceRate[s];
            final double fy = forceRate[s + 1];
            final double fz = forceRate[s + 2];
            final double nx = momentRate[s];
            final double ny = momentRate[s + 1];
            final double nz = momentRate[s + 2];
            // (16) iR_j fdot_j
            final double gx = r00 * fx + r01 * fy + r02 * fz;
            final double gy = r10 * fx + r11 * fy + r12 * fz;
            final double gz = r20 * fx + r21 * fy + r22 * fz;
            forceRate[i] += gx;
            forceRate[i + 1] += gy;
            forceRate[i + 2] += gz;
            final double px = tree.position[pj];
            final double py = tree.position[pj + 1];
            final double pz = tree.position[pj + 2];
            // (17), corrected: iPdot_j = omega_i x iP_j (+ qd iz_j when prismatic); its term uses the force itself
            final double wx = passes.omega[i];
            final double wy = passes.omega[i + 1];
            final double wz = passes.omega[i + 2];
            double dx = wy * pz - wz * py;
            double dy = wz * px - wx * pz;
            double dz = wx * py - wy * px;
            if (tree.sigma[j] == KinematicTree.PRISMATIC)
            {
                final double v = qd[tree.coordinate[j]];
                dx += v * r02;
                dy += v * r12;
                dz += v * r22;
            }
            final double[] f = passes.forceInParent;
            final double hx = f[s];
            final double hy = f[s + 1];
            final double hz = f[s + 2];
            // (17): iR_j ndot_j + iP_j x iR_j fdot_j + iPdot_j x iR_j f_j
            momentRate[i] += r00 * nx + r01 * ny + r02 * nz + py * gz - pz * gy + dy * hz - dz * hy;
            momentRate[i + 1] += r10 * nx + r11 * ny + r12 * nz + pz * gx - px * gz + dz * hx - dx * hz;
            momentRate[i + 2] += r20 * nx + r21 * ny + r22 * nz + px * gy - py * gx + dx * hy - dy * hx;
        }
    }

    /**
     * (19)-(21): tauDot = (ndot + n x omega) . z (revolute) or (fdot + f x omega) . z (prismatic),
     * z rotating with the body; plus d/dt of Khalil 2010 eq. 31: Ia qddd + Fv qdd.
     */
    private void jointForceRates(final double[] qdd, final double[] qddd, final double[] tauDot)
    {
        for (int k = 0; k < tree.dof; k++)
        {
            final int j = tree.bodyOfCoordinate[k];
            final int s = NewtonEulerPasses.slot(j);
            final double transmitted = tree.sigma[j] == KinematicTree.REVOLUTE
                ? momentRate[s + 2] + Vec3.crossAxial(passes.moment, s, passes.omega, s)
                : forceRate[s + 2] + Vec3.crossAxial(passes.force, s, passes.omega, s);
            final double friction = passes.friction ? tree.viscousFriction[k] * qdd[k] : 0.0;
            tauDot[k] = transmitted + tree.rotorInertia[k] * qddd[k] + friction;
        }
    }
}
