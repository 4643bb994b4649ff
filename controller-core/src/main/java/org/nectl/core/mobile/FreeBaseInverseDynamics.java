package org.nectl.core.mobile;

import java.util.Arrays;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseFrameTree;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CholeskySolver;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.SpatialAlgebra;
import org.nectl.core.model.RobotModel;

/**
 * Inverse dynamics of a free-floating tree (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", ICINCO 2010, §7.2, eqs. 89-100): given the base pose and twist and the
 * joints' q, qd, qdd, the base acceleration that no external wrench on the base allows, and the
 * joint torques. Base state in the convention of {@link BasePose}; no external wrench acts.
 *
 * <p>Derivation (the printed eqs. 96 and 97 carry sign errors; this is what is implemented). In
 * base coordinates let a be the base's spatial acceleration, g_0 = 0R_w g the gravity. The
 * Newton-Euler passes run from the base's motion (omega_0, omegaDot_0 and vdot_0 - g_0 with
 * vdot_0 = a_lin + omega_0 x v_0, the classical acceleration of the origin) give the joint torques
 * and the wrench f_0(a) the base exerts on the tree; every link acceleration moves rigidly with a,
 * so f_0(a) = f_0(0) + J^c_tree a, J^c_tree the links' composite inertia at the base origin. The
 * base itself needs J_b a + v_0 x* (J_b v_0) - J_b (g_0, 0) and receives -f_0. With no external
 * wrench on the base:
 * <pre>
 *   J^c_0 a = beta^c_0,   J^c_0 = J_b + J^c_tree (eq. 95 summed to j = 0),
 *   beta^c_0 = -(f_0(0) + v_0 x* (J_b v_0) - J_b (g_0, 0))           (eq. 97, sign as derived)
 * </pre>
 * so beta^c_0 is minus the wrench the whole robot would need at zero base acceleration
 * (= -(H_1 + A_12 qdd) of eq. 86). Then the torques (eqs. 98-100): joint j's wrench grows by
 * J^c_j a, J^c_j the composite inertia of its subtree, so tau_j(a) = tau_j(0) + S_j . J^c_j a.
 * The pass at a = 0 is {@link InverseDynamics} with the root initial condition of
 * {@link BaseMotion}; the composite inertias are subtree sums of the bodies' inertias in base
 * coordinates ({@link BaseFrameTree}), where eq. 95's screw transforms are the identity, and the
 * 6x6 system is solved by Cholesky.
 *
 * <p>Rotor inertia and friction enter as in the fixed-base model (eq. 100: Ia qdd, Fs sign(qd) +
 * Fv qd); the rotors' reaction on the base is not modelled. Not thread safe. Every method is
 * real-time safe except the constructors.
 */
public final class FreeBaseInverseDynamics
{
    private final BaseFrameTree tree;
    private final InverseDynamics rnea;
    private final AppliedLoads noLoads;
    private final BaseMotion motion = new BaseMotion();
    private final CholeskySolver solver = new CholeskySolver(6);
    private final double[] gravityInBase = new double[3];
    private final double[] rotation = new double[9];
    private final double[] treeWrench = new double[6];
    private final double[] baseWrench = new double[6];
    private final double[] scratch = new double[6];
    /** (-g_0, 0): gravity entered as a base acceleration, base coordinates; the angular half stays zero. */
    private final double[] minusGravity = new double[6];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot, with a floating base ({@link RobotModel#floatingBase()}); its gravity
     *     is not used (each call gives the world's).
     * @throws IllegalArgumentException for a fixed base.
     */
    public FreeBaseInverseDynamics(final CompiledModel model)
    {
        tree = new BaseFrameTree(model);
        rnea = new InverseDynamics(model);
        noLoads = new AppliedLoads(model);
    }

    /**
     * Switches Coulomb and viscous joint friction on or off (default on).
     *
     * @param enabled true to add Fs sign(qd) + Fv qd to each joint torque.
     */
    public void jointFriction(final boolean enabled)
    {
        rnea.jointFriction(enabled);
    }

    /**
     * The free base: its acceleration and the joint torques for the given joint motion.
     *
     * @param pose base position and quaternion ({@link BasePose}); only the orientation is used (gravity).
     * @param twist base twist, base coordinates.
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param gravity the world's gravity, world frame, m/s^2, 3 values.
     * @param baseAcceleration receives the base acceleration, 6 values ({@link BasePose}).
     * @param tau receives the joint torques or forces, N m or N.
     * @return false if the composite inertia J^c_0 is not positive definite (a massless robot);
     *     the outputs are then undefined.
     */
    public boolean compute(final double[] pose, final double[] twist, final double[] q, final double[] qd,
        final double[] qdd, final double[] gravity, final double[] baseAcceleration, final double[] tau)
    {
        tree.place(q);
        tree.composites();
        final double[] compositeInertia = solver.matrix();
        Arrays.fill(compositeInertia, 0.0);
        tree.addInertia(-1, compositeInertia, 0);
        for (int j = 0; j < tree.bodyCount(); j++)
        {
            if (tree.parent(j) < 0)
            {
                tree.addCompositeInertia(j, compositeInertia, 0);
            }
        }
        Arrays.fill(baseAcceleration, 0, 6, 0.0);
        passes(pose, twist, q, qd, qdd, gravity, baseAcceleration, tau);
        final double[] beta = solver.rhs();
        for (int k = 0; k < 6; k++)
        {
            beta[k] = -baseWrench[k];
        }
        if (!solver.solve())
        {
            return false;
        }
        System.arraycopy(solver.solution(), 0, baseAcceleration, 0, 6);
        // (98)-(100): every link's acceleration moves by a, so joint j's wrench by J^c_j a and its torque by S_j . J^c_j a.
        for (int k = 0; k < tree.dof(); k++)
        {
            final int j = tree.bodyOfCoordinate(k);
            tree.compositeTimes(j, baseAcceleration, 0, scratch, 0);
            tau[k] += SpatialAlgebra.dot6(tree.axis(), 6 * j, scratch, 0);
        }
        return true;
    }

    /**
     * The base's acceleration prescribed: the joint torques and the wrench that must act on the
     * base from outside (a support, a thruster, contacts) for this motion. A base acceleration from
     * {@link #compute} gives a zero wrench; a base at rest with zero acceleration gives the
     * fixed-base torques of {@link InverseDynamics} under gravity 0R_w g.
     *
     * @param pose base position and quaternion; only the orientation is used (gravity).
     * @param twist base twist, base coordinates.
     * @param baseAcceleration the base acceleration, 6 values ({@link BasePose}).
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param qdd joint accelerations, rad/s^2 or m/s^2.
     * @param gravity the world's gravity, world frame, m/s^2, 3 values.
     * @param tau receives the joint torques or forces, N m or N.
     * @param externalWrench receives the wrench on the base, force (N) then moment about the base
     *     origin (N m), base coordinates.
     */
    public void computeWithBaseAcceleration(final double[] pose, final double[] twist, final double[] baseAcceleration,
        final double[] q, final double[] qd, final double[] qdd, final double[] gravity, final double[] tau,
        final double[] externalWrench)
    {
        passes(pose, twist, q, qd, qdd, gravity, baseAcceleration, tau);
        tree.inertiaTimes(-1, baseAcceleration, 0, scratch, 0);
        for (int k = 0; k < 6; k++)
        {
            externalWrench[k] = baseWrench[k] + scratch[k];
        }
    }

    /**
     * Newton-Euler passes from the base's motion: tau, and in baseWrench the wrench the whole robot
     * needs at the base, f_0 + v_0 x* (J_b v_0) - J_b (g_0, 0) (the base's own inertial term J_b a
     * excluded).
     */
    private void passes(final double[] pose, final double[] twist, final double[] q, final double[] qd,
        final double[] qdd, final double[] gravity, final double[] acceleration, final double[] tau)
    {
        BasePose.rotation(pose, rotation);
        for (int r = 0; r < 3; r++)
        {
            gravityInBase[r] = rotation[r] * gravity[0] + rotation[3 + r] * gravity[1] + rotation[6 + r] * gravity[2];
            minusGravity[r] = -gravityInBase[r];
        }
        final double vx = twist[0];
        final double vy = twist[1];
        final double vz = twist[2];
        final double wx = twist[3];
        final double wy = twist[4];
        final double wz = twist[5];
        motion.angularVelocity(wx, wy, wz)
            .angularAcceleration(acceleration[3], acceleration[4], acceleration[5])
            .specificForce(
                acceleration[0] + wy * vz - wz * vy - gravityInBase[0],
                acceleration[1] + wz * vx - wx * vz - gravityInBase[1],
                acceleration[2] + wx * vy - wy * vx - gravityInBase[2]);
        rnea.compute(q, qd, qdd, noLoads, motion, tau);
        rnea.baseWrench(treeWrench);
        tree.inertiaTimes(-1, twist, 0, scratch, 0);
        SpatialAlgebra.crossForce(twist, 0, scratch, 0, baseWrench, 0);
        tree.inertiaTimes(-1, minusGravity, 0, scratch, 0);
        for (int k = 0; k < 6; k++)
        {
            baseWrench[k] += treeWrench[k] + scratch[k];
        }
    }
}
