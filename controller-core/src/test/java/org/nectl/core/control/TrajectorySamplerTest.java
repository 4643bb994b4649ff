package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

class TrajectorySamplerTest
{
    private static final int DOF = 7;

    /** Time-ordered samples: q, qd, qdd, qddd, qdddd. */
    private final double[][] at = new double[5][DOF];
    private final double[][] other = new double[5][DOF];

    @Test
    void positionThroughJerkAreContinuousAcrossEveryWaypoint()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 20; seed++)
        {
            final TrajectorySampler sampler = new TrajectorySampler(unlimited(DOF), randomWaypoints(seed, 12));
            final double[] times = randomTimes(seed, 12);
            for (int k = 1; k < times.length - 1; k++)
            {
                sample(sampler, Math.nextDown(times[k]), other);
                sample(sampler, times[k], at);
                for (int order = 0; order < 4; order++)
                {
                    for (int j = 0; j < DOF; j++)
                    {
                        // Both sides are evaluated 1 ulp of t apart, so a jump can only be the
                        // rounding of the normalised-time Horner sums (terms up to ~1e3 x 4 rad
                        // cancelling at s = 1) scaled by 1/h^order with h >= 0.1 s: ~1e-12 of the
                        // derivative's scale 4 rad / (0.1 s)^order. A wrong coefficient gives O(1).
                        final double scale = 4.0 / Math.pow(0.1, order);
                        final double jump = Math.abs(at[order][j] - other[order][j]) / scale;
                        worst = Math.max(worst, jump);
                        assertTrue(jump < 1e-10, "seed " + seed + ", waypoint " + k + ", joint " + j
                            + ", derivative " + order + ": jump " + jump);
                    }
                }
            }
        }
        System.out.println("largest relative jump of q..qddd across a waypoint: " + worst);
    }

    @Test
    void passesThroughEveryWaypointExactly()
    {
        for (long seed = 1; seed <= 10; seed++)
        {
            final JointWaypoints waypoints = randomWaypoints(seed, 9);
            final TrajectorySampler sampler = new TrajectorySampler(unlimited(DOF), waypoints);
            for (int k = 0; k < waypoints.count(); k++)
            {
                sample(sampler, waypoints.timeS(k), at);
                sample(sampler, Math.nextDown(waypoints.timeS(k)), other);
                for (int j = 0; j < DOF; j++)
                {
                    assertEquals(waypoints.position(k, j), at[0][j], 1e-14, "seed " + seed + ", waypoint " + k);
                    assertEquals(waypoints.position(k, j), other[0][j], 1e-12, "seed " + seed + ", waypoint " + k);
                }
            }
        }
    }

    @Test
    void everyDerivativeMatchesFivePointDifferenceOfTheOneBelow()
    {
        final double dtS = 1e-4;
        double worst = 0.0;
        for (long seed = 1; seed <= 20; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 31);
            final double[] times = randomTimes(seed, 12);
            final TrajectorySampler sampler = new TrajectorySampler(unlimited(DOF), randomWaypoints(seed, 12));
            final double[][][] stencil = new double[4][5][DOF];
            for (int n = 0; n < 100; n++)
            {
                final int k = rnd.nextInt(times.length - 1);
                // Keep the stencil inside one segment: snap may jump at waypoints.
                final double t = rnd.nextDouble(times[k] + 3 * dtS, times[k + 1] - 3 * dtS);
                sample(sampler, t, at);
                sample(sampler, t + 2 * dtS, stencil[0]);
                sample(sampler, t + dtS, stencil[1]);
                sample(sampler, t - dtS, stencil[2]);
                sample(sampler, t - 2 * dtS, stencil[3]);
                for (int order = 1; order < 5; order++)
                {
                    // Error dt^4/30 |f^(order+4)| + eps |f^(order-1)| / dt. With |q| <= 2 rad and
                    // segments h >= 0.1 s, derivative n is at most C 4 rad / h^n with the septic's
                    // normalised constants C < 1e5: relative to 4 rad / h^order the truncation is
                    // below (dt/h)^4 C / 30 = 3e-9 and the rounding about eps h / dt = 1e-13.
                    final double scale = 4.0 / Math.pow(0.1, order);
                    for (int j = 0; j < DOF; j++)
                    {
                        final int m = order - 1;
                        final double difference = (-stencil[0][m][j] + 8 * stencil[1][m][j] - 8 * stencil[2][m][j]
                            + stencil[3][m][j]) / (12 * dtS);
                        final double error = Math.abs(at[order][j] - difference) / scale;
                        worst = Math.max(worst, error);
                        assertTrue(error < 1e-8, "seed " + seed + ", t " + t + ", joint " + j + ", derivative "
                            + order + ": " + at[order][j] + " vs difference " + difference);
                    }
                }
            }
        }
        System.out.println("largest scaled error of derivatives 1-4 against five-point differences: " + worst);
    }

    @Test
    void twoWaypointsGiveTheRestToRestSepticProfile()
    {
        final double q0 = -0.3;
        final double q1 = 1.1;
        final double durationS = 2.0;
        final TrajectorySampler sampler = new TrajectorySampler(
            unlimited(1), new JointWaypoints(new double[] {0.0, durationS}, new double[][] {{q0}, {q1}}));
        final double[][] one = new double[5][1];
        for (int i = 0; i <= 100; i++)
        {
            final double s = i / 100.0;
            sampler.sample(s * durationS, one[0], one[1], one[2], one[3], one[4]);
            final double shape = s * s * s * s * (35 - 84 * s + 70 * s * s - 20 * s * s * s);
            final double velocityShape = 140 * Math.pow(s * (1 - s), 3);
            assertEquals(q0 + (q1 - q0) * shape, one[0][0], 1e-13, "s " + s);
            assertEquals((q1 - q0) * velocityShape / durationS, one[1][0], 1e-13, "s " + s);
        }
    }

    @Test
    void startsAndEndsAtRestAndHoldsOutsideItsTimeSpan()
    {
        final JointWaypoints waypoints = randomWaypoints(7, 6);
        final TrajectorySampler sampler = new TrajectorySampler(unlimited(DOF), waypoints);
        final double start = waypoints.timeS(0);
        final double end = waypoints.timeS(waypoints.count() - 1);
        assertEquals(start, sampler.startTimeS());
        assertEquals(end, sampler.endTimeS());
        assertEquals(TrajectorySampler.IN_PROGRESS, sample(sampler, start, at));
        assertRest(at, waypoints, 0, 1e-15);
        assertEquals(TrajectorySampler.IN_PROGRESS, sample(sampler, Math.nextDown(end), at));
        assertRest(at, waypoints, waypoints.count() - 1, 1e-9);
        assertEquals(TrajectorySampler.BEFORE_START, sample(sampler, start - 5.0, at));
        assertRest(at, waypoints, 0, 0.0);
        assertEquals(TrajectorySampler.FINISHED, sample(sampler, end, at));
        assertRest(at, waypoints, waypoints.count() - 1, 0.0);
        assertEquals(TrajectorySampler.FINISHED, sample(sampler, Double.POSITIVE_INFINITY, at));
        assertRest(at, waypoints, waypoints.count() - 1, 0.0);
    }

    @Test
    void nanTimeIsReportedAndWritesNothing()
    {
        final TrajectorySampler sampler = new TrajectorySampler(unlimited(DOF), randomWaypoints(3, 4));
        for (final double[] row : at)
        {
            Arrays.fill(row, 42.0);
        }
        assertEquals(TrajectorySampler.INVALID_TIME, sample(sampler, Double.NaN, at));
        for (final double[] row : at)
        {
            for (final double v : row)
            {
                assertEquals(42.0, v);
            }
        }
    }

    @Test
    void curveExtremaFoundByRootSearchMatchDenseSampling()
    {
        // 0.99 -> 1.0 with the velocity carried over from the steep segment before overshoots 1.0.
        final JointWaypoints waypoints = overshooting();
        final TrajectorySampler sampler = new TrajectorySampler(unlimited(1), waypoints);
        final double[][] one = new double[5][1];
        double densePeak = Double.NEGATIVE_INFINITY;
        for (int i = 0; i <= 200_000; i++)
        {
            sampler.sample(3.0 * i / 200_000, one[0], one[1], one[2], one[3], one[4]);
            densePeak = Math.max(densePeak, one[0][0]);
        }
        assertTrue(densePeak > 1.0, "the test curve must overshoot its last waypoint, peak " + densePeak);
        final double[] range = new double[4];
        final double[] c = new double[SepticHermite.COEFFICIENTS];
        // Rebuild the last segment from the sampler's state at its start and search its maximum.
        sampler.sample(2.0, one[0], one[1], one[2], one[3], one[4]);
        SepticHermite.fit(1.0, one[0][0], one[1][0], one[2][0], one[3][0], 1.0, 0.0, 0.0, 0.0, c, 0);
        SepticHermite.range(c, 0, 0, range);
        // Dense sampling every 1.5e-5 s can only under-estimate the peak, by ~ |qdd| dt^2 / 8.
        assertEquals(densePeak, range[2], 1e-9, "root-search maximum vs dense sampling");
        assertTrue(range[2] >= densePeak, "root search found " + range[2] + ", dense sampling " + densePeak);
    }

    @Test
    void rejectsCurveThatLeavesThePositionLimitBetweenWaypoints()
    {
        final RobotModel model = chain(new JointLimits(-2.0, 1.0, 10.0, 100.0, 1000.0));
        final IllegalArgumentException e = assertThrows(
            IllegalArgumentException.class, () -> new TrajectorySampler(model, overshooting()));
        assertMessage(e, "between waypoints 2 and 3", "joint 'j0' (coordinate 0)", "above the upper limit 1.0 rad");
    }

    @Test
    void rejectsWaypointOutsideThePositionLimitNamingIt()
    {
        final RobotModel model = chain(
            JointLimits.NONE, new JointLimits(-1.0, 1.0, 10.0, 100.0, 1000.0));
        final JointWaypoints waypoints = new JointWaypoints(
            new double[] {0, 1, 2}, new double[][] {{0, 0}, {0, -1.25}, {0, 0}});
        final IllegalArgumentException e = assertThrows(
            IllegalArgumentException.class, () -> new TrajectorySampler(model, waypoints));
        assertMessage(e, "waypoint 1 (t = 1.0 s)", "joint 'j1' (coordinate 1)", "position -1.25 rad",
            "below the lower limit -1.0 rad");
    }

    @Test
    void rejectsPeakVelocityAboveTheLimitBetweenWaypoints()
    {
        // Rest to rest over 1 rad in 1 s peaks at 140 / 64 = 2.1875 rad/s mid-way.
        final JointWaypoints waypoints = new JointWaypoints(new double[] {0, 1}, new double[][] {{0}, {1}});
        new TrajectorySampler(chain(new JointLimits(-5, 5, 2.1876, 100, 1000)), waypoints);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new TrajectorySampler(chain(new JointLimits(-5, 5, 2.0, 100, 1000)), waypoints));
        assertMessage(e, "between waypoints 0 and 1 (at t = 0.5", "joint 'j0'", "velocity 2.187",
            "exceeds the limit +/-2.0 rad/s");
    }

    @Test
    void namesMetresForPrismaticJoints()
    {
        final RobotModel.Builder b = RobotModel.builder("slider");
        b.limits(b.addBody("carriage", "slide", -1, JointType.PRISMATIC, Transforms.identity(), new double[3], link()),
            new JointLimits(0.0, 0.5, 1.0, 100.0, 1000.0));
        final RobotModel model = b.build();
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new TrajectorySampler(model,
                new JointWaypoints(new double[] {0, 1}, new double[][] {{0.1}, {0.6}})));
        assertMessage(e, "waypoint 1", "position 0.6 m", "above the upper limit 0.5 m");
    }

    @Test
    void rejectsWaypointsWithTheWrongJointCountForTheModel()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new TrajectorySampler(unlimited(6), randomWaypoints(1, 3)));
        assertMessage(e, "7 joint values", "6 coordinates");
    }

    @Test
    void rejectsNonIncreasingAndNonFiniteTimes()
    {
        final double[][] q = {{0}, {1}, {2}};
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1, 1}, q)), "waypoint 2: time 1.0 s is not after waypoint 1");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 2, 1}, q)), "waypoint 2: time 1.0 s is not after waypoint 1");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, Double.NaN, 3}, q)), "waypoint 1: time NaN s is not finite");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1, Double.POSITIVE_INFINITY}, q)),
            "waypoint 2: time Infinity s is not finite");
    }

    @Test
    void rejectsNonFinitePositionsNamingWaypointAndJoint()
    {
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1}, new double[][] {{0, 0}, {0, Double.NaN}})),
            "waypoint 1, joint 1: position NaN is not finite");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1}, new double[][] {{Double.NEGATIVE_INFINITY, 0}, {0, 0}})),
            "waypoint 0, joint 0: position -Infinity is not finite");
    }

    @Test
    void rejectsRaggedOrTooFewOrMismatchedWaypoints()
    {
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1}, new double[][] {{0, 0}, {0}})),
            "waypoint 1 has 1 joint values, expected 2");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0}, new double[][] {{0}})), "at least 2 waypoints, got 1");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1}, new double[][] {{0}})), "2 waypoint times but 1");
        assertMessage(assertThrows(IllegalArgumentException.class,
            () -> new JointWaypoints(new double[] {0, 1}, new double[][] {{}, {}})), "waypoint 0 has no joint values");
    }

    @Test
    void reversalsAreWaypointsOfZeroVelocity()
    {
        final TrajectorySampler sampler = new TrajectorySampler(unlimited(1),
            new JointWaypoints(new double[] {0, 0.5, 1.7, 2.0}, new double[][] {{0}, {1}, {-0.5}, {0.2}}));
        final double[][] one = new double[5][1];
        sampler.sample(0.5, one[0], one[1], one[2], one[3], one[4]);
        assertEquals(0.0, one[1][0]);
        sampler.sample(1.7, one[0], one[1], one[2], one[3], one[4]);
        assertEquals(0.0, one[1][0]);
    }

    private static JointWaypoints overshooting()
    {
        return new JointWaypoints(new double[] {0, 1, 2, 3}, new double[][] {{0}, {0.5}, {0.99}, {1.0}});
    }

    private static void assertRest(final double[][] s, final JointWaypoints w, final int k, final double tolerance)
    {
        for (int j = 0; j < DOF; j++)
        {
            assertEquals(w.position(k, j), s[0][j], tolerance, "position, joint " + j);
            for (int order = 1; order < 4; order++)
            {
                assertEquals(0.0, s[order][j], tolerance * 1e3, "derivative " + order + ", joint " + j);
            }
        }
    }

    private static void assertMessage(final IllegalArgumentException e, final String... parts)
    {
        for (final String part : parts)
        {
            assertTrue(e.getMessage().contains(part), "'" + e.getMessage() + "' should contain '" + part + "'");
        }
    }

    private static int sample(final TrajectorySampler sampler, final double t, final double[][] into)
    {
        return sampler.sample(t, into[0], into[1], into[2], into[3], into[4]);
    }

    private static double[] randomTimes(final long seed, final int count)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final double[] times = new double[count];
        times[0] = rnd.nextDouble(-1.0, 1.0);
        for (int k = 1; k < count; k++)
        {
            times[k] = times[k - 1] + rnd.nextDouble(0.1, 1.0);
        }
        return times;
    }

    /** Uneven times (as {@link #randomTimes}) and positions in [-2, 2] rad; same seed, same waypoints. */
    private static JointWaypoints randomWaypoints(final long seed, final int count)
    {
        final double[] times = randomTimes(seed, count);
        final SplittableRandom rnd = new SplittableRandom(seed + 1000);
        final double[][] q = new double[count][];
        for (int k = 0; k < count; k++)
        {
            q[k] = RandomRobots.vector(rnd, DOF, 2.0);
        }
        return new JointWaypoints(times, q);
    }

    private static RobotModel unlimited(final int dof)
    {
        return RandomRobots.robot(dof, dof, false, RandomRobots.Joints.REVOLUTE, false);
    }

    private static RobotModel chain(final JointLimits... limits)
    {
        final RobotModel.Builder b = RobotModel.builder("chain");
        for (int j = 0; j < limits.length; j++)
        {
            final int body = b.addBody("l" + j, "j" + j, j - 1, JointType.REVOLUTE, Transforms.identity(),
                new double[] {0, 0, 0.3}, link());
            b.limits(body, limits[j]);
        }
        return b.build();
    }

    private static InertialParameters link()
    {
        return InertialParameters.ofCentreOfMass(1.0, new double[] {0, 0, 0.1},
            new double[] {0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01});
    }
}
