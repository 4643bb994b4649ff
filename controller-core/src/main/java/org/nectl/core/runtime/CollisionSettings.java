package org.nectl.core.runtime;

import java.util.Arrays;

/**
 * The momentum observer's tuning and the collision reflex (docs/SAFETY.md, "Collision detection";
 * deployment section {@code collision}). Immutable; the constructor copies and checks its arrays.
 *
 * @param observerGain K_O per joint, 1/s: the estimate follows the external torque with time constant
 *     1/K_O; each in (0, 1/period), checked by the cycle.
 * @param modelFriction true to take the model's joint friction out of the estimate.
 * @param thresholdNm per joint: a detection when |tau_ext| exceeds it, N m (N); infinity: not monitored.
 * @param reaction what a detection does.
 * @param retractDistance for {@link Reaction#RETRACT}: how far the joint most pushed moves back along
 *     the external torque, rad (m); the other joints in proportion.
 */
public record CollisionSettings(double[] observerGain, boolean modelFriction, double[] thresholdNm, Reaction reaction,
    double retractDistance)
{
    /** Largest retract distance, rad or m: within the reference blend's linear range (docs/CONTROL.md). */
    public static final double MAX_RETRACT = 0.015;
    /** Default observer gain, 1/s (time constant 20 ms). */
    public static final double DEFAULT_GAIN = 50.0;

    /** What a detection does. */
    public enum Reaction
    {
        /** Latch {@link Faults#COLLISION}: a stop with its category (safety.stop_category.collision). */
        STOP,
        /** Reflex: HOLD where the arm is now (the reference blends to the measured pose); no fault. */
        HOLD,
        /** Reflex: HOLD a little away from the contact, along the external torque; no fault. */
        RETRACT
    }

    /** Checks every value, naming the one at fault. */
    public CollisionSettings
    {
        observerGain = observerGain.clone();
        thresholdNm = thresholdNm.clone();
        if (observerGain.length != thresholdNm.length)
        {
            throw new IllegalArgumentException(observerGain.length + " observer gains but " + thresholdNm.length + " thresholds");
        }
        for (int j = 0; j < thresholdNm.length; j++)
        {
            if (!(thresholdNm[j] > 0.0))
            {
                throw new IllegalArgumentException("threshold of joint " + j + " is " + thresholdNm[j] + "; it must be > 0");
            }
        }
        if (reaction == null)
        {
            throw new IllegalArgumentException("no collision reaction");
        }
        if (!(retractDistance >= 0.0 && retractDistance <= MAX_RETRACT))
        {
            throw new IllegalArgumentException("retract distance " + retractDistance + " must be in [0, " + MAX_RETRACT + "]");
        }
    }

    /**
     * The observer on (gain {@value #DEFAULT_GAIN}/s, model friction), no joint monitored: tau_ext is
     * estimated and reported, nothing is detected.
     *
     * @param dof number of coordinates.
     * @return the settings.
     */
    public static CollisionSettings defaults(final int dof)
    {
        return new CollisionSettings(CycleSettings.filled(dof, DEFAULT_GAIN), true,
            CycleSettings.filled(dof, Double.POSITIVE_INFINITY), Reaction.STOP, 0.0);
    }

    /** @return true if some joint has a finite threshold. */
    public boolean monitored()
    {
        return Arrays.stream(thresholdNm).anyMatch(Double::isFinite);
    }

    /** @return a copy of the gains, 1/s. */
    @Override
    public double[] observerGain()
    {
        return observerGain.clone();
    }

    /** @return a copy of the thresholds, N m (N). */
    @Override
    public double[] thresholdNm()
    {
        return thresholdNm.clone();
    }
}
