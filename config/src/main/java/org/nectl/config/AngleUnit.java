package org.nectl.config;

import java.util.List;
import java.util.Locale;

/**
 * The unit of every angle written in a description file (key {@code angles}): radians by default,
 * degrees on request. Applies to the kinematic table's angle columns and to revolute joints'
 * position and velocity limits. Thread safe.
 */
enum AngleUnit
{
    /** Radians; {@code pi} may be used. */
    RAD,
    /** Degrees; {@code pi} is rejected to avoid mixing units. */
    DEG;

    /**
     * @param root the file's root mapping.
     * @return the unit named by the optional {@code angles} key.
     */
    static AngleUnit of(final YamlField root)
    {
        if (!root.has("angles"))
        {
            return RAD;
        }
        return valueOf(root.child("angles").choice("angle unit", List.of("rad", "deg")).toUpperCase(Locale.ROOT));
    }

    /**
     * @param field a scalar angle in this unit.
     * @return the angle in radians.
     */
    double radians(final YamlField field)
    {
        if (this == DEG && field.usesPi())
        {
            throw field.error("value '" + field.text() + "' uses pi but the file declares 'angles: deg'");
        }
        final double value = field.number();
        return this == DEG ? Math.toRadians(value) : value;
    }
}
