package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.nectl.config.urdf.UrdfSpecKinematics.add;
import static org.nectl.config.urdf.UrdfSpecKinematics.apply;
import static org.nectl.config.urdf.UrdfSpecKinematics.mul;
import static org.nectl.config.urdf.UrdfSpecKinematics.transpose;

import java.util.SplittableRandom;

import org.nectl.config.urdf.UrdfSpecKinematics.Pose;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Structural equality of two models describing the same robot, matched by link and joint names
 * (body numbering may differ): coordinate order, tree, joint types, body-frame world poses at
 * random q, world-frame inertias, actuation and URDF-expressible limits.
 */
final class ModelComparison
{
    private ModelComparison()
    {
    }

    /**
     * @param tolerance absolute tolerance on poses (m, rotation entries), inertias and actuation.
     */
    static void assertSameRobot(
        final RobotModel expected, final RobotModel actual, final double tolerance, final String where)
    {
        assertEquals(expected.name(), actual.name(), where);
        assertEquals(expected.baseName(), actual.baseName(), where);
        assertEquals(expected.bodyCount(), actual.bodyCount(), where);
        assertEquals(expected.dof(), actual.dof(), where);
        for (int k = 0; k < expected.dof(); k++)
        {
            assertEquals(expected.coordinateName(k), actual.coordinateName(k), where + ", coordinate " + k);
            assertEquals(expected.actuation(k).rotorInertia(), actual.actuation(k).rotorInertia(), tolerance, where);
            assertEquals(expected.actuation(k).coulombFriction(), actual.actuation(k).coulombFriction(), tolerance,
                where);
            assertEquals(expected.actuation(k).viscousFriction(), actual.actuation(k).viscousFriction(), tolerance,
                where);
            final JointLimits e = expected.limits(k);
            final JointLimits a = actual.limits(k);
            assertArrayEquals(new double[] {e.positionMin(), e.positionMax(), e.velocityMax(), e.effortMax()},
                new double[] {a.positionMin(), a.positionMax(), a.velocityMax(), a.effortMax()}, 0.0,
                where + ", limits of coordinate " + k);
        }
        final SplittableRandom rnd = new SplittableRandom(where.hashCode());
        for (int sample = 0; sample < 5; sample++)
        {
            final double[] q = RandomRobots.vector(rnd, expected.dof(), Math.PI);
            final Pose[] pe = CanonicalPoses.bodyPoses(expected, q);
            final Pose[] pa = CanonicalPoses.bodyPoses(actual, q);
            for (int i = 0; i < expected.bodyCount(); i++)
            {
                final String body = where + ", sample " + sample + ", body " + expected.bodyName(i);
                final int j = actual.bodyIndex(expected.bodyName(i));
                final int parent = expected.parent(i);
                assertEquals(parent < 0 ? expected.baseName() : expected.bodyName(parent),
                    actual.parent(j) < 0 ? actual.baseName() : actual.bodyName(actual.parent(j)), body);
                assertEquals(expected.jointName(i), actual.jointName(j), body);
                assertEquals(expected.jointType(i), actual.jointType(j), body);
                assertArrayEquals(pe[i].rotation(), pa[j].rotation(), tolerance, body);
                assertArrayEquals(pe[i].translation(), pa[j].translation(), tolerance, body);
                assertWorldInertiaEquals(expected.inertialParameters(i), pe[i], actual.inertialParameters(j), pa[j],
                    tolerance, body);
            }
        }
    }

    private static void assertWorldInertiaEquals(
        final InertialParameters e, final Pose pe, final InertialParameters a, final Pose pa,
        final double tolerance, final String where)
    {
        assertEquals(e.mass(), a.mass(), tolerance, where);
        assertArrayEquals(add(pe.translation(), apply(pe.rotation(), e.centreOfMass())),
            add(pa.translation(), apply(pa.rotation(), a.centreOfMass())), tolerance, where);
        assertArrayEquals(mul(pe.rotation(), mul(e.inertiaAtCentreOfMass(), transpose(pe.rotation()))),
            mul(pa.rotation(), mul(a.inertiaAtCentreOfMass(), transpose(pa.rotation()))), tolerance, where);
    }
}
