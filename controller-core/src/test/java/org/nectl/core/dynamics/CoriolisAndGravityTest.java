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
 * The split tau = M qdd + C qd + g (+ friction - J^T f_ext) against independent oracles: the
 * gradient of the potential energy, the virtual work of external wrenches on finite-difference
 * body twists, the inverse dynamics, and the skew symmetry of M-dot - 2C.
 */
final class CoriolisAndGravityTest
{
    private static final int ROBOTS = 200;

    /** g = dV/dq, V from body poses (MechanicalEnergy): 4th-order differences at h = 1e-3 reach ~1e-11 of the scale. */
    @Test
    void gravityTorquesAreTheGradientOfPotentialEnergy()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed * 3 + 2);
            final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final CompiledModel weighted = CompiledModel.of(model, g[0], g[1], g[2]);
            final GravityTorques gravity = new GravityTorques(weighted);
            final MechanicalEnergy energy = new MechanicalEnergy(weighted);
            final double[] actual = new double[model.dof()];
            gravity.compute(q, actual);
            final double[] expected = CentralDifferences.jacobian(
                (x, out) -> out[0] = energy.potentialEnergyJoules(x), q, 1, 1e-3);
            assertClose(expected, actual, 1e-8, "seed " + seed + ": g vs dV/dq");
        }
    }

    /**
     * With qd = qdd = 0, no external wrench: inverse dynamics = g; with qdd = 0: inverse dynamics =
     * h (gravity, friction and external wrenches included). 1e-12 relative to max(1 N m, max |tau|).
     */
    @Test
    void gravityAndBiasEqualInverseDynamicsWithoutAcceleration()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 5 + 4);
            final double[] q = RandomRobots.vector(rnd, n, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, n, 2);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final GravityTorques gravity = new GravityTorques(CompiledModel.of(model, g[0], g[1], g[2]));
            final BiasForces bias = new BiasForces(compiled);
            final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
            final double[] expected = new double[n];
            final double[] actual = new double[n];
            rnea.compute(q, new double[n], new double[n], loads, expected);
            gravity.compute(q, actual);
            assertClose(expected, actual, 1e-12, "seed " + seed + ": g(q)");
            final double[] w = RandomRobots.vector(rnd, 6, 20);
            final int body = rnd.nextInt(model.bodyCount());
            loads.bodyWrench(body, w[0], w[1], w[2], w[3], w[4], w[5]);
            rnea.compute(q, qd, new double[n], loads, expected);
            bias.compute(q, qd, loads, actual);
            assertClose(expected, actual, 1e-12, "seed " + seed + ": h(q, qd)");
        }
    }

    /**
     * An external wrench (f, m) on body b changes h by -J_b^T (f, m): tau_k drops by the power
     * v_b . f + w_b . m of a unit motion of joint k, body twists from finite-difference poses.
     */
    @Test
    void externalWrenchEntersAsVirtualWorkOnTheBodyTwist()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 11 + 9);
            final double[] q = RandomRobots.vector(rnd, n, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, n, 2);
            final int body = rnd.nextInt(model.bodyCount());
            final double[] w = RandomRobots.vector(rnd, 6, 20);
            final BiasForces bias = new BiasForces(compiled);
            final double[] free = new double[n];
            bias.compute(q, qd, free);
            final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(body, w[0], w[1], w[2], w[3], w[4], w[5]);
            final double[] loaded = new double[n];
            bias.compute(q, qd, loads, loaded);
            final double[] expected = new double[n];
            for (int k = 0; k < n; k++)
            {
                final double[] unit = new double[n];
                unit[k] = 1.0;
                final double[] twist = CompositionKinematics.bodyTwists(model, q, unit)[body];
                final double power = twist[3] * w[0] + twist[4] * w[1] + twist[5] * w[2]
                    + twist[0] * w[3] + twist[1] * w[4] + twist[2] * w[5];
                expected[k] = free[k] - power;
            }
            assertClose(expected, loaded, 1e-9, "seed " + seed + ": h with an external wrench on body " + body);
        }
    }

    /**
     * M-dot - 2C is skew-symmetric: |N + N^T| <= 1e-8 max(1, max |M-dot|), M-dot by 4th-order
     * differences ({@link DynamicsIdentities}, error ~1e-11 of the scale).
     */
    @Test
    void massMatrixRateMinusTwiceCoriolisIsSkewSymmetric()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final double d = DynamicsIdentities.coriolisSkewDiscrepancy(RandomRobots.any(seed), seed);
            assertTrue(d <= 1e-8, "seed " + seed + ": (M-dot - 2C) + (M-dot - 2C)^T is " + d + " of the scale");
        }
    }

    /** C qd + g = h with friction off and no external wrench, 1e-12 relative to max(1 N m, max |h|). */
    @Test
    void coriolisTimesVelocityPlusGravityEqualsBias()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed * 23 + 6), n);
            final double[] c = new double[n * n];
            new CoriolisMatrix(compiled).compute(s.q, s.qd, c);
            final double[] actual = new double[n];
            new GravityTorques(compiled).compute(s.q, actual);
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    actual[i] += c[i * n + j] * s.qd[j];
                }
            }
            final BiasForces bias = new BiasForces(compiled);
            bias.jointFriction(false);
            final double[] expected = new double[n];
            bias.compute(s.q, s.qd, expected);
            assertClose(expected, actual, 1e-12, "seed " + seed + ": C qd + g vs h");
        }
    }

    @Test
    void biasGravityAndCoriolisAllocateNothingPerCall()
    {
        final long seed = 9;
        final RobotModel model = RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true);
        final CompiledModel compiled = CompiledModel.of(model);
        final int n = model.dof();
        final PolynomialMotion s = new PolynomialMotion(new SplittableRandom(seed), n);
        final BiasForces bias = new BiasForces(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(3, 1, 2, 3, 4, 5, 6);
        final GravityTorques gravity = new GravityTorques(compiled);
        final CoriolisMatrix coriolis = new CoriolisMatrix(compiled);
        final double[] out = new double[n * n];
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> bias.compute(s.q, s.qd, loads, out), 20_000, 10_000),
            "seed " + seed + ": BiasForces bytes over 10000 calls");
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> gravity.compute(s.q, out), 20_000, 10_000),
            "seed " + seed + ": GravityTorques bytes over 10000 calls");
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> coriolis.compute(s.q, s.qd, out), 20_000, 10_000),
            "seed " + seed + ": CoriolisMatrix bytes over 10000 calls");
    }
}
