package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each rule a description can break is rejected with a message that names the file, the line, the
 * field, the value and the rule. Every case starts from one valid file and changes one thing.
 */
final class DescriptionValidationTest
{
    /** A valid three-link tree; the line numbers below refer to it. */
    private static final String VALID = """
        name: test-arm
        format: modified-dh
        base: base
        kinematics:
          columns: [link, joint, antecedent, sigma, gamma, b, alpha, d, theta, r]
          rows:
            - [link1, joint1, base, R, 0, 0, 0, 0, 0, 0.3]
            - [link2, joint2, link1, R, 0, 0, -pi/2, 0, 0, 0]
            - [link3, joint3, link2, P, 0, 0, pi/2, 0.4, 0, 0]
        links:
          link1:
            mass: 2.0
            com: [0, 0, -0.1]
            inertia: {at: com, xx: 0.02, yy: 0.02, zz: 0.01}
          link2:
            mass: 1.5
            com: [0.1, 0, 0]
            inertia: {at: com, xx: 0.01, yy: 0.02, zz: 0.02}
          link3:
            mass: 1.0
            first_moment: [0, 0, 0.1]
            inertia: {at: origin, xx: 0.02, yy: 0.02, zz: 0.005}
        joints:
          joint1:
            rotor_inertia: 0.1
            coulomb_friction: 0.5
            viscous_friction: 0.2
            position: [-2.5, 2.5]
            velocity: 2.0
            effort: 50
            effort_rate: 1000
          joint3:
            position: [0, 0.5]
        """;

    /** A valid standard-DH chain. */
    private static final String STANDARD = """
        name: planar
        format: standard-dh
        tool: tip
        kinematics:
          columns: [link, sigma, theta, d, a, alpha]
          rows:
            - [link1, R, 0, 0, 0.4, 0]
            - [link2, R, 0, 0, 0.4, 0]
        links:
          link1: {mass: 0.5, com: [-0.2, 0, 0], inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}}
          link2: {mass: 0.5, com: [-0.2, 0, 0], inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}}
        """;

    @TempDir
    Path dir;

    @Test
    void theUnchangedFileLoads() throws IOException
    {
        assertEquals(3, RobotDescriptions.load(write(VALID)).dof());
    }

    @Test
    void inertiaThatIsNotPositiveSemiDefiniteIsRejected() throws IOException
    {
        rejects(change("inertia: {at: com, xx: 0.01, yy: 0.02, zz: 0.02}",
            "inertia: {at: com, xx: 0.01, yy: 0.02, zz: 0.02, xy: 0.05}"),
            18, "links.link2.inertia", "not positive semi-definite");
    }

    @Test
    void inertiaViolatingTheTriangleInequalityIsRejected() throws IOException
    {
        rejects(change("xx: 0.02, yy: 0.02, zz: 0.01", "xx: 0.1, yy: 0.1, zz: 0.5"),
            14, "links.link1.inertia", "triangle inequality", "0.5");
    }

    @Test
    void inertiaGivenAtTheOriginIsCheckedAboutTheCentreOfMass() throws IOException
    {
        // About the origin 0.005 would do; about the centre of mass (0, 0, 0.1) it needs
        // xx >= 0.01 + ..., and 0.004 leaves a negative principal moment.
        rejects(change("inertia: {at: origin, xx: 0.02, yy: 0.02, zz: 0.005}",
            "inertia: {at: origin, xx: 0.005, yy: 0.02, zz: 0.005}"),
            22, "links.link3.inertia", "about the centre of mass");
    }

    @Test
    void negativeMassIsRejected() throws IOException
    {
        rejects(change("mass: 1.5", "mass: -1.5"), 16, "links.link2.mass", "-1.5", "negative");
    }

    @Test
    void unknownAntecedentIsRejectedWithTheLikelyName() throws IOException
    {
        rejects(change("[link2, joint2, link1,", "[link2, joint2, lnk1,"),
            8, "kinematics.link2.antecedent", "'lnk1'", "did you mean 'link1'");
    }

    @Test
    void cyclicAntecedentsAreRejectedNamingTheCycle() throws IOException
    {
        rejects(change("[link1, joint1, base,", "[link1, joint1, link3,"),
            7, "kinematics.link1.antecedent", "cycle", "link1 -> link3 -> link2 -> link1");
    }

    @Test
    void rowWithTheWrongNumberOfValuesIsRejected() throws IOException
    {
        rejects(change("[link2, joint2, link1, R, 0, 0, -pi/2, 0, 0, 0]", "[link2, joint2, link1, R, 0, -pi/2, 0, 0, 0]"),
            8, "kinematics.rows[1]", "9 values", "names 10");
    }

    @Test
    void missingFieldIsRejectedAtItsMapping() throws IOException
    {
        rejects(change("    mass: 1.5\n", ""), 15, "links.link2.mass", "missing field 'mass'");
    }

    @Test
    void missingTopLevelFieldIsRejected() throws IOException
    {
        rejects(change("name: test-arm\n", ""), 1, "name", "missing field 'name'");
    }

    @Test
    void missingColumnIsRejected() throws IOException
    {
        rejects(change("sigma, gamma", "gamma").replace("R, 0, 0, 0, 0, 0, 0.3", "0, 0, 0, 0, 0, 0.3")
                .replace("R, 0, 0, -pi/2", "0, 0, -pi/2").replace("P, 0, 0, pi/2", "0, 0, pi/2"),
            5, "kinematics.columns", "missing column 'sigma'");
    }

    @Test
    void infiniteNumberIsRejected() throws IOException
    {
        rejects(change("mass: 1.5", "mass: .inf"), 16, "links.link2.mass", "'.inf'", "not a finite number");
    }

    @Test
    void notANumberIsRejected() throws IOException
    {
        rejects(change("com: [0.1, 0, 0]", "com: [.nan, 0, 0]"), 17, "links.link2.com[0]", "not a finite number");
    }

    @Test
    void wordWhereANumberBelongsIsRejected() throws IOException
    {
        rejects(change("mass: 1.5", "mass: heavy"), 16, "links.link2.mass", "'heavy'", "not a number");
    }

    @Test
    void quotedNumberIsRejected() throws IOException
    {
        rejects(change("mass: 1.5", "mass: \"1.5\""), 16, "links.link2.mass", "quoted string");
    }

    @Test
    void mistypedKeyIsRejectedWithTheLikelyName() throws IOException
    {
        rejects(change("mass: 1.5", "mas: 1.5"), 16, "links.link2.mas", "unknown key 'mas'", "did you mean 'mass'");
    }

    @Test
    void duplicateKeyIsRejected() throws IOException
    {
        rejects(change("    mass: 1.5\n", "    mass: 1.5\n    mass: 1.6\n"), 17, "links.link2.mass", "duplicate key");
    }

    @Test
    void unknownFormatIsRejectedWithTheKnownOnes() throws IOException
    {
        rejects(change("format: modified-dh", "format: modified-DH"),
            2, "format", "unknown format 'modified-DH'", "modified-dh, standard-dh");
    }

    @Test
    void unknownColumnIsRejected() throws IOException
    {
        rejects(change("sigma, gamma", "sigma, gama"), 5, "kinematics.columns[4]", "unknown column 'gama'",
            "did you mean 'gamma'");
    }

    @Test
    void unknownJointTypeIsRejected() throws IOException
    {
        rejects(change("link2, joint2, link1, R,", "link2, joint2, link1, X,"),
            8, "kinematics.link2.sigma", "'X'", "revolute");
    }

    @Test
    void emptyNameIsRejected() throws IOException
    {
        rejects(change("[link3, joint3,", "['', joint3,"), 9, "kinematics.rows[2][0]", "empty string");
    }

    @Test
    void missingValueIsRejected() throws IOException
    {
        rejects(change("mass: 1.5", "mass:"), 16, "links.link2.mass", "expected a value, found nothing");
    }

    @Test
    void duplicateLinkNameIsRejected() throws IOException
    {
        rejects(change("[link3, joint3, link2,", "[link2, joint3, link2,"), 9, "kinematics.link2", "used twice");
    }

    @Test
    void linksEntryForNoLinkIsRejected() throws IOException
    {
        rejects(change("  link3:\n    mass", "  link4:\n    mass"), 19, "links.link4", "no link named 'link4'");
    }

    @Test
    void movedLinkWithoutInertialDataIsRejected() throws IOException
    {
        rejects(change("  link3:\n    mass: 1.0\n    first_moment: [0, 0, 0.1]\n"
                + "    inertia: {at: origin, xx: 0.02, yy: 0.02, zz: 0.005}\n", ""),
            9, "kinematics.link3", "has no entry under 'links'");
    }

    @Test
    void settingsForAFixedJointAreRejected() throws IOException
    {
        rejects(change("link3, joint3, link2, P", "link3, joint3, link2, F"),
            32, "joints.joint3", "is fixed");
    }

    @Test
    void positionLimitsThatAreNotAnIntervalAreRejected() throws IOException
    {
        rejects(change("position: [0, 0.5]", "position: [0.5, 0]"), 33, "joints.joint3.position", "not an interval");
    }

    @Test
    void negativeFrictionIsRejected() throws IOException
    {
        rejects(change("coulomb_friction: 0.5", "coulomb_friction: -0.5"),
            26, "joints.joint1.coulomb_friction", "-0.5", ">= 0");
    }

    @Test
    void nonPositiveVelocityLimitIsRejected() throws IOException
    {
        rejects(change("velocity: 2.0", "velocity: 0"), 29, "joints.joint1.velocity", "must be > 0");
    }

    @Test
    void piInAFileInDegreesIsRejected() throws IOException
    {
        rejects(change("base: base", "base: base\nangles: deg"), 9, "kinematics.link2.alpha", "pi", "angles: deg");
    }

    @Test
    void toolIsAnUnknownKeyInModifiedDh() throws IOException
    {
        rejects(change("base: base", "base: base\ntool: flange"), 4, "tool", "unknown key 'tool'");
    }

    @Test
    void standardDhHasNoAntecedentColumnBecauseItDescribesSerialChains() throws IOException
    {
        rejects(STANDARD.replace("[link, sigma,", "[link, antecedent, sigma,"), 5, "kinematics.columns[1]",
            "unknown column 'antecedent'", "link, sigma, theta, d, a, alpha, joint");
    }

    @Test
    void standardDhToolNamedLikeALinkIsRejected() throws IOException
    {
        rejects(STANDARD.replace("tool: tip", "tool: link1"), 3, "tool", "link name 'link1' is used twice");
    }

    @Test
    void malformedYamlIsRejectedWithItsLine() throws IOException
    {
        rejects(change("    mass: 1.5\n", "    mass: [1.5\n"), 17, "", "malformed YAML");
    }

    @Test
    void unknownFileExtensionIsRejected() throws IOException
    {
        final Path file = dir.resolve("robot.json");
        Files.writeString(file, "{}");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(file));
        assertTrue(e.getMessage().startsWith(file.toString() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(".yaml"), e.getMessage());
    }

    private static String change(final String from, final String to)
    {
        assertTrue(VALID.contains(from), "template lacks: " + from);
        return VALID.replace(from, to);
    }

    private Path write(final String text) throws IOException
    {
        final Path file = dir.resolve("arm.yaml");
        Files.writeString(file, text);
        return file;
    }

    private void rejects(final String text, final int line, final String field, final String... phrases)
        throws IOException
    {
        final Path file = write(text);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> RobotDescriptions.load(file));
        final String message = e.getMessage();
        assertEquals(file.toString(), e.file(), message);
        assertEquals(line, e.line(), message);
        assertEquals(field, e.field(), message);
        assertTrue(message.startsWith(file + ":" + line + ":"), message);
        assertTrue(field.isEmpty() || message.contains(": " + field + ": "), message);
        for (final String phrase : phrases)
        {
            assertTrue(message.contains(phrase), "'" + phrase + "' not in: " + message);
        }
    }
}
