package org.nectl.core.mobile;

/**
 * A mobile platform driving back and forth along its x axis without turning: it accelerates at
 * {@code accelerationMps2} to {@code speedMps}, cruises for {@code holdS}, brakes at
 * {@code brakingMps2} to a stop, stands for {@code holdS}, then does the same backwards, and repeats.
 * The acceleration steps between its levels (a platform's drive torque does). Immutable; {@link #at}
 * is real-time safe.
 *
 * @param accelerationMps2 acceleration, m/s^2, positive.
 * @param brakingMps2 deceleration while braking, m/s^2, positive.
 * @param speedMps cruising speed, m/s, positive.
 * @param holdS time cruising and time standing, s, at least 0.
 */
public record PlatformMotion(double accelerationMps2, double brakingMps2, double speedMps, double holdS)
    implements BaseMotionProfile
{
    @Override
    public void at(final double timeS, final double[] gravity, final BaseMotion out)
    {
        final double accelerating = speedMps / accelerationMps2;
        final double braking = speedMps / brakingMps2;
        final double leg = accelerating + holdS + braking + holdS;
        final double cycle = Math.floorMod((long)Math.floor(timeS / leg), 2L) == 0 ? 1.0 : -1.0;
        final double t = timeS - leg * Math.floor(timeS / leg);
        final double a;
        if (t < accelerating)
        {
            a = accelerationMps2;
        }
        else if (t < accelerating + holdS)
        {
            a = 0.0;
        }
        else if (t < accelerating + holdS + braking)
        {
            a = -brakingMps2;
        }
        else
        {
            a = 0.0;
        }
        out.orientation(1.0, 0.0, 0.0, 0.0).angularVelocity(0.0, 0.0, 0.0).angularAcceleration(0.0, 0.0, 0.0)
            .worldAcceleration(cycle * a, 0.0, 0.0, gravity);
    }
}
