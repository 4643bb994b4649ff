package org.nectl.core.model;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

class RobotModelTest
{
    private static final double[] NO_INERTIA = new double[9];

    @Test
    void centreOfMassParametersRoundTripThroughFirstMoment()
    {
        final SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 100; i++)
        {
            final InertialParameters p = RandomRobots.randomInertia(rnd);
            final InertialParameters q = InertialParameters.ofCentreOfMass(
                p.mass(), p.centreOfMass(), p.inertiaAtCentreOfMass());
            assertArrayEquals(p.inertiaAtOrigin(), q.inertiaAtOrigin(), 1e-12, "seed 1, sample " + i);
            assertArrayEquals(p.firstMoment(), q.firstMoment(), 1e-12, "seed 1, sample " + i);
        }
    }

    @Test
    void transformingInertiaThereAndBackIsIdentity()
    {
        final SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 50; i++)
        {
            final InertialParameters p = RandomRobots.randomInertia(rnd);
            final double[] r = RandomRobots.randomRotation(rnd);
            final double[] t = RandomRobots.vector(rnd, 3, 1.0);
            final double[] rt = Transforms.transpose(r);
            final double[] back = Transforms.apply(rt, t);
            for (int k = 0; k < 3; k++)
            {
                back[k] = -back[k];
            }
            final InertialParameters q = p.transformed(r, t).transformed(rt, back);
            assertArrayEquals(p.inertiaAtOrigin(), q.inertiaAtOrigin(), 1e-12, "seed 2, sample " + i);
        }
    }

    @Test
    void modifiedDhPlacementMatchesProductOfElementaryTransforms()
    {
        final double gamma = 0.3;
        final double b = 0.2;
        final double alpha = -1.1;
        final double d = 0.45;
        final double theta = 0.7;
        final double r = -0.15;
        // Rot(z,g) Trans(z,b) Rot(x,a) Trans(x,d) Rot(z,t) Trans(z,r) composed as 4x4 by hand.
        final double[] rot = Transforms.multiply(Transforms.rotZ(gamma),
            Transforms.multiply(Transforms.rotX(alpha), Transforms.rotZ(theta)));
        assertArrayEquals(rot, ModifiedDh.placementRotation(gamma, alpha, theta), 1e-15);
        final double[] pd = Transforms.apply(Transforms.rotZ(gamma),
            Transforms.apply(Transforms.rotX(alpha), new double[] {d, 0, 0}));
        final double[] pr = Transforms.apply(rot, new double[] {0, 0, r});
        final double[] expected = {pd[0] + pr[0], pd[1] + pr[1], b + pd[2] + pr[2]};
        assertArrayEquals(expected, ModifiedDh.placementTranslation(gamma, b, alpha, d, r), 1e-15);
    }

    @Test
    void withZAxisBuildsARotationWhoseThirdColumnIsTheAxis()
    {
        final SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 100; i++)
        {
            final double[] a = RandomRobots.vector(rnd, 3, 1.0);
            final double n = Math.sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
            final double[] axis = {a[0] / n, a[1] / n, a[2] / n};
            final double[] r = Transforms.withZAxis(axis);
            assertArrayEquals(axis, new double[] {r[2], r[5], r[8]}, 1e-15);
            assertArrayEquals(Transforms.identity(), Transforms.multiply(r, Transforms.transpose(r)), 1e-14);
        }
    }

    @Test
    void inertiaChecksRejectNegativeMassAndTriangleViolation()
    {
        assertNotNull(InertiaChecks.checkMass(-1.0));
        assertNotNull(InertiaChecks.checkMass(Double.NaN));
        assertNull(InertiaChecks.checkMass(0.0));
        final String triangle = InertiaChecks.checkInertiaAtCentreOfMass(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 3});
        assertTrue(triangle.contains("triangle"), triangle);
        final String negative = InertiaChecks.checkInertiaAtCentreOfMass(new double[] {1, 0, 0, 0, 1, 0, 0, 0, -0.5});
        assertTrue(negative.contains("positive semi-definite"), negative);
        assertNull(InertiaChecks.checkInertiaAtCentreOfMass(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 2}));
    }

    @Test
    void builderRejectsParentThatIsNotEarlierAndNamesTheJoint()
    {
        final RobotModel.Builder b = RobotModel.builder("bad");
        b.addBody("l0", "j0", 0, JointType.REVOLUTE, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(1.0, new double[3], NO_INERTIA));
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().contains("joint 'j0'") && e.getMessage().contains("parent 0"), e.getMessage());
    }

    @Test
    void coordinateOrderIsIndependentOfBodyOrder()
    {
        final RobotModel.Builder b = RobotModel.builder("tree");
        final InertialParameters p = InertialParameters.ofCentreOfMass(1.0, new double[3], NO_INERTIA);
        b.addBody("a", "ja", -1, JointType.REVOLUTE, Transforms.identity(), new double[3], p);
        b.addBody("f", "jf", 0, JointType.FIXED, Transforms.identity(), new double[3], p);
        b.addBody("c", "jc", 1, JointType.PRISMATIC, Transforms.identity(), new double[3], p);
        final RobotModel m = b.coordinateOrder(List.of("jc", "ja")).build();
        assertEquals(2, m.dof());
        assertEquals(2, m.bodyOfCoordinate(0));
        assertEquals(0, m.bodyOfCoordinate(1));
        assertEquals(-1, m.coordinateOfBody(1));
        assertEquals(3.0, m.totalMass());
    }
}
