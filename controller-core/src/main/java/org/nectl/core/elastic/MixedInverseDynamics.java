package org.nectl.core.elastic;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.InverseDynamics;

/**
 * Inverse dynamics of a robot with mixed rigid and elastic joints and motors on any link, ReNEAL
 * (Hua, Poursina, Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator
 * Using Recursive Newton-Euler Formulation", Algorithm 1, eqs. 2-29): given link and motor
 * positions, velocities and accelerations, the torque every joint must transmit and every elastic
 * joint's motor torque. The recursion runs over the unified rigid bodies written as a rigid tree
 * ({@link UnifiedBodies}: forward pass eqs. 4-9, 16-17; backward pass eqs. 19, 25 with the rotors'
 * wrenches summed into their mount links), then the projection on the joints (eqs. 27-29).
 *
 * <p>Outputs, all reflected through the gearboxes (see {@link Motor}):
 * <ul>
 * <li>{@code jointTorque[k]}: for a rigid joint, the motor torque (eq. 27, including rotor inertia
 *   and friction); for an elastic or a passive joint, the torque its spring and damper must transmit
 *   to the link, (tau_b,i)^T z_i of eq. (28), including link-side friction;</li>
 * <li>{@code motorTorque[e]}: the motor torque of elastic joint e: the spring and damper torque
 *   at the given state plus the rotor's inertia and friction (eq. 29).</li>
 * </ul>
 * The motion is consistent (the plant follows it under these motor torques) when, for every elastic
 * or passive joint, {@link SpringTorques} at the state equals {@code jointTorque}. jointTorque does not depend
 * on theta, so a controller can compute it, solve eq. (28) for theta, and call again for the motor
 * torques. Gravity, external wrenches and friction follow {@link InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MixedInverseDynamics
{
    private final UnifiedBodies bodies;
    private final InverseDynamics newtonEuler;
    /** Gravity and the wrenches on the links, passed to the rigid algorithm each call. */
    private final AppliedLoads loads;
    private final SpringTorques springs;
    private final double[] y;
    private final double[] yd;
    private final double[] ydd;
    private final double[] treeTorque;
    private final double[] spring;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public MixedInverseDynamics(final UnifiedBodies bodies)
    {
        final ElasticRobotModel model = bodies.robot;
        this.bodies = bodies;
        newtonEuler = new InverseDynamics(bodies.compiledTree);
        loads = new AppliedLoads(bodies.compiledTree);
        springs = new SpringTorques(model);
        final int t = bodies.treeDof();
        y = new double[t];
        yd = new double[t];
        ydd = new double[t];
        treeTorque = new double[t];
        spring = new double[model.elasticCount()];
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
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        loads.clear();
    }

    /**
     * Switches link-side and motor-side Coulomb and viscous friction on or off (default on).
     * Real-time safe.
     *
     * @param enabled true to include friction.
     */
    public void friction(final boolean enabled)
    {
        newtonEuler.jointFriction(enabled);
    }

    /**
     * Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index (reflected), rad or m.
     * @param qd link velocities.
     * @param thetad motor velocities.
     * @param qdd link accelerations.
     * @param thetadd motor accelerations.
     * @param jointTorque output by coordinate, N m or N (see the class comment).
     * @param motorTorque output by elastic index, N m or N (see the class comment).
     */
    public void compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] qdd, final double[] thetadd, final double[] jointTorque, final double[] motorTorque)
    {
        compute(q, theta, qd, thetad, qdd, thetadd, null, jointTorque, motorTorque);
    }

    /**
     * On a carried (moving) base: the base's measured motion is the root's motion of the forward pass
     * and its specific force replaces gravity (Khalil 2010, §7.1, {@link InverseDynamics#compute(double[],
     * double[], double[], AppliedLoads, BaseMotion, double[])}). Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param theta motor positions by elastic index (reflected), rad or m.
     * @param qd link velocities relative to the base.
     * @param thetad motor velocities.
     * @param qdd link accelerations relative to the base.
     * @param thetadd motor accelerations.
     * @param base the base's motion, base coordinates; null for a fixed base under the set gravity.
     * @param jointTorque output by coordinate, N m or N (see the class comment).
     * @param motorTorque output by elastic index, N m or N (see the class comment).
     */
    public void compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] qdd, final double[] thetadd, final BaseMotion base, final double[] jointTorque,
        final double[] motorTorque)
    {
        // (6), (9): rotor angles, rates and accelerations relative to their mounts
        bodies.toTree(q, theta, y);
        bodies.toTree(qd, thetad, yd);
        bodies.toTree(qdd, thetadd, ydd);
        // (4)-(9), (16)-(17) forward; (19), (25) backward
        newtonEuler.compute(y, yd, ydd, loads, base, treeTorque);
        // (27), and (28)-(29) without the spring: virtual work of the gear map
        bodies.fromTree(treeTorque, jointTorque, motorTorque);
        springs.compute(q, theta, qd, thetad, spring);
        for (int e = 0; e < spring.length; e++)
        {
            // (29)
            motorTorque[e] += spring[e];
        }
    }
}
