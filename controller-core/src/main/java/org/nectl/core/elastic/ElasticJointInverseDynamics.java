package org.nectl.core.elastic;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Inverse dynamics of a robot with elastic joints in three recursive passes (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, §6.3, after Khalil and
 * Gautier 2000, eqs. 72-82): given the state and the accelerations of the driven coordinates - the
 * rigid joints' q_dd and the motors' theta_dd - compute the elastic joints' accelerations, which
 * their springs decide and cannot be chosen, and the torques of the rigid joints and the motors.
 * The tree is the unified bodies ({@link UnifiedBodies}): rotors of elastic joints are bodies with
 * driven coordinates phi = eta theta, elastic link joints are free coordinates loaded by their
 * spring torque, passive joints free coordinates loaded by -K (q - q0) (eqs. 69-70), rigid joints
 * are driven.
 *
 * <p>Passes: (i) forward: poses, velocities, the acceleration bias gamma_j and the wrench bias
 * beta_j (eqs. 33-35); (ii) backward: articulated inertias J*_j and biases, reduced through the free
 * joints (eqs. 72-74) and passed whole through the driven ones (eqs. 75-78); (iii) forward:
 * accelerations of the free joints (eq. 80), link accelerations (eq. 81) and the wrenches and
 * torques of the driven joints (eqs. 79, 82). Every spatial quantity is expressed in the base frame
 * about its origin, (linear, angular) order, so the screw transforms of the paper are identities.
 *
 * <p>With every coordinate free the same passes are the direct dynamics (§6.2); {@link
 * RecursiveMixedForwardDynamics} uses them so ({@link #directDynamics}) when rigid joints' rotors
 * ride on moving links: such a rotor, on its joint's link or that link's parent, is reduced in pass
 * (ii) together with its joint as a second body moved by the same coordinate.
 *
 * <p>Motors may sit on any link (Hua, Poursina, Sanfilippo, "Dynamic Modelling of Mixed
 * Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler Formulation", eqs. 6-9): a
 * rigid joint's rotor turns at phi_dd = eta q_dd, known like its joint's, so it is a driven body
 * whose wrench (reflected inertia and gyroscopic torque, eqs. 21-25) reaches its carrying link in
 * pass (ii) and whose axial torque eta tau_phi adds to its joint's torque (eq. 27). Gravity,
 * external wrench and friction conventions are those of
 * {@link org.nectl.core.dynamics.InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class ElasticJointInverseDynamics
{
    private final UnifiedBodies bodies;
    private final SpringTorques springs;
    /** Torque of each free tree coordinate besides friction: springs, and in forward mode the drives. */
    private final double[] freeTorque;
    /** Per body: the body index of a rotor tied to its joint and mounted on it or its parent, else -1. */
    private final int[] tiedRotor;
    /** Per body: true for a rotor folded into its joint's reduction (skipped in pass ii). */
    private final boolean[] tiedRotorBody;
    private final int[] rotorOfElastic;
    /** Combined reduction workspace: s' 0-5, c' 6-11, J*_b gamma_b 12-17, J_r s' 18-23, J_r c' 24-29. */
    private final double[] tied = new double[30];
    private final int count;
    private final int[] parent;
    private final int[] coordinate;
    private final boolean[] prismatic;
    /** True for a tree coordinate whose acceleration the spring decides (an elastic link joint). */
    private final boolean[] free;
    private final int[] coordinateOfElastic;
    private final double[] mass;
    private final double[] firstMoment;
    private final double[] inertia;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    private final double[] rotorInertia;
    private final double[] coulomb;
    private final double[] viscous;
    private final double[] bodyWrench;
    /** -g, base frame: the root's linear acceleration on a fixed base. */
    private final double[] gravityAcceleration = new double[3];
    /** The root's spatial velocity (linear, angular) of the call: zero, or (0, omega_0) on a carried base. */
    private final double[] baseVelocity = new double[6];
    /** The root's spatial acceleration of the call: (-g, 0), or (f, omegaDot_0) on a carried base. */
    private final double[] baseAcceleration = new double[6];
    private boolean friction = true;

    private final double[] rotation;
    private final double[] origin;
    private final double[] axis;
    private final double[] velocity;
    private final double[] gamma;
    private final double[] articulated;
    private final double[] bias;
    /** alpha_j: the bias wrench body j's subtree passes to its parent (eqs. 74, 76). */
    private final double[] transmitted;
    private final double[] projected;
    private final double[] inverseH;
    private final double[] drive;
    private final double[] acceleration;
    private final double[] y;
    private final double[] yd;
    private final double[] ydd;
    private final double[] treeTorque;
    private final double[] spring;
    private final double[] passiveTorque;
    private final double[] scratch = new double[12];
    /** J R^T of one body, for R J R^T in 54 products instead of 243. */
    private final double[] inertiaTimesRt = new double[9];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public ElasticJointInverseDynamics(final UnifiedBodies bodies)
    {
        this(bodies, false);
    }

    /**
     * @param bodies the robot's unified bodies, shared with the caller's other algorithms.
     * @param forwardMode false: rigid joints and all rotors driven (inverse dynamics, §6.3); true:
     *     every link coordinate and elastic rotor free, tied rotors folded into their joints (direct
     *     dynamics, §6.2; see {@link #foldsEveryTiedRotor}).
     */
    private ElasticJointInverseDynamics(final UnifiedBodies bodies, final boolean forwardMode)
    {
        final ElasticRobotModel model = bodies.robot;
        this.bodies = bodies;
        springs = new SpringTorques(model);
        final RobotModel tree = bodies.tree;
        count = tree.bodyCount();
        final int t = bodies.treeDof();
        parent = tree.parents();
        coordinate = tree.coordinatesOfBodies();
        prismatic = new boolean[count];
        for (int i = 0; i < count; i++)
        {
            prismatic[i] = tree.jointType(i) == JointType.PRISMATIC;
        }
        free = freeCoordinates(model, bodies, forwardMode);
        freeTorque = new double[t];
        rotorOfElastic = new int[model.elasticCount()];
        for (int k = bodies.dof; k < t; k++)
        {
            if (bodies.source[k] >= bodies.dof)
            {
                rotorOfElastic[bodies.source[k] - bodies.dof] = k;
            }
        }
        tiedRotor = new int[count];
        tiedRotorBody = new boolean[count];
        Arrays.fill(tiedRotor, -1);
        if (forwardMode)
        {
            foldTiedRotors(tree);
        }
        coordinateOfElastic = new int[model.elasticCount()];
        for (int e = 0; e < coordinateOfElastic.length; e++)
        {
            coordinateOfElastic[e] = model.coordinateOfElastic(e);
        }
        mass = tree.masses();
        firstMoment = tree.firstMoments();
        inertia = tree.inertiasAtOrigin();
        placementRotation = tree.placementRotations();
        placementTranslation = tree.placementTranslations();
        rotorInertia = new double[t];
        coulomb = new double[t];
        viscous = new double[t];
        for (int k = 0; k < t; k++)
        {
            final JointActuation a = tree.actuation(k);
            rotorInertia[k] = a.rotorInertia();
            coulomb[k] = a.coulombFriction();
            viscous[k] = a.viscousFriction();
        }
        bodyWrench = new double[6 * count];
        rotation = new double[9 * count];
        origin = new double[3 * count];
        axis = new double[6 * count];
        velocity = new double[6 * count];
        gamma = new double[6 * count];
        articulated = new double[36 * count];
        bias = new double[6 * count];
        transmitted = new double[6 * count];
        projected = new double[6 * count];
        inverseH = new double[count];
        drive = new double[count];
        acceleration = new double[6 * count];
        y = new double[t];
        yd = new double[t];
        ydd = new double[t];
        treeTorque = new double[t];
        spring = new double[model.elasticCount()];
        passiveTorque = new double[bodies.dof];
        gravity(0.0, 0.0, -9.81);
    }

    /**
     * @param bodies the robot's unified bodies, shared with the caller.
     * @return the same three passes as direct dynamics (Khalil 2010 §6.2: every coordinate free),
     *     for robots whose tied rotors all sit on their joint's link or its parent.
     * @throws IllegalArgumentException if a rotor tied to a rigid joint is mounted elsewhere.
     */
    static ElasticJointInverseDynamics directDynamics(final UnifiedBodies bodies)
    {
        if (!foldsEveryTiedRotor(bodies))
        {
            throw new IllegalArgumentException("robot '" + bodies.robot.links().name() + "': a rigid joint's rotor is mounted"
                + " neither on its joint's link nor on that link's parent");
        }
        return new ElasticJointInverseDynamics(bodies, true);
    }

    /**
     * @param bodies the unified bodies.
     * @return true if every rotor tied to a rigid joint (phi = eta q) is mounted on the joint's link
     *     or its parent, so that it moves with one coordinate relative to that parent.
     */
    static boolean foldsEveryTiedRotor(final UnifiedBodies bodies)
    {
        for (final int r : bodies.coupledRotors)
        {
            final RobotModel tree = bodies.tree;
            final int rotor = tree.bodyOfCoordinate(r);
            final int joint = tree.bodyOfCoordinate(bodies.source[r]);
            if (tree.parent(rotor) != joint && tree.parent(rotor) != tree.parent(joint))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * @return per tree coordinate, whether its torque is given and its acceleration sought: inverse
     *     dynamics, the elastic and passive link joints (§6.3); direct dynamics, every link joint and
     *     every elastic joint's rotor (§6.2), tied rotors following their joints.
     */
    private static boolean[] freeCoordinates(final ElasticRobotModel model, final UnifiedBodies bodies,
        final boolean forwardMode)
    {
        final boolean[] free = new boolean[bodies.treeDof()];
        for (int k = 0; k < free.length; k++)
        {
            final boolean link = k < bodies.dof;
            free[k] = forwardMode ? link || bodies.source[k] >= bodies.dof
                : link && (model.isElastic(k) || model.isPassive(k));
        }
        return free;
    }

    private void foldTiedRotors(final RobotModel tree)
    {
        for (final int r : bodies.coupledRotors)
        {
            final int rotor = tree.bodyOfCoordinate(r);
            tiedRotor[tree.bodyOfCoordinate(bodies.source[r])] = rotor;
            tiedRotorBody[rotor] = true;
        }
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81). Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        gravityAcceleration[0] = -gx;
        gravityAcceleration[1] = -gy;
        gravityAcceleration[2] = -gz;
    }

    /**
     * Sets the wrench applied ON a link BY the environment, kept until changed or cleared.
     * Real-time safe.
     *
     * @param body link body index of the rigid model.
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
        final int e = 6 * body;
        bodyWrench[e] = fx;
        bodyWrench[e + 1] = fy;
        bodyWrench[e + 2] = fz;
        bodyWrench[e + 3] = mx;
        bodyWrench[e + 4] = my;
        bodyWrench[e + 5] = mz;
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        Arrays.fill(bodyWrench, 0.0);
    }

    /**
     * Switches link-side and motor-side friction on or off (default on). Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void friction(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index (reflected).
     * @param qd link velocities.
     * @param thetad motor velocities.
     * @param qdd in: accelerations of the rigid joints (elastic and passive entries ignored); out: the
     *     elastic and passive joints' accelerations written into their entries.
     * @param thetadd motor accelerations.
     * @param jointTorque output: the rigid joints' motor torques (eq. 82) and the elastic joints'
     *     and passive joints' spring torques, N m or N.
     * @param motorTorque output: the elastic joints' motor torques, N m or N.
     * @return true on success; false if some free joint's articulated inertia H_j is not positive.
     */
    public boolean compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] qdd, final double[] thetadd, final double[] jointTorque, final double[] motorTorque)
    {
        bodies.toTree(q, theta, y);
        bodies.toTree(qd, thetad, yd);
        bodies.toTree(qdd, thetadd, ydd);
        springs.compute(q, theta, qd, thetad, spring);
        Arrays.fill(passiveTorque, 0.0);
        springs.addPassive(q, qd, passiveTorque);
        System.arraycopy(passiveTorque, 0, freeTorque, 0, bodies.dof);
        for (int e = 0; e < spring.length; e++)
        {
            freeTorque[coordinateOfElastic[e]] = spring[e];
        }
        rootMotion(null);
        firstForwardPass();
        final boolean solvable = backwardPass();
        secondForwardPass();
        for (int k = 0; k < bodies.dof; k++)
        {
            if (free[k])
            {
                qdd[k] = ydd[k];
            }
        }
        // (82) on the tree, then back to q and theta: tau_m = eta tau_phi + sigma; free joints transmit their springs.
        bodies.fromTree(treeTorque, jointTorque, motorTorque);
        for (int k = 0; k < bodies.dof; k++)
        {
            jointTorque[k] += passiveTorque[k];
        }
        for (int e = 0; e < spring.length; e++)
        {
            motorTorque[e] += spring[e];
            jointTorque[coordinateOfElastic[e]] = spring[e];
        }
        return solvable;
    }

    /**
     * Direct dynamics (instances from {@link #directDynamics} only): inputs and outputs of
     * {@link RecursiveMixedForwardDynamics#compute}. Real-time safe.
     *
     * @param base the carried base's motion, or null for a fixed base under the set gravity.
     * @return true on success; false if some articulated inertia H_j is not positive.
     */
    boolean forward(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] jointTorque, final double[] motorTorque, final BaseMotion base, final double[] qdd,
        final double[] thetadd)
    {
        bodies.toTree(q, theta, y);
        bodies.toTree(qd, thetad, yd);
        springs.compute(q, theta, qd, thetad, spring);
        System.arraycopy(jointTorque, 0, freeTorque, 0, bodies.dof);
        // (69): the springs are the elastic and passive joints' torques; phi = eta theta takes 1/eta
        springs.addPassive(q, qd, freeTorque);
        for (int e = 0; e < spring.length; e++)
        {
            final int r = rotorOfElastic[e];
            freeTorque[coordinateOfElastic[e]] += spring[e];
            freeTorque[r] = (motorTorque[e] - spring[e]) / bodies.scale[r];
        }
        rootMotion(base);
        firstForwardPass();
        final boolean solvable = backwardPass();
        secondForwardPass();
        System.arraycopy(ydd, 0, qdd, 0, bodies.dof);
        for (int e = 0; e < spring.length; e++)
        {
            thetadd[e] = ydd[rotorOfElastic[e]] / bodies.scale[rotorOfElastic[e]];
        }
        return solvable;
    }

    /**
     * The root's motion (Khalil 2010, §7.1: the base's motion as the initial condition of the
     * forward recursion), in the inertial frame that coincides with the base frame and moves with the
     * base origin at this instant: a fixed base at rest with gravity entered as the acceleration -g; a
     * carried base with velocity (0, omega_0) and acceleration (f, omegaDot_0), f its specific force,
     * which replaces gravity.
     */
    private void rootMotion(final BaseMotion base)
    {
        for (int k = 0; k < 3; k++)
        {
            baseVelocity[3 + k] = base == null ? 0.0 : base.angularVelocity(k);
            baseAcceleration[k] = base == null ? gravityAcceleration[k] : base.specificForce(k);
            baseAcceleration[3 + k] = base == null ? 0.0 : base.angularAcceleration(k);
        }
    }

    /** Poses, axes S_j, velocities, gamma_j = v_j x S_j qd_j and beta_j (eqs. 33-35). */
    private void firstForwardPass()
    {
        for (int j = 0; j < count; j++)
        {
            pose(j);
            final int s = 6 * j;
            final int p = parent[j];
            for (int c = 0; c < 6; c++)
            {
                velocity[s + c] = p < 0 ? baseVelocity[c] : velocity[6 * p + c];
                gamma[s + c] = 0.0;
            }
            final int k = coordinate[j];
            if (k >= 0)
            {
                jointAxis(j);
                for (int c = 0; c < 6; c++)
                {
                    velocity[s + c] += axis[s + c] * yd[k];
                }
                crossMotion(velocity, s, axis, s, gamma, s);
                for (int c = 0; c < 6; c++)
                {
                    gamma[s + c] *= yd[k];
                }
            }
            rigidInertia(j);
            wrenchBias(j);
        }
    }

    /** J*_j reduced through free joints (eqs. 72-74), kept whole through driven ones (eqs. 75-78). */
    private boolean backwardPass()
    {
        boolean solvable = true;
        for (int j = count - 1; j >= 0; j--)
        {
            final int k = coordinate[j];
            if (tiedRotorBody[j])
            {
                continue;
            }
            if (tiedRotor[j] >= 0)
            {
                solvable &= reduceThroughTiedJoint(j, k, tiedRotor[j]);
            }
            else if (k >= 0 && free[k])
            {
                solvable &= reduceThroughFreeJoint(j, k);
            }
            else
            {
                addDrivenAcceleration(j, k);
            }
            final int p = parent[j];
            if (p >= 0)
            {
                for (int c = 0; c < 36; c++)
                {
                    articulated[36 * p + c] += articulated[36 * j + c];
                }
                for (int c = 0; c < 6; c++)
                {
                    bias[6 * p + c] += transmitted[6 * j + c];
                }
            }
        }
        return solvable;
    }

    /** (72)-(74): H_j, K_j = J* - J* a H^-1 a^T J*, alpha_j with the spring torque (69) as the joint torque. */
    private boolean reduceThroughFreeJoint(final int j, final int k)
    {
        final int s = 6 * j;
        final int a = 36 * j;
        for (int r = 0; r < 6; r++)
        {
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += articulated[a + 6 * r + c] * axis[s + c];
            }
            projected[s + r] = sum;
        }
        final double h = dot6(axis, s, projected, s) + rotorInertia[k];
        inverseH[j] = 1.0 / h;
        drive[j] = freeTorque[k] - frictionTorque(k) - dot6(axis, s, bias, s);
        for (int r = 0; r < 6; r++)
        {
            final double ur = projected[s + r] * inverseH[j];
            for (int c = r; c < 6; c++)
            {
                final double reduced = articulated[a + 6 * r + c] - ur * projected[s + c];
                articulated[a + 6 * r + c] = reduced;
                articulated[a + 6 * c + r] = reduced;
            }
        }
        for (int r = 0; r < 6; r++)
        {
            transmitted[s + r] = bias[s + r] + projected[s + r] * drive[j] * inverseH[j];
        }
        addTimesVector(a, gamma, s, transmitted, s);
        return h > 0.0;
    }

    /**
     * (72)-(74) for joint body b and its tied rotor r as two bodies on the parent moved by one q:
     * S_b, and s' = eta S_r (+ S_b if r rides on b) with bias c' = gamma_r (+ gamma_b); H = S_b J*_b
     * S_b + s' J_r s' + Ia, U = J*_b S_b + J_r s' (the rotor's reflected inertia and, through c' and
     * beta_r, its gyroscopic torque on the carrying link: Hua et al. eqs. 21-27).
     */
    private boolean reduceThroughTiedJoint(final int b, final int k, final int r)
    {
        final int s = 6 * b;
        final int sr = 6 * r;
        final int rotorCoordinate = coordinate[r];
        final double eta = bodies.scale[rotorCoordinate];
        final boolean ridesOnJointLink = parent[r] == b;
        for (int c = 0; c < 6; c++)
        {
            tied[c] = eta * axis[sr + c] + (ridesOnJointLink ? axis[s + c] : 0.0);
            tied[6 + c] = gamma[sr + c] + (ridesOnJointLink ? gamma[s + c] : 0.0);
            tied[12 + c] = 0.0;
            tied[18 + c] = 0.0;
            tied[24 + c] = 0.0;
            projected[s + c] = 0.0;
        }
        addTimesVector(36 * b, gamma, s, tied, 12);
        addTimesVector(36 * b, axis, s, projected, s);
        addTimesVector(36 * r, tied, 0, tied, 18);
        addTimesVector(36 * r, tied, 6, tied, 24);
        final double h = dot6(axis, s, projected, s) + dot6(tied, 0, tied, 18) + rotorInertia[k];
        final double u = freeTorque[k] - frictionTorque(k) - eta * frictionTorque(rotorCoordinate)
            - dot6(axis, s, bias, s) - dot6(tied, 0, bias, sr);
        final double w = dot6(axis, s, tied, 12) + dot6(tied, 0, tied, 24);
        for (int c = 0; c < 6; c++)
        {
            projected[s + c] += tied[18 + c];
        }
        inverseH[b] = 1.0 / h;
        drive[b] = u - w + dot6(projected, s, gamma, s);
        final int a = 36 * b;
        for (int c = 0; c < 36; c++)
        {
            articulated[a + c] += articulated[36 * r + c];
        }
        for (int row = 0; row < 6; row++)
        {
            final double ur = projected[s + row] * inverseH[b];
            for (int col = row; col < 6; col++)
            {
                final double reduced = articulated[a + 6 * row + col] - ur * projected[s + col];
                articulated[a + 6 * row + col] = reduced;
                articulated[a + 6 * col + row] = reduced;
            }
            transmitted[s + row] = bias[s + row] + bias[sr + row] + tied[12 + row] + tied[24 + row]
                + projected[s + row] * (u - w) * inverseH[b];
        }
        return h > 0.0;
    }

    /** (75)-(76): K_j = J*_j, alpha_j = J*_j (gamma_j + a_j qdd_j) - beta*_j, the acceleration known. */
    private void addDrivenAcceleration(final int j, final int k)
    {
        final int s = 6 * j;
        for (int c = 0; c < 6; c++)
        {
            scratch[c] = gamma[s + c] + (k >= 0 ? axis[s + c] * ydd[k] : 0.0);
            transmitted[s + c] = bias[s + c];
        }
        addTimesVector(36 * j, scratch, 0, transmitted, s);
    }

    /** (79)-(82): free joints' accelerations, link accelerations, driven joints' torques. */
    private void secondForwardPass()
    {
        for (int j = 0; j < count; j++)
        {
            final int s = 6 * j;
            final int p = parent[j];
            for (int c = 0; c < 6; c++)
            {
                acceleration[s + c] = (p < 0 ? baseAcceleration[c] : acceleration[6 * p + c]) + gamma[s + c];
            }
            final int k = coordinate[j];
            if (k < 0)
            {
                continue;
            }
            if (tiedRotorBody[j])
            {
                // Hua et al. (9): the rotor turns at eta q_dd relative to its mount
                ydd[k] = bodies.scale[k] * ydd[bodies.source[k]];
            }
            if (free[k])
            {
                // (80)
                ydd[k] = (drive[j] - dot6(projected, s, acceleration, s)) * inverseH[j];
                treeTorque[k] = 0.0;
            }
            for (int c = 0; c < 6; c++)
            {
                acceleration[s + c] += axis[s + c] * ydd[k];
            }
            if (!free[k])
            {
                // (79), (82): the wrench through joint j is J*_j a_j + beta-side bias
                for (int c = 0; c < 6; c++)
                {
                    scratch[c] = bias[s + c];
                }
                addTimesVector(36 * j, acceleration, s, scratch, 0);
                treeTorque[k] = dot6(axis, s, scratch, 0) + rotorInertia[k] * ydd[k] + frictionTorque(k);
            }
        }
    }

    private double frictionTorque(final int k)
    {
        return friction ? coulomb[k] * Math.signum(yd[k]) + viscous[k] * yd[k] : 0.0;
    }

    /** World pose of body j: R_j = R_p Pl_R Rot(z, q) or position + q Pl_R z. */
    private void pose(final int j)
    {
        final int p = parent[j];
        final int k = coordinate[j];
        final double angle = k >= 0 && !prismatic[j] ? y[k] : 0.0;
        final double slide = k >= 0 && prismatic[j] ? y[k] : 0.0;
        final double cos = Math.cos(angle);
        final double sin = Math.sin(angle);
        final int r = 9 * j;
        for (int row = 0; row < 3; row++)
        {
            final double x = placementRotation[r + 3 * row];
            final double yy = placementRotation[r + 3 * row + 1];
            scratch[3 * row] = cos * x + sin * yy;
            scratch[3 * row + 1] = cos * yy - sin * x;
            scratch[3 * row + 2] = placementRotation[r + 3 * row + 2];
            scratch[9 + row] = placementTranslation[3 * j + row] + slide * placementRotation[r + 3 * row + 2];
        }
        for (int row = 0; row < 3; row++)
        {
            for (int col = 0; col < 3; col++)
            {
                rotation[r + 3 * row + col] = p < 0 ? scratch[3 * row + col]
                    : rotation[9 * p + 3 * row] * scratch[col] + rotation[9 * p + 3 * row + 1] * scratch[3 + col]
                        + rotation[9 * p + 3 * row + 2] * scratch[6 + col];
            }
            origin[3 * j + row] = p < 0 ? scratch[9 + row]
                : origin[3 * p + row] + rotation[9 * p + 3 * row] * scratch[9] + rotation[9 * p + 3 * row + 1] * scratch[10]
                    + rotation[9 * p + 3 * row + 2] * scratch[11];
        }
    }

    /** S_j about the base origin: revolute (o x z, z), prismatic (z, 0). */
    private void jointAxis(final int j)
    {
        final int s = 6 * j;
        final int r = 9 * j;
        final double zx = rotation[r + 2];
        final double zy = rotation[r + 5];
        final double zz = rotation[r + 8];
        if (prismatic[j])
        {
            setVector(axis, s, zx, zy, zz);
            setVector(axis, s + 3, 0.0, 0.0, 0.0);
            return;
        }
        final double ox = origin[3 * j];
        final double oy = origin[3 * j + 1];
        final double oz = origin[3 * j + 2];
        setVector(axis, s, oy * zz - oz * zy, oz * zx - ox * zz, ox * zy - oy * zx);
        setVector(axis, s + 3, zx, zy, zz);
    }

    /** J_j about the base origin as [[m 1, -h^], [h^, O]] (Khalil 2010, eq. 11). */
    private void rigidInertia(final int j)
    {
        final int r = 9 * j;
        final double m = mass[j];
        final double ox = origin[3 * j];
        final double oy = origin[3 * j + 1];
        final double oz = origin[3 * j + 2];
        // h' = R MS, h = m o + h'
        final double[] ms = firstMoment;
        final double hpx = rotation[r] * ms[3 * j] + rotation[r + 1] * ms[3 * j + 1] + rotation[r + 2] * ms[3 * j + 2];
        final double hpy = rotation[r + 3] * ms[3 * j] + rotation[r + 4] * ms[3 * j + 1] + rotation[r + 5] * ms[3 * j + 2];
        final double hpz = rotation[r + 6] * ms[3 * j] + rotation[r + 7] * ms[3 * j + 1] + rotation[r + 8] * ms[3 * j + 2];
        final double hx = m * ox + hpx;
        final double hy = m * oy + hpy;
        final double hz = m * oz + hpz;
        final int a = 36 * j;
        for (int c = 0; c < 36; c++)
        {
            articulated[a + c] = 0.0;
        }
        articulated[a] = m;
        articulated[a + 7] = m;
        articulated[a + 14] = m;
        // -h^ top right, h^ bottom left
        setSkew(a + 3, -hx, -hy, -hz);
        setSkew(a + 18, hx, hy, hz);
        // O = R J R^T - o^ h'^ - h'^ o^ - m o^ o^
        // scratch: o at 0-2, h' at 3-5
        setVector(scratch, 0, ox, oy, oz);
        setVector(scratch, 3, hpx, hpy, hpz);
        for (int u = 0; u < 3; u++)
        {
            for (int col = 0; col < 3; col++)
            {
                inertiaTimesRt[3 * u + col] = inertia[r + 3 * u] * rotation[r + 3 * col]
                    + inertia[r + 3 * u + 1] * rotation[r + 3 * col + 1] + inertia[r + 3 * u + 2] * rotation[r + 3 * col + 2];
            }
        }
        for (int row = 0; row < 3; row++)
        {
            for (int col = 0; col < 3; col++)
            {
                final double rjrt = rotation[r + 3 * row] * inertiaTimesRt[col]
                    + rotation[r + 3 * row + 1] * inertiaTimesRt[3 + col] + rotation[r + 3 * row + 2] * inertiaTimesRt[6 + col];
                final double delta = row == col ? 1.0 : 0.0;
                // -[a]^[b]^ = (a . b) 1 - b a^T, symmetrised over (o, h') and m (o, o)
                final double cross = 2.0 * delta * (ox * hpx + oy * hpy + oz * hpz)
                    - scratch[3 + row] * scratch[col] - scratch[row] * scratch[3 + col];
                final double point = m * (delta * (ox * ox + oy * oy + oz * oz) - scratch[row] * scratch[col]);
                articulated[a + 6 * (3 + row) + 3 + col] = rjrt + cross + point;
            }
        }
    }

    /** beta side: v x* (J v) minus the external wrench in the base frame (eq. 35, sign as a bias). */
    private void wrenchBias(final int j)
    {
        final int s = 6 * j;
        final int a = 36 * j;
        for (int r = 0; r < 6; r++)
        {
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += articulated[a + 6 * r + c] * velocity[s + c];
            }
            scratch[r] = sum;
        }
        for (int c = 0; c < 6; c++)
        {
            bias[s + c] = 0.0;
        }
        // (w x f, w x n + v x f)
        addCross(velocity, s + 3, scratch, 0, bias, s);
        addCross(velocity, s + 3, scratch, 3, bias, s + 3);
        addCross(velocity, s, scratch, 0, bias, s + 3);
        final int r = 9 * j;
        final int e = 6 * j;
        for (int row = 0; row < 3; row++)
        {
            scratch[row] = rotation[r + 3 * row] * bodyWrench[e] + rotation[r + 3 * row + 1] * bodyWrench[e + 1]
                + rotation[r + 3 * row + 2] * bodyWrench[e + 2];
            scratch[3 + row] = rotation[r + 3 * row] * bodyWrench[e + 3] + rotation[r + 3 * row + 1] * bodyWrench[e + 4]
                + rotation[r + 3 * row + 2] * bodyWrench[e + 5];
        }
        addCross(origin, 3 * j, scratch, 0, scratch, 3);
        for (int c = 0; c < 6; c++)
        {
            bias[s + c] -= scratch[c];
        }
    }

    /** out += J_a v, J_a the 6x6 at offset a. */
    private void addTimesVector(final int a, final double[] v, final int iv, final double[] out, final int io)
    {
        for (int r = 0; r < 6; r++)
        {
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += articulated[a + 6 * r + c] * v[iv + c];
            }
            out[io + r] += sum;
        }
    }

    private void setSkew(final int at, final double x, final double y2, final double z)
    {
        articulated[at] = 0.0;
        articulated[at + 1] = -z;
        articulated[at + 2] = y2;
        articulated[at + 6] = z;
        articulated[at + 7] = 0.0;
        articulated[at + 8] = -x;
        articulated[at + 12] = -y2;
        articulated[at + 13] = x;
        articulated[at + 14] = 0.0;
    }

    private static void setVector(final double[] out, final int io, final double x, final double y2, final double z)
    {
        out[io] = x;
        out[io + 1] = y2;
        out[io + 2] = z;
    }

    private static double dot6(final double[] a, final int ia, final double[] b, final int ib)
    {
        double sum = 0.0;
        for (int c = 0; c < 6; c++)
        {
            sum += a[ia + c] * b[ib + c];
        }
        return sum;
    }

    /** out = a x b for motion vectors: (wa x vb + va x wb, wa x wb). */
    private static void crossMotion(final double[] a, final int ia, final double[] b, final int ib,
        final double[] out, final int io)
    {
        for (int c = 0; c < 6; c++)
        {
            out[io + c] = 0.0;
        }
        addCross(a, ia + 3, b, ib, out, io);
        addCross(a, ia, b, ib + 3, out, io);
        addCross(a, ia + 3, b, ib + 3, out, io + 3);
    }

    /** out += a x b (3-vectors); out may alias neither input. */
    private static void addCross(final double[] a, final int ia, final double[] b, final int ib,
        final double[] out, final int io)
    {
        final double ax = a[ia];
        final double ay = a[ia + 1];
        final double az = a[ia + 2];
        final double bx = b[ib];
        final double by = b[ib + 1];
        final double bz = b[ib + 2];
        out[io] += ay * bz - az * by;
        out[io + 1] += az * bx - ax * bz;
        out[io + 2] += ax * by - ay * bx;
    }
}
