package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.TorqueSecondDerivativeCheck;
import org.nectl.core.model.RobotModel;

/**
 * On every shipped robot (YAML and URDF), the analytic second torque derivative equals a 4th-order
 * central difference of the analytic torque derivative to 1e-7 relative, and its tau and tau-dot equal
 * the reference algorithms' to 1e-10, over 50 random states with gravity, friction and quadratically
 * varying external wrenches on every body (see {@link TorqueSecondDerivativeCheck} for the step).
 */
final class ShippedRobotsTorqueSecondDerivativeTest
{
    private static final double TOLERANCE = 1e-7;
    private static final double LOWER_ORDER_TOLERANCE = 1e-10;
    private static final int STATES = 50;

    @Test
    void secondTorqueDerivativeMatchesCentralDifferenceOnEveryShippedRobot() throws IOException
    {
        final List<Path> files = ShippedRobots.files();
        assertTrue(!files.isEmpty(), "no shipped robots in " + ShippedRobots.directory());
        for (final Path file : files)
        {
            final RobotModel model = RobotDescriptions.load(file);
            double worst = 0.0;
            double worstLower = 0.0;
            for (long seed = 1; seed <= STATES; seed++)
            {
                final TorqueSecondDerivativeCheck.Errors errors = TorqueSecondDerivativeCheck.errors(model, seed);
                assertTrue(errors.tauDdot() <= TOLERANCE, file.getFileName() + " seed " + seed + ": tau-ddot error " + errors.tauDdot());
                assertTrue(errors.tauAndTauDot() <= LOWER_ORDER_TOLERANCE,
                    file.getFileName() + " seed " + seed + ": tau/tau-dot error " + errors.tauAndTauDot());
                worst = Math.max(worst, errors.tauDdot());
                worstLower = Math.max(worstLower, errors.tauAndTauDot());
            }
            System.out.printf("%s: tau-ddot vs central difference over %d states %.3e, tau and tau-dot vs reference %.3e%n",
                file.getFileName(), STATES, worst, worstLower);
        }
    }
}
