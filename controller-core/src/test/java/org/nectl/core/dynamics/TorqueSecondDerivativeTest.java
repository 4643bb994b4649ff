package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class TorqueSecondDerivativeTest
{
    /** A second formulation of the same quantities: rounding only (observed <= 5.1e-15). */
    private static final double LOWER_ORDER_TOLERANCE = 1e-10;
    /** See {@link TorqueSecondDerivativeCheck} for the step and the error it leaves (observed <= 4.5e-11). */
    private static final double TOLERANCE = 1e-7;


    @Test
    void secondTorqueDerivativeMatchesCentralDifferenceOfTorqueDerivativeOnRandomChainsAndTrees()
    {
        double worstLower = 0.0;
        double worst = 0.0;
        int states = 0;
        for (long seed = 2000; seed < 2060; seed++)
        {
            final RobotModel model = TorqueDerivativeTest.robot(seed);
            for (int i = 0; i < 2; i++)
            {
                final long stateSeed = 37 * seed + i;
                final TorqueSecondDerivativeCheck.Errors errors = TorqueSecondDerivativeCheck.errors(model, stateSeed);
                final String where = "robot seed " + seed + ", state seed " + stateSeed + " (" + model.dof() + " dof): ";
                assertTrue(errors.tauAndTauDot() <= LOWER_ORDER_TOLERANCE, where + "tau/tau-dot error " + errors.tauAndTauDot());
                assertTrue(errors.tauDdot() <= TOLERANCE, where + "tau-ddot error " + errors.tauDdot());
                worstLower = Math.max(worstLower, errors.tauAndTauDot());
                worst = Math.max(worst, errors.tauDdot());
                states++;
            }
        }
        System.out.printf("tau-ddot over %d states: vs central difference %.3e, tau and tau-dot vs reference %.3e%n",
            states, worst, worstLower);
    }

    @Test
    void computeAllocatesNothing()
    {
        final long seed = 7;
        final RobotModel model = RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true);
        final CompiledModel compiled = CompiledModel.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int dof = model.dof();
        final double[][] state = new double[5][];
        for (int d = 0; d < state.length; d++)
        {
            state[d] = RandomRobots.vector(rnd, dof, 2.0);
        }
        final double[] tau = new double[dof];
        final double[] tauDot = new double[dof];
        final double[] tauDdot = new double[dof];
        final TorqueSecondDerivative second = new TorqueSecondDerivative(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(3, 1, 2, 3, 4, 5, 6)
            .bodyWrenchRate(3, 6, 5, 4, 3, 2, 1).bodyWrenchSecondRate(3, 0, 0, 0, 0, 0, 0);
        final long bytes = AllocationMeter.bytesAllocated(
            () -> second.compute(state[0], state[1], state[2], state[3], state[4], loads, tau, tauDot, tauDdot), 20_000, 100_000);
        assertEquals(0L, bytes, "seed " + seed + ": bytes allocated over 100000 calls");
    }
}
