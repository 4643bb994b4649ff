package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/** The URDF robots shipped in {@code config/robots}: they load, mean what the URDF says, and export losslessly. */
class ShippedUrdfRobotsTest
{
    private static final Path TORSO = Path.of("robots", "torso-two-arms.urdf");

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
}
