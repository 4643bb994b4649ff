package org.nectl.core.mobile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;

class BaseMotionProfilesTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final double H = 1e-4;

    @Test
    void shipProfileReadsAmplitudesAndFrequenciesInTheirUnits()
    {
        final ShipMotion ship = (ShipMotion)BaseMotionProfiles.parse("ship:roll=10deg@0.2Hz,heave=0.5m@0.1Hz,pitch=0.05rad@0.15Hz");
        assertEquals(Math.toRadians(10), ship.rollRad(), 1e-15);
        assertEquals(0.2, ship.rollHz());
        assertEquals(0.05, ship.pitchRad());
        assertEquals(0.5, ship.heaveM());
        assertEquals(0.1, ship.heaveHz());
        final PlatformMotion platform = (PlatformMotion)BaseMotionProfiles.parse("platform:accel=1.5m/s2,brake=3m/s2,speed=1m/s");
        assertEquals(new PlatformMotion(1.5, 3.0, 1.0, 2.0, Double.POSITIVE_INFINITY), platform);
        assertEquals(new PlatformMotion(1.5, 3.0, 1.0, 2.0, 20.0),
            BaseMotionProfiles.parse("platform:accel=1.5m/s2,brake=3m/s2,speed=1m/s,jerk=20m/s3"));
    }

    @Test
    void badProfilesAreRefusedNamingThePartAndTheRule()
    {
        assertRefused("boat:roll=10deg@0.2Hz", "unknown profile 'boat'");
        assertRefused("ship", "no fields");
        assertRefused("ship:roll=10deg@0.2Hz,yaw=3deg@1Hz", "unknown field 'yaw'");
        assertRefused("ship:roll=10deg", "'roll=10deg': expected amplitude@frequency, e.g. roll=10deg@0.2Hz");
        assertRefused("ship:roll=10@0.2Hz", "'roll=10@0.2Hz': amplitude '10' has no unit (deg or rad), e.g. roll=10deg@0.2Hz");
        assertRefused("ship:roll=10deg@0.2", "'roll=10deg@0.2': frequency '0.2' has no unit (Hz)");
        assertRefused("ship:heave=5deg@0.1Hz", "'heave=5deg@0.1Hz': amplitude unit 'deg' is not m, e.g. heave=0.5m@0.1Hz");
        assertRefused("ship:roll=NaNdeg@0.2Hz", "amplitude 'NaNdeg' is not a number followed by its unit (deg or rad)");
        assertRefused("ship:roll=10deg@1e999Hz", "frequency '1e999' is not finite");
        assertRefused("ship:roll=-10deg@0.2Hz", "'roll=-10deg@0.2Hz': amplitude -10deg is negative");
        assertRefused("ship:roll=10deg@-0.2Hz", "'roll=10deg@-0.2Hz': frequency outside (0, 10.0] Hz");
        assertRefused("ship:roll=10deg@0.2Hz,", "empty field (a comma too many");
        assertRefused("ship:heave=11m@0.1Hz", "'heave=11m@0.1Hz': amplitude above the limit 10.0m");
        assertRefused("ship:roll=60deg@0.2Hz", "amplitude above the limit 45deg");
        assertRefused("ship:roll=10deg@0Hz", "frequency outside (0, 10.0] Hz");
        assertRefused("ship:roll=10deg@0.2Hz,roll=5deg@0.1Hz", "given twice");
        assertRefused("platform:accel=1.5m/s2,speed=1m/s", "field 'brake' missing");
        assertRefused("platform:accel=1.5m/s,brake=3m/s2,speed=1m/s", "'accel=1.5m/s': value unit 'm/s' is not m/s2, e.g. accel=1m/s2");
        assertRefused("platform:accel=1.5,brake=3m/s2,speed=1m/s", "'accel=1.5': value '1.5' has no unit (m/s2)");
        assertRefused("platform:accel=-1.5m/s2,brake=3m/s2,speed=1m/s", "'accel=-1.5m/s2': outside (0, 20.0] m/s2");
        assertRefused("platform:accel=1.5m/s2,brake=0m/s2,speed=1m/s", "'brake=0m/s2': outside (0, 20.0] m/s2");
        assertRefused("platform:accel=2m/s2,brake=3m/s2,speed=0.5m/s,jerk=10m/s3", "speed 0.5 m/s is below level^2/jerk = 0.9 m/s");
    }

    private static void assertRefused(final String spec, final String expected)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BaseMotionProfiles.parse(spec));
        assertTrue(e.getMessage().contains(expected), spec + " -> " + e.getMessage());
    }

    /**
     * omega and omegaDot in base coordinates and the specific force against central differences of
     * the orientation and the origin's position: Rt dR/dt = [omega]x, and f = Rt (a - g).
     */
    @Test
    void shipMotionIsConsistentWithItsOrientationAndHeave()
    {
        final ShipMotion ship = new ShipMotion(0.3, 0.2, 0.2, 0.35, 0.5, 0.1);
        for (double t = 0.3; t < 10.0; t += 1.7)
        {
            final BaseMotion now = motion(ship, t);
            final double[] r = rotation(now);
            final double[] rPlus = rotation(motion(ship, t + H));
            final double[] rMinus = rotation(motion(ship, t - H));
            // [omega]x = Rt dR/dt: omega_x = (Rt R')_21, omega_y = (Rt R')_02, omega_z = (Rt R')_10
            final double[] w = {
                skew(r, rPlus, rMinus, 2, 1), skew(r, rPlus, rMinus, 0, 2), skew(r, rPlus, rMinus, 1, 0)};
            for (int i = 0; i < 3; i++)
            {
                assertEquals(w[i], now.angularVelocity(i), 1e-7, "omega " + i + " at t " + t);
                final double rate = (motion(ship, t + H).angularVelocity(i) - motion(ship, t - H).angularVelocity(i)) / (2 * H);
                assertEquals(rate, now.angularAcceleration(i), 1e-7, "omegaDot " + i + " at t " + t);
            }
            final double w0 = 2 * Math.PI * 0.1;
            final double az = -w0 * w0 * 0.5 * Math.sin(w0 * t);
            // f = Rt (a - g): with a = (0, 0, az) and g = (0, 0, -9.81), f_i = R_2i (az + 9.81)
            for (int i = 0; i < 3; i++)
            {
                assertEquals(r[6 + i] * (az + 9.81), now.specificForce(i), 1e-12, "f " + i + " at t " + t);
            }
        }
    }

    @Test
    void platformAcceleratesCruisesBrakesStandsThenReturns()
    {
        final PlatformMotion platform = new PlatformMotion(1.0, 2.0, 1.0, 2.0, Double.POSITIVE_INFINITY);
        // accelerating 1 s, cruising 2 s, braking 0.5 s, standing 2 s: a leg of 5.5 s
        final double[] times = {0.5, 2.0, 3.2, 4.0, 6.0, 8.7};
        final double[] expected = {1.0, 0.0, -2.0, 0.0, -1.0, 2.0};
        for (int n = 0; n < times.length; n++)
        {
            final BaseMotion m = motion(platform, times[n]);
            assertEquals(expected[n], m.specificForce(0), 1e-12, "a at t " + times[n]);
            assertEquals(9.81, m.specificForce(2), 1e-12);
        }
    }

    /** Jerk 10 m/s^3 to 1 m/s^2: ramps of 0.1 s; the speed reached is still the cruising speed. */
    @Test
    void jerkLimitedPlatformRampsItsAccelerationAndStillReachesItsSpeed()
    {
        final PlatformMotion platform = new PlatformMotion(1.0, 2.0, 1.0, 2.0, 10.0);
        assertEquals(0.5, motion(platform, 0.05).specificForce(0), 1e-12, "ramping up");
        assertEquals(1.0, motion(platform, 0.5).specificForce(0), 1e-12, "at the level");
        assertEquals(0.5, motion(platform, 1.05).specificForce(0), 1e-12, "ramping down");
        double speed = 0.0;
        final double dt = 1e-5;
        for (double t = dt / 2; t < 1.1; t += dt)
        {
            speed += motion(platform, t).specificForce(0) * dt;
        }
        assertEquals(1.0, speed, 1e-6, "the speed at the end of the acceleration phase");
    }

    private static BaseMotion motion(final BaseMotionProfile profile, final double t)
    {
        final BaseMotion m = new BaseMotion();
        profile.at(t, GRAVITY, m);
        return m;
    }

    private static double[] rotation(final BaseMotion m)
    {
        final double w = m.orientation(0);
        final double x = m.orientation(1);
        final double y = m.orientation(2);
        final double z = m.orientation(3);
        return new double[] {
            1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y),
            2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x),
            2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)};
    }

    /** Element (row, col) of Rt (R+ - R-) / 2h. */
    private static double skew(final double[] r, final double[] plus, final double[] minus, final int row, final int col)
    {
        double sum = 0.0;
        for (int k = 0; k < 3; k++)
        {
            sum += r[3 * k + row] * (plus[3 * k + col] - minus[3 * k + col]) / (2 * H);
        }
        return sum;
    }
}
