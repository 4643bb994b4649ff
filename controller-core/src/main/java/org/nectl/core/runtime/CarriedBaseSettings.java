package org.nectl.core.runtime;

/**
 * Whether the arm's base is carried, how old the base's measured motion may grow while the drives
 * are powered, and how the mixed rigid/elastic law's motor reference obtains the base's unmeasured
 * rates (docs/DEPLOYMENT.md, section {@code base}). Immutable.
 *
 * @param carried true if the base moves and every JointState carries its motion in the base block.
 * @param maxAgeNs longest time, on the controller clock, from the tick that took the last valid base
 *     block to a tick with the drives powered; beyond it {@link Faults#BASE_MOTION_LOST} is raised, and
 *     an ENABLE is refused while the held block is older. Positive; ignored for a fixed base.
 * @param rates where the angular jerk and the specific force's rates come from.
 * @param rateFilterNs time constant of the low-pass on each difference of the base blocks when the rates
 *     are {@link Rates#ESTIMATED}, ns, &gt;= 0 (0: raw differences).
 * @param angularAccelerationFilterNs time constant of the low-pass on the base block's angular
 *     acceleration before any law uses it, ns, &gt;= 0 (0: the block's value as received). An adapter
 *     that differences its gyro passes the gyro's noise amplified by 1 / T.
 */
public record CarriedBaseSettings(boolean carried, long maxAgeNs, Rates rates, long rateFilterNs, long angularAccelerationFilterNs)
{
    /** Default maximum age, in control periods: an IMU at a fifth of the loop's rate still fits. */
    public static final int DEFAULT_MAX_AGE_PERIODS = 5;
    /** Default time constant of the rates' low-pass, ns (docs/CONTROL.md: measured with a noisy IMU). */
    public static final long DEFAULT_RATE_FILTER_NS = 20_000_000L;
    /** Default time constant of the angular acceleration's low-pass, ns (docs/CONTROL.md: measured with a noisy IMU). */
    public static final long DEFAULT_ANGULAR_ACCELERATION_FILTER_NS = 0L;

    /** The treatment of the base's rates the IMU block does not carry (angular jerk, specific force rates). */
    public enum Rates
    {
        /** Backward differences of successive blocks, each through a low-pass of {@code rateFilterNs}. */
        ESTIMATED,
        /** The base's acceleration taken constant over the derivative terms: no measured signal differenced. */
        CONSTANT
    }

    /** Checks the age and the filter. */
    public CarriedBaseSettings
    {
        if (maxAgeNs <= 0)
        {
            throw new IllegalArgumentException("base motion max age " + maxAgeNs + " ns must be > 0");
        }
        if (rates == null || rateFilterNs < 0 || angularAccelerationFilterNs < 0)
        {
            throw new IllegalArgumentException("base rates " + rates + " with a filter of " + rateFilterNs + " ns, angular acceleration "
                + "filter " + angularAccelerationFilterNs + " ns: a treatment and time constants >= 0 are needed");
        }
    }

    /**
     * The default treatment of the base's rates: estimated through the default low-pass.
     *
     * @param carried true for a carried base.
     * @param maxAgeNs as the record's.
     */
    public CarriedBaseSettings(final boolean carried, final long maxAgeNs)
    {
        this(carried, maxAgeNs, Rates.ESTIMATED, DEFAULT_RATE_FILTER_NS, DEFAULT_ANGULAR_ACCELERATION_FILTER_NS);
    }

    /**
     * @param carried true for a carried base.
     * @param periodNs the control period, ns.
     * @return the settings with the default maximum age, {@value #DEFAULT_MAX_AGE_PERIODS} periods, and rates.
     */
    public static CarriedBaseSettings defaults(final boolean carried, final long periodNs)
    {
        return new CarriedBaseSettings(carried, DEFAULT_MAX_AGE_PERIODS * periodNs);
    }

    /**
     * @param treatment where the base's rates come from.
     * @param filterNs the estimate's low-pass time constant, ns, &gt;= 0.
     * @return these settings with that treatment of the base's rates.
     */
    public CarriedBaseSettings withRates(final Rates treatment, final long filterNs)
    {
        return new CarriedBaseSettings(carried, maxAgeNs, treatment, filterNs, angularAccelerationFilterNs);
    }

    /**
     * @param filterNs the angular acceleration's low-pass time constant, ns, &gt;= 0 (0: none).
     * @return these settings with that low-pass.
     */
    public CarriedBaseSettings withAngularAccelerationFilter(final long filterNs)
    {
        return new CarriedBaseSettings(carried, maxAgeNs, rates, rateFilterNs, filterNs);
    }
}
