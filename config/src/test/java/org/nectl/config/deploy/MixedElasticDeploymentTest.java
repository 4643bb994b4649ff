package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.MixedLawSettings;

/** The mixed rigid/elastic law in deployment files: the shipped 3-DoF files, gains and the rules. */
final class MixedElasticDeploymentTest
{
    private static DeploymentConfig shipped(final String name) throws IOException
    {
        return TestDeployments.shipped().stream().filter(p -> p.getFileName().toString().equals(name)).findFirst()
            .map(DeploymentConfigs::load).orElseThrow(() -> new AssertionError(name + " is not shipped"));
    }

    @Test
    void shippedMixedFilesRunTheMixedLawOnTheElasticArmWithTheStudysGains() throws IOException
    {
        final DeploymentConfig lockstep = shipped("lockstep-mixed3.yaml");
        final DeploymentConfig realtime = shipped("sim-mixed3.yaml");
        assertEquals(DeploymentMode.LOCKSTEP, lockstep.mode());
        assertEquals(DeploymentMode.REALTIME, realtime.mode());
        for (final DeploymentConfig config : new DeploymentConfig[] {lockstep, realtime})
        {
            assertEquals(ControlLaw.MIXED_ELASTIC, config.law());
            final MixedLawSettings law = config.mixedLaw();
            assertTrue(law.available());
            assertEquals(1, law.model().elasticCount());
            assertEquals(2, law.model().coordinateOfElastic(0), "joint 3 is the elastic one");
            assertTrue(law.model().links() == config.model(), "one model for the cycle and the law");
            assertArrayEquals(new double[] {2000, 2000, 2000}, law.kpQ(), 0.0);
            assertArrayEquals(new double[] {100, 100, 100}, law.kdQ(), 0.0);
            assertArrayEquals(new double[] {20}, law.kpTheta(), 0.0);
            assertArrayEquals(new double[] {2}, law.kdTheta(), 0.0);
        }
    }

    @Test
    void aRigidRobotHasNoMixedLawAndRefusesIt(@TempDir final Path dir) throws IOException
    {
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n")).mixedLaw().available());
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(
            TestDeployments.write(dir, "model: arm.yaml\ncontrol:\n  law: mixed_elastic\n")));
        assertTrue(e.getMessage().contains("deploy.yaml:3") && e.getMessage().contains("needs a robot with elastic joints"),
            e.getMessage());
    }

    @Test
    void aRobotWithAPassiveJointIsRefusedAtItsModel(@TempDir final Path dir) throws IOException
    {
        final String arm = Files.readString(shipped("lockstep-mixed3.yaml").modelFile());
        final String shoulderMotor = arm.substring(arm.indexOf("  joint2:\n"), arm.indexOf("  joint3:\n"));
        Files.writeString(dir.resolve("passive.yaml"), arm.replace(shoulderMotor, "  joint2:\n    stiffness: 50\n"));
        final DescriptionException e = assertThrows(DescriptionException.class,
            () -> DeploymentConfigs.load(TestDeployments.write(dir, "model: passive.yaml\n")));
        assertTrue(e.getMessage().contains("deploy.yaml:1") && e.getMessage().contains("joint 'joint2'")
            && e.getMessage().contains("is passive (a spring, no motor)"), e.getMessage());
    }

    @Test
    void mixedGainsMustBePositiveAndOnePerElasticJoint(@TempDir final Path dir) throws IOException
    {
        final Path robot = shipped("lockstep-mixed3.yaml").modelFile().toAbsolutePath();
        final String head = "model: " + robot + "\ncontrol:\n  law: mixed_elastic\n";
        final DescriptionException zero = assertThrows(DescriptionException.class,
            () -> DeploymentConfigs.load(TestDeployments.write(dir, head + "  kd_theta: 0\n")));
        assertTrue(zero.getMessage().contains("kd_theta") && zero.getMessage().contains("> 0"), zero.getMessage());
        final DescriptionException count = assertThrows(DescriptionException.class,
            () -> DeploymentConfigs.load(TestDeployments.write(dir, head + "  kp_theta: [20, 20]\n")));
        assertTrue(count.getMessage().contains("list of 2"), count.getMessage());
        assertArrayEquals(new double[] {1, 2, 3},
            DeploymentConfigs.load(TestDeployments.write(dir, head + "  kp_q: [1, 2, 3]\n")).mixedLaw().kpQ(), 0.0);
    }
}
