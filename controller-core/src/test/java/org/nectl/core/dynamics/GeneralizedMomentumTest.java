package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.nectl.core.dynamics.DynamicsAssertions.assertClose;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The observer's O(n) momentum terms against the dense algorithms: p = M qd ({@link MassMatrix}),
 * C^T qd ({@link CoriolisMatrix} transposed), g ({@link GravityTorques}) and the friction that
 * {@link InverseDynamics} adds, on seeded random chains and trees with every joint kind.
 */
final class GeneralizedMomentumTest
{
    private static final int ROBOTS = 200;

    @Test
    void momentumCoriolisTransposeAndGravityEqualTheDenseAlgorithmsOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 7 + 3);
            final double[] q = RandomRobots.vector(rnd, n, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, n, 2);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final GeneralizedMomentum terms = new GeneralizedMomentum(compiled);
            final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
            final double[] p = new double[n];
            final double[] ctqd = new double[n];
            final double[] gravity = new double[n];
            final double[] friction = new double[n];
            terms.compute(q, qd, loads, p, ctqd, gravity, friction);

            final double[] m = new double[n * n];
            new MassMatrix(compiled).compute(q, m);
            final double[] c = new double[n * n];
            new CoriolisMatrix(compiled).compute(q, qd, c);
            final double[] expectedP = new double[n];
            final double[] expectedCtqd = new double[n];
            for (int i = 0; i < n; i++)
            {
                for (int j = 0; j < n; j++)
                {
                    expectedP[i] += m[i * n + j] * qd[j];
                    expectedCtqd[i] += c[j * n + i] * qd[j];
                }
            }
            final GravityTorques gravityTorques = new GravityTorques(CompiledModel.of(model, g[0], g[1], g[2]));
            final double[] expectedG = new double[n];
            gravityTorques.compute(q, expectedG);
            assertClose(expectedP, p, 1e-12, "seed " + seed + ": p vs M qd");
            assertClose(expectedCtqd, ctqd, 1e-12, "seed " + seed + ": C^T qd");
            assertClose(expectedG, gravity, 1e-12, "seed " + seed + ": g");
            assertClose(frictionByInverseDynamics(model, q, qd), friction, 1e-12, "seed " + seed + ": friction");
        }
    }

    @Test
    void computeAllocatesNothing()
    {
        final RobotModel model = RandomRobots.robot(11, 12, true, RandomRobots.Joints.ALL, true);
        final int n = model.dof();
        final SplittableRandom rnd = new SplittableRandom(11);
        final double[] q = RandomRobots.vector(rnd, n, Math.PI);
        final double[] qd = RandomRobots.vector(rnd, n, 2);
        final double[] out = new double[n];
        final GeneralizedMomentum terms = new GeneralizedMomentum(CompiledModel.of(model));
        final long bytes = AllocationMeter.bytesAllocated(() -> terms.compute(q, qd, out, out, out, out), 20_000, 100_000);
        assertEquals(0L, bytes, "seed 11: bytes allocated over 100000 calls");
    }

    /** Inverse dynamics with friction on minus off, at the same motion: the friction torque alone. */
    private static double[] frictionByInverseDynamics(final RobotModel model, final double[] q, final double[] qd)
    {
        final int n = model.dof();
        final InverseDynamics rnea = new InverseDynamics(CompiledModel.of(model));
        final double[] with = new double[n];
        final double[] without = new double[n];
        final double[] qdd = new double[n];
        rnea.compute(q, qd, qdd, with);
        rnea.jointFriction(false);
        rnea.compute(q, qd, qdd, without);
        for (int k = 0; k < n; k++)
        {
            with[k] -= without[k];
        }
        return with;
    }
}
