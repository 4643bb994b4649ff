package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.TorqueDerivativeCheck;
import org.nectl.core.model.RobotModel;

/**
 * On every shipped robot (YAML and URDF), the analytic torque derivative equals a 4th-order central
 * difference of the inverse-dynamics torques to 1e-7 relative over 100 random states, with gravity,
 * friction and time-varying external wrenches on every body (see {@link TorqueDerivativeCheck} for
 * the step and the error it leaves).
 */
final class ShippedRobotsTorqueDerivativeTest
{
    private static final double TOLERANCE = 1e-7;
    private static final int STATES = 100;

    @Test
    void torqueDerivativeMatchesCentralDifferenceOnEveryShippedRobot() throws IOException
    {
        final List<Path> files = ShippedRobots.files();
        assertTrue(!files.isEmpty(), "no shipped robots in " + ShippedRobots.directory());
        for (final Path file : files)
        {
            final RobotModel model = RobotDescriptions.load(file);
            double worst = 0.0;
            for (long seed = 1; seed <= STATES; seed++)
            {
                final double error = TorqueDerivativeCheck.maxRelativeError(model, seed);
                assertTrue(error <= TOLERANCE, file.getFileName() + " seed " + seed + ": relative error " + error);
                worst = Math.max(worst, error);
            }
            System.out.printf("%s: tau-dot vs central difference over %d states, max relative error %.3e%n",
                file.getFileName(), STATES, worst);
        }
    }
}
