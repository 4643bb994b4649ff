package org.nectl.planning;

/**
 * How a trajectory problem is discretised and what it minimises.
 *
 * @param degree B-spline degree (3 cubic as in Barman's thesis; 4 or more when torque rates are bounded).
 * @param controlPoints control points per coordinate (at least degree + 1 and 5).
 * @param samplesPerSpan constraint samples per knot span (the grid has spans x this + 1 points).
 * @param weight w of the objective (1 - w) T + w integral |tau|^2 dt (Barman 2020, eq. 4.18); 0 for minimum time.
 * @param velocityLimits true to bound |qd| by the description's velocity limits.
 * @param torqueRateLimits true to bound |tau-dot| by the description's torque-rate limits.
 * @param accelerationLimit optional |qdd| bounds by coordinate (one value for all, or none), rad/s^2 or m/s^2.
 * @param gravity gravity in the base frame, m/s^2.
 * @param maxIterations SQP iteration limit.
 */
public record PlanningSettings(
    int degree, int controlPoints, int samplesPerSpan, double weight, boolean velocityLimits, boolean torqueRateLimits,
    double[] accelerationLimit, double[] gravity, int maxIterations)
{
    /**
     * @return null if usable, else what is wrong, naming the setting.
     */
    public String check()
    {
        if (degree < 3 || degree > 7)
        {
            return "degree must be in 3..7, got " + degree;
        }
        if (controlPoints < Math.max(degree + 1, 5) || controlPoints > 400)
        {
            return "control points must be in " + Math.max(degree + 1, 5) + "..400 for degree " + degree + ", got " + controlPoints;
        }
        if (samplesPerSpan < 1 || samplesPerSpan > 100)
        {
            return "samples per span must be in 1..100, got " + samplesPerSpan;
        }
        if (!(weight >= 0.0 && weight < 1.0))
        {
            return "weight must be in [0, 1), got " + weight;
        }
        if (torqueRateLimits && degree < 4)
        {
            return "torque-rate limits need a spline of degree 4 or more (a cubic's jerk jumps at its knots), got degree " + degree;
        }
        for (final double a : accelerationLimit)
        {
            if (!(a > 0.0))
            {
                return "acceleration limits must be positive, got " + a;
            }
        }
        if (maxIterations < 1)
        {
            return "iteration limit must be positive, got " + maxIterations;
        }
        return null;
    }
}
