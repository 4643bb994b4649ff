package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/** The URDF robots shipped in {@code config/robots}: they load, mean what the URDF says, and export losslessly. */
class ShippedUrdfRobotsTest
{
    private static final Path ROBOTS = Path.of("robots");
    private static final Path TORSO = ROBOTS.resolve("torso-two-arms.urdf");
    private static final Path PANDA_URDF = ROBOTS.resolve("panda.urdf");

    /**
     * The joint origins of Franka Emika's own URDF of the Panda arm (franka_description), kinematics
     * only, to check the shipped description's frames against the manufacturer's.
     */
    private static final String FRANKA_PANDA_KINEMATICS = "<robot name=\"franka\">"
        + "<link name=\"link0\"/><link name=\"link1\"/><link name=\"link2\"/><link name=\"link3\"/>"
        + "<link name=\"link4\"/><link name=\"link5\"/><link name=\"link6\"/><link name=\"link7\"/>"
        + "<link name=\"flange\"/>"
        + joint("joint1", "link0", "link1", "0 0 0.333", "0 0 0")
        + joint("joint2", "link1", "link2", "0 0 0", "-1.5707963267948966 0 0")
        + joint("joint3", "link2", "link3", "0 -0.316 0", "1.5707963267948966 0 0")
        + joint("joint4", "link3", "link4", "0.0825 0 0", "1.5707963267948966 0 0")
        + joint("joint5", "link4", "link5", "-0.0825 0.384 0", "-1.5707963267948966 0 0")
        + joint("joint6", "link5", "link6", "0 0 0", "1.5707963267948966 0 0")
        + joint("joint7", "link6", "link7", "0.088 0 0", "1.5707963267948966 0 0")
        + "<joint name=\"joint8\" type=\"fixed\"><parent link=\"link7\"/><child link=\"flange\"/>"
        + "<origin xyz=\"0 0 0.107\"/></joint></robot>";

    private static String joint(
        final String name, final String parent, final String child, final String xyz, final String rpy)
    {
        return "<joint name=\"" + name + "\" type=\"revolute\"><parent link=\"" + parent + "\"/><child link=\""
            + child + "\"/><origin xyz=\"" + xyz + "\" rpy=\"" + rpy + "\"/><axis xyz=\"0 0 1\"/></joint>";
    }

    @Test
    void torsoWithTwoArmsIsABranchedTreeOfSixteenCoordinates()
    {
        final RobotModel model = RobotDescriptions.load(TORSO);
        assertEquals(16, model.dof());
        assertEquals(20, model.bodyCount());
        assertEquals("base_link", model.baseName());
        assertEquals("torso_lift_joint", model.coordinateName(0));
        assertEquals("r_wrist_roll_joint", model.coordinateName(15));
        final int chest = model.bodyIndex("chest_link");
        assertEquals(JointType.FIXED, model.jointType(chest));
        assertEquals(chest, model.parent(model.bodyIndex("l_shoulder_link")));
        assertEquals(chest, model.parent(model.bodyIndex("r_shoulder_link")));
        assertEquals(JointType.PRISMATIC, model.jointType(model.bodyIndex("torso_lift_link")));
        assertEquals(0.0, model.inertialParameters(model.bodyIndex("l_tool_frame")).mass(), 0.0);
        assertEquals(14.0 + 18.5 + 6.0 + 2 * (3.2 + 2.6 + 1.9 + 1.6 + 1.1 + 0.7 + 0.55), model.totalMass(), 1e-12);
        assertTrue(Double.isInfinite(model.limits(model.coordinateIndex("l_forearm_roll_joint")).positionMax()));
    }

    @Test
    void torsoLinkPosesAndInertiasMatchTheUrdfDefinitions() throws IOException
    {
        final String urdf = Files.readString(TORSO, StandardCharsets.UTF_8);
        UrdfFrameConsistencyTest.assertMatchesUrdfDefinitions(urdf, UrdfReader.read(TORSO), 3);
    }

    @Test
    void torsoExportedAndReimportedGivesTheSameTorques()
    {
        final RobotModel model = UrdfReader.read(TORSO);
        final RobotModel back = UrdfReader.read(UrdfWriter.write(model), "torso-exported.urdf");
        ModelComparison.assertSameRobot(model, back, 1e-12, "torso");
        TorqueComparison.assertSameTorques(model, back, 5, 1e-12);
    }

    @Test
    void everyShippedYamlRobotExportedToUrdfAndReimportedGivesTheSameTorques() throws IOException
    {
        final List<Path> yamlFiles;
        try (Stream<Path> files = Files.list(ROBOTS))
        {
            yamlFiles = files.filter(p -> p.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
        }
        assertTrue(yamlFiles.size() >= 3, "shipped YAML robots: " + yamlFiles);
        for (final Path file : yamlFiles)
        {
            final RobotModel model = RobotDescriptions.load(file);
            final RobotModel back = UrdfReader.read(UrdfWriter.write(model), file + " exported");
            ModelComparison.assertSameRobot(model, back, 1e-12, file.toString());
            TorqueComparison.assertSameTorques(model, back, 9, 1e-12);
        }
    }

    /** Both descriptions hold the same double values up to rpy and centre-of-mass rounding: 1e-12. */
    @Test
    void pandaUrdfAndPandaYamlAreTheSameRobotWithTheSameTorques()
    {
        final RobotModel yaml = RobotDescriptions.load(ROBOTS.resolve("panda.yaml"));
        final RobotModel urdf = RobotDescriptions.load(PANDA_URDF);
        assertEquals(7, urdf.dof());
        ModelComparison.assertSameRobot(yaml, urdf, 1e-12, "panda");
        for (long seed = 0; seed < 20; seed++)
        {
            TorqueComparison.assertSameTorques(yaml, urdf, seed, 1e-12);
        }
    }

    @Test
    void pandaUrdfMeansWhatItSaysAndMatchesTheManufacturersFrames() throws IOException
    {
        final String urdf = Files.readString(PANDA_URDF, StandardCharsets.UTF_8);
        UrdfFrameConsistencyTest.assertMatchesUrdfDefinitions(urdf, UrdfReader.read(PANDA_URDF), 4);
        final UrdfSpecKinematics shipped = new UrdfSpecKinematics(urdf);
        final UrdfSpecKinematics franka = new UrdfSpecKinematics(FRANKA_PANDA_KINEMATICS);
        final SplittableRandom rnd = new SplittableRandom(4);
        for (int sample = 0; sample < 20; sample++)
        {
            final Map<String, Double> q = new HashMap<>();
            for (int k = 1; k <= 7; k++)
            {
                q.put("joint" + k, rnd.nextDouble(-Math.PI, Math.PI));
            }
            for (final String link : List.of("link1", "link2", "link3", "link4", "link5", "link6", "link7", "flange"))
            {
                final String where = "seed 4, sample " + sample + ", " + link;
                assertArrayEquals(franka.linkPose(link, q).rotation(), shipped.linkPose(link, q).rotation(), 1e-12,
                    where);
                assertArrayEquals(franka.linkPose(link, q).translation(), shipped.linkPose(link, q).translation(),
                    1e-12, where);
            }
        }
    }
}
