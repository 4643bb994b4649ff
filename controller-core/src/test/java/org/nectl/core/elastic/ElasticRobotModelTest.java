package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

class ElasticRobotModelTest
{
    private static final double[] Z = {0, 0, 1};

    private static RobotModel twoJoints(final double rotorInertiaOfSecond)
    {
        final RobotModel.Builder b = RobotModel.builder("two");
        final InertialParameters inertia = InertialParameters.ofCentreOfMass(
            1.0, new double[] {0.1, 0, 0}, new double[] {0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01});
        b.addBody("upper", "shoulder", -1, JointType.REVOLUTE, Transforms.identity(), new double[3], inertia);
        final int lower = b.addBody("lower", "elbow", 0, JointType.REVOLUTE, Transforms.identity(),
            new double[] {0.3, 0, 0}, inertia);
        b.actuation(lower, new JointActuation(rotorInertiaOfSecond, 0.0, 0.0));
        return b.build();
    }

    private static Motor motor(final int mount, final double gearRatio, final double axial)
    {
        return new Motor(mount, Z, new double[3], gearRatio, axial, 0.5, axial, 0.0, 0.0);
    }

    private static String failure(final ElasticRobotModel.Builder builder)
    {
        return assertThrows(IllegalArgumentException.class, builder::build).getMessage();
    }

    @Test
    void indexesElasticJointsInCoordinateOrder()
    {
        final ElasticRobotModel model = ElasticRobotModel.builder(twoJoints(0.0))
            .motor("shoulder", motor(-1, 2.0, 0.01))
            .motor("elbow", motor(0, 3.0, 0.01))
            .elasticity("elbow", new JointElasticity(100.0, 0.5))
            .build();
        assertEquals(2, model.dof());
        assertEquals(1, model.elasticCount());
        assertEquals(2, model.motorCount());
        assertFalse(model.isElastic(0));
        assertTrue(model.isElastic(1));
        assertEquals(0, model.elasticIndex(1));
        assertEquals(-1, model.elasticIndex(0));
        assertEquals(1, model.coordinateOfElastic(0));
        assertEquals(9.0 * 0.01, model.motor(1).reflectedInertia(), 1e-15);
        assertEquals(1000.0, model.withStiffnessScaled(10.0).elasticity(1).stiffness(), 1e-12);
        assertEquals(0, model.rigidLimit().elasticCount());
        assertEquals(2, model.rigidLimit().motorCount());
    }

    @Test
    void anElasticJointWithoutAMotorIsPassiveWithoutAMotorCoordinate()
    {
        final ElasticRobotModel model = ElasticRobotModel.builder(twoJoints(0.0))
            .motor("shoulder", motor(-1, 2.0, 0.01))
            .elasticity("elbow", new JointElasticity(100.0, 0.5, 0.25))
            .build();
        assertTrue(model.isPassive(1));
        assertFalse(model.isElastic(1));
        assertFalse(model.isPassive(0));
        assertEquals(0, model.elasticCount());
        assertEquals(1, model.passiveCount());
        assertEquals(0.25, model.elasticity(1).restPosition());
        assertEquals(100.0, model.withStiffnessScaled(10.0).elasticity(1).stiffness(), 0.0, "passive springs are kept");
        assertTrue(model.rigidLimit().isPassive(1));
    }

    @Test
    void rejectsARestPositionOnAJointWithAMotor()
    {
        final String message = failure(ElasticRobotModel.builder(twoJoints(0.0))
            .motor("elbow", motor(0, 1.0, 0.01)).elasticity("elbow", new JointElasticity(100.0, 0.0, 0.3)));
        assertTrue(message.contains("joint 'elbow'") && message.contains("rest position 0.3 applies only to a passive joint"),
            message);
    }

    @Test
    void rejectsAnElasticJointWhoseRotorHasNoInertia()
    {
        final String message = failure(ElasticRobotModel.builder(twoJoints(0.0))
            .motor("elbow", motor(0, 1.0, 0.0)).elasticity("elbow", new JointElasticity(100.0, 0.0)));
        assertTrue(message.contains("axial inertia 0.0 must be > 0"), message);
    }

    @Test
    void rejectsRotorInertiaGivenTwice()
    {
        final String message = failure(ElasticRobotModel.builder(twoJoints(0.2)).motor("elbow", motor(0, 1.0, 0.01)));
        assertTrue(message.contains("joint 'elbow': motor: the joint also has rotor inertia 0.2"), message);
    }

    @Test
    void rejectsAMountBodyThatDoesNotExist()
    {
        final String message = failure(ElasticRobotModel.builder(twoJoints(0.0)).motor("elbow", motor(2, 1.0, 0.01)));
        assertTrue(message.contains("mount body 2 does not exist"), message);
    }

    @Test
    void rejectsNonPositiveStiffnessAndNegativeDamping()
    {
        final String stiffness = failure(ElasticRobotModel.builder(twoJoints(0.0)).motor("elbow", motor(0, 1.0, 0.01))
            .elasticity("elbow", new JointElasticity(0.0, 0.0)));
        assertTrue(stiffness.contains("elasticity: stiffness 0.0 must be finite and > 0"), stiffness);
        final String damping = failure(ElasticRobotModel.builder(twoJoints(0.0)).motor("elbow", motor(0, 1.0, 0.01))
            .elasticity("elbow", new JointElasticity(10.0, -1.0)));
        assertTrue(damping.contains("damping -1.0 must be finite and >= 0"), damping);
    }

    @Test
    void rejectsAnUnknownJoint()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> ElasticRobotModel.builder(twoJoints(0.0)).motor("wrist", motor(0, 1.0, 0.01)));
        assertTrue(e.getMessage().contains("no movable joint named 'wrist'"), e.getMessage());
    }

    @Test
    void motorChecksNameTheBrokenRule()
    {
        assertTrue(motor(0, 0.0, 0.01).check().contains("gear ratio 0.0 must be finite and > 0"));
        assertTrue(new Motor(0, new double[] {0, 0, 2}, new double[3], 1, 0.01, 0, 0.01, 0, 0).check()
            .contains("it must be a unit vector"));
        assertTrue(new Motor(0, Z, new double[3], 1, 0.01, 0, 0.001, 0, 0).check().contains("triangle inequality"));
        assertTrue(new Motor(0, Z, new double[3], 1, 0.01, -1, 0.01, 0, 0).check().contains("rotor mass -1.0"));
        assertTrue(new Motor(0, Z, new double[3], 1, 0.01, 0, 0.01, 0, -0.5).check().contains("viscous friction -0.5"));
        assertTrue(new Motor(-2, Z, new double[3], 1, 0.01, 0, 0.01, 0, 0).check().contains("mount body -2"));
        assertEquals(null, Motor.onBase(0.3).check());
    }

    @Test
    void motorIsImmutable()
    {
        final double[] axis = {0, 0, 1};
        final Motor m = new Motor(-1, axis, new double[3], 1, 0.01, 0, 0.01, 0, 0);
        axis[2] = 5;
        m.axis()[2] = 7;
        assertEquals(1.0, m.axis()[2]);
        assertEquals(new Motor(-1, Z, new double[3], 1, 0.01, 0, 0.01, 0, 0), m);
    }
}
