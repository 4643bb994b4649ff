package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.Motor;
import org.nectl.core.model.RobotModel;

/**
 * Motors and elastic joints from a robot description's {@code drives} section and from an actuator
 * overlay on a URDF; each broken rule names the file, line, column, field and value.
 */
final class ElasticDescriptionsTest
{
    /** The line numbers in the messages below refer to this description. */
    private static final String ROBOT = """
        name: arm
        format: modified-dh
        kinematics:
          columns: [link, joint, sigma, d, alpha, r, theta]
          rows:
            - [link1, joint1, R, 0, 0, 0.3, 0]
            - [link2, joint2, R, 0, pi/2, 0, 0]
        links:
          link1: {mass: 2.0, com: [0, 0, -0.1], inertia: {at: com, xx: 0.02, yy: 0.02, zz: 0.01}}
          link2: {mass: 1.5, com: [0.1, 0, 0], inertia: {at: com, xx: 0.01, yy: 0.02, zz: 0.02}}
        drives:
          joint1:
            motor: {mount: base, axial_inertia: 0.01, gear_ratio: 50}
          joint2:
            stiffness: 200
            damping: 0.5
            motor: {mount: link1, axis: [0, -1, 0], centre: [0, 0.1, 0], gear_ratio: 100,
                    axial_inertia: 0.0004, transverse_inertia: 0.0003, mass: 0.8,
                    coulomb_friction: 0.2, viscous_friction: 0.1}
        """;

    @TempDir
    Path dir;

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private DescriptionException rejected(final String from, final String to) throws IOException
    {
        final String changed = ROBOT.replace(from, to);
        assertFalse(changed.equals(ROBOT), "the change must apply: " + from);
        final Path file = write("arm.yaml", changed);
        return assertThrows(DescriptionException.class, () -> ElasticDescriptions.load(file));
    }

    @Test
    void readsMotorsAndElasticityFromTheDrivesSection() throws IOException
    {
        final ElasticRobotModel model = ElasticDescriptions.load(write("arm.yaml", ROBOT));
        assertEquals(1, model.elasticCount());
        assertTrue(model.isElastic(1));
        assertEquals(200.0, model.elasticity(1).stiffness());
        assertEquals(0.5, model.elasticity(1).damping());
        final Motor shoulder = model.motor(0);
        assertEquals(-1, shoulder.mountBody());
        assertArrayEquals(new double[] {0, 0, 1}, shoulder.axis());
        assertEquals(0.005, shoulder.transverseInertia(), 0.0, "default: a thin disc, half the axial inertia");
        final Motor elbow = model.motor(1);
        assertEquals(0, elbow.mountBody());
        assertArrayEquals(new double[] {0, -1, 0}, elbow.axis());
        assertArrayEquals(new double[] {0, 0.1, 0}, elbow.centre());
        assertEquals(100.0, elbow.gearRatio());
        assertEquals(0.8, elbow.rotorMass());
        assertEquals(0.2, elbow.coulombFriction());
        assertEquals(0.1, elbow.viscousFriction());
    }

    @Test
    void theRigidLoaderIgnoresTheDrivesSection() throws IOException
    {
        final RobotModel links = RobotDescriptions.load(write("arm.yaml", ROBOT));
        assertEquals(2, links.dof());
        assertEquals(0.0, links.actuation(0).rotorInertia());
    }

    @Test
    void anOverlayAddsDrivesToAUrdf() throws IOException
    {
        final Path urdf = write("two.urdf", """
            <robot name="two">
              <link name="base"/>
              <link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
              <link name="b"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
              <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
                <limit lower="-3" upper="3" effort="10" velocity="2"/></joint>
              <joint name="j2" type="revolute"><parent link="a"/><child link="b"/><origin xyz="0.3 0 0"/><axis xyz="0 0 1"/>
                <limit lower="-3" upper="3" effort="10" velocity="2"/></joint>
            </robot>
            """);
        final Path overlay = write("two-elastic.yaml", """
            format: actuator-overlay
            robot: two.urdf
            drives:
              j2:
                stiffness: 50
                motor: {mount: a, axial_inertia: 0.001}
            """);
        final ElasticRobotModel model = ElasticDescriptions.load(overlay);
        assertEquals(urdf.getFileName().toString().replace(".urdf", ""), model.links().name());
        assertTrue(model.isElastic(1));
        assertFalse(model.hasMotor(0));
        assertEquals(model.links().bodyIndex("a"), model.motor(1).mountBody());
    }

    @Test
    void anOverlayNamesAMissingJointWithItsLocation() throws IOException
    {
        write("two.urdf", """
            <robot name="two">
              <link name="base"/>
              <link name="a"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01" ixy="0" ixz="0" iyz="0"/></inertial></link>
              <joint name="j1" type="revolute"><parent link="base"/><child link="a"/><axis xyz="0 0 1"/>
                <limit lower="-3" upper="3" effort="10" velocity="2"/></joint>
            </robot>
            """);
        final Path overlay = write("bad.yaml", """
            format: actuator-overlay
            robot: two.urdf
            drives:
              j3:
                motor: {mount: a, axial_inertia: 0.001}
            """);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> ElasticDescriptions.load(overlay));
        assertEquals(4, e.line());
        assertEquals(3, e.column());
        assertEquals("drives.j3", e.field());
        assertTrue(e.reason().contains("no movable joint named 'j3' in robot 'two' (did you mean 'j1'?)"), e.getMessage());
    }

    @Test
    void readsAnElasticJointWithoutAMotorAsAPassiveSpringToItsRestPosition() throws IOException
    {
        final int start = ROBOT.indexOf("    motor: {mount: link1");
        final String motor = ROBOT.substring(start, ROBOT.indexOf('\n', ROBOT.indexOf("viscous_friction")) + 1);
        final ElasticRobotModel model =
            ElasticDescriptions.load(write("passive.yaml", ROBOT.replace(motor, "    rest_position: -pi/4\n")));
        assertTrue(model.isPassive(1));
        assertEquals(0, model.elasticCount());
        assertEquals(200.0, model.elasticity(1).stiffness());
        assertEquals(0.5, model.elasticity(1).damping());
        assertEquals(-Math.PI / 4, model.elasticity(1).restPosition(), 1e-15);
    }

    @Test
    void rejectsARestPositionOnAJointWithAMotor() throws IOException
    {
        final DescriptionException e = rejected("    damping: 0.5\n", "    damping: 0.5\n    rest_position: 0.2\n");
        assertEquals(17, e.line());
        assertEquals(20, e.column());
        assertEquals("drives.joint2.rest_position", e.field());
        assertTrue(e.reason().contains("rest_position belongs to a passive joint (stiffness, no motor)"), e.getMessage());
    }

    @Test
    void rejectsAnUnknownMountLink() throws IOException
    {
        final DescriptionException e = rejected("mount: link1", "mount: link7");
        assertEquals(17, e.line());
        assertEquals("drives.joint2.motor.mount", e.field());
        assertTrue(e.reason().contains("no link named 'link7' (did you mean 'link1'?)"), e.getMessage());
    }

    @Test
    void rejectsANegativeStiffnessAtItsKey() throws IOException
    {
        final DescriptionException e = rejected("stiffness: 200", "stiffness: -200");
        assertEquals(15, e.line());
        assertEquals(16, e.column());
        assertEquals("drives.joint2.stiffness", e.field());
        assertTrue(e.reason().contains("value -200 is below the allowed minimum 0"), e.getMessage());
    }

    @Test
    void rejectsAZeroGearRatio() throws IOException
    {
        final DescriptionException e = rejected("gear_ratio: 100", "gear_ratio: 0");
        assertEquals("drives.joint2.motor.gear_ratio", e.field());
        assertTrue(e.reason().contains("gear ratio 0.0 must be > 0"), e.getMessage());
    }

    @Test
    void rejectsAnInconsistentRotorAtTheMotor() throws IOException
    {
        final DescriptionException e = rejected("transverse_inertia: 0.0003", "transverse_inertia: 0.0001");
        assertEquals("drives.joint2.motor", e.field());
        assertTrue(e.reason().contains("triangle inequality of an axisymmetric rotor"), e.getMessage());
    }

    @Test
    void rejectsRotorInertiaGivenInBothPlaces() throws IOException
    {
        final DescriptionException e = rejected("""
            drives:
            """, """
            joints:
              joint1: {rotor_inertia: 0.3}
            drives:
            """);
        assertEquals("drives.joint1", e.field());
        assertTrue(e.reason().contains("the joint also has rotor inertia 0.3"), e.getMessage());
    }

    @Test
    void rejectsDampingWithoutStiffness() throws IOException
    {
        final DescriptionException e = rejected("    stiffness: 200\n", "");
        assertEquals("drives.joint2.damping", e.field());
        assertTrue(e.reason().contains("damping without stiffness"), e.getMessage());
    }
}
