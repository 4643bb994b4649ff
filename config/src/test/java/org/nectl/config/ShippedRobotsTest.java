package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Every file shipped in config/robots/ loads and passes validation, with the expected joints; so does
 * the example of docs/ROBOT_DESCRIPTIONS.md.
 */
final class ShippedRobotsTest
{
    private static final Map<String, Integer> EXPECTED_DOF = Map.of(
        "stanford.yaml", 6,
        "two-link-rr.yaml", 2,
        "two-link-pr.yaml", 2,
        "puma560.yaml", 6,
        "panda.yaml", 7,
        "tree-32.yaml", 32,
        "quadruped-12.urdf", 12,
        "humanoid-31.urdf", 31);

    @Test
    void everyShippedDescriptionLoadsAndValidates() throws IOException
    {
        final List<Path> files = ShippedRobots.files();
        assertTrue(files.size() >= EXPECTED_DOF.size(), "shipped files: " + files);
        for (final Path file : files)
        {
            final RobotModel model = RobotDescriptions.load(file);
            assertTrue(model.dof() > 0, file + " has no movable joint");
            assertTrue(model.totalMass() > 0.0, file + " has no mass");
        }
    }

    @Test
    void eachNamedRobotIsShippedWithItsNumberOfJoints() throws IOException
    {
        final List<String> names = ShippedRobots.files().stream().map(p -> p.getFileName().toString())
            .collect(Collectors.toList());
        for (final Map.Entry<String, Integer> e : EXPECTED_DOF.entrySet())
        {
            assertTrue(names.contains(e.getKey()), e.getKey() + " missing from " + names);
            assertEquals(e.getValue(), RobotDescriptions.load(ShippedRobots.directory().resolve(e.getKey())).dof(),
                e.getKey());
        }
    }

    @Test
    void theLeggedRobotsFloatAndTheArmsAreFixed()
    {
        for (final String name : List.of("quadruped-12.urdf", "humanoid-31.urdf"))
        {
            assertTrue(RobotDescriptions.load(ShippedRobots.directory().resolve(name)).floatingBase(), name);
        }
        assertTrue(!RobotDescriptions.load(ShippedRobots.directory().resolve("panda.urdf")).floatingBase());
    }

    @Test
    void stanfordArmHasThePapersJointTypesMassesAndOffsets()
    {
        final RobotModel stanford = RobotDescriptions.load(ShippedRobots.directory().resolve("stanford.yaml"));
        final JointType r = JointType.REVOLUTE;
        assertEquals(List.of(r, r, JointType.PRISMATIC, r, r, r), List.of(stanford.jointTypes()));
        assertEquals(9.29 + 5.01 + 4.25 + 1.08 + 0.63 + 0.51, stanford.totalMass(), 1e-12);
        assertEquals(0.412, stanford.placementTranslation(0)[2], 0.0);
        // alpha_5 = pi/2 turns r_6 = 0.263 along the new z into -y of link 5's frame.
        assertEquals(-0.263, stanford.placementTranslation(5)[1], 1e-15);
        assertEquals("joint3", stanford.coordinateName(2));
    }

    @Test
    void exampleInTheFormatDocumentationLoads(@TempDir final Path dir) throws IOException
    {
        final Path doc = ShippedRobots.directory().getParent().getParent().resolve("docs").resolve("ROBOT_DESCRIPTIONS.md");
        final String text = Files.readString(doc);
        final String start = "## Example\n\n```yaml\n";
        final int from = text.indexOf(start);
        assertTrue(from >= 0, "no example in " + doc);
        final String example = text.substring(from + start.length(), text.indexOf("```", from + start.length()));
        final Path file = dir.resolve("example.yaml");
        Files.writeString(file, example);
        final RobotModel model = RobotDescriptions.load(file);
        assertEquals(List.of("shoulder", "elbow"), List.of(model.coordinateName(0), model.coordinateName(1)));
    }
}
