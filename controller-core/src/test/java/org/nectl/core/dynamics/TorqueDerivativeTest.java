package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class TorqueDerivativeTest
{
    /** See {@link TorqueDerivativeCheck} for the step and the error it leaves (observed <= 3.2e-11). */
    private static final double TOLERANCE = 1e-7;

    /** Alternately any random robot, and a random tree or chain of 4-12 bodies with all joint kinds. */
    static RobotModel robot(final long seed)
    {
        if (seed % 2 == 0)
        {
            return RandomRobots.any(seed);
        }
        return RandomRobots.robot(seed, 4 + (int)(seed % 9), seed % 3 != 0, RandomRobots.Joints.ALL, true);
    }

    @Test
    void torqueDerivativeMatchesFourthOrderCentralDifferenceOnRandomChainsAndTrees()
    {
        double worst = 0.0;
        int states = 0;
        for (long seed = 1000; seed < 1060; seed++)
        {
            final RobotModel model = robot(seed);
            for (int i = 0; i < 2; i++)
            {
                final long stateSeed = 31 * seed + i;
                final double error = TorqueDerivativeCheck.maxRelativeError(model, stateSeed);
                assertTrue(error <= TOLERANCE,
                    "robot seed " + seed + ", state seed " + stateSeed + " (" + model.dof() + " dof): relative error " + error);
                worst = Math.max(worst, error);
                states++;
            }
        }
        System.out.printf("tau-dot vs 4th-order central difference over %d states: max relative error %.3e%n", states, worst);
    }
}
