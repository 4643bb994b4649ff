package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Proves the standard-DH normalisation: the canonical model places every link, its centre of mass,
 * its inertia and the tool frame where the plain product of standard-DH transforms
 * Rz(theta) Tz(d) Tx(a) Rx(alpha) puts them; its torques equal the closed-form equations of the
 * two-link arms and the gradient of the potential energy of the plain product; and the shipped
 * standard-DH arms equal the same arms written by hand in modified DH.
 */
final class StandardDhConversionTest
{
    /** Products of at most ~8 rotations and translations of size ~1: rounding stays near 1e-15. */
    private static final double TOLERANCE = 1e-12;
    private static final int ROBOTS = 40;
    private static final int POSES = 20;
    /** Torques of order 1-10 N m from a handful of products: a few ulps of the largest term. */
    private static final double TORQUE_TOLERANCE_NM = 1e-12;
    /**
     * Gravity torques against a 4th-order central difference of V with h = 1e-3: truncation
     * ~h^4 |V'''''| ~ 1e-11 and rounding ~1e-16 |V| / h ~ 1e-12 for these sizes; 1e-8 N m leaves room.
     */
    private static final double GRADIENT_TOLERANCE_NM = 1e-8;
    private static final double FD_STEP = 1e-3;

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
                final double[] q = uniform(rnd, model.dof(), Math.PI);
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
    void twoLinkRevoluteArmTorquesEqualTheTextbookClosedForm()
    {
        // Planar 2R arm (Barman 2020, Tables 4.1-4.2): l1 = 0.4, centres at lc = 0.2 from each joint,
        // m = 0.5, I = 0.1 about each centre; in-plane gravity (gx, gy) to exercise the gravity terms.
        final double m = 0.5;
        final double l1 = 0.4;
        final double lc = 0.2;
        final double inertia = 0.1;
        final double gx = 2.5;
        final double gy = -9.81;
        final InverseDynamics rnea = new InverseDynamics(
            CompiledModel.of(RobotDescriptions.load(shipped("two-link-rr.yaml")), gx, gy, 0.0));
        final SplittableRandom rnd = new SplittableRandom(2020);
        final double[] tau = new double[2];
        for (int sample = 0; sample < 200; sample++)
        {
            final double[] q = uniform(rnd, 2, Math.PI);
            final double[] qd = uniform(rnd, 2, 3.0);
            final double[] qdd = uniform(rnd, 2, 10.0);
            rnea.compute(q, qd, qdd, tau);
            final double c2 = Math.cos(q[1]);
            final double s2 = Math.sin(q[1]);
            final double m11 = 2 * inertia + m * lc * lc + m * (l1 * l1 + lc * lc + 2 * l1 * lc * c2);
            final double m12 = inertia + m * (lc * lc + l1 * lc * c2);
            final double m22 = inertia + m * lc * lc;
            final double h = m * l1 * lc * s2;
            // dV/dq with V = -sum m g . c
            final double s1 = Math.sin(q[0]);
            final double c1 = Math.cos(q[0]);
            final double s12 = Math.sin(q[0] + q[1]);
            final double c12 = Math.cos(q[0] + q[1]);
            final double g2 = -m * lc * (-gx * s12 + gy * c12);
            final double g1 = -m * lc * (-gx * s1 + gy * c1) - m * l1 * (-gx * s1 + gy * c1) + g2;
            final double[] expected = {
                m11 * qdd[0] + m12 * qdd[1] - h * (2 * qd[0] * qd[1] + qd[1] * qd[1]) + g1,
                m12 * qdd[0] + m22 * qdd[1] + h * qd[0] * qd[0] + g2};
            assertArrayEquals(expected, tau, TORQUE_TOLERANCE_NM, "sample " + sample);
        }
    }

    @Test
    void prismaticRevoluteArmTorquesEqualTheLagrangeEquations()
    {
        // Barman 2020, Tables 4.3-4.4: slider along base z (d1 = 0.4 + q1), joint 2 about base x at
        // angle th = pi/2 + q2 from base y; link 2's centre at lc = 0.2 along (0, cos th, sin th).
        // L = (m1 + m2) qd1^2 / 2 + m2 lc cos(th) qd1 qd2 + (m2 lc^2 + I2) qd2^2 / 2 - V.
        final double m = 0.5;
        final double lc = 0.2;
        final double inertia = 0.1;
        final double gy = -3.0;
        final double gz = -9.81;
        final InverseDynamics rnea = new InverseDynamics(
            CompiledModel.of(RobotDescriptions.load(shipped("two-link-pr.yaml")), 0.0, gy, gz));
        final SplittableRandom rnd = new SplittableRandom(2021);
        final double[] tau = new double[2];
        for (int sample = 0; sample < 200; sample++)
        {
            final double[] q = uniform(rnd, 2, 1.0);
            final double[] qd = uniform(rnd, 2, 3.0);
            final double[] qdd = uniform(rnd, 2, 10.0);
            rnea.compute(q, qd, qdd, tau);
            final double th = Math.PI / 2 + q[1];
            final double[] expected = {
                2 * m * qdd[0] + m * lc * Math.cos(th) * qdd[1] - m * lc * Math.sin(th) * qd[1] * qd[1] - 2 * m * gz,
                m * lc * Math.cos(th) * qdd[0] + (m * lc * lc + inertia) * qdd[1]
                    + m * lc * (gy * Math.sin(th) - gz * Math.cos(th))};
            assertArrayEquals(expected, tau, TORQUE_TOLERANCE_NM, "sample " + sample);
        }
    }

    @Test
    void standardDhGravityTorquesEqualTheGradientOfThePotentialEnergyOfTheDirectProduct() throws IOException
    {
        final double[] g = {1.2, -0.7, -9.81};
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RandomStandardDh robot = new RandomStandardDh(seed);
            final Path file = dir.resolve("random-" + seed + ".yaml");
            Files.writeString(file, robot.yaml());
            final InverseDynamics rnea = new InverseDynamics(CompiledModel.of(RobotDescriptions.load(file), g[0], g[1], g[2]));
            final SplittableRandom rnd = new SplittableRandom(seed * 104729);
            final int n = robot.links();
            final double[] tau = new double[n];
            for (int pose = 0; pose < 5; pose++)
            {
                final double[] q = uniform(rnd, n, Math.PI);
                rnea.compute(q, new double[n], new double[n], tau);
                for (int k = 0; k < n; k++)
                {
                    assertEquals(potentialGradient(robot, g, q, k), tau[k], GRADIENT_TOLERANCE_NM,
                        "seed " + seed + " pose " + pose + " joint " + k);
                }
            }
        }
    }

    /** dV/dq_k by a 4th-order central difference, V = -sum m_i g . c_i from the standard-DH product. */
    private static double potentialGradient(final RandomStandardDh robot, final double[] g, final double[] q, final int k)
    {
        final double[] weights = {1.0 / 12, -2.0 / 3, 2.0 / 3, -1.0 / 12};
        final double[] steps = {-2, -1, 1, 2};
        double sum = 0.0;
        for (int s = 0; s < 4; s++)
        {
            final double[] qs = q.clone();
            qs[k] += steps[s] * FD_STEP;
            sum += weights[s] * potential(robot, g, qs);
        }
        return sum / FD_STEP;
    }

    private static double potential(final RandomStandardDh robot, final double[] g, final double[] q)
    {
        double[] r = Transforms.identity();
        double[] p = new double[3];
        double v = 0.0;
        for (int i = 0; i < robot.links(); i++)
        {
            final double[][] tip = robot.tipTransform(i, q[i]);
            p = BodyPoses.add(p, Transforms.apply(r, tip[1]));
            r = Transforms.multiply(r, tip[0]);
            final double[] c = BodyPoses.add(p, Transforms.apply(r, robot.com(i)));
            v -= robot.mass(i) * (g[0] * c[0] + g[1] * c[1] + g[2] * c[2]);
        }
        return v;
    }

    private static double[] uniform(final SplittableRandom rnd, final int n, final double bound)
    {
        final double[] v = new double[n];
        for (int k = 0; k < n; k++)
        {
            v[k] = rnd.nextDouble(-bound, bound);
        }
        return v;
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
