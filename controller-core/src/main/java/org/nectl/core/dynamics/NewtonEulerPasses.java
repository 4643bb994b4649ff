package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * The recursive Newton-Euler passes for a tree (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, eqs. 13-31) and their workspace, shared by
 * {@link InverseDynamics} and {@link TorqueDerivative}.
 *
 * <p>Per-body vectors are stored 3 per slot; slot 0 is the base and body j is slot j + 1, so a body
 * and its parent are addressed alike. Every vector is expressed in its own body's frame; moments
 * are about the body-frame origin. Not thread safe.
 */
final class NewtonEulerPasses
{
    final KinematicTree tree;
    /** Angular velocity omega_j, rad/s. */
    final double[] omega;
    /** Parent's angular velocity expressed in body j's frame, jR_i omega_i (eq. 18), rad/s. */
    final double[] omegaParent;
    /** Angular acceleration, rad/s^2. */
    final double[] omegaDot;
    /** Linear acceleration of the body origin, gravity entered as base acceleration -g, m/s^2. */
    final double[] linearAcceleration;
    /** J omega: inertia about the origin times angular velocity, kg m^2/s. */
    final double[] inertiaOmega;
    /** J omegaDot, kg m^2/s^2. */
    final double[] inertiaOmegaDot;
    /** Force the parent exerts on body j (eqs. 26, 29), N. */
    final double[] force;
    /** Moment the parent exerts on body j about its origin (eqs. 27, 30), N m. */
    final double[] moment;
    /** External wrench ON each body: force then moment about its origin, 6 per body (not slotted). */
    final double[] externalWrench;
    boolean friction = true;

    private final double[] scratch = new double[3];

    /** Not real-time safe: allocates the workspace. */
    NewtonEulerPasses(final RobotModel model)
    {
        tree = new KinematicTree(model);
        final int slots = 3 * (tree.bodyCount + 1);
        omega = new double[slots];
        omegaParent = new double[slots];
        omegaDot = new double[slots];
        linearAcceleration = new double[slots];
        inertiaOmega = new double[slots];
        inertiaOmegaDot = new double[slots];
        force = new double[slots];
        moment = new double[slots];
        externalWrench = new double[6 * tree.bodyCount];
        gravity(0.0, 0.0, -9.81);
    }

    /** @return the offset of body j's vectors (slot j + 1). */
    static int slot(final int body)
    {
        return 3 * (body + 1);
    }

    /** Base acceleration = -g (Khalil 2010, initialisation of eqs. 18-23). Real-time safe. */
    void gravity(final double gx, final double gy, final double gz)
    {
        linearAcceleration[0] = -gx;
        linearAcceleration[1] = -gy;
        linearAcceleration[2] = -gz;
    }

    /** Real-time safe. */
    void externalWrench(
        final int body, final double fx, final double fy, final double fz, final double mx, final double my, final double mz)
    {
        AppliedLoads.store(externalWrench, body, fx, fy, fz, mx, my, mz);
    }

    /** Real-time safe. */
    void clearExternalWrenches()
    {
        Arrays.fill(externalWrench, 0.0);
    }

    /** Real-time safe. */
    void reactionWrench(final int body, final double[] wrench6)
    {
        final int s = slot(body);
        Vec3.copy(force, s, wrench6, 0);
        Vec3.copy(moment, s, wrench6, 3);
    }

    /** Real-time safe. */
    void compute(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        tree.update(q);
        forwardPass(qd, qdd);
        backwardPass();
        jointForces(qd, qdd, tau);
    }

    /** Velocities, accelerations and link wrenches from the base outwards (eqs. 18-23). */
    void forwardPass(final double[] qd, final double[] qdd)
    {
        for (int j = 0; j < tree.bodyCount; j++)
        {
            forwardStep(j, qd, qdd);
            linkWrench(j);
        }
    }

    private void forwardStep(final int j, final double[] qd, final double[] qdd)
    {
        final int s = slot(j);
        final int i = slot(tree.parent[j]);
        final double[] r = tree.rotation;
        final int rj = 9 * j;
        final int k = tree.coordinate[j];
        final int sigma = tree.sigma[j];
        // (18)
        Vec3.multiplyTransposed(r, rj, omega, i, omegaParent, s);
        Vec3.copy(omegaParent, s, omega, s);
        // (20)
        Vec3.multiplyTransposed(r, rj, omegaDot, i, omegaDot, s);
        if (sigma == KinematicTree.REVOLUTE)
        {
            omega[s + 2] += qd[k];
            Vec3.addAxisTerms(qdd[k], qd[k], omegaParent, s, omegaDot, s);
        }
        // (21)
        Vec3.transportAcceleration(omega, i, omegaDot, i, tree.position, 3 * j, scratch, 0);
        Vec3.add(linearAcceleration, i, scratch, 0);
        Vec3.multiplyTransposed(r, rj, scratch, 0, linearAcceleration, s);
        if (sigma == KinematicTree.PRISMATIC)
        {
            Vec3.addAxisTerms(qdd[k], 2.0 * qd[k], omegaParent, s, linearAcceleration, s);
        }
    }

    /** Newton-Euler wrench of body j about its origin, minus the external wrench on it (eqs. 22-23, 26-27). */
    private void linkWrench(final int j)
    {
        final int s = slot(j);
        final int ms = 3 * j;
        final int e = 6 * j;
        // (22) F = M vdot + U MS
        Vec3.transportAcceleration(omega, s, omegaDot, s, tree.firstMoment, ms, force, s);
        Vec3.addScaled(tree.mass[j], linearAcceleration, s, force, s);
        Vec3.subtract(externalWrench, e, force, s);
        // (23) M = J omegaDot + omega x (J omega) + MS x vdot
        Vec3.multiply(tree.inertia, 9 * j, omega, s, inertiaOmega, s);
        Vec3.multiply(tree.inertia, 9 * j, omegaDot, s, inertiaOmegaDot, s);
        Vec3.cross(omega, s, inertiaOmega, s, moment, s);
        Vec3.add(inertiaOmegaDot, s, moment, s);
        Vec3.addCross(tree.firstMoment, ms, linearAcceleration, s, moment, s);
        Vec3.subtract(externalWrench, e + 3, moment, s);
    }

    /** Child wrenches summed into their parents, leaves first (eqs. 28-30). */
    void backwardPass()
    {
        for (int j = tree.bodyCount - 1; j >= 0; j--)
        {
            if (tree.parent[j] >= 0)
            {
                final int s = slot(j);
                final int i = slot(tree.parent[j]);
                // (28) iF_j = iR_j jf_j
                Vec3.multiply(tree.rotation, 9 * j, force, s, scratch, 0);
                // (29)
                Vec3.add(scratch, 0, force, i);
                // (30)
                Vec3.addMultiplied(tree.rotation, 9 * j, moment, s, moment, i);
                Vec3.addCross(tree.position, 3 * j, scratch, 0, moment, i);
            }
        }
    }

    /** Joint torques: projection on the joint axis plus rotor inertia and friction (eq. 31). */
    void jointForces(final double[] qd, final double[] qdd, final double[] tau)
    {
        for (int k = 0; k < tree.dof; k++)
        {
            final int j = tree.bodyOfCoordinate[k];
            final int s = slot(j);
            final double transmitted = tree.sigma[j] == KinematicTree.REVOLUTE ? moment[s + 2] : force[s + 2];
            tau[k] = transmitted + tree.rotorInertia[k] * qdd[k] + jointFriction(k, qd[k]);
        }
    }

    /** Fs sign(qd) + Fv qd when friction is on, with sign(0) = 0 (eq. 31). */
    private double jointFriction(final int k, final double qd)
    {
        if (!friction)
        {
            return 0.0;
        }
        return tree.coulombFriction[k] * Math.signum(qd) + tree.viscousFriction[k] * qd;
    }
}
