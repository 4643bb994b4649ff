package org.nectl.config;

import java.nio.file.Path;
import java.util.Locale;

import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.parallel.GoughStewartClosedChain;

/**
 * Description files of robots that the controller serves in their active coordinates: a
 * modified-DH tree with a {@code closure} section ({@link ClosedLoopDescriptions}), or a
 * Gough-Stewart platform ({@link GoughStewartDescriptions}), served as its closed chain
 * ({@link GoughStewartClosedChain}: the six actuators active, so it is commanded in leg lengths).
 */
public final class ClosedChains
{
    private ClosedChains()
    {
    }

    /**
     * @param path a description file.
     * @return true if it describes a closed-loop robot or a Gough-Stewart platform; false for any
     *     other file, including unreadable ones (loading them reports why).
     */
    public static boolean isClosedChain(final Path path)
    {
        return ClosedLoopDescriptions.isClosedLoop(path) || isGoughStewart(path);
    }

    /**
     * @param path a description file.
     * @return true if it is a YAML file with {@code format: gough-stewart}.
     */
    public static boolean isGoughStewart(final Path path)
    {
        final Path name = path.getFileName();
        final String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".yaml") && !lower.endsWith(".yml"))
        {
            return false;
        }
        try
        {
            final YamlField root = YamlField.load(path);
            return root.has("format") && GoughStewartDescriptions.FORMAT.equals(root.child("format").text());
        }
        catch (final DescriptionException e)
        {
            return false;
        }
    }

    /**
     * The joints a controller serving the file commands, as planners check trajectories against
     * them. Not real-time safe.
     *
     * @param path any description file.
     * @return the active joints of a closed-loop robot or a Gough-Stewart platform
     *     ({@link ActiveJoints}), the robot itself for a tree.
     * @throws DescriptionException naming file, line, field and rule for a bad description.
     */
    public static RobotModel controlledJoints(final Path path)
    {
        return isClosedChain(path) ? ActiveJoints.of(load(path)) : RobotDescriptions.load(path);
    }

    /**
     * Not real-time safe.
     *
     * @param path a closed-loop or Gough-Stewart description ({@link #isClosedChain}).
     * @return the closed-loop model the controller and the simulator serve.
     * @throws DescriptionException naming file, line, field and rule for a bad description.
     */
    public static ClosedLoopModel load(final Path path)
    {
        return isGoughStewart(path) ? GoughStewartClosedChain.of(GoughStewartDescriptions.load(path))
            : ClosedLoopDescriptions.load(path);
    }
}
