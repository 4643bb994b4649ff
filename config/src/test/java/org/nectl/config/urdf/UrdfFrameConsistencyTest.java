package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.nectl.config.urdf.UrdfSpecKinematics.add;
import static org.nectl.config.urdf.UrdfSpecKinematics.apply;
import static org.nectl.config.urdf.UrdfSpecKinematics.mul;
import static org.nectl.config.urdf.UrdfSpecKinematics.transpose;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.config.urdf.UrdfSpecKinematics.Pose;
import org.nectl.config.urdf.UrdfSpecKinematics.WorldInertia;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

/**
 * The imported model against an independent evaluation of the URDF's own definitions: every link's
 * world pose and every link's world-frame inertia at random joint positions. Tolerance 1e-12
 * (absolute, on O(1) rotations, metre-scale positions and inertias of at most a few kg m^2): both
 * sides compose at most 14 transforms in double precision, so their rounding differences stay near
 * 1e-15; any frame, rpy-order, axis or inertial-frame mistake gives errors of order 0.1-1.
 */
class UrdfFrameConsistencyTest
{
    private static final double TOLERANCE = 1e-12;

    @Test
    void linkPosesAndInertiasMatchTheUrdfDefinitionsOnRandomRobots()
    {
        for (long seed = 0; seed < 300; seed++)
        {
            final String urdf = RandomUrdf.generate(seed);
            assertMatchesUrdfDefinitions(urdf, UrdfReader.read(urdf, "random" + seed + ".urdf"), seed);
        }
    }

    @Test
    void coordinatesFollowTheOrderOfJointElementsInTheFile()
    {
        for (long seed = 0; seed < 100; seed++)
        {
            final String urdf = RandomUrdf.generate(seed);
            final RobotModel model = UrdfReader.read(urdf, "random" + seed + ".urdf");
            final List<String> expected = new UrdfSpecKinematics(urdf).movableJoints();
            assertEquals(expected.size(), model.dof(), "seed " + seed);
            for (int k = 0; k < model.dof(); k++)
            {
                assertEquals(expected.get(k), model.coordinateName(k), "seed " + seed + ", coordinate " + k);
            }
        }
    }

    @Test
    void axisFrameIsARotationTakingZOntoTheAxis()
    {
        final SplittableRandom rnd = new SplittableRandom(7);
        final double[][] special = {{0, 0, 1}, {0, 0, -1}, {1, 0, 0}, {0, -1, 0}, {1e-12, 0, -1}, {-1e-9, 1e-9, -1}};
        for (int i = 0; i < 1000 + special.length; i++)
        {
            final double[] axis = i < special.length ? special[i] : RandomRobots.vector(rnd, 3, 1.0);
            final double n = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            final double[] unit = {axis[0] / n, axis[1] / n, axis[2] / n};
            final double[] a = JointAxisFrame.rotationTakingZTo(unit);
            assertArrayEquals(unit, apply(a, new double[] {0, 0, 1}), 1e-15, "seed 7, axis " + i);
            assertArrayEquals(Transforms.identity(), mul(a, transpose(a)), 1e-15, "seed 7, axis " + i);
            final double det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6])
                + a[2] * (a[3] * a[7] - a[4] * a[6]);
            assertEquals(1.0, det, 1e-15, "seed 7, axis " + i);
        }
        assertArrayEquals(Transforms.identity(), JointAxisFrame.rotationTakingZTo(new double[] {0, 0, 1}), 0.0);
    }

    /**
     * Compares link poses (canonical body pose * A^T, A the axis frame of the link's joint) and
     * world-frame inertias with the URDF evaluated independently, at five random joint positions.
     */
    static void assertMatchesUrdfDefinitions(final String urdf, final RobotModel model, final long seed)
    {
        final UrdfSpecKinematics spec = new UrdfSpecKinematics(urdf);
        final SplittableRandom rnd = new SplittableRandom(seed);
        for (int sample = 0; sample < 5; sample++)
        {
            final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
            final Map<String, Double> qByName = new HashMap<>();
            for (int k = 0; k < model.dof(); k++)
            {
                qByName.put(model.coordinateName(k), q[k]);
            }
            final Pose[] bodies = CanonicalPoses.bodyPoses(model, q);
            for (int i = 0; i < model.bodyCount(); i++)
            {
                final String where = "seed " + seed + ", sample " + sample + ", link " + model.bodyName(i);
                final double[] a = model.jointType(i).isMovable()
                    ? JointAxisFrame.rotationTakingZTo(spec.axis(model.jointName(i))) : Transforms.identity();
                final Pose expected = spec.linkPose(model.bodyName(i), qByName);
                assertArrayEquals(expected.rotation(), mul(bodies[i].rotation(), transpose(a)), TOLERANCE, where);
                assertArrayEquals(expected.translation(), bodies[i].translation(), TOLERANCE, where);
                assertInertiaMatches(spec.worldInertia(model.bodyName(i), qByName), model.inertialParameters(i),
                    bodies[i], where);
            }
        }
    }

    private static void assertInertiaMatches(
        final WorldInertia expected, final InertialParameters body, final Pose pose, final String where)
    {
        final double[] r = pose.rotation();
        final double[] comWorld = add(pose.translation(), apply(r, body.centreOfMass()));
        final double[] inertiaWorld = mul(r, mul(body.inertiaAtCentreOfMass(), transpose(r)));
        if (expected == null)
        {
            assertEquals(0.0, body.mass(), 0.0, where);
            assertArrayEquals(new double[9], inertiaWorld, 0.0, where);
            return;
        }
        assertEquals(expected.mass(), body.mass(), 0.0, where);
        assertArrayEquals(expected.centreOfMass(), comWorld, TOLERANCE, where);
        assertArrayEquals(expected.inertiaAtCentreOfMass(), inertiaWorld, TOLERANCE, where);
    }
}
