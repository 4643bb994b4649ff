package org.nectl.core.runtime;

/** How the controller stops after a fault (IEC 60204-1, 9.2.2). */
public enum StopCategory
{
    /** Uncontrolled stop: zero torque and drives disabled at once, the brakes hold the arm. */
    CATEGORY_0,
    /** Controlled deceleration to standstill within the stop time, then drives disabled. */
    CATEGORY_1,
    /** Controlled deceleration to standstill within the stop time, then hold with gravity compensation. */
    CATEGORY_2;

    /** @return the category with this IEC number, or null. */
    public static StopCategory of(final long number)
    {
        return number >= 0 && number < values().length ? values()[(int)number] : null;
    }
}
