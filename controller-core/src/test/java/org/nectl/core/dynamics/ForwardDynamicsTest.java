package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * Both forward-dynamics formulations invert the inverse dynamics, with gravity, rotor inertia,
 * Coulomb and viscous friction (on or off by seed), external wrenches, in motion and at rest, and
 * agree with each other ({@link DynamicsIdentities#forwardDynamicsDiscrepancy}).
 */
final class ForwardDynamicsTest
{
    private static final int ROBOTS = 200;

    /**
     * FD(ID(qdd)) = qdd to 1e-9 relative to max(1, max |qdd|): the random robots' mass matrices have
     * condition numbers up to ~1e5, so solving loses at most ~1e-11 of the scale.
     */
    @Test
    void bothForwardDynamicsInvertInverseDynamicsOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final double d = DynamicsIdentities.forwardDynamicsDiscrepancy(RandomRobots.any(seed), seed);
            assertTrue(d <= 1e-9, "seed " + seed + ": forward-dynamics discrepancy " + d);
        }
    }

    @Test
    void forwardDynamicsAllocatesNothingPerCall()
    {
        final long seed = 11;
        final RobotModel model = RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true);
        final CompiledModel compiled = CompiledModel.of(model);
        final int n = model.dof();
        final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed), n);
        final double[] tau = RandomRobots.vector(new SplittableRandom(seed), n, 5);
        final double[] qdd = new double[n];
        final RecursiveForwardDynamics recursive = new RecursiveForwardDynamics(compiled);
        final CholeskyForwardDynamics cholesky = new CholeskyForwardDynamics(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(2, 1, 2, 3, 4, 5, 6);
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> recursive.compute(s.q, s.qd, tau, loads, qdd), 20_000, 10_000),
            "seed " + seed + ", recursive: bytes allocated over 10000 calls");
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> cholesky.compute(s.q, s.qd, tau, loads, qdd), 20_000, 10_000),
            "seed " + seed + ", Cholesky: bytes allocated over 10000 calls");
    }
}
