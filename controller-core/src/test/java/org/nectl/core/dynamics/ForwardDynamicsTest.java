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
 * Both forward-dynamics formulations invert the inverse dynamics, with gravity, rotor inertia,
 * Coulomb and viscous friction and external wrenches, and agree with each other.
 */
final class ForwardDynamicsTest
{
    private static final int ROBOTS = 200;

    /**
     * FD(ID(qdd)) = qdd to 1e-9 relative to max(1, max |qdd|): the random robots' mass matrices
     * have condition numbers up to ~1e5, so solving loses at most ~1e-11 of the scale.
     */
    @Test
    void bothForwardDynamicsInvertInverseDynamicsOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final Fixture f = new Fixture(seed);
            final double[] tau = new double[f.n];
            f.reference.compute(f.state.q, f.state.qd, f.state.qdd, tau);
            final double[] recursive = new double[f.n];
            final double[] cholesky = new double[f.n];
            assertTrue(f.recursive.compute(f.state.q, f.state.qd, tau, recursive), "seed " + seed);
            assertTrue(f.cholesky.compute(f.state.q, f.state.qd, tau, cholesky), "seed " + seed);
            assertClose(f.state.qdd, recursive, 1e-9, "seed " + seed + ": recursive FD(ID(qdd))");
            assertClose(f.state.qdd, cholesky, 1e-9, "seed " + seed + ": Cholesky FD(ID(qdd))");
            assertClose(cholesky, recursive, 1e-9, "seed " + seed + ": recursive vs Cholesky");
        }
    }

    /** At qd = 0 Coulomb friction is sign(0) = 0 in both directions, as in the inverse dynamics. */
    @Test
    void forwardDynamicsAtRestInvertsInverseDynamics()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final Fixture f = new Fixture(seed);
            final double[] rest = new double[f.n];
            final double[] tau = new double[f.n];
            f.reference.compute(f.state.q, rest, f.state.qdd, tau);
            final double[] qdd = new double[f.n];
            f.recursive.compute(f.state.q, rest, tau, qdd);
            assertClose(f.state.qdd, qdd, 1e-9, "seed " + seed + ": recursive FD at rest");
            f.cholesky.compute(f.state.q, rest, tau, qdd);
            assertClose(f.state.qdd, qdd, 1e-9, "seed " + seed + ": Cholesky FD at rest");
        }
    }

    @Test
    void withoutFrictionForwardDynamicsIgnoresFrictionParameters()
    {
        for (long seed = 1; seed <= 50; seed++)
        {
            final Fixture f = new Fixture(seed);
            f.reference.jointFriction(false);
            f.recursive.jointFriction(false);
            f.cholesky.jointFriction(false);
            final double[] tau = new double[f.n];
            f.reference.compute(f.state.q, f.state.qd, f.state.qdd, tau);
            final double[] qdd = new double[f.n];
            f.recursive.compute(f.state.q, f.state.qd, tau, qdd);
            assertClose(f.state.qdd, qdd, 1e-9, "seed " + seed + ": recursive FD without friction");
            f.cholesky.compute(f.state.q, f.state.qd, tau, qdd);
            assertClose(f.state.qdd, qdd, 1e-9, "seed " + seed + ": Cholesky FD without friction");
        }
    }

    @Test
    void forwardDynamicsAllocatesNothingPerCall()
    {
        final Fixture f = new Fixture(11);
        final double[] tau = RandomRobots.vector(new SplittableRandom(11), f.n, 5);
        final double[] qdd = new double[f.n];
        assertEquals(0L, AllocationMeter.bytesAllocated(
            () -> f.recursive.compute(f.state.q, f.state.qd, tau, qdd), 20_000, 10_000),
            "seed 11, recursive: bytes allocated over 10000 calls");
        assertEquals(0L, AllocationMeter.bytesAllocated(
            () -> f.cholesky.compute(f.state.q, f.state.qd, tau, qdd), 20_000, 10_000),
            "seed 11, Cholesky: bytes allocated over 10000 calls");
    }

    /** A random robot with random gravity, one random external wrench and friction on, set alike in all three algorithms. */
    private static final class Fixture
    {
        final int n;
        final PolynomialMotion state;
        final InverseDynamics reference;
        final RecursiveForwardDynamics recursive;
        final CholeskyForwardDynamics cholesky;

        Fixture(final long seed)
        {
            final RobotModel model = RandomRobots.any(seed);
            n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 13 + 5);
            state = new PolynomialMotion(rnd, n);
            reference = new InverseDynamics(model);
            recursive = new RecursiveForwardDynamics(model);
            cholesky = new CholeskyForwardDynamics(model);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            reference.gravity(g[0], g[1], g[2]);
            recursive.gravity(g[0], g[1], g[2]);
            cholesky.gravity(g[0], g[1], g[2]);
            for (int b = 0; b < model.bodyCount(); b += 2)
            {
                final double[] w = RandomRobots.vector(rnd, 6, 20);
                reference.externalWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
                recursive.externalWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
                cholesky.externalWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
            }
        }
    }
}
