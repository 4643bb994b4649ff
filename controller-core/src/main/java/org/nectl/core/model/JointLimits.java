package org.nectl.core.model;

/**
 * Limits of one movable joint. Unlimited values are +/- infinity.
 *
 * @param positionMin lower position limit, rad or m.
 * @param positionMax upper position limit, rad or m.
 * @param velocityMax |qd| limit, rad/s or m/s.
 * @param effortMax |tau| limit, N m or N.
 * @param effortRateMax |d tau / dt| limit, N m/s or N/s.
 */
public record JointLimits(
    double positionMin, double positionMax, double velocityMax, double effortMax, double effortRateMax)
{
    /** No limits at all. */
    public static final JointLimits NONE = new JointLimits(
        Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY,
        Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

    /** @return null if consistent, else the rule broken. */
    public String check()
    {
        if (Double.isNaN(positionMin) || Double.isNaN(positionMax) || positionMin > positionMax)
        {
            return "position limits [" + positionMin + ", " + positionMax + "] are not an interval (min <= max)";
        }
        if (!(velocityMax > 0.0))
        {
            return "velocity limit " + velocityMax + " must be > 0";
        }
        if (!(effortMax > 0.0))
        {
            return "effort limit " + effortMax + " must be > 0";
        }
        if (!(effortRateMax > 0.0))
        {
            return "effort rate limit " + effortRateMax + " must be > 0";
        }
        return null;
    }
}
