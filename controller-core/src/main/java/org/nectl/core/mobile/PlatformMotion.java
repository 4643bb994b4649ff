package org.nectl.core.mobile;

import org.nectl.core.dynamics.BaseMotion;

/**
 * A mobile platform driving back and forth along its x axis without turning: it accelerates at
 * {@code accelerationMps2} to {@code speedMps}, cruises for {@code holdS}, brakes at
 * {@code brakingMps2} to a stop, stands for {@code holdS}, then does the same backwards, and repeats.
 * With a finite {@code jerkMps3} the acceleration ramps between its levels at that jerk (a
 * trapezoid), the speed reached unchanged; with an infinite one it steps, as an idealised drive's
 * torque would. Immutable; {@link #at} is real-time safe.
 *
 * @param accelerationMps2 acceleration, m/s^2, positive.
 * @param brakingMps2 deceleration while braking, m/s^2, positive.
 * @param speedMps cruising speed, m/s, positive, at least accelerationMps2^2 / jerkMps3 and brakingMps2^2 / jerkMps3.
 * @param holdS time cruising and time standing, s, at least 0.
 * @param jerkMps3 rate of change of the acceleration, m/s^3, positive; infinite for steps.
 */
public record PlatformMotion(double accelerationMps2, double brakingMps2, double speedMps, double holdS, double jerkMps3)
    implements BaseMotionProfile
{
    /** Checks that each trapezoid reaches its level: speed at least level^2 / jerk. */
    public PlatformMotion
    {
        final double reachable = Math.max(accelerationMps2, brakingMps2);
        if (speedMps < reachable * reachable / jerkMps3)
        {
            throw new IllegalArgumentException("'platform': speed " + speedMps + " m/s is below level^2/jerk = "
                + reachable * reachable / jerkMps3 + " m/s: at jerk " + jerkMps3 + " m/s3 the acceleration " + reachable
                + " m/s2 is never reached");
        }
    }

    @Override
    public void at(final double timeS, final double[] gravity, final BaseMotion out)
    {
        final double accelerating = speedMps / accelerationMps2 + accelerationMps2 / jerkMps3;
        final double braking = speedMps / brakingMps2 + brakingMps2 / jerkMps3;
        final double leg = accelerating + holdS + braking + holdS;
        final double direction = Math.floorMod((long)Math.floor(timeS / leg), 2L) == 0 ? 1.0 : -1.0;
        final double t = timeS - leg * Math.floor(timeS / leg);
        final double a;
        if (t < accelerating)
        {
            a = trapezoid(t, accelerationMps2, accelerating);
        }
        else if (t < accelerating + holdS || t >= accelerating + holdS + braking)
        {
            a = 0.0;
        }
        else
        {
            a = -trapezoid(t - accelerating - holdS, brakingMps2, braking);
        }
        out.orientation(1.0, 0.0, 0.0, 0.0).angularVelocity(0.0, 0.0, 0.0).angularAcceleration(0.0, 0.0, 0.0)
            .worldAcceleration(direction * a, 0.0, 0.0, gravity);
    }

    /** The acceleration at t into a phase of the given duration: up at the jerk, the level, down at the jerk. */
    private double trapezoid(final double t, final double level, final double duration)
    {
        if (Double.isInfinite(jerkMps3))
        {
            return level;
        }
        return Math.min(level, Math.min(t, duration - t) * jerkMps3);
    }
}
