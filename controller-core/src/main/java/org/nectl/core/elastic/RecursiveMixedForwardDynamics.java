package org.nectl.core.elastic;

import java.util.Arrays;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CholeskySolver;
import org.nectl.core.dynamics.RecursiveForwardDynamics;

/**
 * Forward dynamics of a robot with elastic joints in O(n) (Khalil, "Dynamic modeling of robots
 * using recursive Newton-Euler techniques", ICINCO 2010, §6.2, after Khalil and Gautier 2000): the
 * recursive direct dynamic model of rigid trees (§3.3.2, {@link RecursiveForwardDynamics}) run on
 * the unified bodies ({@link UnifiedBodies}) with the spring torque as the torque of every elastic
 * joint (eq. 69, here +sigma on the link and -sigma on its rotor) and each elastic joint's rotor
 * as a body of its own with coordinate phi = eta theta.
 *
 * <p>A rigid joint's rotor on a moving link (Hua, Poursina, Sanfilippo, "Dynamic Modelling of Mixed
 * Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler Formulation", eqs. 9, 21-27:
 * its reflected inertia and gyroscopic torque on the carrying link, its inertia torque on the joint)
 * turns with its joint, so its tree coordinate is tied, phi_r = eta_r q_k. Three cases, all exact:
 * <ul>
 * <li>no tied rotor (rigid joints' motors on the base: Khalil's rotor inertia Ia): the rigid
 *   recursion {@link RecursiveForwardDynamics} on the unified bodies, O(n);</li>
 * <li>every tied rotor on its joint's link or that link's parent (the usual mounts; the paper's
 *   3-DoF arm): the rotor and the joint's subtree are reduced together as two bodies moved by one
 *   coordinate, in Khalil's three passes with every coordinate free
 *   ({@link ElasticJointInverseDynamics}), O(n);</li>
 * <li>otherwise (a rotor further inboard, e.g. driving through a belt): m tied rotors are m
 *   constraints G ydd = 0, G_i = e_r - eta_r e_k. The recursion runs free, ydd0 = M^-1 (tau - h),
 *   and once per tied rotor on the unit constraint torque, w_i = M^-1 G_i^T (zero velocity,
 *   gravity, friction and loads); (G W) lambda = -G ydd0 gives the constraint torques and ydd =
 *   ydd0 + W lambda (Lagrange multipliers on a tree): (1 + m) recursions and an m x m solve.</li>
 * </ul>
 * Inputs and outputs are those of {@link MixedForwardDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class RecursiveMixedForwardDynamics
{
    private final UnifiedBodies bodies;
    private final RecursiveForwardDynamics articulated;
    /** Gravity and the wrenches on the links, passed to the rigid recursion each call. */
    private final AppliedLoads loads;
    /** No gravity, no wrench: for the unit-torque responses. */
    private final AppliedLoads noGravity;
    /** The three passes with tied rotors folded into their joints, or null. */
    private final ElasticJointInverseDynamics folded;
    /** The same recursion without velocity terms, gravity, friction or loads: y_dd = M^-1 tau. */
    private final RecursiveForwardDynamics inverseInertia;
    private final CholeskySolver constraintSolver;
    private final int[] coupledRotor;
    private final int[] coupledJoint;
    /** w_i = M^-1 G_i^T, tree dof per tied rotor. */
    private final double[][] response;
    private final double[] zero;
    private final double[] unitTorque;
    private final SpringTorques springs;
    private final int[] coordinateOfElastic;
    private final int[] rotorOfElastic;
    private final double[] spring;
    private final double[] y;
    private final double[] yd;
    private final double[] treeTorque;
    private final double[] ydd;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public RecursiveMixedForwardDynamics(final UnifiedBodies bodies)
    {
        final ElasticRobotModel model = bodies.robot;
        this.bodies = bodies;
        articulated = new RecursiveForwardDynamics(bodies.compiledTree);
        loads = new AppliedLoads(bodies.compiledTree);
        noGravity = new AppliedLoads(bodies.compiledTree).gravity(0.0, 0.0, 0.0);
        final boolean fold = bodies.coupledRotors.length > 0 && ElasticJointInverseDynamics.foldsEveryTiedRotor(bodies);
        folded = fold ? ElasticJointInverseDynamics.directDynamics(bodies) : null;
        inverseInertia = new RecursiveForwardDynamics(bodies.compiledTree);
        inverseInertia.jointFriction(false);
        final int m = fold ? 0 : bodies.coupledRotors.length;
        constraintSolver = m > 0 ? new CholeskySolver(m) : null;
        coupledRotor = Arrays.copyOf(bodies.coupledRotors, m);
        coupledJoint = new int[m];
        for (int i = 0; i < m; i++)
        {
            coupledJoint[i] = bodies.source[coupledRotor[i]];
        }
        response = new double[m][bodies.treeDof()];
        zero = new double[bodies.treeDof()];
        unitTorque = new double[bodies.treeDof()];
        springs = new SpringTorques(model);
        final int ne = model.elasticCount();
        coordinateOfElastic = new int[ne];
        rotorOfElastic = new int[ne];
        for (int t = 0; t < bodies.treeDof(); t++)
        {
            final int x = bodies.source[t];
            if (x >= bodies.dof)
            {
                rotorOfElastic[x - bodies.dof] = t;
            }
        }
        for (int e = 0; e < ne; e++)
        {
            coordinateOfElastic[e] = model.coordinateOfElastic(e);
        }
        spring = new double[ne];
        final int t = bodies.treeDof();
        y = new double[t];
        yd = new double[t];
        treeTorque = new double[t];
        ydd = new double[t];
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
        loads.gravity(gx, gy, gz);
        if (folded != null)
        {
            folded.gravity(gx, gy, gz);
        }
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
        loads.bodyWrench(body, fx, fy, fz, mx, my, mz);
        if (folded != null)
        {
            folded.externalWrench(body, fx, fy, fz, mx, my, mz);
        }
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        loads.clear();
        if (folded != null)
        {
            folded.clearExternalWrenches();
        }
    }

    /**
     * Switches link-side and motor-side friction on or off (default on). Real-time safe.
     *
     * @param enabled true to subtract friction from the applied torques.
     */
    public void friction(final boolean enabled)
    {
        articulated.jointFriction(enabled);
        if (folded != null)
        {
            folded.friction(enabled);
        }
    }

    /**
     * Computes the link and motor accelerations. Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index (reflected), rad or m.
     * @param qd link velocities.
     * @param thetad motor velocities.
     * @param jointTorque torque applied at each joint besides its spring, N m or N.
     * @param motorTorque motor torque of each elastic joint, N m or N.
     * @param qdd output link accelerations.
     * @param thetadd output motor accelerations.
     * @return true on success; false if some articulated inertia H_j, or the tied rotors' G M^-1 G^T,
     *     is not positive definite.
     */
    public boolean compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] jointTorque, final double[] motorTorque, final double[] qdd, final double[] thetadd)
    {
        return compute(q, theta, qd, thetad, jointTorque, motorTorque, null, qdd, thetadd);
    }

    /**
     * Computes the link and motor accelerations relative to a carried (moving) base: the base's
     * measured motion is the root's motion of the recursion and its specific force replaces gravity
     * (Khalil 2010, §7.1). The tied rotors' unit responses are those of a fixed base: M^-1 does not
     * depend on the base's motion. Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index (reflected), rad or m.
     * @param qd link velocities relative to the base.
     * @param thetad motor velocities.
     * @param jointTorque torque applied at each joint besides its spring, N m or N.
     * @param motorTorque motor torque of each elastic joint, N m or N.
     * @param base the base's motion, base coordinates; null for a fixed base under the set gravity.
     * @param qdd output link accelerations relative to the base.
     * @param thetadd output motor accelerations.
     * @return true on success; false if some articulated inertia H_j, or the tied rotors' G M^-1 G^T,
     *     is not positive definite.
     */
    public boolean compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] jointTorque, final double[] motorTorque, final BaseMotion base, final double[] qdd,
        final double[] thetadd)
    {
        if (folded != null)
        {
            return folded.forward(q, theta, qd, thetad, jointTorque, motorTorque, base, qdd, thetadd);
        }
        bodies.toTree(q, theta, y);
        bodies.toTree(qd, thetad, yd);
        springs.compute(q, theta, qd, thetad, spring);
        System.arraycopy(jointTorque, 0, treeTorque, 0, bodies.dof);
        // (69): a passive joint's spring is its torque
        springs.addPassive(q, qd, treeTorque);
        for (int e = 0; e < spring.length; e++)
        {
            final int r = rotorOfElastic[e];
            // (69): the spring is the elastic joint's torque; on phi = eta theta the motor side is divided by eta
            treeTorque[coordinateOfElastic[e]] += spring[e];
            treeTorque[r] = (motorTorque[e] - spring[e]) / bodies.scale[r];
        }
        final boolean solvable = articulated.compute(y, yd, treeTorque, loads, base, ydd) && enforceTiedRotors();
        System.arraycopy(ydd, 0, qdd, 0, bodies.dof);
        for (int e = 0; e < spring.length; e++)
        {
            final int r = rotorOfElastic[e];
            thetadd[e] = ydd[r] / bodies.scale[r];
        }
        return solvable;
    }

    /** ydd += W lambda with (G W) lambda = -G ydd: the tied rotors turn at eta q_dd (Hua et al. eq. 9). */
    private boolean enforceTiedRotors()
    {
        final int m = coupledRotor.length;
        if (m == 0)
        {
            return true;
        }
        boolean solvable = true;
        for (int i = 0; i < m; i++)
        {
            unitTorque[coupledRotor[i]] = 1.0;
            unitTorque[coupledJoint[i]] = -bodies.scale[coupledRotor[i]];
            solvable &= inverseInertia.compute(y, zero, unitTorque, noGravity, response[i]);
            unitTorque[coupledRotor[i]] = 0.0;
            unitTorque[coupledJoint[i]] = 0.0;
        }
        final double[] g = constraintSolver.matrix();
        final double[] rhs = constraintSolver.rhs();
        for (int i = 0; i < m; i++)
        {
            for (int j = 0; j < m; j++)
            {
                g[i * m + j] = constrained(i, response[j]);
            }
            rhs[i] = -constrained(i, ydd);
        }
        if (!solvable || !constraintSolver.solve())
        {
            return false;
        }
        final double[] lambda = constraintSolver.solution();
        for (int j = 0; j < m; j++)
        {
            for (int t = 0; t < ydd.length; t++)
            {
                ydd[t] += response[j][t] * lambda[j];
            }
        }
        return true;
    }

    /** G_i v = v_r - eta_r v_k for tied rotor i. */
    private double constrained(final int i, final double[] v)
    {
        return v[coupledRotor[i]] - bodies.scale[coupledRotor[i]] * v[coupledJoint[i]];
    }
}
