package org.nectl.core.mobile;

import org.nectl.core.dynamics.BaseMotion;

/**
 * A ship's deck in a regular sea: sinusoidal roll phi about the world x axis, pitch theta about the
 * rolled y axis and heave z along world z, each with its own amplitude and frequency, all starting at
 * zero: phi = A_phi sin(2 pi f_phi t), and so on. Orientation Rx(phi) Ry(theta); the deck origin
 * moves only vertically. In base coordinates omega = phiDot (cos theta, 0, sin theta) + thetaDot (0, 1, 0),
 * and omegaDot is its derivative. Immutable; {@link #at} is real-time safe.
 *
 * @param rollRad roll amplitude, rad.
 * @param rollHz roll frequency, Hz.
 * @param pitchRad pitch amplitude, rad.
 * @param pitchHz pitch frequency, Hz.
 * @param heaveM heave amplitude, m.
 * @param heaveHz heave frequency, Hz.
 */
public record ShipMotion(double rollRad, double rollHz, double pitchRad, double pitchHz, double heaveM, double heaveHz)
    implements BaseMotionProfile
{
    @Override
    public void at(final double timeS, final double[] gravity, final BaseMotion out)
    {
        final double wr = 2 * Math.PI * rollHz;
        final double wp = 2 * Math.PI * pitchHz;
        final double wh = 2 * Math.PI * heaveHz;
        final double phi = rollRad * Math.sin(wr * timeS);
        final double phiDot = rollRad * wr * Math.cos(wr * timeS);
        final double phiDdot = -wr * wr * phi;
        final double theta = pitchRad * Math.sin(wp * timeS);
        final double thetaDot = pitchRad * wp * Math.cos(wp * timeS);
        final double thetaDdot = -wp * wp * theta;
        final double heaveAcceleration = -wh * wh * heaveM * Math.sin(wh * timeS);
        final double c = Math.cos(theta);
        final double s = Math.sin(theta);
        final double ca = Math.cos(phi / 2);
        final double sa = Math.sin(phi / 2);
        final double cb = Math.cos(theta / 2);
        final double sb = Math.sin(theta / 2);
        // q_x(phi) q_y(theta)
        out.orientation(ca * cb, sa * cb, ca * sb, sa * sb)
            .angularVelocity(phiDot * c, thetaDot, phiDot * s)
            .angularAcceleration(phiDdot * c - phiDot * thetaDot * s, thetaDdot, phiDdot * s + phiDot * thetaDot * c)
            .worldAcceleration(0.0, 0.0, heaveAcceleration, gravity);
    }
}
