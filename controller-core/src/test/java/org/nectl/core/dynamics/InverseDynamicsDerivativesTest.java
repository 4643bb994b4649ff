package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.nectl.core.dynamics.DynamicsAssertions.assertClose;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * Analytic derivatives of inverse dynamics and of the joint reaction wrenches against 4th-order
 * central differences of {@link InverseDynamics} ({@link DynamicsIdentities}), on 60 seeded random
 * chains and 60 trees (one state each, 120 states) of 2-12 bodies with revolute, prismatic and fixed
 * joints, rotor inertia and friction.
 */
final class InverseDynamicsDerivativesTest
{
    private static final int ROBOTS = 120;
    /** The acceptance bound; the differences themselves are good to ~1e-10 of the scale. */
    private static final double TOLERANCE = 1e-6;

    @Test
    void derivativesMatchCentralDifferencesOnRandomChainsAndTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final double d = DynamicsIdentities.derivativeDiscrepancy(robot(seed), seed);
            assertTrue(d <= TOLERANCE, name(seed) + ": derivative discrepancy " + d);
        }
    }

    @Test
    void reactionWrenchDerivativesMatchCentralDifferencesOnRandomChainsAndTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final double d = DynamicsIdentities.reactionDerivativeDiscrepancy(robot(seed), seed);
            assertTrue(d <= TOLERANCE, name(seed) + ": reaction-wrench derivative discrepancy " + d);
        }
    }

    /** d tau/d qd = 2C + diag(Fv), C Christoffel-consistent: 1e-12 of max(1, max |d tau/d qd|). */
    @Test
    void velocityDerivativeIsTwiceCoriolisPlusViscousFriction()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = robot(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed), n);
            final double[] dqd = new double[n * n];
            new InverseDynamicsDerivatives(compiled).compute(
                s.q, s.qd, s.qdd, new double[n], new double[n * n], dqd, new double[n * n]);
            final double[] expected = new double[n * n];
            new CoriolisMatrix(compiled).compute(s.q, s.qd, expected);
            for (int i = 0; i < n * n; i++)
            {
                expected[i] *= 2.0;
            }
            for (int k = 0; k < n; k++)
            {
                expected[k * n + k] += model.actuation(k).viscousFriction();
            }
            assertClose(expected, dqd, 1e-12, name(seed) + ": d tau/d qd vs 2C + Fv");
        }
    }

    @Test
    void derivativesAllocateNothingPerCall()
    {
        final long seed = 8;
        final RobotModel model = robot(seed);
        final CompiledModel compiled = CompiledModel.of(model);
        final int n = model.dof();
        final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed), n);
        final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(0, 1, 2, 3, 4, 5, 6);
        final double[] tau = new double[n];
        final double[] dq = new double[n * n];
        final double[] dqd = new double[n * n];
        final double[] dqdd = new double[n * n];
        final double[] wrench = new double[6 * n];
        assertEquals(0L, AllocationMeter.bytesAllocated(() ->
        {
            derivatives.compute(s.q, s.qd, s.qdd, loads, tau, dq, dqd, dqdd);
            derivatives.reactionWrenchDerivatives(model.bodyCount() - 1, wrench, wrench, wrench);
        }, 20_000, 10_000), name(seed) + ": bytes over 10000 calls");
    }

    /** Odd seeds: chains; even seeds: trees; 2-12 bodies of all joint kinds, with actuation. */
    private static RobotModel robot(final long seed)
    {
        final int bodies = new SplittableRandom(seed * 29 + 3).nextInt(2, 13);
        return RandomRobots.robot(seed, bodies, seed % 2 == 0, RandomRobots.Joints.ALL, true);
    }

    private static String name(final long seed)
    {
        return "seed " + seed + (seed % 2 == 0 ? " (tree)" : " (chain)");
    }
}
