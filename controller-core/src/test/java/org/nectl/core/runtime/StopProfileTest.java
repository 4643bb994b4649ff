package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The controlled-stop reference: derivatives against central differences, the peak deceleration
 * and the braking distance against their closed forms, smooth ends, and the clamp to the stop time.
 */
class StopProfileTest
{
    private static final long SEED = 5;
    private static final int DOF = 6;
    private static final double[] DECELERATION = {15, 7.5, 10, 12.5, 15, 20};

    private static final class Sample
    {
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[] qdd = new double[DOF];
        final double[] qddd = new double[DOF];
        final double[] qdddd = new double[DOF];
        boolean stopped;

        Sample at(final StopProfile profile, final double timeS)
        {
            stopped = profile.sample(Math.round(timeS * 1e9), q, qd, qdd, qddd, qdddd);
            return this;
        }
    }

    private static StopProfile started(final double[] q0, final double[] v0, final double maximumS)
    {
        final double[] noMin = new double[DOF];
        final double[] noMax = new double[DOF];
        Arrays.fill(noMin, Double.NEGATIVE_INFINITY);
        Arrays.fill(noMax, Double.POSITIVE_INFINITY);
        final StopProfile profile = new StopProfile(noMin, noMax);
        profile.start(0L, q0, v0, DECELERATION, 0.002, maximumS);
        return profile;
    }

    /**
     * Each derivative against the central difference of the one below, step h = 1e-5 s, for |v0| of
     * 0.5 to 2.5 (so every stop takes T > 40 ms): the difference's error is h^2/6 times the next
     * derivative, at most 10 h^2 / T^2 < 1e-6 relative to the scale v0 / T^(k-1) of the k-th
     * derivative, plus rounding well below that; the tolerance is 1e-5 of that scale.
     */
    @Test
    void everyDerivativeMatchesTheCentralDifferenceOfTheOneBelow()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final double[] q0 = new double[DOF];
        final double[] v0 = new double[DOF];
        for (int j = 0; j < DOF; j++)
        {
            q0[j] = random.nextDouble(-2, 2);
            v0[j] = random.nextDouble(0.5, 2.5) * (random.nextBoolean() ? 1 : -1);
        }
        final StopProfile profile = started(q0, v0, 10.0);
        final double h = 1e-5;
        for (int n = 0; n < 200; n++)
        {
            final double t = random.nextDouble(h, profile.longestS() - h);
            final Sample before = new Sample().at(profile, t - h);
            final Sample after = new Sample().at(profile, t + h);
            final Sample at = new Sample().at(profile, t);
            for (int j = 0; j < DOF; j++)
            {
                final double period = StopProfile.durationS(v0[j], DECELERATION[j], 0.002);
                if (t + h >= period)
                {
                    continue;
                }
                final double scale = Math.abs(v0[j]);
                final String where = "seed " + SEED + ", joint " + j + ", t " + t;
                assertEquals(at.qd[j], (after.q[j] - before.q[j]) / (2 * h), 1e-5 * scale, "qd, " + where);
                assertEquals(at.qdd[j], (after.qd[j] - before.qd[j]) / (2 * h), 1e-5 * scale / period, "qdd, " + where);
                assertEquals(at.qddd[j], (after.qdd[j] - before.qdd[j]) / (2 * h), 1e-5 * scale / (period * period),
                    "qddd, " + where);
                assertEquals(at.qdddd[j], (after.qddd[j] - before.qddd[j]) / (2 * h), 1e-5 * scale / (period * period * period),
                    "qdddd, " + where);
            }
        }
    }

    /**
     * Sampled every 10 us: the peak |qdd| of each joint equals its deceleration (to the sampling's
     * 1e-6 relative), the joint ends at q0 + 15/16 v0 |v0| / a with zero velocity, acceleration and
     * jerk, and starts with its velocity and zero acceleration and jerk.
     */
    @Test
    void eachJointStopsAtItsDecelerationAfterItsBrakingDistance()
    {
        final double[] q0 = {0.1, -0.2, 0.3, 0.0, 1.0, -1.0};
        final double[] v0 = {2.175, -2.175, 1.0, 0.5, -2.61, 0.0};
        final StopProfile profile = started(q0, v0, 10.0);
        final double[] peak = new double[DOF];
        final Sample s = new Sample();
        for (double t = 0.0; t <= profile.longestS() + 1e-3; t += 1e-5)
        {
            s.at(profile, t);
            for (int j = 0; j < DOF; j++)
            {
                peak[j] = Math.max(peak[j], Math.abs(s.qdd[j]));
            }
        }
        assertTrue(s.stopped);
        for (int j = 0; j < DOF; j++)
        {
            if (v0[j] != 0.0)
            {
                assertEquals(DECELERATION[j], peak[j], 1e-6 * DECELERATION[j], "peak deceleration, joint " + j);
            }
            assertEquals(q0[j] + Math.signum(v0[j]) * StopProfile.brakingDistance(v0[j], DECELERATION[j]), s.q[j], 1e-12,
                "end position, joint " + j);
            assertEquals(15.0 / 16.0 * v0[j] * v0[j] / DECELERATION[j], StopProfile.brakingDistance(v0[j], DECELERATION[j]), 1e-12);
            assertEquals(0.0, s.qd[j], 0.0);
            assertEquals(0.0, s.qdd[j], 0.0);
            assertEquals(0.0, s.qddd[j], 0.0);
        }
        final Sample start = new Sample().at(profile, 0.0);
        for (int j = 0; j < DOF; j++)
        {
            assertEquals(q0[j], start.q[j], 0.0);
            assertEquals(v0[j], start.qd[j], 0.0);
            assertEquals(0.0, start.qdd[j], 0.0);
            assertEquals(0.0, start.qddd[j], 0.0);
        }
        assertEquals(15.0 / 8.0 * 2.175 / 7.5, profile.longestS(), 1e-12, "joint 1 is the slowest to stop");
    }

    @Test
    void aJointTooFastForTheStopTimeDeceleratesHarderAndStillStopsInTime()
    {
        final double[] v0 = {2.0, 0, 0, 0, 0, 0};
        final StopProfile profile = started(new double[DOF], v0, 0.1);
        assertEquals(0.1, profile.longestS(), 0.0);
        assertFalse(new Sample().at(profile, 0.099).stopped);
        final Sample end = new Sample().at(profile, 0.1);
        assertTrue(end.stopped);
        assertEquals(0.0, end.qd[0], 0.0);
        assertEquals(0.5 * 2.0 * 0.1, end.q[0], 1e-12, "v0 T / 2");
        assertEquals(15.0 / 8.0 * 2.0 / 0.1, Math.abs(new Sample().at(profile, 0.05).qdd[0]), 1e-9, "peak 15/8 v0 / T at T / 2");
    }

    /**
     * Joints 0 and 1 move towards a limit nearer than their braking distance (0.5 and 0.75 rad at
     * these speeds): each stops in the room it has, at the limit and not past it, sampled every
     * 10 us. Joint 2 moves away from its near limit and joint 3 towards a far one: both keep their
     * normal stop. Joint 4 starts past its limit: it stops in the shortest duration.
     */
    @Test
    void aJointNearerToItsLimitThanItsBrakingDistanceStopsAtTheLimit()
    {
        final double[] min = {-2.0, -1.0, -0.5, -2.0, -1.0, -1.0};
        final double[] max = {1.1, 1.0, 0.5, 2.0, 1.0, 1.0};
        final double[] q0 = {1.0, -0.7, 0.45, 0.0, 1.05, 0.0};
        final double[] v0 = {2.0, -2.0, -1.0, 1.0, 0.5, 0.0};
        final StopProfile profile = new StopProfile(min, max);
        profile.start(0L, q0, v0, DECELERATION, 0.002, 10.0);
        final Sample s = new Sample();
        for (double t = 0.0; t <= profile.longestS() + 1e-3; t += 1e-5)
        {
            s.at(profile, t);
            for (int j = 0; j < 4; j++)
            {
                assertTrue(s.q[j] >= min[j] - 1e-12 && s.q[j] <= max[j] + 1e-12, "joint " + j + " at t " + t + ": " + s.q[j]);
            }
        }
        assertTrue(s.stopped);
        assertEquals(1.1, s.q[0], 1e-12, "joint 0 ends at its upper limit");
        assertEquals(-1.0, s.q[1], 1e-12, "joint 1 ends at its lower limit");
        assertEquals(0.45 - StopProfile.brakingDistance(-1.0, DECELERATION[2]), s.q[2], 1e-12, "joint 2 stops as usual");
        assertEquals(StopProfile.brakingDistance(1.0, DECELERATION[3]), s.q[3], 1e-12, "joint 3 stops as usual");
        assertEquals(1.05 + 0.5 * 0.5 * 0.002, s.q[4], 1e-12, "joint 4 stops in the shortest duration");
        for (int j = 0; j < DOF; j++)
        {
            assertEquals(0.0, s.qd[j], 0.0);
        }
        assertEquals(2.0 * 0.3 / 2.0, profile.longestS(), 1e-12, "joint 1 is the slowest: 2 room / |v0|, 0.3 s for 0.5 s");
    }
}
