package org.nectl.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;

/**
 * Reads a robot with its motors and elastic joints (see docs/ROBOT_DESCRIPTIONS.md, "Motors and
 * elastic joints"): either a YAML robot description with an optional {@code drives} section, a
 * URDF (no drives), or an actuator overlay, a YAML file of {@code format: actuator-overlay} that
 * names a description (typically a URDF) by a path relative to itself and adds {@code drives}.
 * Not real-time safe (reads files); thread safe.
 */
public final class ElasticDescriptions
{
    /** The format of an actuator overlay file. */
    public static final String OVERLAY_FORMAT = "actuator-overlay";

    private static final List<String> OVERLAY_KEYS = List.of("format", "robot", DriveSection.KEY);

    private ElasticDescriptions()
    {
    }

    /**
     * @param path a .yaml/.yml description or overlay, or a .urdf.
     * @return the validated model; link coordinates in the order of the described robot.
     * @throws DescriptionException naming file, line, field, value and the rule broken.
     */
    public static ElasticRobotModel load(final Path path)
    {
        final String name = path.getFileName() == null ? "" : path.getFileName().toString().toLowerCase(Locale.ROOT);
        if (!name.endsWith(".yaml") && !name.endsWith(".yml"))
        {
            return ElasticRobotModel.rigid(RobotDescriptions.load(path));
        }
        final YamlField root = YamlField.load(path);
        if (root.has("format") && OVERLAY_FORMAT.equals(root.child("format").text()))
        {
            root.mapping(OVERLAY_KEYS);
            final YamlField robot = root.child("robot");
            final Path parent = path.toAbsolutePath().getParent();
            final Path described = parent == null ? Path.of(robot.text()) : parent.resolve(robot.text());
            if (described.getFileName() != null && described.getFileName().toString().toLowerCase(Locale.ROOT)
                .endsWith(".yaml") && YamlField.load(described).has(DriveSection.KEY))
            {
                throw robot.error("'" + robot.text() + "' has its own drives section; give drives in one place");
            }
            return DriveSection.read(RobotDescriptions.load(described), root.child(DriveSection.KEY));
        }
        final RobotModel links = RobotDescriptions.load(path);
        return DriveSection.read(links, root.optional(DriveSection.KEY).orElse(null));
    }
}
