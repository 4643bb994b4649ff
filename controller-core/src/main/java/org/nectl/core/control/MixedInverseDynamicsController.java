package org.nectl.core.control;

import java.util.Arrays;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.BaseMotionRates;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MixedBiasForces;
import org.nectl.core.elastic.MixedMassMatrix;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.elastic.SpringTorques;
import org.nectl.core.elastic.UnifiedBodies;

/**
 * The inverse-dynamics controller of a robot with mixed rigid and elastic joints (Hua, Poursina,
 * Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation", eqs. 37-52), on the model x = (q, theta), A(q) xdd + zeta = u of eq. 30:
 * <ul>
 * <li>load side (37)-(39): qd_r = qd_d + Lambda_q e_q, sigma_q = qd_r - qd, and for rigid joints the
 *   torque tau_qc = M qdd_r + S theta_dd + C qd_r + C1 theta' + G + K_Dq sigma_q;</li>
 * <li>motor side (44)-(49): theta_r' = theta_d' + Lambda_theta e_theta + sigma_qe, sigma_theta =
 *   theta_r' - theta', and for elastic joints tau_me = S^T qdd + B theta_r'' + C2 qd + K (theta_d - q_e)
 *   + K_Dtheta sigma_theta.</li>
 * </ul>
 * The motor reference theta_d and its two derivatives come from {@link MotorReference}: inverse
 * dynamics, its derivative and second derivative along the link reference (eq. 43 along the
 * reference), analytic; or, selected by {@link #motorReferenceForm}, theta_d from eq. 43 as printed
 * (measured q, load-law torque tau_qc of (39) with theta_dd taken as theta_d'').
 *
 * <p>C is taken in Christoffel form, so that the link block of A' - 2C is skew as the stability
 * argument (41)-(42) needs: C(x') v is the symmetric bilinear form of the bias forces' velocity
 * terms, evaluated by polarisation h(x' + v) - h(x' - v) = 4 C(x') v.
 *
 * <p>Eqs. (39) and (49) contain the accelerations the torques themselves cause (theta_dd in the load
 * law, qdd in the motor law and in sigma_qe'). They are obtained by solving the model's closed loop:
 * (30) with (39) and (49) substituted is linear in xdd, rigid rows M (qdd - qdd_r) = C(x') (sigma_q, 0)
 * + K_Dq sigma_q, elastic rows A xdd = spring - zeta, motor rows B (theta_dd - theta_r'') = K e_theta +
 * K_Dtheta sigma_theta. The torques are then the model's inverse dynamics at that xdd, which is (39)
 * and (49) evaluated exactly. Finally {@link TorqueLimiter} saturates torque and torque rate, counting
 * and flagging every clip.
 *
 * <p><b>Carried base</b> ({@link #compute(double[], double[], double[], double[], double[][], BaseMotion,
 * double[])}): the base's measured motion is the root's motion of the bias forces zeta (its specific
 * force replacing gravity; Khalil 2010, §7.1) and of the motor reference ({@link MotorReference}, with
 * its derivative treatment), so every torque above, rigid joints' and motors', includes the base's
 * terms; A(q) does not depend on the base. The closed loop's C(x') (sigma_q, 0) stays the fixed-base
 * Christoffel term: the base's terms are all in zeta at the measured velocities, so the closed-loop
 * error equations are those of a fixed base.
 *
 * <p>Commands are per joint coordinate k: a rigid joint's motor torque, or an elastic joint's motor
 * torque, reflected (see {@link org.nectl.core.elastic.Motor}). Not thread safe: one instance per
 * control thread; {@link #compute} is real-time safe.
 */
public final class MixedInverseDynamicsController
{
    private final ElasticRobotModel model;
    private final int dof;
    private final int elastic;
    private final int size;
    private final MixedMassMatrix massMatrix;
    private final MixedBiasForces bias;
    private final MixedBiasForces velocityTerms;
    private final SpringTorques springs;
    private final MotorReference motorReference;
    private final TorqueLimiter limiter;
    private final double[] lambdaQ;
    private final double[] kdQ;
    private final double[] lambdaTheta;
    private final double[] kdTheta;
    private final double[] stiffness;
    private final double[] inertia;
    private final double[] zeta;
    private final double[] coriolis;
    private final double[] scratch;
    private final double[] velocityPlus;
    private final double[] velocityMinus;
    private final double[] spring;
    private final double[] closedLoop;
    private final double[] rhs;
    private final double[] xdd;
    private final double[] qddR;
    private final double[] sigmaQ;
    private final double[] errorQ;
    private final double[] thetaD;
    private final double[] thetaDotD;
    private final double[] thetaDdotD;
    private final double[] errorTheta;
    private final double[] errorThetaRate;
    private final double[] sigmaTheta;
    private final double[] commandNm;
    private final double[] loadLawTorque;
    private MotorReference.Form motorReferenceForm = MotorReference.Form.ALONG_REFERENCE;
    private long limitFlags;

    /**
     * Not real-time safe: allocates the workspaces.
     *
     * @param bodies the unified bodies of the robot (the controller's model of it), shared by the
     *     law's mass matrix, bias forces and motor reference; elastic joints without dampers, no
     *     passive joints.
     * @param kpQ K_Pq per link coordinate, N m/rad (N/m), &gt; 0.
     * @param kdQ K_Dq per link coordinate, N m s/rad (N s/m), &gt; 0.
     * @param kpTheta K_Ptheta per elastic joint (elastic index), N m/rad, &gt; 0.
     * @param kdTheta K_Dtheta per elastic joint, N m s/rad, &gt; 0.
     * @param limiter torque and torque-rate limits per joint coordinate.
     * @throws IllegalArgumentException naming the gain or size at fault.
     */
    public MixedInverseDynamicsController(final UnifiedBodies bodies, final double[] kpQ, final double[] kdQ,
        final double[] kpTheta, final double[] kdTheta, final TorqueLimiter limiter)
    {
        model = bodies.robot();
        dof = model.dof();
        elastic = model.elasticCount();
        size = dof + elastic;
        if (limiter.dof() != dof)
        {
            throw new IllegalArgumentException("limiter has " + limiter.dof() + " joints, the robot " + dof);
        }
        for (int k = 0; k < dof; k++)
        {
            if (model.isPassive(k))
            {
                throw new IllegalArgumentException("joint '" + model.links().coordinateName(k)
                    + "' is passive (a spring, no motor): the controller needs a motor on every joint");
            }
        }
        lambdaQ = ratios("K_Pq", kpQ, "K_Dq", kdQ, dof);
        this.kdQ = kdQ.clone();
        lambdaTheta = ratios("K_Ptheta", kpTheta, "K_Dtheta", kdTheta, elastic);
        this.kdTheta = kdTheta.clone();
        this.limiter = limiter;
        massMatrix = new MixedMassMatrix(bodies);
        bias = new MixedBiasForces(bodies);
        velocityTerms = new MixedBiasForces(bodies);
        velocityTerms.gravity(0.0, 0.0, 0.0);
        velocityTerms.friction(false);
        springs = new SpringTorques(model);
        motorReference = new MotorReference(bodies);
        stiffness = new double[elastic];
        for (int e = 0; e < elastic; e++)
        {
            stiffness[e] = model.elasticity(model.coordinateOfElastic(e)).stiffness();
        }
        inertia = new double[size * size];
        closedLoop = new double[size * size];
        zeta = new double[size];
        coriolis = new double[size];
        scratch = new double[size];
        rhs = new double[size];
        xdd = new double[size];
        velocityPlus = new double[dof];
        velocityMinus = new double[dof];
        spring = new double[elastic];
        qddR = new double[dof];
        sigmaQ = new double[dof];
        errorQ = new double[dof];
        thetaD = new double[elastic];
        thetaDotD = new double[elastic];
        thetaDdotD = new double[elastic];
        errorTheta = new double[elastic];
        errorThetaRate = new double[elastic];
        sigmaTheta = new double[elastic];
        commandNm = new double[dof];
        loadLawTorque = new double[dof];
    }

    /** @return K_P / K_D per coordinate after checking both are finite and positive. */
    private static double[] ratios(final String pName, final double[] kp, final String dName, final double[] kd,
        final int count)
    {
        if (kp.length != count || kd.length != count)
        {
            throw new IllegalArgumentException(pName + " and " + dName + " need " + count + " entries, got "
                + kp.length + " and " + kd.length);
        }
        final double[] lambda = new double[count];
        for (int i = 0; i < count; i++)
        {
            if (!(kp[i] > 0.0 && kd[i] > 0.0 && Double.isFinite(kp[i]) && Double.isFinite(kd[i])))
            {
                throw new IllegalArgumentException(pName + "[" + i + "] = " + kp[i] + ", " + dName + "[" + i + "] = "
                    + kd[i] + ": both must be finite and > 0");
            }
            lambda[i] = kp[i] / kd[i];
        }
        return lambda;
    }

    /**
     * Sets the gravity vector (default 0, 0, -9.81) of the model and of the motor reference. Real-time safe.
     *
     * @param gx x component in the base frame, m/s^2.
     * @param gy y component in the base frame, m/s^2.
     * @param gz z component in the base frame, m/s^2.
     */
    public void gravity(final double gx, final double gy, final double gz)
    {
        bias.gravity(gx, gy, gz);
        motorReference.gravity(gx, gy, gz);
    }

    /**
     * Selects where theta_d comes from (default {@link MotorReference.Form#ALONG_REFERENCE}). Not for
     * use while ticking: set it at configuration.
     *
     * @param form the form of eq. 43.
     */
    public void motorReferenceForm(final MotorReference.Form form)
    {
        motorReferenceForm = form;
    }

    /**
     * Computes one tick. Real-time safe: no allocation, no exceptions.
     *
     * @param q measured link positions by coordinate, rad or m.
     * @param theta measured motor positions by elastic index (reflected).
     * @param qd measured link velocities.
     * @param thetad measured motor velocities.
     * @param reference q_d and its derivatives up to the 4th: reference[n][k] = d^n q_d,k / dt^n.
     * @param limitedNm output: torque per joint coordinate after torque and rate saturation, N m (N).
     * @return {@link ControlStatus#OK}; {@link ControlStatus#NON_FINITE_OUTPUT} if the unsaturated
     *     command was not finite; or {@link ControlStatus#SINGULAR_MODEL} if the closed-loop
     *     equations had no solution. In both cases the limiter repeats the previous command.
     */
    public int compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[][] reference, final double[] limitedNm)
    {
        return compute(q, theta, qd, thetad, reference, null, limitedNm);
    }

    /**
     * Computes one tick on a carried (moving) base (class comment, "Carried base"). Real-time safe:
     * no allocation, no exceptions.
     *
     * @param q measured link positions by coordinate, rad or m.
     * @param theta measured motor positions by elastic index (reflected).
     * @param qd measured link velocities relative to the base.
     * @param thetad measured motor velocities.
     * @param reference q_d and its derivatives up to the 4th, relative to the base.
     * @param base the base's measured motion, base coordinates; null for a fixed base under the set gravity.
     * @param limitedNm output: torque per joint coordinate after torque and rate saturation, N m (N).
     * @return as {@link #compute(double[], double[], double[], double[], double[][], double[])}.
     */
    public int compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[][] reference, final BaseMotion base, final double[] limitedNm)
    {
        return compute(q, theta, qd, thetad, reference, base, null, limitedNm);
    }

    /**
     * Computes one tick on a carried base whose unmeasured rates (angular jerk, specific force rates)
     * are estimated from the received blocks ({@link MotorReference}, class comment). Real-time safe:
     * no allocation, no exceptions.
     *
     * @param q measured link positions by coordinate, rad or m.
     * @param theta measured motor positions by elastic index (reflected).
     * @param qd measured link velocities relative to the base.
     * @param thetad measured motor velocities.
     * @param reference q_d and its derivatives up to the 4th, relative to the base.
     * @param base the base's measured motion, base coordinates; null for a fixed base under the set gravity.
     * @param rates the base's estimated rates; null for a base of constant acceleration.
     * @param limitedNm output: torque per joint coordinate after torque and rate saturation, N m (N).
     * @return as {@link #compute(double[], double[], double[], double[], double[][], double[])}.
     */
    public int compute(final double[] q, final double[] theta, final double[] qd, final double[] thetad,
        final double[][] reference, final BaseMotion base, final BaseMotionRates rates, final double[] limitedNm)
    {
        loadErrors(q, qd, reference);
        motorReference.compute(reference, base, rates, thetaD, thetaDotD, thetaDdotD);
        massMatrix.compute(q, inertia);
        bias.compute(q, qd, thetad, base, zeta);
        springs.compute(q, theta, qd, thetad, spring);
        velocityTermsAlongSigma(q, qd, thetad);
        if (motorReferenceForm == MotorReference.Form.CONTROL_LAW)
        {
            loadLawMotorPositions(q);
        }
        motorErrors(theta, thetad);
        closedLoopEquations();
        final boolean solved = solveInPlace(closedLoop, rhs, xdd, size);
        if (solved)
        {
            inverseDynamicsAtClosedLoop();
        }
        else
        {
            Arrays.fill(commandNm, Double.NaN);
        }
        final int status = solved ? ControlStatus.of(commandNm) : ControlStatus.SINGULAR_MODEL;
        limitFlags = limiter.limit(commandNm, limitedNm);
        return status;
    }

    /** (37)-(38): e_q, sigma_q and qdd_r = qdd_d + Lambda_q (qd_d - qd). */
    private void loadErrors(final double[] q, final double[] qd, final double[][] reference)
    {
        for (int k = 0; k < dof; k++)
        {
            errorQ[k] = reference[0][k] - q[k];
            final double errorRate = reference[1][k] - qd[k];
            sigmaQ[k] = errorRate + lambdaQ[k] * errorQ[k];
            qddR[k] = reference[2][k] + lambdaQ[k] * errorRate;
        }
    }

    /** (43) as printed: tau_qc = M qdd_r + S theta_d'' + C qd_r + C1 theta' + G + K_Dq sigma_q (39), elastic rows. */
    private void loadLawMotorPositions(final double[] q)
    {
        for (int e = 0; e < elastic; e++)
        {
            final int k = model.coordinateOfElastic(e);
            double torque = zeta[k] + coriolis[k] + kdQ[k] * sigmaQ[k];
            for (int j = 0; j < dof; j++)
            {
                torque += inertia[k * size + j] * qddR[j];
            }
            for (int f = 0; f < elastic; f++)
            {
                torque += inertia[k * size + dof + f] * thetaDdotD[f];
            }
            loadLawTorque[k] = torque;
        }
        motorReference.fromControlLaw(q, loadLawTorque, thetaD);
    }

    /** (44)-(47): e_theta, its rate and sigma_theta from theta_d and its derivatives. */
    private void motorErrors(final double[] theta, final double[] thetad)
    {
        for (int e = 0; e < elastic; e++)
        {
            errorTheta[e] = thetaD[e] - theta[e];
            errorThetaRate[e] = thetaDotD[e] - thetad[e];
            sigmaTheta[e] = errorThetaRate[e] + lambdaTheta[e] * errorTheta[e]
                + sigmaQ[model.coordinateOfElastic(e)];
        }
    }

    /** coriolis = C(x') (sigma_q, 0) = (h(x' + s) - h(x' - s)) / 4, h the velocity terms of zeta. */
    private void velocityTermsAlongSigma(final double[] q, final double[] qd, final double[] thetad)
    {
        for (int k = 0; k < dof; k++)
        {
            velocityPlus[k] = qd[k] + sigmaQ[k];
            velocityMinus[k] = qd[k] - sigmaQ[k];
        }
        velocityTerms.compute(q, velocityPlus, thetad, coriolis);
        velocityTerms.compute(q, velocityMinus, thetad, scratch);
        for (int i = 0; i < size; i++)
        {
            coriolis[i] = 0.25 * (coriolis[i] - scratch[i]);
        }
    }

    /** The linear equations L xdd = rhs of the closed loop, see the class comment. */
    private void closedLoopEquations()
    {
        System.arraycopy(inertia, 0, closedLoop, 0, size * size);
        for (int k = 0; k < dof; k++)
        {
            if (model.isElastic(k))
            {
                rhs[k] = spring[model.elasticIndex(k)] - zeta[k];
                continue;
            }
            double sum = coriolis[k] + kdQ[k] * sigmaQ[k];
            for (int j = 0; j < dof; j++)
            {
                sum += inertia[k * size + j] * qddR[j];
            }
            for (int e = 0; e < elastic; e++)
            {
                closedLoop[k * size + dof + e] = 0.0;
            }
            rhs[k] = sum;
        }
        for (int e = 0; e < elastic; e++)
        {
            final int row = (dof + e) * size;
            for (int j = 0; j < dof; j++)
            {
                closedLoop[row + j] = 0.0;
            }
            double sum = stiffness[e] * errorTheta[e] + kdTheta[e] * sigmaTheta[e];
            for (int f = 0; f < elastic; f++)
            {
                final int kf = model.coordinateOfElastic(f);
                final double b = inertia[row + dof + f];
                // theta_r'' = theta_d'' + Lambda_theta e_theta' + qdd_d + Lambda_q e_q' - qdd (45), (47)
                closedLoop[row + kf] += b;
                sum += b * (thetaDdotD[f] + lambdaTheta[f] * errorThetaRate[f] + qddR[kf]);
            }
            rhs[dof + e] = sum;
        }
    }

    /** Rigid joints: [A xdd + zeta]_k; elastic joints: the motor row [A xdd + zeta]_m + spring. */
    private void inverseDynamicsAtClosedLoop()
    {
        for (int k = 0; k < dof; k++)
        {
            final int row = model.isElastic(k) ? dof + model.elasticIndex(k) : k;
            double torque = zeta[row];
            for (int j = 0; j < size; j++)
            {
                torque += inertia[row * size + j] * xdd[j];
            }
            commandNm[k] = model.isElastic(k) ? torque + spring[model.elasticIndex(k)] : torque;
        }
    }

    /**
     * Gaussian elimination with partial pivoting, destroying a (n x n, row-major) and b.
     *
     * @return false if a pivot is zero or not finite.
     */
    private static boolean solveInPlace(final double[] a, final double[] b, final double[] x, final int n)
    {
        for (int c = 0; c < n; c++)
        {
            int pivot = c;
            for (int r = c + 1; r < n; r++)
            {
                if (Math.abs(a[r * n + c]) > Math.abs(a[pivot * n + c]))
                {
                    pivot = r;
                }
            }
            final double p = a[pivot * n + c];
            if (p == 0.0 || !Double.isFinite(p))
            {
                return false;
            }
            swapRows(a, b, n, c, pivot);
            for (int r = c + 1; r < n; r++)
            {
                final double f = a[r * n + c] / p;
                for (int j = c; j < n; j++)
                {
                    a[r * n + j] -= f * a[c * n + j];
                }
                b[r] -= f * b[c];
            }
        }
        for (int r = n - 1; r >= 0; r--)
        {
            double sum = b[r];
            for (int j = r + 1; j < n; j++)
            {
                sum -= a[r * n + j] * x[j];
            }
            x[r] = sum / a[r * n + r];
        }
        return true;
    }

    private static void swapRows(final double[] a, final double[] b, final int n, final int r1, final int r2)
    {
        if (r1 == r2)
        {
            return;
        }
        for (int j = 0; j < n; j++)
        {
            final double t = a[r1 * n + j];
            a[r1 * n + j] = a[r2 * n + j];
            a[r2 * n + j] = t;
        }
        final double t = b[r1];
        b[r1] = b[r2];
        b[r2] = t;
    }

    /** @return the limiter's flags of the last {@link #compute} ({@link TorqueLimiter#limit}). Real-time safe. */
    public long limitFlags()
    {
        return limitFlags;
    }

    /** @return the torque limiter, for its clip counters. */
    public TorqueLimiter limiter()
    {
        return limiter;
    }

    /**
     * The Lyapunov function V2 of eq. (51) at the last {@link #compute}:
     * 1/2 sigma_q^T M sigma_q + e_q^T Lambda_q K_Dq e_q + 1/2 sigma_theta^T B sigma_theta
     * + 1/2 e_theta^T K e_theta. Real-time safe.
     *
     * @return V2, J.
     */
    public double lyapunovJoules()
    {
        double v = 0.0;
        for (int i = 0; i < dof; i++)
        {
            v += lambdaQ[i] * kdQ[i] * errorQ[i] * errorQ[i];
            for (int j = 0; j < dof; j++)
            {
                v += 0.5 * sigmaQ[i] * inertia[i * size + j] * sigmaQ[j];
            }
        }
        for (int e = 0; e < elastic; e++)
        {
            v += 0.5 * stiffness[e] * errorTheta[e] * errorTheta[e];
            for (int f = 0; f < elastic; f++)
            {
                v += 0.5 * sigmaTheta[e] * inertia[(dof + e) * size + dof + f] * sigmaTheta[f];
            }
        }
        return v;
    }
}
