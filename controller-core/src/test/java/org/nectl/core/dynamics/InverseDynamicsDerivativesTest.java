package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.nectl.core.dynamics.DynamicsAssertions.assertClose;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * Analytic derivatives of inverse dynamics and of the joint reaction wrenches against 4th-order
 * central differences of {@link InverseDynamics}, on seeded random chains and trees with
 * revolute, prismatic and fixed joints, random gravity, external wrenches on every other body,
 * rotor inertia and friction. States come from {@link PolynomialMotion}: |qd| >= 0.2, so the
 * difference steps never cross qd = 0 where Coulomb friction jumps.
 */
final class InverseDynamicsDerivativesTest
{
    /** 60 chains and 60 trees, one state each: 120 states. */
    private static final int ROBOTS_PER_SHAPE = 60;
    /**
     * Step of the differences: truncation ~h^4/30 |tau^(5)| ~ 1e-12 and rounding ~1e-16 |tau| / h
     * ~ 1e-12 of the scale, far below the 1e-6 tolerance.
     */
    private static final double STEP = 1e-3;
    private static final double TOLERANCE = 1e-6;

    @Test
    void derivativesMatchCentralDifferencesOnRandomChainsAndTrees()
    {
        for (long seed = 1; seed <= 2 * ROBOTS_PER_SHAPE; seed++)
        {
            final Fixture f = new Fixture(seed);
            final int n = f.n;
            final double[] tau = new double[n];
            final double[] dq = new double[n * n];
            final double[] dqd = new double[n * n];
            final double[] dqdd = new double[n * n];
            f.derivatives.compute(f.state.q, f.state.qd, f.state.qdd, tau, dq, dqd, dqdd);
            final double[] expectedTau = new double[n];
            f.rnea.compute(f.state.q, f.state.qd, f.state.qdd, expectedTau);
            assertClose(expectedTau, tau, 1e-12, f.name + ": tau");
            assertClose(CentralDifferences.jacobian(
                (x, out) -> f.rnea.compute(x, f.state.qd, f.state.qdd, out), f.state.q, n, STEP),
                dq, TOLERANCE, f.name + ": d tau/d q");
            assertClose(CentralDifferences.jacobian(
                (x, out) -> f.rnea.compute(f.state.q, x, f.state.qdd, out), f.state.qd, n, STEP),
                dqd, TOLERANCE, f.name + ": d tau/d qd");
            assertClose(CentralDifferences.jacobian(
                (x, out) -> f.rnea.compute(f.state.q, f.state.qd, x, out), f.state.qdd, n, STEP),
                dqdd, TOLERANCE, f.name + ": d tau/d qdd");
        }
    }

    /** d tau/d qdd = M (1e-12 of max(1, max |M|)); d tau/d qd = 2C + diag(Fv) (Christoffel-consistent C). */
    @Test
    void accelerationDerivativeIsMassMatrixAndVelocityDerivativeIsTwiceCoriolis()
    {
        for (long seed = 1; seed <= 2 * ROBOTS_PER_SHAPE; seed++)
        {
            final Fixture f = new Fixture(seed);
            final int n = f.n;
            final double[] dq = new double[n * n];
            final double[] dqd = new double[n * n];
            final double[] dqdd = new double[n * n];
            f.derivatives.compute(f.state.q, f.state.qd, f.state.qdd, new double[n], dq, dqd, dqdd);
            final double[] m = new double[n * n];
            new MassMatrix(f.model).compute(f.state.q, m);
            assertClose(m, dqdd, 1e-12, f.name + ": d tau/d qdd vs M");
            final double[] twiceC = new double[n * n];
            new CoriolisMatrix(f.model).compute(f.state.q, f.state.qd, twiceC);
            for (int i = 0; i < n * n; i++)
            {
                twiceC[i] *= 2.0;
            }
            for (int k = 0; k < n; k++)
            {
                twiceC[k * n + k] += f.model.actuation(k).viscousFriction();
            }
            assertClose(twiceC, dqd, 1e-12, f.name + ": d tau/d qd vs 2C + Fv");
        }
    }

    @Test
    void reactionWrenchDerivativesMatchCentralDifferences()
    {
        for (long seed = 1; seed <= 2 * ROBOTS_PER_SHAPE; seed++)
        {
            final Fixture f = new Fixture(seed);
            final int n = f.n;
            f.derivatives.compute(
                f.state.q, f.state.qd, f.state.qdd, new double[n], new double[n * n], new double[n * n], new double[n * n]);
            final double[] dq = new double[6 * n];
            final double[] dqd = new double[6 * n];
            final double[] dqdd = new double[6 * n];
            final double[] wrench = new double[6];
            final double[] expectedWrench = new double[6];
            for (int body = 0; body < f.model.bodyCount(); body++)
            {
                final int b = body;
                final String where = f.name + ", body " + body;
                f.derivatives.reactionWrench(b, wrench);
                f.rnea.compute(f.state.q, f.state.qd, f.state.qdd, new double[n]);
                f.rnea.reactionWrench(b, expectedWrench);
                assertClose(expectedWrench, wrench, 1e-12, where + ": reaction wrench");
                f.derivatives.reactionWrenchDerivatives(b, dq, dqd, dqdd);
                assertClose(CentralDifferences.jacobian(
                    (x, out) -> reaction(f, b, x, f.state.qd, f.state.qdd, out), f.state.q, 6, STEP),
                    dq, TOLERANCE, where + ": d wrench/d q");
                assertClose(CentralDifferences.jacobian(
                    (x, out) -> reaction(f, b, f.state.q, x, f.state.qdd, out), f.state.qd, 6, STEP),
                    dqd, TOLERANCE, where + ": d wrench/d qd");
                assertClose(CentralDifferences.jacobian(
                    (x, out) -> reaction(f, b, f.state.q, f.state.qd, x, out), f.state.qdd, 6, STEP),
                    dqdd, TOLERANCE, where + ": d wrench/d qdd");
            }
        }
    }

    @Test
    void derivativesAllocateNothingPerCall()
    {
        final Fixture f = new Fixture(8);
        final int n = f.n;
        final double[] tau = new double[n];
        final double[] dq = new double[n * n];
        final double[] dqd = new double[n * n];
        final double[] dqdd = new double[n * n];
        final double[] wrench = new double[6 * n];
        assertEquals(0L, AllocationMeter.bytesAllocated(() ->
        {
            f.derivatives.compute(f.state.q, f.state.qd, f.state.qdd, tau, dq, dqd, dqdd);
            f.derivatives.reactionWrenchDerivatives(f.model.bodyCount() - 1, wrench, wrench, wrench);
        }, 20_000, 10_000), f.name + ": bytes over 10000 calls");
    }

    private static void reaction(
        final Fixture f, final int body, final double[] q, final double[] qd, final double[] qdd, final double[] out)
    {
        f.rnea.compute(q, qd, qdd, new double[f.n]);
        f.rnea.reactionWrench(body, out);
    }

    /** Odd seeds: chains; even seeds: trees; 2-12 bodies of all joint kinds, with actuation. */
    private static final class Fixture
    {
        final String name;
        final RobotModel model;
        final int n;
        final PolynomialMotion state;
        final InverseDynamics rnea;
        final InverseDynamicsDerivatives derivatives;

        Fixture(final long seed)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 29 + 3);
            final boolean tree = seed % 2 == 0;
            model = RandomRobots.robot(seed, rnd.nextInt(2, 13), tree, RandomRobots.Joints.ALL, true);
            name = "seed " + seed + (tree ? " (tree)" : " (chain)");
            n = model.dof();
            state = new PolynomialMotion(rnd, n);
            rnea = new InverseDynamics(model);
            derivatives = new InverseDynamicsDerivatives(model);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            rnea.gravity(g[0], g[1], g[2]);
            derivatives.gravity(g[0], g[1], g[2]);
            for (int b = 0; b < model.bodyCount(); b += 2)
            {
                final double[] w = RandomRobots.vector(rnd, 6, 20);
                rnea.externalWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
                derivatives.externalWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
            }
        }
    }
}
