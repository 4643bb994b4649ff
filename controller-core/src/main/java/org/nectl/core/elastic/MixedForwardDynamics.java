package org.nectl.core.elastic;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CholeskySolver;

/**
 * Forward dynamics of a mixed rigid/elastic robot by the inertia-matrix route, DIRDYN (Hua,
 * Poursina, Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using
 * Recursive Newton-Euler Formulation", Algorithm 2, eqs. 30-36): [qdd; theta_dd] = A(q)^-1
 * ([tau_q; tau_m - sigma] - zeta) with A from {@link MixedMassMatrix}, zeta from
 * {@link MixedBiasForces}, sigma from {@link SpringTorques}, and the solve by EJML's Cholesky
 * decomposition in storage preallocated at construction. O((dof + elasticCount)^3); the O(n)
 * recursive route is {@link RecursiveMixedForwardDynamics}.
 *
 * <p>Inputs, reflected through the gearboxes (see {@link Motor}): {@code jointTorque[k]} is the
 * torque applied at joint k besides its spring (the motor torque of a rigid joint; normally 0 at an
 * elastic or passive joint), {@code motorTorque[e]} the motor torque of elastic joint e. Passive
 * joints' springs and dampers are added here. Gravity, external
 * wrench and friction conventions are those of {@link org.nectl.core.dynamics.InverseDynamics}.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MixedForwardDynamics
{
    private final ElasticRobotModel model;
    private final MixedMassMatrix massMatrix;
    private final MixedBiasForces biasForces;
    private final SpringTorques springs;
    private final double[] spring;
    private final CholeskySolver solver;

    /**
     * Not real-time safe: allocates the workspace and the decomposition.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public MixedForwardDynamics(final UnifiedBodies bodies)
    {
        model = bodies.robot;
        massMatrix = new MixedMassMatrix(bodies);
        biasForces = new MixedBiasForces(bodies);
        springs = new SpringTorques(model);
        spring = new double[model.elasticCount()];
        solver = new CholeskySolver(massMatrix.size());
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
        biasForces.gravity(gx, gy, gz);
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
        biasForces.externalWrench(body, fx, fy, fz, mx, my, mz);
    }

    /** Sets every external wrench to zero. Real-time safe. */
    public void clearExternalWrenches()
    {
        biasForces.clearExternalWrenches();
    }

    /**
     * Switches link-side and motor-side friction on or off (default on). Real-time safe.
     *
     * @param enabled true to subtract friction from the applied torques.
     */
    public void friction(final boolean enabled)
    {
        biasForces.friction(enabled);
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
     * @return true on success; false if A(q) is not positive definite, outputs then unchanged.
     */
    public boolean compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] jointTorque, final double[] motorTorque, final double[] qdd, final double[] thetadd)
    {
        return compute(q, theta, qd, thetad, jointTorque, motorTorque, null, qdd, thetadd);
    }

    /**
     * Computes the link and motor accelerations relative to a carried (moving) base: zeta with the
     * base's motion ({@link MixedBiasForces#compute(double[], double[], double[], BaseMotion, double[])}),
     * A(q) unchanged. Real-time safe: allocates nothing.
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
     * @return true on success; false if A(q) is not positive definite, outputs then unchanged.
     */
    public boolean compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[] jointTorque, final double[] motorTorque, final BaseMotion base, final double[] qdd,
        final double[] thetadd)
    {
        final int n = model.dof();
        final int ne = model.elasticCount();
        massMatrix.compute(q, solver.matrix());
        final double[] rhs = solver.rhs();
        biasForces.compute(q, qd, thetad, base, rhs);
        springs.compute(q, theta, qd, thetad, spring);
        for (int k = 0; k < n; k++)
        {
            rhs[k] = jointTorque[k] - rhs[k];
        }
        // Khalil (69): a passive joint's spring is its torque
        springs.addPassive(q, qd, rhs);
        for (int e = 0; e < ne; e++)
        {
            // tau_q of eq. (30): the spring drives the link, its reaction the motor
            rhs[model.coordinateOfElastic(e)] += spring[e];
            rhs[n + e] = motorTorque[e] - spring[e] - rhs[n + e];
        }
        // (36)
        if (!solver.solve())
        {
            return false;
        }
        System.arraycopy(solver.solution(), 0, qdd, 0, n);
        System.arraycopy(solver.solution(), n, thetadd, 0, ne);
        return true;
    }
}
