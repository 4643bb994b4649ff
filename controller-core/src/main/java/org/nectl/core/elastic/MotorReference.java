package org.nectl.core.elastic;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.InverseDynamics;
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
 * <p><b>Carried base</b> ({@link #compute(double[][], BaseMotion, double[], double[], double[])}): tau
 * is the torque on the moving base, tau = tau_f + tau_r. tau_f is the analytic part above with the
 * base's specific force f in place of gravity (gravity -f), so a base in pure translation is exactly
 * a fixed base under gravity g - a. tau_r = RNEA(omega_0, omegaDot_0, f) - RNEA(0, 0, f) is the share
 * of the base's rotation, at the reference, and of f's change: tau_f's derivatives take f constant.
 * The IMU block gives no jerk. With {@link BaseMotionRates} estimated from the received blocks, the
 * base moves over the derivative terms with its angular jerk and f' and f'' as estimated:
 * omega(t) = omega_0 + t omegaDot_0 + t^2/2 omegaDotDot_0, f(t) = f + t f' + t^2/2 f''. Without
 * (null, or fewer than two blocks taken) its acceleration is taken <b>constant</b>: omegaDot_0
 * constant in the base frame, the world acceleration a_0 constant, so that f = 0R_w (a_0 - g) turns
 * with the base, f' = -omega_0 x f and f'' = -omegaDot_0 x f + omega_0 x (omega_0 x f). tau_r's two
 * derivatives are central differences along that motion and the reference's Taylor expansion, at
 * +-{@value #BASE_STEP_S} s (model evaluations): O(h^2), 6e-8 relative on random robots and
 * references, with a round-off of about 1e-16 |tau| / h^2 = 1e-8 |tau| on tau-ddot.
 * docs/VALIDATION.md gives the measured errors of both treatments on a ship's deck.
 *
 * <p>Requires undamped springs: with a damper, theta_d would follow from a differential equation.
 * Not thread safe: one instance per thread. {@link #compute} is real-time safe.
 */
public final class MotorReference
{
    private static final int DERIVATIVES = 5;
    /** Time step h of the central differences of the base's share tau_r, s. */
    static final double BASE_STEP_S = 1e-4;
    private static final double[] FACTORIAL = {1.0, 1.0, 2.0, 6.0, 24.0};

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
    /** No wrench; gravity -f of the call's base, for tau_f and the fixed-base share of tau_r. */
    private final AppliedLoads baseLoads;
    private final InverseDynamics rnea;
    /** The base's motion at t - h, t, t + h, along its estimated or constant-acceleration motion. */
    private final BaseMotion shiftedBase = new BaseMotion();
    /** Tree coordinates, rates and accelerations along the reference at t - h, t, t + h. */
    private final double[][] shiftedTree;
    /** tau_r at t - h, t, t + h on the tree coordinates. */
    private final double[][] baseShare;
    private final double[] fixedShare;
    private final double[] fDot = new double[3];
    private final double[] angularJerk = new double[3];
    private final double[] fDdot = new double[3];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     * @throws IllegalArgumentException if an elastic joint has a damper.
     */
    public MotorReference(final UnifiedBodies bodies)
    {
        final ElasticRobotModel model = bodies.robot;
        this.bodies = bodies;
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
        baseLoads = new AppliedLoads(bodies.compiledTree);
        rnea = new InverseDynamics(bodies.compiledTree);
        rnea.jointFriction(false);
        shiftedTree = new double[3][treeDof];
        baseShare = new double[3][treeDof];
        fixedShare = new double[treeDof];
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
        compute(reference, null, null, theta, thetaDot, thetaDdot);
    }

    /**
     * As {@link #compute(double[][], BaseMotion, BaseMotionRates, double[], double[], double[])} with
     * the base's acceleration constant over the derivative terms. Real-time safe.
     *
     * @param reference q_d and its derivatives up to the 4th, relative to the base.
     * @param base the base's measured motion; null for a fixed base under the set gravity.
     * @param theta output theta_d by elastic index, rad or m (reflected).
     * @param thetaDot output its first derivative.
     * @param thetaDdot output its second derivative.
     */
    public void compute(final double[][] reference, final BaseMotion base, final double[] theta,
        final double[] thetaDot, final double[] thetaDdot)
    {
        compute(reference, base, null, theta, thetaDot, thetaDdot);
    }

    /**
     * Computes the motor reference of every elastic joint on a carried (moving) base (class comment,
     * "Carried base"). Real-time safe: allocates nothing.
     *
     * @param reference q_d and its derivatives up to the 4th, relative to the base.
     * @param base the base's measured motion; null for a fixed base under the set gravity.
     * @param rates the base's estimated rates; null (or not yet {@link BaseMotionRates#estimated}) for a
     *     base of constant acceleration.
     * @param theta output theta_d by elastic index, rad or m (reflected).
     * @param thetaDot output its first derivative.
     * @param thetaDdot output its second derivative.
     */
    public void compute(final double[][] reference, final BaseMotion base, final BaseMotionRates rates,
        final double[] theta, final double[] thetaDot, final double[] thetaDdot)
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
        if (base == null)
        {
            torques.compute(tree[0], tree[1], tree[2], tree[3], tree[4], loads, tau, tauDot, tauDdot);
        }
        else
        {
            baseLoads.gravity(-base.specificForce(0), -base.specificForce(1), -base.specificForce(2));
            torques.compute(tree[0], tree[1], tree[2], tree[3], tree[4], baseLoads, tau, tauDot, tauDdot);
            if (rates != null && rates.estimated())
            {
                estimatedBaseRates(rates);
            }
            else
            {
                constantAccelerationRates(base);
            }
            addBaseShare(base);
        }
        for (int e = 0; e < stiffness.length; e++)
        {
            final int k = coordinateOfElastic[e];
            theta[e] = reference[0][k] + tau[k] / stiffness[e];
            thetaDot[e] = reference[1][k] + tauDot[k] / stiffness[e];
            thetaDdot[e] = reference[2][k] + tauDdot[k] / stiffness[e];
        }
    }

    /** omegaDotDot_0, f' and f'' as estimated. */
    private void estimatedBaseRates(final BaseMotionRates rates)
    {
        for (int k = 0; k < 3; k++)
        {
            angularJerk[k] = rates.angularJerk(k);
            fDot[k] = rates.forceRate(k);
            fDdot[k] = rates.forceSecondRate(k);
        }
    }

    /** No angular jerk; f' and f'' of a constant world acceleration seen from the turning base. */
    private void constantAccelerationRates(final BaseMotion base)
    {
        for (int k = 0; k < 3; k++)
        {
            final int k1 = (k + 1) % 3;
            final int k2 = (k + 2) % 3;
            final double w1 = base.angularVelocity(k1);
            final double w2 = base.angularVelocity(k2);
            final double f1 = base.specificForce(k1);
            final double f2 = base.specificForce(k2);
            // f' = -omega x f
            fDot[k] = -(w1 * f2 - w2 * f1);
        }
        for (int k = 0; k < 3; k++)
        {
            final int k1 = (k + 1) % 3;
            final int k2 = (k + 2) % 3;
            // f'' = -omegaDot x f - omega x f'
            fDdot[k] = -(base.angularAcceleration(k1) * base.specificForce(k2)
                - base.angularAcceleration(k2) * base.specificForce(k1))
                - (base.angularVelocity(k1) * fDot[k2] - base.angularVelocity(k2) * fDot[k1]);
            angularJerk[k] = 0.0;
        }
    }

    /** tau += tau_r, tau-dot and tau-ddot += its central differences at +-h (class comment). */
    private void addBaseShare(final BaseMotion base)
    {
        for (int step = 0; step < 3; step++)
        {
            final double t = (step - 1) * BASE_STEP_S;
            shiftedBase.angularVelocity(shifted(base.angularVelocity(0), base.angularAcceleration(0), angularJerk[0], t),
                shifted(base.angularVelocity(1), base.angularAcceleration(1), angularJerk[1], t),
                shifted(base.angularVelocity(2), base.angularAcceleration(2), angularJerk[2], t));
            shiftedBase.angularAcceleration(base.angularAcceleration(0) + t * angularJerk[0],
                base.angularAcceleration(1) + t * angularJerk[1], base.angularAcceleration(2) + t * angularJerk[2]);
            shiftedBase.specificForce(base.specificForce(0) + t * fDot[0] + 0.5 * t * t * fDdot[0],
                base.specificForce(1) + t * fDot[1] + 0.5 * t * t * fDdot[1],
                base.specificForce(2) + t * fDot[2] + 0.5 * t * t * fDdot[2]);
            baseShareAt(t, baseShare[step]);
        }
        final double h = BASE_STEP_S;
        for (int i = 0; i < tau.length; i++)
        {
            final double before = baseShare[0][i];
            final double now = baseShare[1][i];
            final double after = baseShare[2][i];
            tau[i] += now;
            tauDot[i] += (after - before) / (2.0 * h);
            tauDdot[i] += (after - 2.0 * now + before) / (h * h);
        }
    }

    /** @return x + t x' + t^2/2 x'' */
    private static double shifted(final double x, final double rate, final double secondRate, final double t)
    {
        return x + t * rate + 0.5 * t * t * secondRate;
    }

    /**
     * tau_r at reference time t from now: RNEA on the shifted base minus RNEA under gravity -f of now,
     * the tree's coordinates, rates and accelerations by their Taylor series to the 4th derivative.
     */
    private void baseShareAt(final double t, final double[] out)
    {
        final double[] y = shiftedTree[0];
        final double[] yd = shiftedTree[1];
        final double[] ydd = shiftedTree[2];
        for (int i = 0; i < y.length; i++)
        {
            y[i] = taylor(0, i, t);
            yd[i] = taylor(1, i, t);
            ydd[i] = taylor(2, i, t);
        }
        rnea.compute(y, yd, ydd, baseLoads, shiftedBase, out);
        rnea.compute(y, yd, ydd, baseLoads, fixedShare);
        for (int i = 0; i < out.length; i++)
        {
            out[i] -= fixedShare[i];
        }
    }

    /** @return sum over n of t^n / n! times the (from + n)-th derivative of tree coordinate i. */
    private double taylor(final int from, final int i, final double t)
    {
        double sum = 0.0;
        double power = 1.0;
        for (int n = 0; from + n < DERIVATIVES; n++)
        {
            sum += power / FACTORIAL[n] * tree[from + n][i];
            power *= t;
        }
        return sum;
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
