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
import org.nectl.config.ShippedRobots;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.model.RobotModel;

/**
 * Deployments of closed-loop robots: the controlled model is the active joints (named, typed and
 * limited as in the description), the closed-loop model comes with it; the collision section is
 * refused (no momentum observer on a closed chain); trees have no closed-loop model.
 */
final class ClosedLoopDeploymentTest
{
    private static DeploymentConfig shipped(final String name) throws IOException
    {
        return TestDeployments.shipped().stream().filter(p -> p.getFileName().toString().equals(name)).findFirst()
            .map(DeploymentConfigs::load).orElseThrow(() -> new AssertionError(name + " is not shipped"));
    }

    @Test
    void shippedClosedLoopDeploymentsControlTheActiveJoints() throws IOException
    {
        final DeploymentConfig palletiser = shipped("lockstep-palletiser.yaml");
        final ClosedLoopModel loops = palletiser.closedLoop().orElseThrow();
        final RobotModel active = palletiser.model();
        assertEquals(10, loops.treeDof());
        assertEquals(4, active.dof());
        for (int a = 0; a < 4; a++)
        {
            assertEquals(loops.tree().coordinateName(loops.activeCoordinate(a)), active.coordinateName(a));
            assertEquals(loops.tree().limits(loops.activeCoordinate(a)), active.limits(a));
        }
        assertEquals("j2", active.coordinateName(1));
        assertEquals(9000, active.limits(1).effortMax(), 0.0);
        assertArrayEquals(new double[] {2000, 4000, 4000, 20}, palletiser.cycleSettings().pdKd(), 0.0);
        final DeploymentConfig hexapod = shipped("lockstep-hexapod.yaml");
        final RobotModel legs = hexapod.model();
        assertEquals(21, hexapod.closedLoop().orElseThrow().treeDof());
        assertEquals(6, legs.dof());
        assertEquals("leg1_actuator", legs.coordinateName(0));
        assertEquals(0.45, legs.limits(5).positionMin(), 0.0);
        assertEquals(0.75, legs.limits(5).positionMax(), 0.0);
        assertEquals(2000, legs.limits(5).effortMax(), 0.0);
        assertFalse(shipped("lockstep-panda.yaml").closedLoop().isPresent());
    }

    @Test
    void collisionDetectionIsRefusedForAClosedLoopRobot(@TempDir final Path dir) throws IOException
    {
        Files.copy(ShippedRobots.configDirectory("nectl.robots.dir", "robots").resolve("four-bar.yaml"), dir.resolve("four-bar.yaml"));
        final Path deployment = Files.writeString(dir.resolve("deploy.yaml"),
            "model: four-bar.yaml\ncollision:\n  threshold: 5\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(deployment));
        assertTrue(e.getMessage().startsWith(deployment + ":3:3: collision") && e.getMessage().contains(
            "collision detection needs a tree robot"), e.getMessage());
    }
}
