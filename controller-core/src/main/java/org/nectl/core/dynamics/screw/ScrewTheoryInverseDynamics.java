package org.nectl.core.dynamics.screw;

import java.util.Arrays;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Inverse dynamics of a kinematic tree in screw-theory (product-of-exponentials) form: the
 * Newton-Euler algorithm on body twists and wrenches (Lynch and Park, "Modern Robotics: Mechanics,
 * Planning, and Control", 2017, Sec. 8.3.2), extended from chains to trees, with external wrenches,
 * gravity as a base acceleration, and Khalil's joint terms.
 *
 * <p>A second formulation, independent of the modified-DH {@code InverseDynamics}: it shares only the
 * {@link RobotModel} and the {@link AppliedLoads} value. The model's placements are composed into home poses M_i in the base (space)
 * frame, each joint becomes a space screw S_i and then a body screw A_i = [Ad_{M_i^-1}] S_i, and a
 * joint's motion is the exponential exp(-[A_i] theta_i); it exists to cross-check the modified-DH
 * algorithm.
 *
 * <p>Twists (omega, v) and wrenches (moment, force) are expressed in the body frame, about its origin.
 * Not thread safe: one instance per thread.
 */
public final class ScrewTheoryInverseDynamics
{
    private static final int SIX = 6;
    private static final int TRANSFORM = RigidTransforms.SIZE;
    private static final int INERTIA = SpatialInertia.SIZE;

    private final int bodyCount;
    private final int[] parent;
    private final int[] coordinateOfBody;
    private final int[] bodyOfCoordinate;
    /** A_i, the joint's screw axis expressed in body i's frame. */
    private final double[] bodyScrew;
    /** M_{i,parent}: the parent's pose in body i's frame at q = 0. */
    private final double[] homePoseOfParent;
    /** G_i, expressed in body i's frame about its origin. */
    private final double[] spatialInertia;
    private final double[] rotorInertia;
    private final double[] coulombFriction;
    private final double[] viscousFriction;

    /** Default gravity (0, 0, -9.81) and no wrench, for calls without loads. */
    private final AppliedLoads noLoads;
    /** Base twist (zero) and base acceleration (0, -g), base frame, -g set from each call's loads. */
    private final double[] baseTwist = new double[SIX];
    private final double[] baseTwistRate = new double[SIX];
    private boolean frictionEnabled = true;

    /** T_{i,parent}(q): the parent's pose in body i's frame. */
    private final double[] poseOfParent;
    /** V_i, body frame. */
    private final double[] twist;
    /** dV_i/dt, body frame. */
    private final double[] twistRate;
    /** F_i, the wrench the parent exerts on body i through joint i, body frame. */
    private final double[] jointWrench;
    private final double[] motion = new double[TRANSFORM];
    private final double[] scratch = new double[SIX];
    private final double[] momentum = new double[SIX];

    /**
     * Derives home poses, body screws and spatial inertias from the model. Not real-time safe.
     *
     * @param model the robot; gravity defaults to (0, 0, -9.81) m/s^2 in the base frame.
     */
    public ScrewTheoryInverseDynamics(final RobotModel model)
    {
        bodyCount = model.bodyCount();
        parent = model.parents();
        coordinateOfBody = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[model.dof()];
        rotorInertia = new double[model.dof()];
        coulombFriction = new double[model.dof()];
        viscousFriction = new double[model.dof()];
        for (int k = 0; k < model.dof(); k++)
        {
            bodyOfCoordinate[k] = model.bodyOfCoordinate(k);
            final JointActuation actuation = model.actuation(k);
            rotorInertia[k] = actuation.rotorInertia();
            coulombFriction[k] = actuation.coulombFriction();
            viscousFriction[k] = actuation.viscousFriction();
        }
        bodyScrew = new double[SIX * bodyCount];
        homePoseOfParent = new double[TRANSFORM * bodyCount];
        spatialInertia = new double[INERTIA * bodyCount];
        poseOfParent = new double[TRANSFORM * bodyCount];
        twist = new double[SIX * bodyCount];
        twistRate = new double[SIX * bodyCount];
        jointWrench = new double[SIX * bodyCount];
        homeGeometry(model);
        for (int i = 0; i < bodyCount; i++)
        {
            SpatialInertia.ofBody(model.inertialParameters(i), spatialInertia, INERTIA * i);
        }
        noLoads = new AppliedLoads(CompiledModel.of(model));
    }

    /**
     * Switches Coulomb and viscous joint friction on (the default) or off; rotor inertia stays on.
     * Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void jointFriction(final boolean enabled)
    {
        frictionEnabled = enabled;
    }

    /**
     * Computes the joint torques (forces for prismatic joints). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities by coordinate.
     * @param qdd joint accelerations by coordinate.
     * @param tau destination, N m or N, by coordinate.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final double[] tau)
    {
        compute(q, qd, qdd, noLoads, tau);
    }

    /**
     * Computes the joint torques under the given gravity and body-fixed wrenches. Real-time safe:
     * allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities by coordinate.
     * @param qdd joint accelerations by coordinate.
     * @param loads gravity and the body-fixed wrenches the environment applies on the bodies.
     * @param tau destination, N m or N, by coordinate.
     * @throws IllegalArgumentException if the loads hold a world-fixed force or moment.
     */
    public void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final double[] tau)
    {
        loads.requireBodyFixed("ScrewTheoryInverseDynamics");
        baseTwistRate[3] = -loads.gravity(0);
        baseTwistRate[4] = -loads.gravity(1);
        baseTwistRate[5] = -loads.gravity(2);
        forwardPass(q, qd, qdd);
        backwardPass(loads);
        jointTorques(qd, qdd, tau);
    }

    /**
     * After {@link #compute}: the wrench the parent exerts on body i through its joint. Real-time safe.
     *
     * @param body body index.
     * @param wrench6 destination: force (N) then moment (N m) about the body frame origin, body frame.
     */
    public void reactionWrench(final int body, final double[] wrench6)
    {
        final int o = SIX * body;
        for (int k = 0; k < 3; k++)
        {
            wrench6[k] = jointWrench[o + 3 + k];
            wrench6[3 + k] = jointWrench[o + k];
        }
    }

    /**
     * Home poses M_i in the space frame, space screws S_i, body screws A_i = [Ad_{M_i^-1}] S_i and
     * relative home poses M_{i,parent} = M_i^-1 M_parent.
     */
    private void homeGeometry(final RobotModel model)
    {
        final double[] home = new double[TRANSFORM * bodyCount];
        final double[] homeInverse = new double[TRANSFORM];
        final double[] placement = new double[TRANSFORM];
        final double[] spaceScrew = new double[SIX];
        final double[] base = new double[TRANSFORM];
        RigidTransforms.identity(base, 0);
        for (int i = 0; i < bodyCount; i++)
        {
            RigidTransforms.set(model.placementRotation(i), model.placementTranslation(i), placement, 0);
            final double[] parentHome = parent[i] < 0 ? base : home;
            final int parentOffset = parent[i] < 0 ? 0 : TRANSFORM * parent[i];
            final int o = TRANSFORM * i;
            // M_i = M_parent * placement_i
            RigidTransforms.compose(parentHome, parentOffset, placement, 0, home, o);
            spaceScrew(model.jointType(i), home, o, spaceScrew);
            RigidTransforms.invert(home, o, homeInverse, 0);
            // A_i = [Ad_{M_i^-1}] S_i
            RigidTransforms.adjoint(homeInverse, 0, spaceScrew, 0, bodyScrew, SIX * i);
            // M_{i,parent} = M_i^-1 M_parent
            RigidTransforms.compose(homeInverse, 0, parentHome, parentOffset, homePoseOfParent, o);
        }
    }

    /** S = (w, -w x p) for a revolute joint, (0, w) for a prismatic one; w = joint axis, space frame. */
    private static void spaceScrew(final JointType type, final double[] home, final int o, final double[] out)
    {
        // The joint axis is the body frame's z axis: the third column of the home rotation.
        final double wx = home[o + 2];
        final double wy = home[o + 5];
        final double wz = home[o + 8];
        Arrays.fill(out, 0.0);
        if (type == JointType.REVOLUTE)
        {
            final double px = home[o + 9];
            final double py = home[o + 10];
            final double pz = home[o + 11];
            out[0] = wx;
            out[1] = wy;
            out[2] = wz;
            out[3] = -(wy * pz - wz * py);
            out[4] = -(wz * px - wx * pz);
            out[5] = -(wx * py - wy * px);
        }
        else if (type == JointType.PRISMATIC)
        {
            out[3] = wx;
            out[4] = wy;
            out[5] = wz;
        }
    }

    /** Poses, twists and twist rates from the base outwards (parent(i) < i). */
    private void forwardPass(final double[] q, final double[] qd, final double[] qdd)
    {
        for (int i = 0; i < bodyCount; i++)
        {
            final int k = coordinateOfBody[i];
            final double theta = k < 0 ? 0.0 : q[k];
            final double thetaDot = k < 0 ? 0.0 : qd[k];
            final double thetaDdot = k < 0 ? 0.0 : qdd[k];
            final int s = SIX * i;
            final int t = TRANSFORM * i;
            // T_{i,parent} = exp(-[A_i] theta_i) M_{i,parent}
            RigidTransforms.exp(bodyScrew, s, -theta, motion, 0);
            RigidTransforms.compose(motion, 0, homePoseOfParent, t, poseOfParent, t);
            final int p = parent[i];
            final double[] parentTwist = p < 0 ? baseTwist : twist;
            final double[] parentTwistRate = p < 0 ? baseTwistRate : twistRate;
            final int po = p < 0 ? 0 : SIX * p;
            // V_i = [Ad_{T_{i,parent}}] V_parent + A_i qd_i
            RigidTransforms.adjoint(poseOfParent, t, parentTwist, po, twist, s);
            // dV_i = [Ad_{T_{i,parent}}] dV_parent + [ad_{V_i}] A_i qd_i + A_i qdd_i
            RigidTransforms.adjoint(poseOfParent, t, parentTwistRate, po, twistRate, s);
            for (int c = 0; c < SIX; c++)
            {
                twist[s + c] += bodyScrew[s + c] * thetaDot;
            }
            LieBrackets.ad(twist, s, bodyScrew, s, scratch, 0);
            for (int c = 0; c < SIX; c++)
            {
                twistRate[s + c] += scratch[c] * thetaDot + bodyScrew[s + c] * thetaDdot;
            }
        }
    }

    /** Joint wrenches from the leaves inwards: children are added before their parent is reached. */
    private void backwardPass(final AppliedLoads loads)
    {
        for (int i = 0; i < bodyCount; i++)
        {
            final int s = SIX * i;
            // F_i = G_i dV_i - [ad_{V_i}]^T (G_i V_i) - F_ext,i  (children added below); F_ext is
            // given as (force, moment), a wrench here is (moment, force)
            SpatialInertia.apply(spatialInertia, INERTIA * i, twistRate, s, jointWrench, s);
            SpatialInertia.apply(spatialInertia, INERTIA * i, twist, s, momentum, 0);
            LieBrackets.adTranspose(twist, s, momentum, 0, scratch, 0);
            for (int c = 0; c < 3; c++)
            {
                jointWrench[s + c] -= scratch[c] + loads.bodyWrench(i, 3 + c);
                jointWrench[s + 3 + c] -= scratch[3 + c] + loads.bodyWrench(i, c);
            }
        }
        for (int i = bodyCount - 1; i >= 0; i--)
        {
            final int p = parent[i];
            if (p >= 0)
            {
                // F_parent += [Ad_{T_{i,parent}}]^T F_i
                RigidTransforms.adjointTranspose(poseOfParent, TRANSFORM * i, jointWrench, SIX * i, scratch, 0);
                for (int c = 0; c < SIX; c++)
                {
                    jointWrench[SIX * p + c] += scratch[c];
                }
            }
        }
    }

    /**
     * tau_i = F_i^T A_i, plus the joint terms Ia qdd + Fs sign(qd) + Fv qd of Khalil, "Dynamic modeling of
     * robots using recursive Newton-Euler techniques", 2010, eq. 31.
     */
    private void jointTorques(final double[] qd, final double[] qdd, final double[] tau)
    {
        for (int k = 0; k < bodyOfCoordinate.length; k++)
        {
            final int s = SIX * bodyOfCoordinate[k];
            double torque = rotorInertia[k] * qdd[k];
            for (int c = 0; c < SIX; c++)
            {
                torque += jointWrench[s + c] * bodyScrew[s + c];
            }
            if (frictionEnabled)
            {
                torque += coulombFriction[k] * Math.signum(qd[k]) + viscousFriction[k] * qd[k];
            }
            tau[k] = torque;
        }
    }
}
