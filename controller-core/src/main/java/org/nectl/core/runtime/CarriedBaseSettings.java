package org.nectl.core.runtime;

/**
 * Whether the arm's base is carried, and how old the base's measured motion may grow while the drives
 * are powered (docs/DEPLOYMENT.md, section {@code base}). Immutable.
 *
 * @param carried true if the base moves and every JointState carries its motion in the base block.
 * @param maxAgeNs longest time, on the controller clock, from the tick that took the last valid base
 *     block to a tick with the drives powered; beyond it {@link Faults#BASE_MOTION_LOST} is raised, and
 *     an ENABLE is refused while the held block is older. Positive; ignored for a fixed base.
 */
public record CarriedBaseSettings(boolean carried, long maxAgeNs)
{
    /** Default maximum age, in control periods: an IMU at a fifth of the loop's rate still fits. */
    public static final int DEFAULT_MAX_AGE_PERIODS = 5;

    /** Checks the age. */
    public CarriedBaseSettings
    {
        if (maxAgeNs <= 0)
        {
            throw new IllegalArgumentException("base motion max age " + maxAgeNs + " ns must be > 0");
        }
    }

    /**
     * @param carried true for a carried base.
     * @param periodNs the control period, ns.
     * @return the settings with the default maximum age, {@value #DEFAULT_MAX_AGE_PERIODS} periods.
     */
    public static CarriedBaseSettings defaults(final boolean carried, final long periodNs)
    {
        return new CarriedBaseSettings(carried, DEFAULT_MAX_AGE_PERIODS * periodNs);
    }
}
