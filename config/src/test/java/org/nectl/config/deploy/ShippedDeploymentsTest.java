package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;

/** Every shipped deployment file loads, and the Panda files say what their comments say. */
final class ShippedDeploymentsTest
{
    /** Computed-torque design: 10 Hz natural frequency, critically damped. */
    private static final double OMEGA = 2.0 * Math.PI * 10.0;

    @Test
    void everyShippedDeploymentFileLoadsWithItsRobot() throws IOException
    {
        final List<Path> files = TestDeployments.shipped();
        assertTrue(files.size() >= 2, "shipped deployment files: " + files);
        for (final Path file : files)
        {
            final DeploymentConfig config = DeploymentConfigs.load(file);
            assertTrue(config.model().dof() > 0, file.toString());
            assertEquals(config.model().dof(), config.cycleSettings().kp().length, file.toString());
        }
    }

    @Test
    void simPandaIsARealtimeComputedTorqueLoopAtOneKilohertz() throws IOException
    {
        final DeploymentConfig config = load("sim-panda.yaml");
        assertEquals(DeploymentMode.REALTIME, config.mode());
        assertEquals(1_000_000L, config.periodNs());
        assertEquals(7, config.model().dof());
        assertEquals("panda", config.model().name());
        assertEquals(ControlLaw.COMPUTED_TORQUE, config.law());
        final CycleSettings cycle = config.cycleSettings();
        // The file writes the gains to 6 significant digits.
        assertArrayEquals(CycleSettings.filled(7, OMEGA * OMEGA), cycle.kp(), 0.01);
        assertArrayEquals(CycleSettings.filled(7, 2.0 * OMEGA), cycle.kd(), 0.01);
        assertArrayEquals(new double[] {600, 600, 600, 600, 250, 150, 50}, cycle.pdKp(), 0.0);
        assertArrayEquals(new double[] {45, 50, 30, 20, 10, 13, 2}, cycle.pdKd(), 0.0);
        assertEquals(new PlannerEndpoint("127.0.0.1", 47_600), config.planner());
        assertEquals(TelemetrySettings.defaults(), config.telemetry());
        assertEquals(HardwareSettings.defaults(), config.hardware());
    }

    @Test
    void lockstepPandaIsTheSameControllerInLockstep() throws IOException
    {
        final DeploymentConfig lockstep = load("lockstep-panda.yaml");
        final DeploymentConfig sim = load("sim-panda.yaml");
        assertEquals(DeploymentMode.LOCKSTEP, lockstep.mode());
        assertEquals(sim.modelFile(), lockstep.modelFile());
        assertEquals(sim.periodNs(), lockstep.periodNs());
        assertEquals(sim.law(), lockstep.law());
        assertArrayEquals(sim.cycleSettings().kp(), lockstep.cycleSettings().kp(), 0.0);
        assertArrayEquals(sim.cycleSettings().pdKd(), lockstep.cycleSettings().pdKd(), 0.0);
    }

    @Test
    void lockstepPandaShipIsTheLockstepControllerOnACarriedBase() throws IOException
    {
        final DeploymentConfig ship = load("lockstep-panda-ship.yaml");
        final DeploymentConfig lockstep = load("lockstep-panda.yaml");
        assertTrue(ship.carriedBase());
        assertEquals(5_000_000L, ship.base().maxAgeNs(), "base.max_age_ms: 5");
        assertFalse(lockstep.carriedBase());
        assertEquals(lockstep.mode(), ship.mode());
        assertEquals(lockstep.law(), ship.law());
        assertArrayEquals(lockstep.cycleSettings().kp(), ship.cycleSettings().kp(), 0.0);
        assertEquals(lockstep.safetySettings().stopTimeNs(), ship.safetySettings().stopTimeNs());
    }

    private static DeploymentConfig load(final String name) throws IOException
    {
        for (final Path file : TestDeployments.shipped())
        {
            if (file.getFileName().toString().equals(name))
            {
                return DeploymentConfigs.load(file);
            }
        }
        throw new AssertionError(name + " is not shipped in config/deploy");
    }
}
