package org.nectl.service.monitor;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;

/**
 * The measured platform pose of a Gough-Stewart platform, for {@code nectl monitor --model}: the
 * forward kinematics of the measured leg lengths of each Telemetry sample, Newton started from the
 * previous sample's pose (from the description's home at the first sample, and from the last pose
 * found after a sample without one). The pose is the platform origin in the base frame, m, and
 * roll, pitch, yaw, rad, with {@code R = Rz(yaw) Ry(pitch) Rx(roll)}, as {@code nectl plan --poses}
 * takes them. A sample whose Newton solution does not converge or ends at a parallel singularity
 * has no pose and is counted.
 *
 * <p>Not thread safe. Not real-time safe (the monitor is a process of its own).
 */
public final class PlatformPoses
{
    /** The CSV columns, in order. */
    public static final List<String> COLUMNS =
        List.of("platform_x", "platform_y", "platform_z", "platform_roll", "platform_pitch", "platform_yaw");

    private final Path file;
    private final GoughStewartKinematics kinematics;
    private final double[] lengths = new double[GoughStewartModel.LEGS];
    private final double[] position = new double[3];
    private final double[] rotation = new double[9];
    private final double[] lastPosition;
    private final double[] lastRotation;
    private final double[] pose = new double[6];
    private long failureCount;

    private PlatformPoses(final Path file, final GoughStewartModel hexapod)
    {
        this.file = file;
        kinematics = new GoughStewartKinematics(hexapod);
        lastPosition = hexapod.homePosition().clone();
        lastRotation = hexapod.homeRotation().clone();
    }

    /**
     * @param file a Gough-Stewart description ({@code format: gough-stewart}).
     * @return the pose estimator of its platform, starting at its home.
     * @throws ModelMismatchException if the file is not a Gough-Stewart description.
     * @throws org.nectl.config.DescriptionException naming file, line and rule if it is one but invalid.
     */
    public static PlatformPoses load(final Path file)
    {
        // A missing or unreadable file is left to the loader, which says why.
        if (Files.isRegularFile(file) && !GoughStewartDescriptions.isGoughStewart(file))
        {
            throw new ModelMismatchException("--model " + file + ": not a Gough-Stewart description (format: "
                + GoughStewartDescriptions.FORMAT + "); the platform pose needs one");
        }
        return new PlatformPoses(file, GoughStewartDescriptions.load(file));
    }

    /**
     * @param jointCount joints per Telemetry sample.
     * @throws ModelMismatchException unless the samples carry the six leg lengths.
     */
    public void checkJointCount(final int jointCount)
    {
        if (jointCount != GoughStewartModel.LEGS)
        {
            throw new ModelMismatchException("--model " + file + ": the telemetry carries " + jointCount + " joints, the platform has "
                + GoughStewartModel.LEGS + " legs; not this robot's telemetry");
        }
    }

    /**
     * Solves the pose of one sample's leg lengths.
     *
     * @param legLengths the six measured leg lengths, m.
     * @return true if the pose was found ({@link #pose()}), false if not (counted).
     */
    public boolean solve(final double[] legLengths)
    {
        System.arraycopy(legLengths, 0, lengths, 0, lengths.length);
        System.arraycopy(lastPosition, 0, position, 0, 3);
        System.arraycopy(lastRotation, 0, rotation, 0, 9);
        if (kinematics.forward(lengths, position, rotation) != GoughStewartKinematics.CONVERGED)
        {
            // The failed iterate may be far off: the next sample starts from the last pose found.
            failureCount++;
            return false;
        }
        System.arraycopy(position, 0, lastPosition, 0, 3);
        System.arraycopy(rotation, 0, lastRotation, 0, 9);
        System.arraycopy(position, 0, pose, 0, 3);
        pose[3] = Math.atan2(rotation[7], rotation[8]);
        pose[4] = -Math.asin(Math.max(-1.0, Math.min(1.0, rotation[6])));
        pose[5] = Math.atan2(rotation[3], rotation[0]);
        return true;
    }

    /**
     * Appends ",x,y,z,roll,pitch,yaw" of one sample, or six empty fields where it has no pose.
     *
     * @param legLengths the six measured leg lengths, m.
     * @param row the CSV row.
     */
    public void appendColumns(final double[] legLengths, final StringBuilder row)
    {
        final boolean found = solve(legLengths);
        for (int k = 0; k < pose.length; k++)
        {
            row.append(',');
            if (found)
            {
                row.append(pose[k]);
            }
        }
    }

    /** @return the last pose found: x, y, z (m), roll, pitch, yaw (rad); valid after {@link #solve} returned true. */
    public double[] pose()
    {
        return pose.clone();
    }

    /** @return the samples without a pose so far. */
    public long failureCount()
    {
        return failureCount;
    }

    /** The model cannot give the telemetry's platform pose: not a Gough-Stewart platform, or another robot. */
    public static final class ModelMismatchException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        ModelMismatchException(final String message)
        {
            super(message);
        }
    }
}
