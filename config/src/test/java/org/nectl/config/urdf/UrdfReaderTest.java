package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/** What each URDF element becomes in the model, checked on hand-computed cases. */
class UrdfReaderTest
{
    private static final double G = 9.81;

    /**
     * A pendulum turning about its link's y axis (written as the non-unit axis "0 2 0") with the
     * centre of mass l = 0.5 m along x, principal inertias (a, b, c) turned by theta about z by the
     * inertial rpy, Coulomb and viscous friction, a Drake rotor inertia with gear ratio. By hand:
     * tau = (Iyy + m l^2 + Ir n^2) qdd - m g l cos q + Fv qd + Fs sign(qd), where
     * Iyy = a sin^2 theta + b cos^2 theta (the tensor turned about z, read on the y axis).
     */
    @Test
    void pendulumTorqueMatchesTheHandComputedEquationOfMotion()
    {
        final double m = 2.0;
        final double l = 0.5;
        final double a = 0.03;
        final double b = 0.05;
        final double c = 0.04;
        final double theta = 0.7;
        final double fv = 0.3;
        final double fs = 0.2;
        final double rotor = 1e-4;
        final double ratio = 50.0;
        final String urdf = "<robot name=\"pendulum\" xmlns:drake=\"http://drake.mit.edu\">\n"
            + "  <link name=\"world\"/>\n"
            + "  <link name=\"arm\"><inertial><origin xyz=\"" + l + " 0 0\" rpy=\"0 0 " + theta + "\"/>"
            + "<mass value=\"" + m + "\"/><inertia ixx=\"" + a + "\" ixy=\"0\" ixz=\"0\" iyy=\"" + b + "\" iyz=\"0\" izz=\""
            + c + "\"/></inertial></link>\n"
            + "  <joint name=\"hinge\" type=\"continuous\"><parent link=\"world\"/><child link=\"arm\"/>"
            + "<origin xyz=\"0.1 0.2 1.0\"/><axis xyz=\"0 2 0\"/>"
            + "<dynamics damping=\"" + fv + "\" friction=\"" + fs + "\"/></joint>\n"
            + "  <transmission name=\"t\"><joint name=\"hinge\"/><actuator name=\"motor\">"
            + "<drake:rotor_inertia value=\"" + rotor + "\"/><drake:gear_ratio value=\"" + ratio + "\"/>"
            + "</actuator></transmission>\n"
            + "</robot>\n";
        final RobotModel model = UrdfReader.read(urdf, "pendulum.urdf");
        assertEquals(new JointActuation(rotor * ratio * ratio, fs, fv), model.actuation(0));
        final InverseDynamics id = new InverseDynamics(CompiledModel.of(model));
        final double iyy = a * Math.sin(theta) * Math.sin(theta) + b * Math.cos(theta) * Math.cos(theta);
        final double[] tau = new double[1];
        for (final double[] state : new double[][] {{0.0, 0.5, 1.0}, {1.1, -0.7, -2.0}, {-2.5, 1.5, 0.3}})
        {
            final double q = state[0];
            final double qd = state[1];
            final double qdd = state[2];
            id.compute(new double[] {q}, new double[] {qd}, new double[] {qdd}, tau);
            final double expected = (iyy + m * l * l + rotor * ratio * ratio) * qdd - m * G * l * Math.cos(q)
                + fv * qd + fs * Math.signum(qd);
            assertEquals(expected, tau[0], 1e-12 * Math.max(1.0, Math.abs(expected)), "q = " + q);
        }
    }

    @Test
    void defaultAxisIsTheJointFrameXAxis()
    {
        final RobotModel model = UrdfReader.read("<robot name=\"r\"><link name=\"a\"/>"
            + "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
            + " izz=\"1\"/></inertial></link>"
            + "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
            + "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint></robot>", "default-axis.urdf");
        final double[] r = model.placementRotation(0);
        assertArrayEquals(new double[] {1, 0, 0}, new double[] {r[2], r[5], r[8]}, 0.0);
    }

    @Test
    void limitsMapOntoTheModelAndContinuousJointsHaveNoPositionLimits()
    {
        final String urdf = "<robot name=\"r\"><link name=\"a\"/>"
            + "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
            + " izz=\"1\"/></inertial></link>"
            + "<link name=\"c\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
            + " izz=\"1\"/></inertial></link>"
            + "<joint name=\"wheel\" type=\"continuous\"><parent link=\"b\"/><child link=\"c\"/>"
            + "<limit lower=\"-1\" upper=\"1\" effort=\"7\" velocity=\"9\"/></joint>"
            + "<joint name=\"slide\" type=\"prismatic\"><parent link=\"a\"/><child link=\"b\"/>"
            + "<limit upper=\"0.4\" effort=\"300\" velocity=\"0.2\"/></joint></robot>";
        final RobotModel model = UrdfReader.read(urdf, "limits.urdf");
        assertEquals("wheel", model.coordinateName(0));
        assertEquals(new JointLimits(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 9, 7,
            Double.POSITIVE_INFINITY), model.limits(0));
        assertEquals(new JointLimits(0.0, 0.4, 0.2, 300, Double.POSITIVE_INFINITY), model.limits(1));
        assertEquals(JointActuation.NONE, model.actuation(1));
    }

    @Test
    void zeroEffortAndVelocityAsSimulatorsWriteThemReadAsUnlimited()
    {
        final String urdf = "<robot name=\"r\"><link name=\"a\"/>"
            + "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
            + " izz=\"1\"/></inertial></link>"
            + "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
            + "<limit lower=\"-1\" upper=\"1\" effort=\"0\" velocity=\"0\"/></joint></robot>";
        final RobotModel model = UrdfReader.read(urdf, "zero-limits.urdf");
        assertEquals(new JointLimits(-1, 1, Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY,
            Double.POSITIVE_INFINITY), model.limits(0));
    }

    @Test
    void zAxisJointsKeepTheirLinkFrames()
    {
        final double[] rpy = {0.3, -0.4, 1.2};
        final String urdf = "<robot name=\"r\"><link name=\"a\"/>"
            + "<link name=\"b\"><inertial><mass value=\"1\"/><inertia ixx=\"1\" ixy=\"0\" ixz=\"0\" iyy=\"1\" iyz=\"0\""
            + " izz=\"1\"/></inertial></link>"
            + "<joint name=\"j\" type=\"revolute\"><parent link=\"a\"/><child link=\"b\"/>"
            + "<origin xyz=\"1 2 3\" rpy=\"" + rpy[0] + " " + rpy[1] + " " + rpy[2] + "\"/><axis xyz=\"0 0 1\"/>"
            + "<limit lower=\"-1\" upper=\"1\" effort=\"1\" velocity=\"1\"/></joint></robot>";
        final RobotModel model = UrdfReader.read(urdf, "z.urdf");
        assertArrayEquals(Transforms.rpy(rpy[0], rpy[1], rpy[2]), model.placementRotation(0), 0.0);
        assertArrayEquals(new double[] {1, 2, 3}, model.placementTranslation(0), 0.0);
    }
}
