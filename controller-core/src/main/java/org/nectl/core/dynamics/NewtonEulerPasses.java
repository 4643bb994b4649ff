package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * The recursive Newton-Euler passes for a tree (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, eqs. 13-31) and their workspace: the root's motion
 * ({@link #rootMotion}), the body-frame Newton-Euler forward step as two passes, the motion
 * (eqs. 18-21, {@link #motionPass}) and the link wrenches (eqs. 22-23, 26-27,
 * {@link #linkWrenchPass}), the backward step (eqs. 28-30, {@link #backwardPass}) and the joint
 * forces (eq. 31, {@link #jointForces}). {@link InverseDynamics} and {@link BiasForces} run these
 * passes; {@link TorqueDerivative} is the one fused variant (see its class comment).
 *
 * <p>Why the steps are loop bodies and not per-body methods: written as a method called once per
 * body (Pinocchio's RneaForwardStep), the forward step is 1400 bytes of bytecode, beyond HotSpot
 * C2's inlining limit for hot calls (FreqInlineSize, 325 bytes), so every body paid a call and
 * reloaded the workspace. Measured side by side with these loops (InterleavedRatio, one JVM,
 * medians of 60 rounds on the shared 2-core machine at load 14-17): RNEA +16 % on the Panda and
 * +39 % on tree-32, tau plus tau-dot +61 % and +37 %.
 *
 * <p>Per-body vectors are stored 3 per slot; slot 0 is the base and body j is slot j + 1, so a body
 * and its parent are addressed alike. Every vector is expressed in its own body's frame; moments
 * are about the body-frame origin. Not thread safe.
 */
final class NewtonEulerPasses
{
    final CompiledModel model;
    final JointTransforms joints;
    /** Angular velocity omega_j, rad/s. */
    final double[] omega;
    /** Angular acceleration, rad/s^2. */
    final double[] omegaDot;
    /** Linear acceleration of the body origin, gravity entered as base acceleration -g, m/s^2. */
    final double[] linearAcceleration;
    /** Force the parent exerts on body j (eqs. 26, 29), N. */
    final double[] force;
    /** Moment the parent exerts on body j about its origin (eqs. 27, 30), N m. */
    final double[] moment;
    boolean friction = true;

    /** Not real-time safe: allocates the workspace. */
    NewtonEulerPasses(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        final int slots = 3 * (model.bodyCount + 1);
        omega = new double[slots];
        omegaDot = new double[slots];
        linearAcceleration = new double[slots];
        force = new double[slots];
        moment = new double[slots];
    }

    /** @return the offset of body j's vectors (slot j + 1). */
    static int slot(final int body)
    {
        return 3 * (body + 1);
    }

    /**
     * The root's motion, the initial condition of the forward pass (Khalil 2010, initialisation of
     * eqs. 18-23; §7.1, the base's motion as the initial condition of the forward recursion): a
     * fixed base (null) at rest, omega_0 = omegaDot_0 = 0, with gravity entered as the base
     * acceleration vdot_0 = -g; a carried base its measured omega_0, omegaDot_0 and specific force,
     * which replaces the loads' gravity. Base coordinates throughout. The one place every
     * Newton-Euler forward pass (body or base frame) takes its root from. Real-time safe.
     *
     * @param loads the call's loads (their gravity).
     * @param base the carried base's measured motion, or null for a fixed base.
     * @param omega receives omega_0 at {@code io}.
     * @param omegaDot receives omegaDot_0 at {@code iod}.
     * @param acceleration receives vdot_0 at {@code ia}.
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

    /**
     * The backward recursion continued to the base (Khalil 2010, §7.1): the wrench the base exerts on
     * the tree, the root bodies' reaction wrenches of the last pass summed at the base origin.
     * Real-time safe.
     *
     * @param wrench6 output: force (N) then moment about the base origin (N m), base frame.
     */
    void baseWrench(final double[] wrench6)
    {
        Arrays.fill(wrench6, 0, 6, 0.0);
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        for (int j = 0; j < model.bodyCount; j++)
        {
            if (model.parent[j] < 0)
            {
                final int s = slot(j);
                final int rj = 9 * j;
                final int t = 3 * j;
                // 0R_j jf_j and 0R_j jn_j + 0P_j x 0R_j jf_j, as in eqs. (28) and (30)
                final double gx = r[rj] * force[s] + r[rj + 1] * force[s + 1] + r[rj + 2] * force[s + 2];
                final double gy = r[rj + 3] * force[s] + r[rj + 4] * force[s + 1] + r[rj + 5] * force[s + 2];
                final double gz = r[rj + 6] * force[s] + r[rj + 7] * force[s + 1] + r[rj + 8] * force[s + 2];
                wrench6[0] += gx;
                wrench6[1] += gy;
                wrench6[2] += gz;
                wrench6[3] += r[rj] * moment[s] + r[rj + 1] * moment[s + 1] + r[rj + 2] * moment[s + 2]
                    + position[t + 1] * gz - position[t + 2] * gy;
                wrench6[4] += r[rj + 3] * moment[s] + r[rj + 4] * moment[s + 1] + r[rj + 5] * moment[s + 2]
                    + position[t + 2] * gx - position[t] * gz;
                wrench6[5] += r[rj + 6] * moment[s] + r[rj + 7] * moment[s + 1] + r[rj + 8] * moment[s + 2]
                    + position[t] * gy - position[t + 1] * gx;
            }
        }
    }

    /** Real-time safe. */
    void reactionWrench(final int body, final double[] wrench6)
    {
        final int s = slot(body);
        Vec3.copy(force, s, wrench6, 0);
        Vec3.copy(moment, s, wrench6, 3);
    }

    /** Real-time safe. */
    void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final BaseMotion base,
        final double[] tau)
    {
        joints.update(q);
        rootMotion(loads, base, omega, 0, omegaDot, 0, linearAcceleration, 0);
        if (loads.worldLoads)
        {
            loads.resolveInBodyFrames(joints);
        }
        motionPass(qd, qdd);
        linkWrenchPass(loads);
        backwardPass();
        jointForces(qd, qdd, tau);
    }

    /**
     * Velocities and accelerations from the base outwards (eqs. 18-21). One loop body per body on
     * locals, each input read once and each result stored once: with kernels writing to arrays that
     * may alias, the compiler reloaded every input after each store, and with the step split into
     * methods too big to inline, every call reloaded the workspace (class comment).
     */
    void motionPass(final double[] qd, final double[] qdd)
    {
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final int[] sigmas = model.sigma;
        final int[] coordinate = model.coordinate;
        final double[] omega = this.omega;
        final double[] omegaDot = this.omegaDot;
        final double[] acc = linearAcceleration;
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int s = slot(j);
            final int i = slot(parent[j]);
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
            // (18), (20): jR_i omega_i, jR_i omegaDot_i
            final double px = r00 * wix + r10 * wiy + r20 * wiz;
            final double py = r01 * wix + r11 * wiy + r21 * wiz;
            double pz = r02 * wix + r12 * wiy + r22 * wiz;
            double bx = r00 * aix + r10 * aiy + r20 * aiz;
            double by = r01 * aix + r11 * aiy + r21 * aiz;
            double bz = r02 * aix + r12 * aiy + r22 * aiz;
            // (21) vdot_i + U_i iP_j, then into frame j
            final int t = 3 * j;
            final double ox = position[t];
            final double oy = position[t + 1];
            final double oz = position[t + 2];
            final double ex = wiy * oz - wiz * oy;
            final double ey = wiz * ox - wix * oz;
            final double ez = wix * oy - wiy * ox;
            final double ux = acc[i] + (aiy * oz - aiz * oy + wiy * ez - wiz * ey);
            final double uy = acc[i + 1] + (aiz * ox - aix * oz + wiz * ex - wix * ez);
            final double uz = acc[i + 2] + (aix * oy - aiy * ox + wix * ey - wiy * ex);
            double vx = r00 * ux + r10 * uy + r20 * uz;
            double vy = r01 * ux + r11 * uy + r21 * uz;
            double vz = r02 * ux + r12 * uy + r22 * uz;
            final int sigma = sigmas[j];
            if (sigma == CompiledModel.REVOLUTE)
            {
                // (18), (20): qd z and qdd z + qd (jomega_i x z)
                final int k = coordinate[j];
                bx += qd[k] * py;
                by -= qd[k] * px;
                bz += qdd[k];
                pz += qd[k];
            }
            else if (sigma == CompiledModel.PRISMATIC)
            {
                // (21): qdd z + 2 qd (jomega_i x z)
                final int k = coordinate[j];
                vx += 2.0 * qd[k] * py;
                vy -= 2.0 * qd[k] * px;
                vz += qdd[k];
            }
            Vec3.set(omega, s, px, py, pz);
            Vec3.set(omegaDot, s, bx, by, bz);
            Vec3.set(acc, s, vx, vy, vz);
        }
    }

    /**
     * Each link's wrench about its origin from its motion (eqs. 22-23), minus the external wrench
     * (eqs. 26-27 before the children are added).
     */
    void linkWrenchPass(final AppliedLoads loads)
    {
        final double[] firstMoment = model.firstMoment;
        final double[] mass = model.mass;
        final double[] in = model.inertia;
        final double[] omega = this.omega;
        final double[] omegaDot = this.omegaDot;
        final double[] acc = linearAcceleration;
        final boolean loaded = loads.any();
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int s = slot(j);
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
            final double hx = firstMoment[t];
            final double hy = firstMoment[t + 1];
            final double hz = firstMoment[t + 2];
            final double m = mass[j];
            // (22) F = M vdot + U MS
            final double cx = wy * hz - wz * hy;
            final double cy = wz * hx - wx * hz;
            final double cz = wx * hy - wy * hx;
            double fx = m * vx + (ay * hz - az * hy + wy * cz - wz * cy);
            double fy = m * vy + (az * hx - ax * hz + wz * cx - wx * cz);
            double fz = m * vz + (ax * hy - ay * hx + wx * cy - wy * cx);
            // (23) M = J omegaDot + omega x (J omega) + MS x vdot
            final double jxx = in[rj];
            final double jxy = in[rj + 1];
            final double jxz = in[rj + 2];
            final double jyx = in[rj + 3];
            final double jyy = in[rj + 4];
            final double jyz = in[rj + 5];
            final double jzx = in[rj + 6];
            final double jzy = in[rj + 7];
            final double jzz = in[rj + 8];
            final double lx = jxx * wx + jxy * wy + jxz * wz;
            final double ly = jyx * wx + jyy * wy + jyz * wz;
            final double lz = jzx * wx + jzy * wy + jzz * wz;
            final double kx = jxx * ax + jxy * ay + jxz * az;
            final double ky = jyx * ax + jyy * ay + jyz * az;
            final double kz = jzx * ax + jzy * ay + jzz * az;
            double nx = kx + wy * lz - wz * ly + hy * vz - hz * vy;
            double ny = ky + wz * lx - wx * lz + hz * vx - hx * vz;
            double nz = kz + wx * ly - wy * lx + hx * vy - hy * vx;
            if (loaded)
            {
                final int e = 6 * j;
                final int w = 12 * j;
                final double[] b = loads.bodyWrench;
                final double[] g = loads.worldInBody;
                fx -= b[e] + g[w];
                fy -= b[e + 1] + g[w + 1];
                fz -= b[e + 2] + g[w + 2];
                nx -= b[e + 3] + g[w + 3];
                ny -= b[e + 4] + g[w + 4];
                nz -= b[e + 5] + g[w + 5];
            }
            Vec3.set(force, s, fx, fy, fz);
            Vec3.set(moment, s, nx, ny, nz);
        }
    }

    /** Child wrenches summed into their parents, leaves first (eqs. 28-30). */
    void backwardPass()
    {
        final double[] r = joints.rotation;
        final double[] position = joints.position;
        final int[] parent = model.parent;
        final double[] force = this.force;
        final double[] moment = this.moment;
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            if (parent[j] >= 0)
            {
                final int s = slot(j);
                final int i = slot(parent[j]);
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
                final double fx = force[s];
                final double fy = force[s + 1];
                final double fz = force[s + 2];
                final double nx = moment[s];
                final double ny = moment[s + 1];
                final double nz = moment[s + 2];
                // (28) iF_j = iR_j jf_j
                final double gx = r00 * fx + r01 * fy + r02 * fz;
                final double gy = r10 * fx + r11 * fy + r12 * fz;
                final double gz = r20 * fx + r21 * fy + r22 * fz;
                // (29)
                Vec3.addTo(force, i, gx, gy, gz);
                // (30) iR_j jn_j + iP_j x iF_j
                final int t = 3 * j;
                final double ox = position[t];
                final double oy = position[t + 1];
                final double oz = position[t + 2];
                moment[i] += r00 * nx + r01 * ny + r02 * nz + oy * gz - oz * gy;
                moment[i + 1] += r10 * nx + r11 * ny + r12 * nz + oz * gx - ox * gz;
                moment[i + 2] += r20 * nx + r21 * ny + r22 * nz + ox * gy - oy * gx;
            }
        }
    }

    /** Joint torques: projection on the joint axis plus rotor inertia and friction (eq. 31). */
    void jointForces(final double[] qd, final double[] qdd, final double[] tau)
    {
        for (int k = 0; k < model.dof; k++)
        {
            final int j = model.bodyOfCoordinate[k];
            final int s = slot(j);
            tau[k] = model.jointForce(j, force[s + 2], moment[s + 2]) + model.rotorInertia[k] * qdd[k]
                + model.friction(k, qd[k], friction);
        }
    }
}
