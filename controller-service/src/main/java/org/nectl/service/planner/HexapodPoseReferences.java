package org.nectl.service.planner;

import java.util.Locale;

import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.KnotDerivatives;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;

/**
 * Turns platform pose references into the leg-length trajectory a Gough-Stewart platform is
 * commanded with (docs/PLANNING.md, "Platform poses for a hexapod"). The pose coordinates' rates and
 * accelerations at the waypoints are chosen by the rule joint trajectories use
 * ({@link KnotDerivatives}: rest at both ends and where a coordinate turns, else the parabola's
 * slope), turned into the platform twist and its rate, and the inverse kinematics gives each leg's
 * length, rate and acceleration. Every waypoint must lie in the workspace: each leg within the
 * actuators' stroke and speed, and the pose away from a parallel singularity (J_p^-1's
 * singular-value ratio at least the description's {@link GoughStewartDescriptions#SINGULAR_CONDITIONING});
 * and the leg lengths as the control loop interpolates them between the waypoints (it fits its curve
 * to the lengths alone) must stay within the stroke and speed.
 *
 * <p>Stateless. Not real-time safe.
 */
public final class HexapodPoseReferences
{
    private HexapodPoseReferences()
    {
    }

    /**
     * @param hexapod the platform.
     * @param poses the pose waypoints.
     * @return the leg lengths (m), rates and accelerations at the same times, leg 1 to 6.
     * @throws TrajectoryFormatException naming the file, line and time of the first waypoint out of
     *     the workspace: the leg and its length, or its speed, against the limit; or the singularity.
     */
    public static JointTrajectory legLengths(final GoughStewartModel hexapod, final PoseTrajectoryCsv.Poses poses)
    {
        final int count = poses.count();
        final double[] flat = new double[6 * count];
        for (int p = 0; p < count; p++)
        {
            System.arraycopy(poses.poses()[p], 0, flat, 6 * p, 6);
        }
        final double[] rates = new double[flat.length];
        final double[] accelerations = new double[flat.length];
        for (int k = 0; k < 6 && count > 1; k++)
        {
            KnotDerivatives.choose(poses.timesS(), flat, 6, k, rates);
            KnotDerivatives.choose(poses.timesS(), rates, 6, k, accelerations);
        }
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[][] q = new double[count][6];
        final double[][] qd = new double[count][6];
        final double[][] qdd = new double[count][6];
        final double[] twist = new double[6];
        final double[] twistRate = new double[6];
        for (int p = 0; p < count; p++)
        {
            final double[] pose = poses.poses()[p];
            final double[] position = {pose[0], pose[1], pose[2]};
            final double[] rotation = Transforms.rpy(pose[3], pose[4], pose[5]);
            platformMotion(pose, rates, accelerations, 6 * p, twist, twistRate);
            kinematics.inverse(position, rotation, twist, twistRate, q[p], qd[p], qdd[p]);
            check(hexapod, poses, p, position, rotation, q[p], qd[p]);
        }
        checkInterpolation(hexapod, poses, q);
        return new JointTrajectory(poses.timesS(), q, qd, qdd);
    }

    /**
     * The six actuators alone, as the control loop's trajectory sampler sees a leg-length command:
     * independent massless prismatic joints {@code leg1_actuator} ... with the stroke and speed limits.
     *
     * @param hexapod the platform.
     * @return the actuator space as a robot model.
     */
    public static RobotModel actuators(final GoughStewartModel hexapod)
    {
        final RobotModel.Builder builder = RobotModel.builder(hexapod.name() + "-actuators");
        final InertialParameters none = InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        final RobotModel legs = hexapod.legs();
        for (int i = 0; i < GoughStewartModel.LEGS; i++)
        {
            final int body = builder.addBody(legs.bodyName(legs.bodyOfCoordinate(3 * i + 2)), legs.coordinateName(3 * i + 2), -1,
                JointType.PRISMATIC, Transforms.identity(), new double[3], none);
            builder.limits(body, hexapod.actuatorLimits());
        }
        return builder.build();
    }

    /** The leg lengths as the loop interpolates them between the waypoints, against the stroke and speed. */
    private static void checkInterpolation(final GoughStewartModel hexapod, final PoseTrajectoryCsv.Poses poses, final double[][] q)
    {
        if (poses.count() < 2)
        {
            return;
        }
        try
        {
            new TrajectorySampler(actuators(hexapod), new JointWaypoints(poses.timesS(), q));
        }
        catch (final IllegalArgumentException e)
        {
            throw new TrajectoryFormatException(poses.file() + ": the leg lengths interpolated between the poses: " + e.getMessage());
        }
    }

    /**
     * The platform twist and its rate from the pose coordinates' rates and accelerations, with
     * {@code R = Rz(yaw) Ry(pitch) Rx(roll)}: omega = rolldot e_r + pitchdot e_p + yawdot z, e_r = Rz Ry x
     * and e_p = Rz y, whose rates are (yawdot z + pitchdot e_p) x e_r and yawdot z x e_p.
     *
     * @param pose {x, y, z, roll, pitch, yaw}.
     * @param rates pose coordinate rates, six from offset.
     * @param accelerations pose coordinate accelerations, six from offset.
     * @param offset where this waypoint's six values start.
     * @param twist output (v, omega), base frame.
     * @param twistRate output (vdot, omegadot), base frame.
     */
    static void platformMotion(
        final double[] pose, final double[] rates, final double[] accelerations, final int offset, final double[] twist,
        final double[] twistRate)
    {
        final double cp = Math.cos(pose[4]);
        final double sp = Math.sin(pose[4]);
        final double cy = Math.cos(pose[5]);
        final double sy = Math.sin(pose[5]);
        final double[] er = {cy * cp, sy * cp, -sp};
        final double[] ep = {-sy, cy, 0.0};
        final double rollRate = rates[offset + 3];
        final double pitchRate = rates[offset + 4];
        final double yawRate = rates[offset + 5];
        // (yawdot z + pitchdot e_p) x e_r and yawdot z x e_p.
        final double[] spin = {pitchRate * ep[0], pitchRate * ep[1], yawRate};
        final double[] erRate = {spin[1] * er[2] - spin[2] * er[1], spin[2] * er[0] - spin[0] * er[2], spin[0] * er[1] - spin[1] * er[0]};
        final double[] epRate = {-yawRate * ep[1], yawRate * ep[0], 0.0};
        for (int e = 0; e < 3; e++)
        {
            twist[e] = rates[offset + e];
            twistRate[e] = accelerations[offset + e];
            twist[3 + e] = rollRate * er[e] + pitchRate * ep[e] + (e == 2 ? yawRate : 0.0);
            twistRate[3 + e] = accelerations[offset + 3] * er[e] + accelerations[offset + 4] * ep[e]
                + (e == 2 ? accelerations[offset + 5] : 0.0) + rollRate * erRate[e] + pitchRate * epRate[e];
        }
    }

    private static void check(
        final GoughStewartModel hexapod, final PoseTrajectoryCsv.Poses poses, final int p, final double[] position,
        final double[] rotation, final double[] lengths, final double[] rates)
    {
        final String where = poses.file() + ":" + poses.lines()[p] + ": pose at t = " + poses.timesS()[p] + " s: ";
        final JointLimits limits = hexapod.actuatorLimits();
        for (int i = 0; i < lengths.length; i++)
        {
            if (!(lengths[i] >= limits.positionMin() && lengths[i] <= limits.positionMax()))
            {
                throw new TrajectoryFormatException(where + "leg " + (i + 1) + " would be " + format(lengths[i])
                    + " m long, outside the stroke [" + limits.positionMin() + ", " + limits.positionMax()
                    + "] m (the pose is out of the workspace)");
            }
            if (!(Math.abs(rates[i]) <= limits.velocityMax()))
            {
                throw new TrajectoryFormatException(where + "leg " + (i + 1) + " would move at " + format(rates[i])
                    + " m/s, beyond the actuator speed " + limits.velocityMax() + " m/s");
            }
        }
        final double conditioning = hexapod.conditioning(position, rotation);
        if (!(conditioning >= GoughStewartDescriptions.SINGULAR_CONDITIONING))
        {
            throw new TrajectoryFormatException(where + "the platform would be at a parallel singularity: J_p^-1 has singular-value"
                + " ratio " + conditioning + ", below " + GoughStewartDescriptions.SINGULAR_CONDITIONING);
        }
    }

    private static String format(final double value)
    {
        return String.format(Locale.ROOT, "%.6f", value);
    }
}
