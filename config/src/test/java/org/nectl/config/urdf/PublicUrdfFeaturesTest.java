package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.config.DescriptionException;
import org.nectl.core.model.RobotModel;

/**
 * The features of public robot files (ANYmal, Unitree Go1 and B1, HyQ, iCub, Fetch) that decide
 * whether they load, each in a small synthetic file: a root link with an {@code <inertial>}, products
 * of inertia that are rounding residue, near-antiparallel axes, fixed joints with a zero axis,
 * simulator extensions, and a floating base.
 */
class PublicUrdfFeaturesTest
{
    private static final String CHILD = "  <link name=\"b\">\n"
        + "    <inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/>"
        + "</inertial>\n  </link>\n"
        + "  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/><axis xyz=\"0 0 1\"/></joint>\n";

    private static RobotModel read(final String body)
    {
        return UrdfReader.read("<robot name=\"r\">\n" + body + "</robot>\n", "public.urdf");
    }

    @Test
    void theRootsInertialIsNeitherReadNorChecked()
    {
        // iCub's root_link and many quadruped trunks carry the body's inertia on the root; an invalid
        // one proves it is not read.
        final RobotModel model = read("  <link name=\"a\">\n    <inertial><mass value=\"-5\"/>"
            + "<inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>\n  </link>\n" + CHILD);
        assertEquals("a", model.baseName());
        assertEquals(1.0, model.totalMass(), 0.0);
    }

    @Test
    void aProductOfInertiaThatIsRoundingResidueIsAccepted()
    {
        final RobotModel model = read("  <link name=\"a\"/>\n  <link name=\"b\">\n    <inertial><mass value=\"0.01\"/>"
            + "<inertia ixx=\"0\" ixy=\"0\" ixz=\"2.4e-35\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>\n  </link>\n"
            + "  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n");
        assertEquals(1, model.dof());
    }

    @Test
    void aTensorBreakingTheTriangleInequalityBeyondTheToleranceIsStillRefused()
    {
        // Fetch's gripper fingers: ixx 0.002 with iyy = izz = 0, which no body has.
        final String urdf = "  <link name=\"a\"/>\n  <link name=\"b\">\n    <inertial><mass value=\"0.0798\"/>\n"
            + "      <inertia ixx=\"0.002\" ixy=\"0\" ixz=\"0\" iyy=\"0\" iyz=\"0\" izz=\"0\"/></inertial>\n  </link>\n"
            + "  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n";
        final DescriptionException e = assertThrows(DescriptionException.class, () -> read(urdf));
        assertEquals(5, e.line(), e.getMessage());
        assertEquals("/robot/link[@name='b']/inertial/inertia", e.field(), e.getMessage());
        assertTrue(e.reason().contains("violates the triangle inequality: principal moments 0.0 + 0.0 < 0.002"),
            e.getMessage());
    }

    @Test
    void anAxisNearlyOppositeToZWithARotatedInertialLoads()
    {
        // iCub's neck_yaw: axis (1.6e-21, 1.1e-15, -1) and a head inertial turned by rpy (-pi/2, 0, -pi/2).
        final RobotModel model = read("  <link name=\"a\"/>\n  <link name=\"head\">\n    <inertial>\n"
            + "      <origin xyz=\"-0.0206 0.00053 0.0281\" rpy=\"-1.5707963267948966 0 -1.5707963267948966\"/>\n"
            + "      <mass value=\"1.94302\"/>\n"
            + "      <inertia ixx=\"0.0075908054\" ixy=\"5.08578e-05\" ixz=\"5.0417e-05\" iyy=\"0.0056755473\""
            + " iyz=\"-0.000191593\" izz=\"0.007126685\"/>\n    </inertial>\n  </link>\n"
            + "  <joint name=\"neck_yaw\" type=\"revolute\">\n    <axis xyz=\"1.6255499221370677e-21 1.0999983743979075e-15 -1.0\"/>\n"
            + "    <parent link=\"a\"/><child link=\"head\"/>\n"
            + "    <limit effort=\"50000\" lower=\"-0.785\" upper=\"0.785\" velocity=\"120.0\"/>\n  </joint>\n");
        assertEquals(1.94302, model.totalMass(), 1e-12);
    }

    @Test
    void fixedJointsWithAZeroAxisAndSimulatorExtensionsAreIgnored()
    {
        final RobotModel model = read("  <link name=\"a\"/>\n" + CHILD
            + "  <link name=\"base_link\"/>\n"
            + "  <joint name=\"base_link_fixed_joint\" type=\"fixed\"><axis xyz=\"0 0 0\"/>"
            + "<parent link=\"b\"/><child link=\"base_link\"/></joint>\n"
            + "  <gazebo reference=\"b\"><sensor name=\"s\" type=\"contact\"><contact><collision>c</collision>"
            + "</contact></sensor></gazebo>\n"
            + "  <transmission name=\"t\"><type>transmission_interface/SimpleTransmission</type>"
            + "<joint name=\"j\"><hardwareInterface>EffortJointInterface</hardwareInterface></joint>"
            + "<actuator name=\"m\"><mechanicalReduction>1</mechanicalReduction></actuator></transmission>\n"
            + "  <sensor name=\"ft\" type=\"force_torque\"><parent joint=\"j\"/></sensor>\n");
        assertEquals(1, model.dof());
        assertEquals(2, model.bodyCount());
    }

    @Test
    void aFloatingJointFromAWorldLinkMakesItsChildAFloatingBaseWithItsInertia()
    {
        final String urdf = "  <link name=\"world\"/>\n  <link name=\"a\">\n    <inertial><origin xyz=\"0.1 0 0\"/>"
            + "<mass value=\"3\"/><inertia ixx=\"0.3\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.2\"/>"
            + "</inertial>\n  </link>\n"
            + "  <joint name=\"floating_base\" type=\"floating\"><parent link=\"world\"/><child link=\"a\"/></joint>\n"
            + CHILD;
        final RobotModel model = read(urdf);
        assertTrue(model.floatingBase());
        assertEquals("a", model.baseName());
        assertEquals(1, model.dof());
        assertEquals(1, model.bodyCount());
        assertEquals(3.0, model.baseInertia().mass(), 0.0);
        assertEquals(0.3, model.baseInertia().firstMoment()[0], 1e-15);
        final RobotModel exported = UrdfReader.read(UrdfWriter.write(model), "exported.urdf");
        assertTrue(exported.floatingBase());
        assertEquals("a", exported.baseName());
        assertEquals(0.3, exported.baseInertia().firstMoment()[0], 1e-15);
    }

    /** Without a floating joint the root stays the fixed base, as most legged-robot files are written. */
    @Test
    void aRootWithoutAJointToTheWorldStaysFixed()
    {
        assertTrue(!read("  <link name=\"a\"/>\n" + CHILD).floatingBase());
    }

    /** A floating joint inside the tree is refused at its line, saying that only the base may float. */
    @Test
    void aFloatingJointInsideTheTreeIsRefusedAtItsLine()
    {
        final String urdf = "  <link name=\"a\"/>\n" + CHILD + "  <link name=\"c\"/>\n"
            + "  <joint name=\"loose\" type=\"floating\"><parent link=\"b\"/><child link=\"c\"/></joint>\n";
        final DescriptionException e = assertThrows(DescriptionException.class, () -> read(urdf));
        assertEquals(8, e.line(), e.getMessage());
        assertEquals("/robot/joint[@name='loose']", e.field(), e.getMessage());
        assertTrue(e.reason().contains("is below the root: its parent link 'b' is the child of joint 'j' (line 6);"
            + " only the base may float"), e.getMessage());
    }
}
