package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.config.DescriptionException;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;

/**
 * Every rejection names the file, the line and the path of the offending element, and says what was
 * expected. Each case edits one valid two-joint robot so that exactly one rule is broken.
 */
class UrdfRejectionTest
{
    private static final String LINK_A = "  <link name=\"a\"/>\n";
    private static final String LINK_B = "  <link name=\"b\">\n"
        + "    <inertial><mass value=\"1\"/><inertia ixx=\"0.1\" ixy=\"0\" ixz=\"0\" iyy=\"0.1\" iyz=\"0\" izz=\"0.1\"/>"
        + "</inertial>\n"
        + "  </link>\n";
    private static final String LINK_C = "  <link name=\"c\">\n"
        + "    <inertial><mass value=\"2\"/><inertia ixx=\"0.2\" ixy=\"0\" ixz=\"0\" iyy=\"0.2\" iyz=\"0\" izz=\"0.2\"/>"
        + "</inertial>\n"
        + "  </link>\n";
    private static final String JOINT_AB = "  <joint name=\"j1\" type=\"revolute\">\n"
        + "    <parent link=\"a\"/>\n"
        + "    <child link=\"b\"/>\n"
        + "    <axis xyz=\"0 1 0\"/>\n"
        + "    <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"2\"/>\n"
        + "  </joint>\n";
    private static final String JOINT_BC = "  <joint name=\"j2\" type=\"prismatic\">\n"
        + "    <parent link=\"b\"/>\n"
        + "    <child link=\"c\"/>\n"
        + "    <origin xyz=\"0 0 0.5\" rpy=\"0 0 0\"/>\n"
        + "    <limit lower=\"0\" upper=\"0.3\" effort=\"100\" velocity=\"0.5\"/>\n"
        + "  </joint>\n";
    private static final String VALID = robot(LINK_A + LINK_B + LINK_C + JOINT_AB + JOINT_BC);

    private static String robot(final String body)
    {
        return "<?xml version=\"1.0\"?>\n<robot name=\"r\">\n" + body + "</robot>\n";
    }

    /** Asserts rejection at the (1-based) line holding {@code marker}, naming the element path and the expectation. */
    private static void assertRejected(
        final String urdf, final String marker, final String elementPath, final String expected)
    {
        final DescriptionException e = assertThrows(DescriptionException.class, () -> UrdfReader.read(urdf, "bad.urdf"), urdf);
        final int line = lineOf(urdf, marker);
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(elementPath, e.field(), e.getMessage());
        assertTrue(e.getMessage().startsWith("bad.urdf:" + line + ":" + e.column() + ": " + elementPath + ": "),
            e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static int lineOf(final String text, final String marker)
    {
        final String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            if (lines[i].contains(marker))
            {
                return i + 1;
            }
        }
        throw new AssertionError("marker not found: " + marker);
    }

    @Test
    void theUneditedRobotIsAccepted()
    {
        assertEquals(2, UrdfReader.read(VALID, "good.urdf").dof());
    }

    @Test
    void floatingJointBelowTheRootIsRejected()
    {
        final String urdf = VALID.replace("name=\"j2\" type=\"prismatic\"", "name=\"j2\" type=\"floating\"");
        assertRejected(urdf, "type=\"floating\"", "/robot/joint[@name='j2']",
            "floating joint 'j2' is below the root: its parent link 'b' is the child of joint 'j1' (line 10);"
                + " only the base may float");
    }

    @Test
    void floatingJointFromALinkHoldingAnotherJointIsRejected()
    {
        final String urdf = VALID.replace("name=\"j2\" type=\"prismatic\">\n    <parent link=\"b\"/>",
            "name=\"j2\" type=\"floating\">\n    <parent link=\"a\"/>");
        assertRejected(urdf, "type=\"floating\"", "/robot/joint[@name='j2']",
            "floating joint 'j2' hangs from link 'a', which also holds joint 'j1' (line 10)");
    }

    @Test
    void secondFloatingJointIsRejected()
    {
        final String urdf = robot(LINK_A + LINK_B + "  <link name=\"w\"/>\n  <link name=\"v\"/>\n"
            + "  <joint name=\"f1\" type=\"floating\"><parent link=\"w\"/><child link=\"a\"/></joint>\n"
            + JOINT_AB
            + "  <joint name=\"f2\" type=\"floating\"><parent link=\"v\"/><child link=\"b\"/></joint>\n");
        assertRejected(urdf, "name=\"f2\"", "/robot/joint[@name='f2']", "a second floating joint (the first is 'f1'");
    }

    @Test
    void planarJointIsRejected()
    {
        final String urdf = VALID.replace("name=\"j2\" type=\"prismatic\"", "name=\"j2\" type=\"planar\"");
        assertRejected(urdf, "type=\"planar\"", "/robot/joint[@name='j2']", "expected revolute, continuous");
    }

    @Test
    void unknownJointTypeIsRejected()
    {
        final String urdf = VALID.replace("type=\"prismatic\"", "type=\"screw\"");
        assertRejected(urdf, "type=\"screw\"", "/robot/joint[@name='j2']", "unknown joint type 'screw'");
    }

    @Test
    void mimicJointIsRejected()
    {
        final String urdf = VALID.replace("<child link=\"c\"/>\n", "<child link=\"c\"/>\n    <mimic joint=\"j1\"/>\n");
        assertRejected(urdf, "<mimic", "/robot/joint[@name='j2']/mimic", "mimic joints are not supported");
    }

    @Test
    void movingLinkWithoutInertialIsMassless()
    {
        // The URDF specification's default, and what other URDF readers do: zero mass, zero inertia.
        final String urdf = robot(LINK_A + "  <link name=\"b\"/>\n" + LINK_C + JOINT_AB + JOINT_BC);
        final RobotModel model = UrdfReader.read(urdf, "good.urdf");
        final InertialParameters b = model.inertialParameters(model.bodyIndex("b"));
        assertEquals(0.0, b.mass(), 0.0);
        assertArrayEquals(new double[9], b.inertiaAtCentreOfMass(), 0.0);
        assertEquals(2.0, model.inertialParameters(model.bodyIndex("c")).mass(), 0.0);
    }

    @Test
    void linkWithoutInertialBehindFixedJointIsAccepted()
    {
        final String urdf = robot(LINK_A + LINK_B + LINK_C + "  <link name=\"tool\"/>\n" + JOINT_AB + JOINT_BC
            + "  <joint name=\"flange\" type=\"fixed\"><parent link=\"c\"/><child link=\"tool\"/></joint>\n");
        assertEquals(3, UrdfReader.read(urdf, "good.urdf").bodyCount());
    }

    @Test
    void malformedNumberIsRejected()
    {
        final String urdf = VALID.replace("<origin xyz=\"0 0 0.5\"", "<origin xyz=\"0 0 0.5m\"");
        assertRejected(urdf, "0.5m", "/robot/joint[@name='j2']/origin", "'0.5m' is not a number");
    }

    @Test
    void wrongNumberOfVectorComponentsIsRejected()
    {
        final String urdf = VALID.replace("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 1\"/>");
        assertRejected(urdf, "<axis", "/robot/joint[@name='j1']/axis", "expected three finite decimal numbers");
    }

    @Test
    void notANumberIsRejected()
    {
        final String urdf = VALID.replace("<mass value=\"2\"/>", "<mass value=\"NaN\"/>");
        assertRejected(urdf, "NaN", "/robot/link[@name='c']/inertial/mass", "expected a finite decimal number");
    }

    @Test
    void infiniteNumberIsRejected()
    {
        final String urdf = VALID.replace("effort=\"100\"", "effort=\"1e999\"");
        assertRejected(urdf, "1e999", "/robot/joint[@name='j2']/limit", "overflows; expected a finite decimal number");
    }

    @Test
    void severalRootsAreRejected()
    {
        final String urdf = robot(LINK_A + LINK_B + LINK_C + JOINT_AB);
        assertRejected(urdf, "<link name=\"c\">", "/robot/link[@name='c']", "expected exactly one root link");
    }

    @Test
    void cycleIsRejected()
    {
        final String back = "  <joint name=\"j3\" type=\"fixed\"><parent link=\"c\"/><child link=\"b\"/></joint>\n";
        final String urdf = robot(LINK_A + LINK_B + LINK_C + JOINT_BC + back);
        assertRejected(urdf, "name=\"j2\"", "/robot/joint[@name='j2']", "expected the joints to form a tree");
    }

    @Test
    void cycleThroughEveryLinkIsRejected()
    {
        final String closing = "  <joint name=\"j3\" type=\"fixed\"><parent link=\"c\"/><child link=\"a\"/></joint>\n";
        final String urdf = robot(LINK_A + LINK_B + LINK_C + JOINT_AB + JOINT_BC + closing);
        assertRejected(urdf, "<robot", "/robot", "the joints form a cycle");
    }

    @Test
    void secondParentOfALinkIsRejected()
    {
        final String second = "  <joint name=\"j3\" type=\"fixed\"><parent link=\"a\"/><child link=\"c\"/></joint>\n";
        final String urdf = robot(LINK_A + LINK_B + LINK_C + JOINT_AB + JOINT_BC + second);
        assertRejected(urdf, "name=\"j3\"", "/robot/joint[@name='j3']", "at most one parent joint");
    }

    @Test
    void duplicateLinkNameIsRejected()
    {
        final String urdf = robot(LINK_A + LINK_B + LINK_C + "  <link name=\"c\"/>\n" + JOINT_AB + JOINT_BC);
        assertRejected(urdf, "<link name=\"c\"/>", "/robot/link[@name='c']", "duplicate link name 'c'");
    }

    @Test
    void duplicateLinkNameMessageTellsWhereTheFirstIs()
    {
        final String urdf = robot(LINK_A + LINK_B + LINK_C + "  <link name=\"c\"/>\n" + JOINT_AB + JOINT_BC);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> UrdfReader.read(urdf, "bad.urdf"));
        assertTrue(e.getMessage().contains("first defined on line " + lineOf(urdf, "<link name=\"c\">")), e.getMessage());
    }

    @Test
    void duplicateJointNameIsRejected()
    {
        final String urdf = VALID.replace("name=\"j2\"", "name=\"j1\"");
        assertRejected(urdf, "type=\"prismatic\"", "/robot/joint[@name='j1']", "duplicate joint name 'j1'");
    }

    @Test
    void zeroLengthAxisIsRejected()
    {
        final String urdf = VALID.replace("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 0.0 -0\"/>");
        assertRejected(urdf, "<axis", "/robot/joint[@name='j1']/axis", "axis has zero length");
    }

    @Test
    void missingParentIsRejected()
    {
        final String urdf = VALID.replace("    <parent link=\"b\"/>\n", "");
        assertRejected(urdf, "name=\"j2\"", "/robot/joint[@name='j2']", "missing <parent>");
    }

    @Test
    void missingChildIsRejected()
    {
        final String urdf = VALID.replace("    <child link=\"b\"/>\n", "");
        assertRejected(urdf, "name=\"j1\"", "/robot/joint[@name='j1']", "missing <child>");
    }

    @Test
    void undefinedParentLinkIsRejected()
    {
        final String urdf = VALID.replace("<parent link=\"b\"/>", "<parent link=\"elbow\"/>");
        assertRejected(urdf, "\"elbow\"", "/robot/joint[@name='j2']/parent", "parent link 'elbow' is not defined");
    }

    @Test
    void undefinedChildLinkIsRejected()
    {
        final String urdf = VALID.replace("<child link=\"c\"/>", "<child link=\"hand\"/>");
        assertRejected(urdf, "\"hand\"", "/robot/joint[@name='j2']/child", "child link 'hand' is not defined");
    }

    @Test
    void revoluteJointWithoutLimitIsRejected()
    {
        final String urdf = VALID.replace("    <limit lower=\"-1\" upper=\"1\" effort=\"10\" velocity=\"2\"/>\n", "");
        assertRejected(urdf, "name=\"j1\"", "/robot/joint[@name='j1']", "missing <limit>");
    }

    @Test
    void invertedPositionLimitsAreRejected()
    {
        final String urdf = VALID.replace("lower=\"-1\" upper=\"1\"", "lower=\"1\" upper=\"-1\"");
        assertRejected(urdf, "lower=\"1\"", "/robot/joint[@name='j1']/limit", "not an interval");
    }

    @Test
    void negativeDampingIsRejected()
    {
        final String urdf = VALID.replace("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 1 0\"/><dynamics damping=\"-0.1\"/>");
        assertRejected(urdf, "<dynamics", "/robot/joint[@name='j1']/dynamics", "viscous friction -0.1");
    }

    @Test
    void physicallyImpossibleInertiaIsRejected()
    {
        final String urdf = VALID.replace("ixx=\"0.2\"", "ixx=\"0.5\"");
        assertRejected(urdf, "ixx=\"0.5\"", "/robot/link[@name='c']/inertial/inertia", "triangle inequality");
    }

    @Test
    void negativeMassIsRejected()
    {
        final String urdf = VALID.replace("<mass value=\"2\"/>", "<mass value=\"-2\"/>");
        assertRejected(urdf, "value=\"-2\"", "/robot/link[@name='c']/inertial/mass", "mass must be >= 0");
    }

    @Test
    void secondOriginIsRejected()
    {
        final String urdf = VALID.replace("<axis xyz=\"0 1 0\"/>", "<axis xyz=\"0 1 0\"/>\n    <origin xyz=\"1 0 0\"/>")
            .replace("<child link=\"b\"/>", "<child link=\"b\"/><origin xyz=\"0 0 1\"/>");
        assertRejected(urdf, "<origin xyz=\"1 0 0\"/>", "/robot/joint[@name='j1']/origin", "expected at most one");
    }

    @Test
    void startTagSpanningSeveralLinesIsLocatedAtItsOpeningBracket()
    {
        final String urdf = VALID.replace("  <joint name=\"j2\" type=\"prismatic\">",
            "  <joint\n      name=\"j2\"\n      type=\"planar\">");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> UrdfReader.read(urdf, "bad.urdf"));
        final int line = urdf.substring(0, urdf.indexOf("<joint\n")).split("\n", -1).length;
        assertEquals(line, e.line(), e.getMessage());
        assertEquals(3, e.column(), e.getMessage());
    }

    @Test
    void malformedXmlIsRejectedWithItsLine()
    {
        final String urdf = VALID.replace("<child link=\"c\"/>", "<child link=\"c\">");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> UrdfReader.read(urdf, "bad.urdf"));
        assertTrue(e.getMessage().contains("not well-formed XML"), e.getMessage());
        assertTrue(e.line() >= lineOf(urdf, "<child link=\"c\">"), e.getMessage());
    }

    @Test
    void rootOtherThanRobotIsRejected()
    {
        final DescriptionException e = assertThrows(DescriptionException.class,
            () -> UrdfReader.read("<?xml version=\"1.0\"?>\n<sdf version=\"1.6\"/>\n", "bad.urdf"));
        assertEquals(2, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("the root element must be <robot>"), e.getMessage());
    }

    @Test
    void rotorInertiaForAnUnknownJointIsRejected()
    {
        final String urdf = VALID.replace("</robot>", "  <transmission name=\"t\" xmlns:drake=\"http://drake.mit.edu\">\n"
            + "    <joint name=\"wrist\"/>\n"
            + "    <actuator name=\"m\"><drake:rotor_inertia value=\"0.1\"/></actuator>\n"
            + "  </transmission>\n</robot>");
        assertRejected(urdf, "<joint name=\"wrist\"/>", "/robot/transmission[@name='t']/joint[@name='wrist']",
            "is not a movable joint of this robot");
    }
}
