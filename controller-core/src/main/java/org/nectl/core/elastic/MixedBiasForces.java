package org.nectl.core.elastic;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.BiasForces;

/**
 * The bias forces zeta of a mixed rigid/elastic robot without its springs (Hua, Poursina,
 * Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation", eqs. 30-33): on the links C(q, qd) qd + C1(q, qd) theta_dot + G(q) -
 * tau_ex + link friction, on the motors C2(q, qd) qd + motor friction, so that
 * A(q) [qdd; theta_dd] + zeta = [tau_q; tau_m - sigma] with tau_q the joints' motor torques (rigid)
 * or spring torques sigma (elastic, {@link SpringTorques}). Computed as P^T h_tree over the unified
 * bodies ({@link UnifiedBodies}) with {@link BiasForces}, i.e. ReNEAL with zero accelerations
 * (Algorithm 2, "calculate zeta"). Gravity, external wrench and friction conventions are those of
 * {@link org.nectl.core.dynamics.InverseDynamics}.
 *
 * <p>Layout: dof + elasticCount entries, q_0..q_{dof-1} then theta_0..theta_{elasticCount-1}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MixedBiasForces
{
    private final UnifiedBodies bodies;
    private final BiasForces newtonEuler;
    /** Gravity and the wrenches on the links, passed to the rigid algorithm each call. */
    private final AppliedLoads loads;
    private final double[] y;
    private final double[] yd;
    private final double[] treeBias;
    private final double[] linkBias;
    private final double[] motorBias;
    private final double[] zeroMotorAngle;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public MixedBiasForces(final UnifiedBodies bodies)
    {
        this.bodies = bodies;
        newtonEuler = new BiasForces(bodies.compiledTree);
        loads = new AppliedLoads(bodies.compiledTree);
        final int t = bodies.treeDof();
        y = new double[t];
        yd = new double[t];
        treeBias = new double[t];
        linkBias = new double[bodies.dof];
        motorBias = new double[bodies.elasticCount];
        zeroMotorAngle = new double[bodies.elasticCount];
    }

    /** @return dof + elasticCount, the length of zeta. */
    public int size()
    {
        return bodies.dof + bodies.elasticCount;
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
     * Switches link-side and motor-side friction on or off (default on). Real-time safe.
     *
     * @param enabled true to include friction in zeta.
     */
    public void friction(final boolean enabled)
    {
        newtonEuler.jointFriction(enabled);
    }

    /**
     * Computes zeta. Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param qd link velocities.
     * @param thetad motor velocities by elastic index (reflected).
     * @param bias output zeta, size() entries (see the class comment), N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] thetad, final double[] bias)
    {
        compute(q, qd, thetad, null, bias);
    }

    /**
     * Computes zeta on a carried (moving) base: the base's measured motion is the root's motion and
     * its specific force replaces gravity ({@link BiasForces#compute(double[], double[], AppliedLoads,
     * BaseMotion, double[])}); A(q) is unchanged. Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param qd link velocities relative to the base.
     * @param thetad motor velocities by elastic index (reflected).
     * @param base the base's motion, base coordinates; null for a fixed base under the set gravity.
     * @param bias output zeta, size() entries (see the class comment), N m or N.
     */
    public void compute(final double[] q, final double[] qd, final double[] thetad, final BaseMotion base,
        final double[] bias)
    {
        // Rotor angles do not enter (axisymmetric rotors): positions with theta = 0.
        bodies.toTree(q, zeroMotorAngle, y);
        bodies.toTree(qd, thetad, yd);
        newtonEuler.compute(y, yd, loads, base, treeBias);
        // (32)-(33)
        bodies.fromTree(treeBias, linkBias, motorBias);
        System.arraycopy(linkBias, 0, bias, 0, bodies.dof);
        System.arraycopy(motorBias, 0, bias, bodies.dof, bodies.elasticCount);
    }
}
