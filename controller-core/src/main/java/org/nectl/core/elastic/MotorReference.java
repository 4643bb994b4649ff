package org.nectl.core.elastic;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.TorqueSecondDerivative;

/**
 * The motor motion that makes a mixed rigid/elastic robot follow a link reference: for elastic joint
 * e on coordinate k, the spring must transmit the link-side torque tau_k the reference demands, so
 * theta_d = q_d + tau_k / K_e (Hua, Poursina, Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible
 * Joint Robotic Manipulator Using Recursive Newton-Euler Formulation", eq. 43 evaluated along the
 * reference), and its first and second derivatives are q_d^(n) + tau_k^(n) / K_e with tau, tau-dot and
 * tau-ddot from {@link TorqueSecondDerivative} on the unified bodies ({@link UnifiedBodies}) along
 * (q_d, qd_d, qdd_d, qddd_d, qdddd_d): analytic, not differenced.
 *
 * <p>The rotors ride on the tree with phi = gearRatio * q_d, i.e. an elastic joint's rotor is given
 * the link motion instead of its own (theta_d - q_d = tau / K is not yet known where the rotor's
 * inertia enters). tau_k depends only on the bodies outboard of joint k, so this is exact unless an
 * elastic joint's rotor is mounted outboard of an elastic joint; otherwise the error is that rotor's
 * inertia times (theta_d - q_d)'s derivatives.
 *
 * <p>{@link Form#CONTROL_LAW} selects eq. 43 as printed for the position: theta_d = q + tau_qc / K
 * with the measured q and the load law's torque tau_qc (eq. 39), which the controller supplies to
 * {@link #fromControlLaw}; its derivatives stay those along the reference, since eq. 43 has none
 * without differentiating measured signals twice. On the reference (zero tracking error) both forms
 * give the same theta_d; docs/CONTROL.md gives the measured difference off it.
 *
 * <p>Requires undamped springs: with a damper, theta_d would follow from a differential equation.
 * Not thread safe: one instance per thread. {@link #compute} is real-time safe.
 */
public final class MotorReference
{
    private static final int DERIVATIVES = 5;

    /** Where the motor reference position theta_d comes from. */
    public enum Form
    {
        /** theta_d = q_d + tau / K, tau the torque the reference demands: eq. 43 along the reference. */
        ALONG_REFERENCE,
        /** theta_d = q + tau_qc / K with the measured q and the load law's torque: eq. 43 as printed. */
        CONTROL_LAW
    }

    private final UnifiedBodies bodies;
    private final TorqueSecondDerivative torques;
    /** Gravity for {@link #torques}; no wrench. */
    private final AppliedLoads loads;
    private final int[] coordinateOfElastic;
    private final double[] stiffness;
    /** Tree coordinates and their derivatives up to the 4th along the reference. */
    private final double[][] tree;
    private final double[] tau;
    private final double[] tauDot;
    private final double[] tauDdot;

    /**
     * Not real-time safe: builds the unified bodies and the workspace.
     *
     * @param model the robot.
     * @throws IllegalArgumentException if an elastic joint has a damper.
     */
    public MotorReference(final ElasticRobotModel model)
    {
        bodies = new UnifiedBodies(model);
        torques = new TorqueSecondDerivative(bodies.compiledTree);
        loads = new AppliedLoads(bodies.compiledTree);
        final int ne = model.elasticCount();
        coordinateOfElastic = new int[ne];
        stiffness = new double[ne];
        for (int e = 0; e < ne; e++)
        {
            final int k = model.coordinateOfElastic(e);
            coordinateOfElastic[e] = k;
            stiffness[e] = model.elasticity(k).stiffness();
            if (model.elasticity(k).damping() != 0.0)
            {
                throw new IllegalArgumentException("joint '" + model.links().coordinateName(k) + "': damping "
                    + model.elasticity(k).damping() + " must be 0 (the motor reference assumes an undamped spring)");
            }
        }
        final int treeDof = bodies.tree.dof();
        tree = new double[DERIVATIVES][treeDof];
        tau = new double[treeDof];
        tauDot = new double[treeDof];
        tauDdot = new double[treeDof];
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
     * Computes the motor reference of every elastic joint. Real-time safe: allocates nothing.
     *
     * @param reference q_d and its derivatives up to the 4th: reference[n][k] = d^n q_d,k / dt^n.
     * @param theta output theta_d by elastic index, rad or m (reflected).
     * @param thetaDot output its first derivative.
     * @param thetaDdot output its second derivative.
     */
    public void compute(final double[][] reference, final double[] theta, final double[] thetaDot,
        final double[] thetaDdot)
    {
        for (int n = 0; n < DERIVATIVES; n++)
        {
            final double[] x = reference[n];
            final double[] y = tree[n];
            for (int i = 0; i < y.length; i++)
            {
                final int source = bodies.source[i];
                final int k = source < bodies.dof ? source : coordinateOfElastic[source - bodies.dof];
                y[i] = bodies.scale[i] * x[k];
            }
        }
        torques.compute(tree[0], tree[1], tree[2], tree[3], tree[4], loads, tau, tauDot, tauDdot);
        for (int e = 0; e < stiffness.length; e++)
        {
            final int k = coordinateOfElastic[e];
            theta[e] = reference[0][k] + tau[k] / stiffness[e];
            thetaDot[e] = reference[1][k] + tauDot[k] / stiffness[e];
            thetaDdot[e] = reference[2][k] + tauDdot[k] / stiffness[e];
        }
    }

    /**
     * Eq. 43 as printed: theta_d = q + tau_qc / K for every elastic joint. Real-time safe.
     *
     * @param q measured link positions by coordinate, rad or m.
     * @param loadLawTorque tau_qc of eq. 39 by coordinate, N m or N (elastic joints' entries read).
     * @param theta output theta_d by elastic index, rad or m (reflected).
     */
    public void fromControlLaw(final double[] q, final double[] loadLawTorque, final double[] theta)
    {
        for (int e = 0; e < stiffness.length; e++)
        {
            final int k = coordinateOfElastic[e];
            // (43)
            theta[e] = q[k] + loadLawTorque[k] / stiffness[e];
        }
    }
}
