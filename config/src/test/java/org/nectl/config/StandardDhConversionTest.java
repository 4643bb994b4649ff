package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Proves the standard-DH normalisation: the canonical model places every link, its centre of mass,
 * its inertia and the tool frame where the plain product of standard-DH transforms
 * Rz(theta) Tz(d) Tx(a) Rx(alpha) puts them, and the shipped standard-DH arms equal the same arms
 * written by hand in modified DH.
 */
final class StandardDhConversionTest
{
    /** Products of at most ~8 rotations and translations of size ~1: rounding stays near 1e-15. */
    private static final double TOLERANCE = 1e-12;
    private static final int ROBOTS = 40;
    private static final int POSES = 20;

    @TempDir
    Path dir;

    @Test
    void standardDhModelPutsLinksInertiasAndToolWhereTheDirectProductOfStandardDhTransformsPutsThem()
        throws IOException
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RandomStandardDh robot = new RandomStandardDh(seed);
            final Path file = dir.resolve("random-" + seed + ".yaml");
            Files.writeString(file, robot.yaml());
            final RobotModel model = RobotDescriptions.load(file);
            assertEquals(robot.links() + 1, model.bodyCount(), "seed " + seed);
            final SplittableRandom rnd = new SplittableRandom(seed * 7919);
            for (int pose = 0; pose < POSES; pose++)
            {
                final double[] q = new double[model.dof()];
                for (int k = 0; k < q.length; k++)
                {
                    q[k] = rnd.nextDouble(-Math.PI, Math.PI);
                }
                compare(robot, model, q, "seed " + seed + " pose " + pose);
            }
        }
    }

    private static void compare(final RandomStandardDh robot, final RobotModel model, final double[] q,
        final String context)
    {
        final BodyPoses poses = BodyPoses.of(model, q);
        double[] r = Transforms.identity();
        double[] p = new double[3];
        for (int i = 0; i < robot.links(); i++)
        {
            final double[][] tip = robot.tipTransform(i, q[i]);
            p = BodyPoses.add(p, Transforms.apply(r, tip[1]));
            r = Transforms.multiply(r, tip[0]);
            final int body = model.bodyIndex("link" + i);
            final InertialParameters inModel = model.inertialParameters(body);
            final double[] rBody = poses.rotation(body);
            final double[] comFromModel = BodyPoses.add(poses.position(body), Transforms.apply(rBody, inModel.centreOfMass()));
            final double[] comFromDh = BodyPoses.add(p, Transforms.apply(r, robot.com(i)));
            assertArrayEquals(comFromDh, comFromModel, TOLERANCE, context + " link" + i + " centre of mass");
            assertArrayEquals(worldInertia(r, robot.inertiaAtCom(i)),
                worldInertia(rBody, inModel.inertiaAtCentreOfMass()), TOLERANCE, context + " link" + i + " inertia");
            assertEquals(robot.mass(i), inModel.mass(), 0.0, context + " link" + i + " mass");
        }
        final int tool = model.bodyIndex("tool");
        assertArrayEquals(r, poses.rotation(tool), TOLERANCE, context + " tool rotation");
        assertArrayEquals(p, poses.position(tool), TOLERANCE, context + " tool position");
    }

    private static double[] worldInertia(final double[] rotation, final double[] inertia)
    {
        return Transforms.multiply(rotation, Transforms.multiply(inertia, Transforms.transpose(rotation)));
    }

    @Test
    void shippedTwoLinkRevoluteArmEqualsItsHandWrittenModifiedDhForm() throws IOException
    {
        final Path handWritten = dir.resolve("two-link-rr-mdh.yaml");
        Files.writeString(handWritten, """
            name: two-link-rr
            format: modified-dh
            kinematics:
              columns: [link, joint, antecedent, sigma, alpha, d, theta, r]
              rows:
                - [link1, joint1, base, R, 0, 0, 0, 0]
                - [link2, joint2, link1, R, 0, 0.4, 0, 0]
                - [tip, tip, link2, F, 0, 0.4, 0, 0]
            links:
              link1: {mass: 0.5, com: [0.2, 0, 0], inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}}
              link2: {mass: 0.5, com: [0.2, 0, 0], inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}}
            joints:
              joint1: {effort: 10}
              joint2: {effort: 10}
            """);
        assertSameModel(RobotDescriptions.load(handWritten), RobotDescriptions.load(shipped("two-link-rr.yaml")));
    }

    @Test
    void shippedPrismaticRevoluteArmEqualsItsHandWrittenModifiedDhForm() throws IOException
    {
        // Body 1 = frame 0 moved by Rz(pi/2) Tz(0.4 + q1); the tip frame 1 sits at Rx(pi/2) in it, so the
        // centre of mass (0, -0.2, 0) in frame 1 is Rx(pi/2) (0, -0.2, 0) = (0, 0, -0.2) in body 1, and
        // the inertia diag(0.05, 0.05, 0.1) becomes diag(0.05, 0.1, 0.05). Body 2 is placed by
        // Tx(a1 = 0) Rx(alpha1 = pi/2) Rz(pi/2); its tip frame is Tx(0.4) away: com (0.2, 0, 0).
        final Path handWritten = dir.resolve("two-link-pr-mdh.yaml");
        Files.writeString(handWritten, """
            name: two-link-pr
            format: modified-dh
            kinematics:
              columns: [link, joint, sigma, alpha, d, theta, r]
              rows:
                - [link1, joint1, P, 0, 0, pi/2, 0.4]
                - [link2, joint2, R, pi/2, 0, pi/2, 0]
                - [tip, tip, F, 0, 0.4, 0, 0]
            links:
              link1: {mass: 0.5, com: [0, 0, -0.2], inertia: {at: com, xx: 0.05, yy: 0.1, zz: 0.05}}
              link2: {mass: 0.5, com: [0.2, 0, 0], inertia: {at: com, xx: 0.05, yy: 0.05, zz: 0.1}}
            joints:
              joint1: {effort: 10}
              joint2: {effort: 10}
            """);
        assertSameModel(RobotDescriptions.load(handWritten), RobotDescriptions.load(shipped("two-link-pr.yaml")));
    }

    private static void assertSameModel(final RobotModel expected, final RobotModel actual)
    {
        assertEquals(expected.bodyCount(), actual.bodyCount());
        assertEquals(expected.dof(), actual.dof());
        for (int i = 0; i < expected.bodyCount(); i++)
        {
            final String body = "body " + i + " " + expected.bodyName(i);
            assertEquals(expected.bodyName(i), actual.bodyName(i), body);
            assertEquals(expected.jointName(i), actual.jointName(i), body);
            assertEquals(expected.parent(i), actual.parent(i), body);
            assertEquals(expected.jointType(i), actual.jointType(i), body);
            assertEquals(expected.coordinateOfBody(i), actual.coordinateOfBody(i), body);
        }
        assertArrayEquals(expected.placementRotations(), actual.placementRotations(), TOLERANCE);
        assertArrayEquals(expected.placementTranslations(), actual.placementTranslations(), TOLERANCE);
        assertArrayEquals(expected.masses(), actual.masses(), 0.0);
        assertArrayEquals(expected.firstMoments(), actual.firstMoments(), TOLERANCE);
        assertArrayEquals(expected.inertiasAtOrigin(), actual.inertiasAtOrigin(), TOLERANCE);
        for (int k = 0; k < expected.dof(); k++)
        {
            assertEquals(expected.limits(k), actual.limits(k), "coordinate " + k);
            assertEquals(expected.actuation(k), actual.actuation(k), "coordinate " + k);
        }
    }

    static Path shipped(final String name)
    {
        return ShippedRobots.directory().resolve(name);
    }
}
