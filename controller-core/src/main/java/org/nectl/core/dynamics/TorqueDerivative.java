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
    /** jR_i omegaDot_i: the parent's angular acceleration in the child's frame. */
    private final double[] omegaDotParent = new double[3];
    /** iPdot_j: inertial rate of a child's origin offset, in the parent's frame. */
    private final double[] offsetRate = new double[3];

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

    private void jerkStep(final int j, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final int s = NewtonEulerPasses.slot(j);
        final int i = NewtonEulerPasses.slot(tree.parent[j]);
        final int rj = 9 * j;
        final int k = tree.coordinate[j];
        final double[] omegaParent = passes.omegaParent;
        // (5), corrected: iota_j = jR_i iota_i + joint terms
        Vec3.multiplyTransposed(tree.rotation, rj, angularJerk, i, angularJerk, s);
        // (8), corrected: j_j = jR_i [j_i + transport jerk of iP_j] + joint terms
        Vec3.transportJerk(passes.omega, i, passes.omegaDot, i, angularJerk, i, tree.position, 3 * j, scratch, 0);
        Vec3.add(linearJerk, i, scratch, 0);
        Vec3.multiplyTransposed(tree.rotation, rj, scratch, 0, linearJerk, s);
        if (k < 0)
        {
            return;
        }
        Vec3.multiplyTransposed(tree.rotation, rj, passes.omegaDot, i, omegaDotParent, 0);
        if (tree.sigma[j] == KinematicTree.REVOLUTE)
        {
            // qddd z + 2 qdd (w x z) + qd (wdot x z) + qd w x (w x z), w = jomega_i, wdot = jR_i omegaDot_i
            Vec3.addAxisTerms(qddd[k], 2.0 * qdd[k], omegaParent, s, angularJerk, s);
            Vec3.addAxisTerms(0.0, qd[k], omegaDotParent, 0, angularJerk, s);
            Vec3.addDoubleCrossAxis(qd[k], omegaParent, s, angularJerk, s);
        }
        else
        {
            // qddd z + 3 qdd (w x z) + 3 qd (wdot x z) + 3 qd w x (w x z)
            Vec3.addAxisTerms(qddd[k], 3.0 * qdd[k], omegaParent, s, linearJerk, s);
            Vec3.addAxisTerms(0.0, 3.0 * qd[k], omegaDotParent, 0, linearJerk, s);
            Vec3.addDoubleCrossAxis(3.0 * qd[k], omegaParent, s, linearJerk, s);
        }
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
        final double[] omega = passes.omega;
        final double[] omegaDot = passes.omegaDot;
        Vec3.transportJerk(omega, s, omegaDot, s, angularJerk, s, tree.firstMoment, ms, forceRate, s);
        Vec3.addScaled(tree.mass[j], linearJerk, s, forceRate, s);

        Vec3.cross(omegaDot, s, omega, s, scratch, 0);
        Vec3.add(angularJerk, s, scratch, 0);
        Vec3.multiply(tree.inertia, 9 * j, scratch, 0, momentRate, s);
        Vec3.cross(omega, s, passes.inertiaOmega, s, scratch, 0);
        Vec3.addScaled(2.0, passes.inertiaOmegaDot, s, scratch, 0);
        Vec3.addCross(omega, s, scratch, 0, momentRate, s);
        Vec3.addCross(omegaDot, s, passes.inertiaOmega, s, momentRate, s);
        Vec3.cross(omega, s, tree.firstMoment, ms, scratch, 0);
        Vec3.addCross(scratch, 0, passes.linearAcceleration, s, momentRate, s);
        Vec3.addCross(tree.firstMoment, ms, linearJerk, s, momentRate, s);

        subtractExternalRate(j, s, 0, forceRate);
        subtractExternalRate(j, s, 3, momentRate);
    }

    /** rate -= d/dt(components) + omega x value, the inertial rate of one half of the external wrench. */
    private void subtractExternalRate(final int j, final int s, final int half, final double[] rate)
    {
        final int e = 6 * j + half;
        Vec3.subtract(externalWrenchRate, e, rate, s);
        Vec3.cross(passes.omega, s, passes.externalWrench, e, scratch, 0);
        Vec3.subtract(scratch, 0, rate, s);
    }

    /**
     * Child wrench rates summed into their parents, leaves first (eqs. 16-17, corrected):
     * fdot_i += iR_j fdot_j; ndot_i += iR_j ndot_j + iPdot_j x iR_j f_j + iP_j x iR_j fdot_j, where
     * iPdot_j = omega_i x iP_j + sigma_j qd_j iz_j is the inertial rate of the child's origin offset.
     */
    private void backwardRatePass(final double[] qd)
    {
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
            // (17): the child's moment rate and its force rate's moment
            Vec3.addMultiplied(tree.rotation, rj, momentRate, s, momentRate, i);
            Vec3.multiply(tree.rotation, rj, forceRate, s, scratch, 0);
            Vec3.addCross(tree.position, pj, scratch, 0, momentRate, i);
            // (16)
            Vec3.add(scratch, 0, forceRate, i);
            // (17), corrected: the moving offset's term uses the force itself
            Vec3.cross(passes.omega, i, tree.position, pj, offsetRate, 0);
            if (tree.sigma[j] == KinematicTree.PRISMATIC)
            {
                Vec3.addScaledAxisZ(qd[tree.coordinate[j]], tree.rotation, rj, offsetRate, 0);
            }
            Vec3.multiply(tree.rotation, rj, passes.force, s, scratch, 0);
            Vec3.addCross(offsetRate, 0, scratch, 0, momentRate, i);
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
