package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.FormulationCrossCheck;
import org.nectl.core.model.RobotModel;

/**
 * On every shipped robot (YAML and URDF), the screw-theory and modified-DH Newton-Euler algorithms
 * agree on joint torques and reaction wrenches to 1e-10 relative (see
 * {@link FormulationCrossCheck#discrepancy}), over random states, gravity directions and external
 * wrenches on every body.
 */
final class ShippedRobotsFormulationCrossCheckTest
{
    private static final double TOLERANCE = 1e-10;
    private static final int STATES = 200;

    @Test
    void screwTheoryAndModifiedDhAgreeOnEveryShippedRobot() throws IOException
    {
        assertTrue(!ShippedRobots.files().isEmpty(), "no shipped robots in " + ShippedRobots.directory());
        for (final Path file : ShippedRobots.files())
        {
            assertAgree(file, RobotDescriptions.load(file));
        }
    }

    private static void assertAgree(final Path file, final RobotModel model)
    {
        for (long seed = 1; seed <= STATES; seed++)
        {
            final double discrepancy = FormulationCrossCheck.maxDiscrepancy(model, seed);
            assertTrue(discrepancy <= TOLERANCE,
                file.getFileName() + " seed " + seed + ": discrepancy " + discrepancy + " > " + TOLERANCE);
        }
    }
}
