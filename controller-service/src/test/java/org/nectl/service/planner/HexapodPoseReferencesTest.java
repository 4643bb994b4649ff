package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;

class HexapodPoseReferencesTest
{
    private static final Path HEXAPOD = Path.of("..", "config", "parallel-robots", "hexapod.yaml");
    private static final long SEED = 1802;

    /** The twist from roll-pitch-yaw rates, through the inverse kinematics, against differences of the leg lengths along the path. */
    @Test
    void legRatesAndAccelerationsFromPoseRatesMatchCentralDifferencesAlongTheirPath()
    {
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(HEXAPOD);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final SplittableRandom rnd = new SplittableRandom(SEED);
        final double h = 1e-4;
        final double[] twist = new double[6];
        final double[] twistRate = new double[6];
        final double[] lengths = new double[6];
        final double[] rates = new double[6];
        final double[] accelerations = new double[6];
        final double[] before = new double[6];
        final double[] after = new double[6];
        for (int n = 0; n < 20; n++)
        {
            final double[] pose = {rnd.nextDouble(-0.05, 0.05), rnd.nextDouble(-0.05, 0.05), 0.55 + rnd.nextDouble(-0.05, 0.05),
                rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.2, 0.2), rnd.nextDouble(-0.4, 0.4)};
            final double[] poseRate = new double[6];
            final double[] poseAcceleration = new double[6];
            for (int k = 0; k < 6; k++)
            {
                poseRate[k] = rnd.nextDouble(-0.5, 0.5);
                poseAcceleration[k] = rnd.nextDouble(-3, 3);
            }
            HexapodPoseReferences.platformMotion(pose, poseRate, poseAcceleration, 0, twist, twistRate);
            kinematics.inverse(position(pose), Transforms.rpy(pose[3], pose[4], pose[5]), twist, twistRate, lengths, rates,
                accelerations);
            legLengths(kinematics, pose, poseRate, poseAcceleration, h, after);
            legLengths(kinematics, pose, poseRate, poseAcceleration, -h, before);
            for (int i = 0; i < 6; i++)
            {
                final String where = "seed " + SEED + ", pose " + n + ", leg " + (i + 1);
                assertEquals((after[i] - before[i]) / (2 * h), rates[i], 1e-7, where + ": rate");
                assertEquals((after[i] - 2 * lengths[i] + before[i]) / (h * h), accelerations[i], 1e-5, where + ": acceleration");
            }
        }
    }

    /**
     * The loop interpolates leg lengths, not poses: on a 2 s minimum-jerk move (30 mm along x and
     * 0.1 rad of yaw) sent as poses 20 ms apart, the platform between the waypoints (forward
     * kinematics of the interpolated lengths) stays near the pose path; the bound is what was measured,
     * rounded up.
     */
    @Test
    void platformBetweenWaypointsStaysOnThePosePathWhenTheLoopInterpolatesLegLengths() throws Exception
    {
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(HEXAPOD);
        final int count = 101;
        final double[] times = new double[count];
        final double[][] poses = new double[count][];
        final int[] lines = new int[count];
        for (int p = 0; p < count; p++)
        {
            times[p] = 0.02 * p;
            poses[p] = move(times[p]);
            lines[p] = p + 2;
        }
        final JointTrajectory legs = HexapodPoseReferences.legLengths(hexapod,
            new PoseTrajectoryCsv.Poses(Path.of("move.csv"), times, poses, lines));
        final double[][] lengths = new double[count][6];
        for (int p = 0; p < count; p++)
        {
            for (int i = 0; i < 6; i++)
            {
                lengths[p][i] = legs.q(p, i);
            }
        }
        final TrajectorySampler sampler = new TrajectorySampler(HexapodPoseReferences.actuators(hexapod),
            new JointWaypoints(times, lengths));
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[] q = new double[6];
        final double[] scratch = new double[6];
        double worstPositionM = 0.0;
        double worstAngleRad = 0.0;
        for (int s = 0; s < 400; s++)
        {
            final double t = (s + 0.5) * 0.005;
            sampler.sample(t, q, scratch, scratch, scratch, scratch);
            final double[] exact = move(t);
            final double[] position = position(exact);
            final double[] rotation = Transforms.rpy(exact[3], exact[4], exact[5]);
            final double[] reached = position.clone();
            final double[] attitude = rotation.clone();
            assertEquals(GoughStewartKinematics.CONVERGED, kinematics.forward(q, reached, attitude), "t = " + t);
            for (int e = 0; e < 3; e++)
            {
                worstPositionM = Math.max(worstPositionM, Math.abs(reached[e] - position[e]));
            }
            // The angle of R_reached R_exact^T from its trace.
            final double trace = Transforms.multiply(attitude, Transforms.transpose(rotation))[0]
                + Transforms.multiply(attitude, Transforms.transpose(rotation))[4]
                + Transforms.multiply(attitude, Transforms.transpose(rotation))[8];
            worstAngleRad = Math.max(worstAngleRad, Math.acos(Math.min(1.0, (trace - 1) / 2)));
        }
        System.out.println("pose references, 20 ms waypoints on a 2 s minimum-jerk move: platform off the pose path by at most "
            + worstPositionM + " m and " + worstAngleRad + " rad between waypoints");
        assertTrue(worstPositionM < 1e-7, worstPositionM + " m");
        assertTrue(worstAngleRad < 3e-7, worstAngleRad + " rad");
    }

    private static double[] move(final double t)
    {
        final double tau = t / 2.0;
        final double s = tau * tau * tau * (10 - 15 * tau + 6 * tau * tau);
        return new double[] {0.03 * s, 0.0, 0.55, 0.0, 0.0, 0.1 * s};
    }

    /** Leg lengths at pose(t) = pose + rate t + acceleration t^2 / 2. */
    private static void legLengths(
        final GoughStewartKinematics kinematics, final double[] pose, final double[] rate, final double[] acceleration,
        final double t, final double[] lengths)
    {
        final double[] at = new double[6];
        for (int k = 0; k < 6; k++)
        {
            at[k] = pose[k] + rate[k] * t + acceleration[k] * t * t / 2;
        }
        kinematics.inverse(position(at), Transforms.rpy(at[3], at[4], at[5]), lengths);
    }

    private static double[] position(final double[] pose)
    {
        return new double[] {pose[0], pose[1], pose[2]};
    }
}
