package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.DynamicsIdentities;
import org.nectl.core.model.RobotModel;

/**
 * On every shipped robot (YAML and URDF), over seeded random states, gravity, external wrenches on
 * every body and friction on or off ({@link DynamicsIdentities}): the inverse-dynamics derivatives
 * match 4th-order central differences to 1e-6 (100 states; reaction wrenches 20 states), M qdd + h
 * matches the inverse dynamics and d tau/d qdd = M = M^T to 1e-12, M-dot - 2C is skew to 1e-8, and
 * both forward dynamics invert the inverse dynamics and agree to 1e-9 (all relative to
 * max(1, reference scale)).
 */
final class ShippedRobotsDynamicsIdentitiesTest
{
    private static final int STATES = 100;
    private static final int REACTION_STATES = 20;

    @Test
    void derivativesMassMatrixCoriolisAndForwardDynamicsHoldOnEveryShippedRobot() throws IOException
    {
        final List<Path> files = ShippedRobots.files();
        assertTrue(!files.isEmpty(), "no shipped robots in " + ShippedRobots.directory());
        for (final Path file : files)
        {
            final RobotModel model = RobotDescriptions.load(file);
            for (long seed = 1; seed <= STATES; seed++)
            {
                final String where = file.getFileName() + " seed " + seed;
                assertAtMost(1e-6, DynamicsIdentities.derivativeDiscrepancy(model, seed), where + ": derivatives");
                assertAtMost(1e-12, DynamicsIdentities.massMatrixDiscrepancy(model, seed), where + ": M qdd + h, M");
                assertAtMost(1e-8, DynamicsIdentities.coriolisSkewDiscrepancy(model, seed), where + ": M-dot - 2C skew");
                assertAtMost(1e-9, DynamicsIdentities.forwardDynamicsDiscrepancy(model, seed), where + ": FD(ID(qdd))");
                if (seed <= REACTION_STATES)
                {
                    assertAtMost(1e-6, DynamicsIdentities.reactionDerivativeDiscrepancy(model, seed),
                        where + ": reaction-wrench derivatives");
                }
            }
        }
    }

    private static void assertAtMost(final double bound, final double discrepancy, final String what)
    {
        assertTrue(discrepancy <= bound, what + ": discrepancy " + discrepancy + " > " + bound);
    }
}
