package org.nectl.core.runtime;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * Stop categories per fault and the limits of the supervisor's reflexes (docs/DEPLOYMENT.md,
 * section {@code safety}). Immutable; the constructor copies and checks its arrays.
 *
 * @param categories stop category per fault bit number ({@link Faults}), {@link Faults#COUNT} entries.
 * @param stopTimeNs longest time a category 1 or 2 stop may take to standstill, ns; beyond it the
 *     stop escalates to category 0 ({@link Faults#STOP_TIMEOUT}).
 * @param decelerationMax per-joint deceleration of a controlled stop and of the soft-limit braking
 *     distance, rad/s^2 or m/s^2, positive and finite.
 * @param standstillVelocity |qd| below which every joint counts as standing still, rad/s or m/s.
 * @param softLimitMargin distance kept from a position limit beyond the braking distance, rad or m.
 * @param stateJumpTolerance largest difference between a measured position and the one integrated
 *     from the previous state (trapezoidal rule), rad or m.
 */
public record SafetySettings(
    StopCategory[] categories,
    long stopTimeNs,
    double[] decelerationMax,
    double standstillVelocity,
    double softLimitMargin,
    double stateJumpTolerance)
{
    /** Checks every value, naming the one at fault. */
    public SafetySettings
    {
        categories = categories.clone();
        decelerationMax = decelerationMax.clone();
        if (categories.length != Faults.COUNT)
        {
            throw new IllegalArgumentException("need " + Faults.COUNT + " stop categories, got " + categories.length);
        }
        for (int bit = 0; bit < Faults.COUNT; bit++)
        {
            final String rule = categoryRule(bit, categories[bit]);
            if (rule != null)
            {
                throw new IllegalArgumentException(Faults.key(bit) + ": " + rule);
            }
        }
        requirePositive("stop time", stopTimeNs);
        for (final double a : decelerationMax)
        {
            requirePositive("deceleration", a);
        }
        requirePositive("standstill velocity", standstillVelocity);
        requirePositive("state jump tolerance", stateJumpTolerance);
        if (!(softLimitMargin >= 0.0 && softLimitMargin < Double.POSITIVE_INFINITY))
        {
            throw new IllegalArgumentException("soft limit margin " + softLimitMargin + " must be finite and >= 0");
        }
    }

    /**
     * Defaults: emergency stop and position, torque and state faults category 0, velocity limit,
     * shutdown, collision and base motion lost category 1, soft position limit and reference discontinuity category 2; 1 s stop time,
     * 10 rad/s^2 deceleration, standstill below 0.01 rad/s, 0.02 rad soft-limit margin, 0.01 rad
     * state jump tolerance.
     *
     * @param dof number of coordinates.
     * @return the settings.
     */
    public static SafetySettings defaults(final int dof)
    {
        final StopCategory[] categories = new StopCategory[Faults.COUNT];
        Arrays.fill(categories, StopCategory.CATEGORY_0);
        categories[Integer.numberOfTrailingZeros(Faults.VELOCITY_LIMIT)] = StopCategory.CATEGORY_1;
        categories[Integer.numberOfTrailingZeros(Faults.SHUTDOWN)] = StopCategory.CATEGORY_1;
        categories[Integer.numberOfTrailingZeros(Faults.COLLISION)] = StopCategory.CATEGORY_1;
        categories[Integer.numberOfTrailingZeros(Faults.BASE_MOTION_LOST)] = StopCategory.CATEGORY_1;
        categories[Integer.numberOfTrailingZeros(Faults.SOFT_POSITION_LIMIT)] = StopCategory.CATEGORY_2;
        categories[Integer.numberOfTrailingZeros(Faults.REFERENCE_DISCONTINUITY)] = StopCategory.CATEGORY_2;
        return new SafetySettings(categories, 1_000_000_000L, CycleSettings.filled(dof, 10.0), 0.01, 0.02, 0.01);
    }

    /**
     * Which categories a fault may have: a controlled stop needs a trusted measured state, a working
     * control law and a responsive adapter, and an emergency stop may not end powered
     * (IEC 60204-1, 9.2.5.4.2).
     *
     * @param bit fault bit number.
     * @param category proposed category.
     * @return null if allowed, else the rule broken.
     */
    public static String categoryRule(final int bit, final StopCategory category)
    {
        if (category == null)
        {
            return "no stop category";
        }
        final int fault = 1 << bit;
        final int categoryZeroOnly = Faults.HEARTBEAT_TIMEOUT | Faults.STATE_MISSING | Faults.NON_FINITE_STATE
            | Faults.ADAPTER_FAULT | Faults.NON_FINITE_COMMAND | Faults.STATE_JUMP | Faults.STOP_TIMEOUT
            | Faults.LINK_LOST | Faults.LOOP_ERROR;
        if ((fault & categoryZeroOnly) != 0 && category != StopCategory.CATEGORY_0)
        {
            return "only category 0 is possible: a controlled stop needs a trusted measured state, a finite"
                + " control law and a responsive adapter";
        }
        if (fault == Faults.EMERGENCY_STOP && category == StopCategory.CATEGORY_2)
        {
            return "an emergency stop is category 0 or 1 (IEC 60204-1), it may not end with the drives powered";
        }
        if (fault == Faults.SHUTDOWN && category == StopCategory.CATEGORY_2)
        {
            return "a shutdown is category 0 or 1: the service exits after the stop, so it may not end with the drives powered";
        }
        if (fault == Faults.BASE_MOTION_LOST && category == StopCategory.CATEGORY_2)
        {
            return "a lost base motion is category 0 or 1: holding powered at standstill would go on compensating a base"
                + " motion nobody measures; the brakes hold the arm without it";
        }
        return null;
    }

    /**
     * @param model the robot.
     * @return null if the stop time suffices to stop every joint from its velocity limit at its
     *     deceleration ({@link StopProfile#durationS}), else which joint does not fit and by how much.
     */
    public String stopTimeShortfall(final RobotModel model)
    {
        for (int j = 0; j < model.dof(); j++)
        {
            final double vMax = model.limits(j).velocityMax();
            final double neededS = StopProfile.durationS(vMax, decelerationMax[j], 0.0);
            if (Double.isFinite(vMax) && neededS > stopTimeNs * 1e-9)
            {
                return "joint " + j + " needs " + Math.round(neededS * 1e3) + " ms to stop from its velocity limit "
                    + vMax + " at deceleration " + decelerationMax[j];
            }
        }
        return null;
    }

    /**
     * @param faultBits fault bits, at least one set.
     * @return the most severe (lowest) category among them. Real-time safe.
     */
    public StopCategory category(final int faultBits)
    {
        StopCategory worst = StopCategory.CATEGORY_2;
        for (int bit = 0; bit < Faults.COUNT; bit++)
        {
            if ((faultBits & (1 << bit)) != 0 && categories[bit].ordinal() < worst.ordinal())
            {
                worst = categories[bit];
            }
        }
        return worst;
    }

    /** @return a copy of the per-fault categories. */
    @Override
    public StopCategory[] categories()
    {
        return categories.clone();
    }

    /** @return a copy of the per-joint decelerations, rad/s^2 or m/s^2. */
    @Override
    public double[] decelerationMax()
    {
        return decelerationMax.clone();
    }

    /**
     * @param fault one fault bit.
     * @param category its new category.
     * @return a copy with that fault's category replaced.
     * @throws IllegalArgumentException if the fault may not have that category.
     */
    public SafetySettings withCategory(final int fault, final StopCategory category)
    {
        final StopCategory[] c = categories.clone();
        c[Integer.numberOfTrailingZeros(fault)] = category;
        return new SafetySettings(c, stopTimeNs, decelerationMax, standstillVelocity, softLimitMargin, stateJumpTolerance);
    }

    private static void requirePositive(final String what, final double value)
    {
        if (!(value > 0.0 && value < Double.POSITIVE_INFINITY))
        {
            throw new IllegalArgumentException(what + " " + value + " must be finite and > 0");
        }
    }
}
