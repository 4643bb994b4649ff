package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

/**
 * Export to URDF and back: the same robot structurally and the same inverse-dynamics torques.
 * Tolerance 1e-12 (absolute on O(1) poses and inertias, relative on torques): the only changes on
 * the way are rotation -> rpy -> rotation and the centre-of-mass form of the inertia, each a few
 * roundings near 1e-16.
 */
class UrdfWriterTest
{
    private static final double TOLERANCE = 1e-12;

    @Test
    void rollPitchYawReproducesEveryRotationIncludingGimbalLock()
    {
        final SplittableRandom rnd = new SplittableRandom(11);
        final List<double[]> rotations = new ArrayList<>();
        for (int i = 0; i < 2000; i++)
        {
            rotations.add(RandomRobots.randomRotation(rnd));
        }
        for (final double pitch : new double[] {Math.PI / 2, -Math.PI / 2, Math.PI / 2 - 1e-9, -Math.PI / 2 + 1e-12})
        {
            for (int i = 0; i < 200; i++)
            {
                rotations.add(Transforms.rpy(rnd.nextDouble(-Math.PI, Math.PI), pitch, rnd.nextDouble(-Math.PI, Math.PI)));
            }
        }
        rotations.add(Transforms.rotX(Math.PI));
        rotations.add(Transforms.rotY(Math.PI));
        rotations.add(Transforms.rotZ(Math.PI));
        rotations.add(Transforms.identity());
        rotations.add(new double[] {0, 0, 1, 0, 1, 0, -1, 0, 0});
        rotations.add(new double[] {0, 0, -1, 0, 1, 0, 1, 0, 0});
        for (int i = 0; i < rotations.size(); i++)
        {
            final double[] r = rotations.get(i);
            final double[] rpy = RollPitchYaw.of(r);
            assertArrayEquals(r, Transforms.rpy(rpy[0], rpy[1], rpy[2]), 1e-15, "seed 11, rotation " + i);
            assertTrue(Math.abs(rpy[1]) <= Math.PI / 2, "seed 11, rotation " + i);
        }
    }

    @Test
    void exportedRandomRobotsReimportAsTheSameRobot()
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final RobotModel model = withRandomLimits(RandomRobots.any(seed), seed);
            final RobotModel back = UrdfReader.read(UrdfWriter.write(model), "exported" + seed + ".urdf");
            ModelComparison.assertSameRobot(model, back, TOLERANCE, "seed " + seed);
            TorqueComparison.assertSameTorques(model, back, seed, TOLERANCE);
        }
    }

    @Test
    void urdfToModelToUrdfToModelIsTheSameRobot()
    {
        for (long seed = 0; seed < 200; seed++)
        {
            final RobotModel first = UrdfReader.read(RandomUrdf.generate(seed), "random" + seed + ".urdf");
            final RobotModel second = UrdfReader.read(UrdfWriter.write(first), "exported" + seed + ".urdf");
            ModelComparison.assertSameRobot(first, second, TOLERANCE, "seed " + seed);
            TorqueComparison.assertSameTorques(first, second, seed, TOLERANCE);
        }
    }

    @Test
    void namesAreEscaped()
    {
        final RobotModel.Builder b = RobotModel.builder("a&b \"robot\"").baseName("<base>");
        final int body = b.addBody("link <1>", "joint & 1", -1, JointType.REVOLUTE, Transforms.identity(),
            new double[3], InertialParameters.ofCentreOfMass(1.0, new double[3], new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}));
        b.limits(body, new JointLimits(-1, 1, 2, 3, Double.POSITIVE_INFINITY));
        final RobotModel back = UrdfReader.read(UrdfWriter.write(b.build()), "escaped.urdf");
        assertEquals("a&b \"robot\"", back.name());
        assertEquals("<base>", back.baseName());
        assertEquals("link <1>", back.bodyName(0));
        assertEquals("joint & 1", back.jointName(0));
    }

    @Test
    void missingLimitsAreWrittenAsTheLargestDoubleAndReadBackAsUnlimited()
    {
        final JointLimits oneSided = new JointLimits(-1, Double.POSITIVE_INFINITY, 2, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY);
        final String revolute = UrdfWriter.write(single(JointType.REVOLUTE, oneSided));
        assertTrue(revolute.contains("<limit lower=\"-1.0\" upper=\"1.7976931348623157E308\" effort=\"1.7976931348623157E308\""
            + " velocity=\"2.0\"/>"), revolute);
        assertEquals(oneSided, UrdfReader.read(revolute, "one-sided.urdf").limits(0));
        final String prismatic = UrdfWriter.write(single(JointType.PRISMATIC, JointLimits.NONE));
        assertTrue(prismatic.contains("lower=\"-1.7976931348623157E308\""), prismatic);
        assertEquals(JointLimits.NONE, UrdfReader.read(prismatic, "unlimited.urdf").limits(0));
    }

    @Test
    void revoluteJointWithoutPositionLimitsBecomesContinuous()
    {
        final String urdf = UrdfWriter.write(single(JointType.REVOLUTE, JointLimits.NONE));
        assertTrue(urdf.contains("type=\"continuous\""), urdf);
        assertEquals(JointLimits.NONE, UrdfReader.read(urdf, "c.urdf").limits(0));
    }

    private static RobotModel single(final JointType type, final JointLimits limits)
    {
        final RobotModel.Builder b = RobotModel.builder("one");
        final int body = b.addBody("l", "slide", -1, type, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(1.0, new double[3], new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}));
        b.limits(body, limits);
        return b.build();
    }

    /**
     * The same robot with random limits on every movable joint, each value finite or unlimited
     * (random robots have none, and URDF needs a number for most of them).
     */
    static RobotModel withRandomLimits(final RobotModel model, final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final RobotModel.Builder b = RobotModel.builder(model.name()).baseName(model.baseName());
        final List<String> order = new ArrayList<>();
        for (int k = 0; k < model.dof(); k++)
        {
            order.add(model.coordinateName(k));
        }
        for (int i = 0; i < model.bodyCount(); i++)
        {
            b.addBody(model.bodyName(i), model.jointName(i), model.parent(i), model.jointType(i),
                model.placementRotation(i), model.placementTranslation(i), model.inertialParameters(i));
            final int k = model.coordinateOfBody(i);
            if (k >= 0)
            {
                b.actuation(i, model.actuation(k)).limits(i, new JointLimits(
                    -limitOrUnlimited(rnd, 0.1, 3), limitOrUnlimited(rnd, 0.1, 3), limitOrUnlimited(rnd, 0.5, 5),
                    limitOrUnlimited(rnd, 1, 300), Double.POSITIVE_INFINITY));
            }
        }
        return b.coordinateOrder(order).build();
    }

    private static double limitOrUnlimited(final SplittableRandom rnd, final double min, final double max)
    {
        return rnd.nextInt(3) == 0 ? Double.POSITIVE_INFINITY : rnd.nextDouble(min, max);
    }
}
