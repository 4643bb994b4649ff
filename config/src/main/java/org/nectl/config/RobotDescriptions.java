package org.nectl.config;

import java.nio.file.Path;
import java.util.Locale;

import org.nectl.config.urdf.UrdfReader;
import org.nectl.core.model.RobotModel;

/**
 * The one entry point for reading a robot description file into a validated {@link RobotModel},
 * whatever its format; the format follows from the file extension. Not real-time safe (reads a
 * file, allocates); thread safe.
 */
public final class RobotDescriptions
{
    private RobotDescriptions()
    {
    }

    /**
     * Reads a robot description: {@code .yaml} / {@code .yml} (modified DH in Khalil's tree notation,
     * or standard DH; see docs/ROBOT_DESCRIPTIONS.md) or {@code .urdf} (see {@link UrdfReader}).
     *
     * @param path the description file.
     * @return the model; coordinates in the order of the movable joints in the file.
     * @throws DescriptionException naming file, line, field, value and the rule broken.
     */
    public static RobotModel load(final Path path)
    {
        final String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml"))
        {
            return YamlRobotDescription.read(path);
        }
        if (name.endsWith(".urdf"))
        {
            return UrdfReader.read(path);
        }
        throw new DescriptionException(path.toString(), 0, 0, "",
            "unknown description format: the file name must end in .yaml, .yml or .urdf");
    }
}
