package org.nectl.hw.mujoco;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.hw.AppliedWrench;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * The MuJoCo plant against closed-form statics: a 1 kg pendulum (centre of mass and a 5 cm
 * collision sphere 0.5 m out along x, hinge about y, joint damping 2 N m s/rad) falls from
 * horizontal onto an obstacle whose top is 0.25 m below the hinge; at rest the sphere touches it at
 * sin q = (0.25 - 0.05) / 0.5, and the obstacle's generalised force holds the weight's torque
 * m g l cos q. A wrench profile of m g / 2 upwards at 2 l holds it horizontal. The step allocates
 * nothing.
 */
class MujocoPlantTest
{
    private static final String PENDULUM = """
        <?xml version="1.0"?>
        <robot name="pendulum">
          <link name="base"/>
          <link name="arm">
            <inertial>
              <origin xyz="0.5 0 0"/>
              <mass value="1.0"/>
              <inertia ixx="0.001" iyy="0.001" izz="0.001" ixy="0" ixz="0" iyz="0"/>
            </inertial>
          </link>
          <joint name="hinge" type="continuous">
            <parent link="base"/>
            <child link="arm"/>
            <axis xyz="0 1 0"/>
            <limit effort="100" velocity="10"/>
            <dynamics damping="2.0" friction="0.0"/>
          </joint>
        </robot>
        """;
    private static final double GRAVITY = 9.81;
    private static final double LENGTH_M = 0.5;
    private static final double RADIUS_M = 0.05;
    private static final double DROP_M = 0.25;
    private static final double[] AT_REST = new double[1];

    @TempDir
    Path scratch;

    @BeforeAll
    static void mujoco()
    {
        MujocoRequired.check();
    }

    @Test
    void pendulumComesToRestOnAPlaneOrABoxWhereItsSphereTouchesAndTheContactHoldsItsWeight() throws IOException
    {
        final MujocoScene.Shape sphere = new MujocoScene.Shape(MujocoScene.Kind.SPHERE, new double[] {RADIUS_M},
            new double[] {LENGTH_M, 0, 0}, new double[3], "arm", null);
        final MujocoScene.Shape plane = new MujocoScene.Shape(MujocoScene.Kind.PLANE, new double[0], new double[] {0, 0, -DROP_M},
            new double[3], "", null);
        final MujocoScene.Shape box = new MujocoScene.Shape(MujocoScene.Kind.BOX, new double[] {1.0, 1.0, 0.2},
            new double[] {LENGTH_M, 0, -DROP_M - 0.1}, new double[3], "", null);
        final double restAngle = Math.asin((DROP_M - RADIUS_M) / LENGTH_M);
        for (final MujocoScene.Shape obstacle : List.of(plane, box))
        {
            final MujocoScene scene = new MujocoScene(List.of(obstacle), List.of(sphere), Optional.empty());
            try (MujocoPlant plant = pendulum(scene))
            {
                final double[] q = new double[1];
                final double[] qd = new double[1];
                int contacts = 0;
                for (int period = 0; period < 3_000; period++)
                {
                    assertEquals(ArmSimulator.STEP_OK, plant.step());
                    contacts = Math.max(contacts, plant.contactCount());
                }
                plant.positions(q);
                plant.velocities(qd);
                final double[] constraint = new double[1];
                plant.constraintForces(constraint);
                final String what = obstacle.kind() + ": q " + q[0] + " rad, qd " + qd[0] + ", constraint " + constraint[0] + " N m";
                assertTrue(contacts > 0, what);
                // Soft contact: MuJoCo's default solref lets the sphere sink about a millimetre under the load.
                assertEquals(restAngle, q[0], 0.005, what);
                assertEquals(0.0, qd[0], 1e-6, what);
                assertEquals(-GRAVITY * LENGTH_M * Math.cos(q[0]), constraint[0], 1e-3, what);
            }
        }
    }

    @Test
    void withoutAnObstacleThePendulumSwingsPastTheRestAngleUntouched() throws IOException
    {
        try (MujocoPlant plant = pendulum(MujocoScene.EMPTY))
        {
            final double[] q = new double[1];
            double deepest = 0.0;
            for (int period = 0; period < 1_000; period++)
            {
                plant.step();
                plant.positions(q);
                deepest = Math.max(deepest, q[0]);
                assertEquals(0, plant.contactCount());
            }
            assertTrue(deepest > 1.0, "swung to " + deepest + " rad");
        }
    }

    @Test
    void anUpwardWrenchOfHalfItsWeightAtTwiceTheDistanceHoldsThePendulumHorizontal() throws IOException
    {
        // Half the weight at twice the distance: the moment about the centre of mass must be carried over from the point.
        final MujocoScene.WrenchProfile lift = new MujocoScene.WrenchProfile("arm", new double[] {2 * LENGTH_M, 0, 0},
            new double[] {0, 0, GRAVITY / 2}, new double[3], 0.0, 0.5, 0.0, null);
        try (MujocoPlant plant = pendulum(new MujocoScene(List.of(), List.of(), Optional.of(lift))))
        {
            final double[] q = new double[1];
            for (int period = 0; period < 500; period++)
            {
                plant.step();
            }
            plant.positions(q);
            assertEquals(0.0, q[0], 1e-9, "held while the wrench is on");
            for (int period = 0; period < 200; period++)
            {
                plant.step();
            }
            plant.positions(q);
            assertTrue(q[0] > 0.1, "falls once the wrench is off: q " + q[0]);
        }
    }

    @Test
    void wrenchProfileRampsUpHoldsAndRampsDown()
    {
        final MujocoScene.WrenchProfile profile = new MujocoScene.WrenchProfile("arm", new double[3], new double[3], new double[3],
            1.0, 2.0, 0.5, null);
        assertEquals(0.0, profile.scale(0.99), 0.0);
        assertEquals(0.5, profile.scale(1.25), 1e-12);
        assertEquals(1.0, profile.scale(2.0), 0.0);
        assertEquals(0.5, profile.scale(2.75), 1e-12);
        assertEquals(0.0, profile.scale(3.01), 0.0);
    }

    @Test
    void stepOfThePlantAndOfTheArmOnItAllocatesNothing()
    {
        final Path panda = Path.of(System.getProperty("nectl.robots.dir", "../config/robots")).resolve("panda.urdf");
        final RobotModel model = RobotDescriptions.load(panda);
        try (MujocoPlant plant = MujocoPlant.open(panda, model, MujocoScene.EMPTY))
        {
            final double[] ready = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};
            final SimulatedArm arm = new SimulatedArm(model, new SimulatedArmConfig(model).initialQ(ready), plant);
            final double[] tau = new double[model.dof()];
            final JointStateSample sample = new JointStateSample(model.dof());
            final long bytes = AllocationMeter.bytesAllocated(() ->
            {
                arm.command(tau, DriveMode.ZERO_TORQUE, true);
                arm.step();
                arm.sample(sample);
            }, 20_000, 1_000);
            assertEquals(0L, bytes, "bytes allocated per 1000 periods");
            assertTrue(Double.isFinite(sample.q()[0]) && arm.stepCount() > 0);
        }
    }

    @Test
    void aScenePayloadAddsItsWeightTorqueAndItsInertiaAboutTheHinge() throws IOException
    {
        final Path scene = scratch.resolve("payload.yaml");
        Files.writeString(scene, "payload: {link: arm, mass: 0.5, com: [0.25, 0, 0], inertia: [0.002, 0.003, 0.004]}\n",
            StandardCharsets.UTF_8);
        final double[] zero = new double[1];
        final double[] without = new double[1];
        final double[] with = new double[1];
        final double[] inertiaWithout = new double[1];
        final double[] inertiaWith = new double[1];
        try (MujocoPlant plant = pendulum(MujocoScene.EMPTY))
        {
            plant.inverseDynamics(zero, zero, zero, without);
            plant.massMatrix(zero, inertiaWithout);
        }
        try (MujocoPlant plant = pendulum(MujocoScene.load(scene)))
        {
            plant.inverseDynamics(zero, zero, zero, with);
            plant.massMatrix(zero, inertiaWith);
        }
        // Horizontal arm, hinge about y: the payload's weight adds m g x_c; its inertia adds m x_c^2 + I_yy.
        assertEquals(0.5 * GRAVITY * 0.25, Math.abs(with[0]) - Math.abs(without[0]), 1e-9, "holding torque added");
        assertEquals(0.5 * 0.25 * 0.25 + 0.003, inertiaWith[0] - inertiaWithout[0], 1e-9, "inertia about the hinge added");
        Files.writeString(scene, "payload: {link: forearm, mass: 0.5}\n", StandardCharsets.UTF_8);
        final DescriptionException error = assertThrows(DescriptionException.class, () -> pendulum(MujocoScene.load(scene)));
        assertEquals(scene + ":1:10: payload: no link 'forearm' in the robot description; links: arm, base", error.getMessage());
    }

    @Test
    void anArmOnMujocoRefusesTheConfigurationsExternalWrenchAndNamesTheScenesInstead() throws IOException
    {
        try (MujocoPlant plant = pendulum(MujocoScene.EMPTY))
        {
            final RobotModel model = pendulumModel();
            final SimulatedArmConfig config = new SimulatedArmConfig(model).externalWrench(
                new AppliedWrench(model.bodyIndex("arm"), new double[] {0, 0, -1, 0, 0, 0}, 0L, 1_000_000L));
            final IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                () -> new SimulatedArm(model, config, plant));
            assertEquals(SimulatedArm.MUJOCO_WRENCH_REFUSAL, error.getMessage());
        }
    }

    @Test
    void aSceneLinkTheDescriptionLacksIsNamedWithTheLinksItHas() throws IOException
    {
        final Path scene = scratch.resolve("scene.yaml");
        Files.writeString(scene, """
            obstacles:
              - {shape: plane, position: [0, 0, -0.3]}
            arm:
              - {link: forearm, shape: sphere, radius: 0.05}
            """, StandardCharsets.UTF_8);
        final DescriptionException error = assertThrows(DescriptionException.class, () -> pendulum(MujocoScene.load(scene)));
        assertEquals(scene + ":4:5: arm[0]: no link 'forearm' in the robot description; links: arm, base", error.getMessage());
    }

    @Test
    void badSceneFilesAreRefusedWithFileLineAndField() throws IOException
    {
        assertSceneRefused("obstacles:\n  - {shape: cone, radius: 1}\n", ":2:13: obstacles[0].shape: unknown shape 'cone'");
        assertSceneRefused("obstacles:\n  - {shape: sphere, radius: -1}\n", ":2:29: obstacles[0].radius: ");
        assertSceneRefused("obstacles:\n  - {shape: plane, radius: 1}\n", ":2:20: obstacles[0].radius: a plane has no radius");
        assertSceneRefused("wrench: {link: arm, force: [1, 2]}\n", ":1:28: wrench.force: ");
        assertSceneRefused("obstacle:\n  - {shape: plane}\n", ":1:1: obstacle: unknown key 'obstacle'");
    }

    private void assertSceneRefused(final String text, final String expected) throws IOException
    {
        final Path scene = scratch.resolve("bad.yaml");
        Files.writeString(scene, text, StandardCharsets.UTF_8);
        final DescriptionException error = assertThrows(DescriptionException.class, () -> MujocoScene.load(scene));
        assertTrue(error.getMessage().startsWith(scene + expected), error.getMessage());
    }

    private MujocoPlant pendulum(final MujocoScene scene) throws IOException
    {
        final MujocoPlant plant = MujocoPlant.open(scratch.resolve("pendulum.urdf"), pendulumModel(), scene);
        plant.reset(AT_REST, AT_REST);
        return plant;
    }

    private RobotModel pendulumModel() throws IOException
    {
        final Path file = scratch.resolve("pendulum.urdf");
        Files.writeString(file, PENDULUM, StandardCharsets.UTF_8);
        return RobotDescriptions.load(file);
    }
}
