package org.nectl.core.elastic;

import org.nectl.core.dynamics.BaseMotion;

/**
 * The rates of a carried base's motion that an IMU block does not give, for the derivatives of the
 * motor reference ({@link MotorReference}): the angular jerk omegaDotDot_0, and the first and second
 * rates f' and f'' of the specific force, all in base coordinates (f' is the rate of the base-frame
 * components, so it includes the base's turning, -omega_0 x f).
 *
 * <p>Estimated by {@link #update} from the blocks received once per control period T: backward
 * differences, each through a first-order low-pass of time constant tau (omegaDotDot_0 from the
 * differences of omegaDot_0, f' from those of f, f'' from those of the filtered f'). The estimate lags
 * the true rate by about T / 2 + tau (f'': T + 2 tau), a phase of 2 pi F (T / 2 + tau) at a base motion
 * of frequency F. Until two blocks have been taken, and after {@link #reset}, the rates are zero:
 * the base's acceleration constant over the reference's derivative terms.
 *
 * <p>Not thread safe. Every method is real-time safe except the constructor.
 */
public final class BaseMotionRates
{
    private final double periodS;
    /** Weight of a new difference: T / (tau + T). */
    private final double weight;
    private final double[] angularJerk = new double[3];
    private final double[] forceRate = new double[3];
    private final double[] forceSecondRate = new double[3];
    private final double[] lastAngularAcceleration = new double[3];
    private final double[] lastSpecificForce = new double[3];
    private final double[] lastForceRate = new double[3];
    private int taken;

    /**
     * Not real-time safe: allocates.
     *
     * @param periodS time between two {@link #update} calls, s, &gt; 0.
     * @param timeConstantS tau of the low-pass on each difference, s, &gt;= 0 (0: raw differences).
     * @throws IllegalArgumentException if a value is out of range.
     */
    public BaseMotionRates(final double periodS, final double timeConstantS)
    {
        if (!(periodS > 0.0) || !(timeConstantS >= 0.0) || !Double.isFinite(periodS) || !Double.isFinite(timeConstantS))
        {
            throw new IllegalArgumentException("period " + periodS + " s must be > 0 and time constant " + timeConstantS
                + " s >= 0, both finite");
        }
        this.periodS = periodS;
        weight = periodS / (timeConstantS + periodS);
    }

    /** Forgets the blocks taken: zero rates until two more are taken. Real-time safe. */
    public void reset()
    {
        taken = 0;
        for (int k = 0; k < 3; k++)
        {
            angularJerk[k] = 0.0;
            forceRate[k] = 0.0;
            forceSecondRate[k] = 0.0;
        }
    }

    /**
     * Takes the base's motion of this period. Real-time safe.
     *
     * @param base the block in use this period (a held block repeats: its differences are zero).
     */
    public void update(final BaseMotion base)
    {
        for (int k = 0; k < 3; k++)
        {
            if (taken > 0)
            {
                angularJerk[k] += weight * ((base.angularAcceleration(k) - lastAngularAcceleration[k]) / periodS - angularJerk[k]);
                forceRate[k] += weight * ((base.specificForce(k) - lastSpecificForce[k]) / periodS - forceRate[k]);
            }
            if (taken > 1)
            {
                forceSecondRate[k] += weight * ((forceRate[k] - lastForceRate[k]) / periodS - forceSecondRate[k]);
            }
            lastAngularAcceleration[k] = base.angularAcceleration(k);
            lastSpecificForce[k] = base.specificForce(k);
            lastForceRate[k] = forceRate[k];
        }
        taken = Math.min(taken + 1, 2);
    }

    /** @return true once two blocks have been taken: the rates are estimates, not zero. */
    public boolean estimated()
    {
        return taken > 1;
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return omegaDotDot_0, rad/s^3.
     */
    public double angularJerk(final int axis)
    {
        return angularJerk[axis];
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return f', m/s^3.
     */
    public double forceRate(final int axis)
    {
        return forceRate[axis];
    }

    /**
     * @param axis 0, 1 or 2 for base-frame x, y, z.
     * @return f'', m/s^4.
     */
    public double forceSecondRate(final int axis)
    {
        return forceSecondRate[axis];
    }
}
