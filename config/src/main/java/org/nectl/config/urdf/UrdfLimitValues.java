package org.nectl.config.urdf;

/**
 * URDF requires numbers for limits that a model may leave unlimited (prismatic position range,
 * effort and velocity of revolute and prismatic joints). nectl writes "no limit" as the largest
 * finite double, +-1.7976931348623157E308, which other URDF tools read as a limit never reached, and
 * reads exactly that value back as unlimited, so limits survive export and re-import unchanged.
 * Thread safe.
 */
final class UrdfLimitValues
{
    private UrdfLimitValues()
    {
    }

    /** @return the value as the model holds it: +-infinity for +-Double.MAX_VALUE, else unchanged. */
    static double fromUrdf(final double value)
    {
        if (Math.abs(value) == Double.MAX_VALUE)
        {
            return Math.copySign(Double.POSITIVE_INFINITY, value);
        }
        return value;
    }

    /**
     * Reads an effort or velocity limit. Simulator-generated URDFs write 0 for "not specified" (Drake
     * reads an effort of 0 as an unactuated joint); a controller cannot use a zero limit, so 0 is
     * read as unlimited, like the largest double. Negative values stay, and are rejected later.
     *
     * @return the limit as the model holds it.
     */
    static double fromUrdfRate(final double value)
    {
        return value == 0.0 ? Double.POSITIVE_INFINITY : fromUrdf(value);
    }

    /** @return the value as URDF can hold it: +-Double.MAX_VALUE for +-infinity, else unchanged. */
    static double toUrdf(final double value)
    {
        if (Double.isInfinite(value))
        {
            return Math.copySign(Double.MAX_VALUE, value);
        }
        return value;
    }
}
