package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The demo move against independent oracles: central finite differences of each sampled derivative
 * give the next one, it starts and ends at rest at the start pose, and it peaks at mid-move.
 */
final class DemoMoveTest
{
    private static final double[] START = {0.1, -0.2, 0.3};
    private static final double AMPLITUDE = 0.4;
    private static final double DURATION_S = 2.0;

    private final DemoMove move = new DemoMove(START, AMPLITUDE, DURATION_S);

    /**
     * Step 1e-5 s: the central-difference truncation error is h² f'''/6, below 1e-8 for these
     * polynomials (|jerk'| ≤ 360 A / (T/2)⁴ ≈ 144); rounding adds about 1e-16 / h ≈ 1e-11 on q.
     */
    @Test
    void derivativesMatchCentralFiniteDifferences()
    {
        final double h = 1e-5;
        final double[][] plus = new double[4][3];
        final double[][] minus = new double[4][3];
        final double[][] at = new double[4][3];
        for (int i = 1; i < 40; i++)
        {
            final double t = i * DURATION_S / 40.0 + 0.0123;
            move.sample(t, at[0], at[1], at[2], at[3]);
            move.sample(t + h, plus[0], plus[1], plus[2], plus[3]);
            move.sample(t - h, minus[0], minus[1], minus[2], minus[3]);
            for (int order = 0; order < 3; order++)
            {
                for (int k = 0; k < START.length; k++)
                {
                    final double difference = (plus[order][k] - minus[order][k]) / (2 * h);
                    assertEquals(at[order + 1][k], difference, 1e-5 * Math.max(1.0, Math.abs(at[order + 1][k])),
                        "derivative " + (order + 1) + " of joint " + k + " at t = " + t);
                }
            }
        }
    }

    @Test
    void startsAndEndsAtRestAtTheStartPoseAndPeaksAtMidMove()
    {
        final double[] q = new double[3];
        final double[] qd = new double[3];
        final double[] qdd = new double[3];
        final double[] qddd = new double[3];
        for (final double t : new double[] {0.0, DURATION_S})
        {
            move.sample(t, q, qd, qdd, qddd);
            for (int k = 0; k < 3; k++)
            {
                assertEquals(START[k], q[k], 1e-15, "q at t = " + t);
                assertEquals(0.0, qd[k], 1e-15, "qd at t = " + t);
                assertEquals(0.0, qdd[k], 1e-15, "qdd at t = " + t);
            }
        }
        move.sample(0.5 * DURATION_S, q, qd, qdd, qddd);
        assertEquals(START[0] + AMPLITUDE, q[0], 1e-15);
        assertEquals(START[1] - AMPLITUDE, q[1], 1e-15, "odd joints move the other way");
        assertEquals(0.0, qd[2], 1e-15);
    }

    @Test
    void trajectoryWaypointsAreSamplesOfTheMoveEndingExactlyAtItsEnd()
    {
        final JointTrajectory trajectory = move.toTrajectory(0.3);
        assertEquals(8, trajectory.waypointCount(), "0, 0.3, ..., 1.8, then 2.0");
        assertEquals(DURATION_S, trajectory.durationS(), 0.0);
        final double[] q = new double[3];
        final double[] qd = new double[3];
        final double[] qdd = new double[3];
        final double[] qddd = new double[3];
        move.sample(0.9, q, qd, qdd, qddd);
        assertEquals(q[1], trajectory.q(3, 1), 1e-15);
        assertEquals(qd[1], trajectory.qd(3, 1), 1e-15);
        assertEquals(qdd[1], trajectory.qdd(3, 1), 1e-12, "waypoint 3 is at 3 * 0.3 s, a rounding away from 0.9 s");
    }
}
