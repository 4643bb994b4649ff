package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.ModifiedDh;
import org.nectl.core.model.RobotModel;

/** What a modified-DH description means: tree order, coordinate order, units and equivalent forms. */
final class YamlRobotDescriptionTest
{
    @TempDir
    Path dir;

    @Test
    void treeListedChildrenFirstIsOrderedParentsFirstWhileCoordinatesKeepFileOrder() throws IOException
    {
        final RobotModel model = load("""
            name: tree
            format: modified-dh
            base: torso
            kinematics:
              columns: [link, joint, antecedent, sigma, gamma, b, alpha, d, theta, r]
              rows:
                - [hand, wrist, forearm, R, 0, 0, pi/2, 0.3, 0, 0]
                - [flange, flange_mount, hand, F, 0, 0, 0, 0, 0, 0.1]
                - [forearm, elbow, shoulder, R, 0, 0, 0, 0.4, 0, 0]
                - [shoulder, shoulder_yaw, torso, R, pi/2, 0.2, 0, 0, 0, 0]
                - [head, neck, torso, P, 0, 0.5, 0, 0, 0, 0]
            links:
              hand: {mass: 0.5, com: [0, 0, 0.05], inertia: {at: com, xx: 0.001, yy: 0.001, zz: 0.001}}
              forearm: {mass: 1, com: [0.2, 0, 0], inertia: {at: com, xx: 0.001, yy: 0.01, zz: 0.01}}
              shoulder: {mass: 2, com: [0, 0, 0], inertia: {at: com, xx: 0.01, yy: 0.01, zz: 0.01}}
              head: {mass: 3, com: [0, 0, 0.1], inertia: {at: com, xx: 0.02, yy: 0.02, zz: 0.02}}
            """);
        for (int i = 0; i < model.bodyCount(); i++)
        {
            assertTrue(model.parent(i) < i, "body " + i + " parent " + model.parent(i));
        }
        assertEquals(List.of("wrist", "elbow", "shoulder_yaw", "neck"),
            List.of(model.coordinateName(0), model.coordinateName(1), model.coordinateName(2), model.coordinateName(3)));
        assertEquals(model.bodyIndex("forearm"), model.parent(model.bodyIndex("hand")));
        assertEquals(-1, model.parent(model.bodyIndex("head")));
        assertEquals(JointType.FIXED, model.jointType(model.bodyIndex("flange")));
        assertEquals(0.0, model.masses()[model.bodyIndex("flange")], 0.0);
        assertArrayEquals(ModifiedDh.placementTranslation(Math.PI / 2, 0.2, 0, 0, 0),
            model.placementTranslation(model.bodyIndex("shoulder")), 0.0);
    }

    @Test
    void serialChainWithoutAntecedentColumnEqualsTheExplicitTree() throws IOException
    {
        final RobotModel implicit = load(chain("[link, sigma, alpha, d, theta, r]",
            "[a, R, 0, 0, 0, 0.3]", "[b, R, -pi/2, 0.1, 0, 0]", "[c, P, pi/2, 0, 0.2, 0.1]"));
        final RobotModel explicit = load(chain("[link, antecedent, sigma, alpha, d, theta, r]",
            "[a, base, R, 0, 0, 0, 0.3]", "[b, a, R, -pi/2, 0.1, 0, 0]", "[c, b, P, pi/2, 0, 0.2, 0.1]"));
        assertArrayEquals(explicit.parents(), implicit.parents());
        assertArrayEquals(explicit.placementRotations(), implicit.placementRotations(), 0.0);
        assertArrayEquals(explicit.placementTranslations(), implicit.placementTranslations(), 0.0);
    }

    @Test
    void anglesInDegreesEqualTheSameAnglesInRadians() throws IOException
    {
        final RobotModel radians = load(chain("[link, sigma, alpha, d, theta, r]",
            "[a, R, 0, 0, 0, 0.3]", "[b, R, -pi/2, 0.1, pi/4, 0]", "[c, P, pi/2, 0, 0.2, 0.1]")
            + "joints:\n  b: {position: [-pi/2, 3*pi/4], velocity: pi}\n  c: {position: [0, 0.5], velocity: 2}\n");
        final RobotModel degrees = load(chain("[link, sigma, alpha, d, theta, r]",
            "[a, R, 0, 0, 0, 0.3]", "[b, R, -90, 0.1, 45, 0]", "[c, P, 90, 0, 11.459155902616464, 0.1]")
            .replace("format: modified-dh", "format: modified-dh\nangles: deg")
            + "joints:\n  b: {position: [-90, 135], velocity: 180}\n  c: {position: [0, 0.5], velocity: 2}\n");
        assertArrayEquals(radians.placementRotations(), degrees.placementRotations(), 1e-15);
        assertArrayEquals(radians.placementTranslations(), degrees.placementTranslations(), 1e-15);
        for (int k = 0; k < radians.dof(); k++)
        {
            final JointLimits r = radians.limits(k);
            final JointLimits d = degrees.limits(k);
            assertEquals(r.positionMin(), d.positionMin(), 1e-15, "coordinate " + k);
            assertEquals(r.positionMax(), d.positionMax(), 1e-15, "coordinate " + k);
            assertEquals(r.velocityMax(), d.velocityMax(), 1e-15, "coordinate " + k);
        }
        // Prismatic limits stay in metres whatever the angle unit.
        assertEquals(0.5, degrees.limits(2).positionMax(), 0.0);
    }

    @Test
    void centreOfMassFormAndFirstMomentFormDescribeTheSameLink() throws IOException
    {
        // c = (0.1, -0.2, 0.3), m = 2: MS = (0.2, -0.4, 0.6); J_O = I_c + m (|c|^2 1 - c c^T).
        final RobotModel atCom = load(single("com: [0.1, -0.2, 0.3]",
            "inertia: {at: com, xx: 0.05, yy: 0.04, zz: 0.03, xy: 0.001, xz: -0.002, yz: 0.003}"));
        final double m = 2.0;
        final double[] c = {0.1, -0.2, 0.3};
        final double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        final RobotModel atOrigin = load(single("first_moment: [0.2, -0.4, 0.6]",
            "inertia: {at: origin, xx: " + (0.05 + m * (c2 - c[0] * c[0])) + ", yy: " + (0.04 + m * (c2 - c[1] * c[1]))
                + ", zz: " + (0.03 + m * (c2 - c[2] * c[2])) + ", xy: " + (0.001 - m * c[0] * c[1])
                + ", xz: " + (-0.002 - m * c[0] * c[2]) + ", yz: " + (0.003 - m * c[1] * c[2]) + "}"));
        assertArrayEquals(atCom.firstMoments(), atOrigin.firstMoments(), 1e-15);
        assertArrayEquals(atCom.inertiasAtOrigin(), atOrigin.inertiasAtOrigin(), 1e-15);
    }

    @Test
    void jointSettingsBecomeActuationAndLimitsOfTheirCoordinate() throws IOException
    {
        final RobotModel model = load(chain("[link, joint, sigma, alpha, d, theta, r]",
            "[a, j1, R, 0, 0, 0, 0.3]", "[b, j2, R, -pi/2, 0.1, 0, 0]", "[c, j3, P, pi/2, 0, 0.2, 0.1]")
            + "joints:\n  j2:\n    rotor_inertia: 0.3\n    coulomb_friction: 1.5\n    viscous_friction: 0.25\n"
            + "    position: [-2, 2]\n    velocity: 3\n    effort: 40\n    effort_rate: 1000\n");
        assertEquals(new JointActuation(0.3, 1.5, 0.25), model.actuation(1));
        assertEquals(new JointLimits(-2, 2, 3, 40, 1000), model.limits(1));
        assertEquals(JointActuation.NONE, model.actuation(0));
        assertEquals(JointLimits.NONE, model.limits(2));
    }

    private static String chain(final String columns, final String... rows)
    {
        final StringBuilder sb = new StringBuilder("name: chain\nformat: modified-dh\nkinematics:\n  columns: ")
            .append(columns).append("\n  rows:\n");
        for (final String row : rows)
        {
            sb.append("    - ").append(row).append('\n');
        }
        sb.append("links:\n");
        for (final String link : List.of("a", "b", "c"))
        {
            sb.append("  ").append(link)
                .append(": {mass: 1, com: [0, 0.1, 0], inertia: {at: com, xx: 0.01, yy: 0.01, zz: 0.01}}\n");
        }
        return sb.toString();
    }

    private static String single(final String centre, final String inertia)
    {
        return "name: one\nformat: modified-dh\nkinematics:\n  columns: [link, sigma, alpha, d, theta, r]\n"
            + "  rows:\n    - [a, R, 0, 0, 0, 0]\nlinks:\n  a:\n    mass: 2\n    " + centre + "\n    " + inertia + "\n";
    }

    private RobotModel load(final String text) throws IOException
    {
        final Path file = dir.resolve("robot.yaml");
        Files.writeString(file, text);
        return RobotDescriptions.load(file);
    }
}
