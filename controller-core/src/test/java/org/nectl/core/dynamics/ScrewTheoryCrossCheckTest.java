package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * The screw-theory and modified-DH Newton-Euler algorithms share only the model, so agreement to
 * rounding error on random chains and trees (arbitrary axes, prismatic and fixed joints, external
 * wrenches on every body, arbitrary gravity, random states, friction on and off) checks both.
 *
 * <p>Tolerance: each algorithm rounds at ~1e-16 per operation over a few hundred operations per body,
 * on values up to ~1e3 (N, N m); the measured worst case is 4.4e-14 on the small robots and 4.2e-13
 * on the large ones, so 1e-10 (relative, see {@link FormulationCrossCheck#discrepancy}) keeps a wide
 * margin yet fails on any modelling error.
 */
final class ScrewTheoryCrossCheckTest
{
    private static final double TOLERANCE = 1e-10;

    @Test
    void screwTheoryAndModifiedDhAgreeOnRandomChainsAndTrees()
    {
        for (long seed = 1; seed <= 1000; seed++)
        {
            assertAgree(seed, RandomRobots.any(seed));
        }
    }

    @Test
    void screwTheoryAndModifiedDhAgreeOnLargeRandomChainsAndTrees()
    {
        for (long seed = 1; seed <= 200; seed++)
        {
            final int bodies = 13 + (int) (seed % 18);
            assertAgree(seed, RandomRobots.robot(seed, bodies, seed % 2 == 0, RandomRobots.Joints.ALL, true));
        }
    }

    private static void assertAgree(final long seed, final RobotModel model)
    {
        final double discrepancy = FormulationCrossCheck.maxDiscrepancy(model, seed);
        assertTrue(discrepancy <= TOLERANCE, "seed " + seed + " (" + model.bodyCount() + " bodies): discrepancy "
            + discrepancy + " > " + TOLERANCE);
    }
}
