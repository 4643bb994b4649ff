package org.nectl.core.control;

import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.RobotModel;

/**
 * The largest constant reference clock rate sigma in [minimumRate, 1] at one path point of a
 * trajectory whose feedforward tau and tau' stay within a share of the joint limits for every
 * |s''| <= accelerationMax ({@link ReferenceTimeScaling}, "Look-ahead").
 *
 * <p>Along the path tau = g + s'^2 b + s'' m and tau' = s' gamma + s'^3 beta + s' s'' delta +
 * s''' m (m = M q'); three evaluations of the torque-derivative recursion at (s', s'') = (1, 0),
 * (1/2, 0) and (1, 1) give g, b, gamma, beta, m and delta exactly, and a scan and a bisection over
 * these polynomials find sigma without further recursion calls. Viscous and Coulomb friction are
 * added per joint when the friction feedforward is on.
 *
 * <p>Allocation-free after construction. Not thread safe: one instance per thread.
 */
final class FeasibleClockRate
{
    /** Rate scan step before bisecting the boundary of the feasible rates. */
    private static final double SCAN_STEP = 1.0 / 16.0;
    private static final int BISECTIONS = 10;

    private final int dof;
    private final double accelerationMax;
    private final double minimumRate;
    private final TorqueDerivative torqueDerivative;
    private final double[] torqueBoundNm;
    private final double[] rateBoundNmPerS;
    private final double[] coulombNm;
    private final double[] viscousNmSPerRad;
    private boolean friction = true;

    private final double[] q;
    private final double[] q1;
    private final double[] q2;
    private final double[] q3;
    private final double[] q4;
    private final double[] scaledQd;
    private final double[] scaledQdd;
    private final double[] scaledQddd;
    private final double[] tauFull;
    private final double[] tauRateFull;
    private final double[] tauHalf;
    private final double[] tauRateHalf;
    private final double[] tauAccelerated;
    private final double[] tauRateAccelerated;
    private final double[] gravity;
    private final double[] inertial;
    private final double[] gravityRate;
    private final double[] inertialRate;
    /** d tau/d s'' = M q' (with rotor inertia), per joint. */
    private final double[] pathInertia;
    /** d tau'/d (s' s''), per joint. */
    private final double[] accelerationRate;

    private long evaluatedPoints;
    private long unreachablePoints;

    /**
     * Not real-time safe: sizes the workspace from the model.
     *
     * @param model the robot: the feedforward model and the limits effortMax and effortRateMax.
     * @param settings the clock tuning (limit share, acceleration bound, minimum rate).
     */
    FeasibleClockRate(final RobotModel model, final ReferenceTimeScaling.Settings settings)
    {
        dof = model.dof();
        accelerationMax = settings.accelerationMax();
        minimumRate = settings.minimumRate();
        torqueDerivative = new TorqueDerivative(model);
        // Friction is added per joint: its terms are not polynomial in the clock in the same way.
        torqueDerivative.jointFriction(false);
        torqueBoundNm = new double[dof];
        rateBoundNmPerS = new double[dof];
        coulombNm = new double[dof];
        viscousNmSPerRad = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            torqueBoundNm[j] = settings.limitShare() * model.limits(j).effortMax();
            rateBoundNmPerS[j] = settings.limitShare() * model.limits(j).effortRateMax();
            final JointActuation actuation = model.actuation(j);
            coulombNm[j] = actuation.coulombFriction();
            viscousNmSPerRad[j] = actuation.viscousFriction();
        }
        q = new double[dof];
        q1 = new double[dof];
        q2 = new double[dof];
        q3 = new double[dof];
        q4 = new double[dof];
        scaledQd = new double[dof];
        scaledQdd = new double[dof];
        scaledQddd = new double[dof];
        tauFull = new double[dof];
        tauRateFull = new double[dof];
        tauHalf = new double[dof];
        tauRateHalf = new double[dof];
        tauAccelerated = new double[dof];
        tauRateAccelerated = new double[dof];
        gravity = new double[dof];
        inertial = new double[dof];
        gravityRate = new double[dof];
        inertialRate = new double[dof];
        pathInertia = new double[dof];
        accelerationRate = new double[dof];
    }

    /** Gravity of the feedforward model in the base frame, m/s^2. Real-time safe. */
    void gravity(final double gx, final double gy, final double gz)
    {
        torqueDerivative.gravity(gx, gy, gz);
    }

    /** Whether the feedforward includes the model's joint friction. Real-time safe. */
    void frictionFeedforward(final boolean enabled)
    {
        friction = enabled;
    }

    /**
     * Real-time safe; three torque-derivative evaluations.
     *
     * @param trajectory the path.
     * @param pathTimeS the point on the trajectory's own clock, s.
     * @return the largest constant rate in [minimumRate, 1] within the bounds there; minimumRate,
     *     counted in {@link #unreachablePoints()}, if even that is not.
     */
    double at(final TrajectorySampler trajectory, final double pathTimeS)
    {
        evaluatedPoints++;
        trajectory.sample(pathTimeS, q, q1, q2, q3, q4);
        decompose();
        if (withinBounds(1.0))
        {
            return 1.0;
        }
        double upper = 1.0;
        double lower = upper - SCAN_STEP;
        while (lower > minimumRate && !withinBounds(lower))
        {
            upper = lower;
            lower -= SCAN_STEP;
        }
        if (lower <= minimumRate)
        {
            lower = minimumRate;
            if (!withinBounds(lower))
            {
                unreachablePoints++;
                return minimumRate;
            }
        }
        for (int i = 0; i < BISECTIONS; i++)
        {
            final double middle = 0.5 * (lower + upper);
            if (withinBounds(middle))
            {
                lower = middle;
            }
            else
            {
                upper = middle;
            }
        }
        return lower;
    }

    /**
     * g, b, gamma, beta from the recursion at rates 1 and 1/2 (tau = g + s'^2 b, tau' = s' gamma +
     * s'^3 beta), and the s'' terms M q' and delta (tau += s'' M q', tau' += s' s'' delta) from a
     * third evaluation at s' = 1, s'' = 1.
     */
    private void decompose()
    {
        torqueDerivative.compute(q, q1, q2, q3, tauFull, tauRateFull);
        for (int j = 0; j < dof; j++)
        {
            scaledQdd[j] = q2[j] + q1[j];
            scaledQddd[j] = q3[j] + 3.0 * q2[j];
        }
        torqueDerivative.compute(q, q1, scaledQdd, scaledQddd, tauAccelerated, tauRateAccelerated);
        for (int j = 0; j < dof; j++)
        {
            pathInertia[j] = tauAccelerated[j] - tauFull[j];
            accelerationRate[j] = tauRateAccelerated[j] - tauRateFull[j];
        }
        for (int j = 0; j < dof; j++)
        {
            scaledQd[j] = 0.5 * q1[j];
            scaledQdd[j] = 0.25 * q2[j];
            scaledQddd[j] = 0.125 * q3[j];
        }
        torqueDerivative.compute(q, scaledQd, scaledQdd, scaledQddd, tauHalf, tauRateHalf);
        for (int j = 0; j < dof; j++)
        {
            inertial[j] = (tauFull[j] - tauHalf[j]) * (4.0 / 3.0);
            gravity[j] = tauFull[j] - inertial[j];
            inertialRate[j] = (tauRateFull[j] - 2.0 * tauRateHalf[j]) * (4.0 / 3.0);
            gravityRate[j] = tauRateFull[j] - inertialRate[j];
        }
    }

    /** Within bounds at rate sigma for every s'' in [-accelerationMax, accelerationMax]. */
    private boolean withinBounds(final double sigma)
    {
        final double sigma2 = sigma * sigma;
        for (int j = 0; j < dof; j++)
        {
            double tau = gravity[j] + sigma2 * inertial[j];
            double tauRate = sigma * gravityRate[j] + sigma2 * sigma * inertialRate[j];
            double accelerationReserve = accelerationMax * sigma * Math.abs(accelerationRate[j]);
            if (friction)
            {
                tau += coulombNm[j] * Math.signum(q1[j]) + viscousNmSPerRad[j] * q1[j] * sigma;
                tauRate += viscousNmSPerRad[j] * q2[j] * sigma2;
                accelerationReserve += accelerationMax * viscousNmSPerRad[j] * Math.abs(q1[j]);
            }
            if (!(Math.abs(tau) + accelerationMax * Math.abs(pathInertia[j]) <= torqueBoundNm[j])
                || !(Math.abs(tauRate) + accelerationReserve <= rateBoundNmPerS[j]))
            {
                return false;
            }
        }
        return true;
    }

    /** @return path points evaluated by {@link #at} since construction (three recursion calls each). */
    long evaluatedPoints()
    {
        return evaluatedPoints;
    }

    /** @return points where even the minimum rate was not within the bounds, since construction. */
    long unreachablePoints()
    {
        return unreachablePoints;
    }
}
