package org.nectl.config.urdf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Inverse-dynamics torques of two models of the same robot at the same random states (positions,
 * velocities, accelerations, gravity direction), friction and rotor inertia included.
 */
final class TorqueComparison
{
    private TorqueComparison()
    {
    }

    /**
     * @param relativeTolerance bound on max |tau_a - tau_b| / max(|tau_a|_inf, 1 N m).
     * @return the largest relative difference seen.
     */
    static double assertSameTorques(
        final RobotModel a, final RobotModel b, final long seed, final double relativeTolerance)
    {
        assertEquals(a.dof(), b.dof(), "seed " + seed);
        for (int k = 0; k < a.dof(); k++)
        {
            assertEquals(a.coordinateName(k), b.coordinateName(k), "seed " + seed + ", coordinate " + k);
        }
        final CompiledModel compiledA = CompiledModel.of(a);
        final CompiledModel compiledB = CompiledModel.of(b);
        final InverseDynamics idA = new InverseDynamics(compiledA);
        final InverseDynamics idB = new InverseDynamics(compiledB);
        final AppliedLoads loadsA = new AppliedLoads(compiledA);
        final AppliedLoads loadsB = new AppliedLoads(compiledB);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final double[] tauA = new double[a.dof()];
        final double[] tauB = new double[b.dof()];
        double worst = 0.0;
        for (int sample = 0; sample < 10; sample++)
        {
            final double[] g = RandomRobots.vector(rnd, 3, 10.0);

            final double[] q = RandomRobots.vector(rnd, a.dof(), Math.PI);
            final double[] qd = RandomRobots.vector(rnd, a.dof(), 2.0);
            final double[] qdd = RandomRobots.vector(rnd, a.dof(), 5.0);
            idA.compute(q, qd, qdd, loadsA.gravity(g[0], g[1], g[2]), tauA);
            idB.compute(q, qd, qdd, loadsB.gravity(g[0], g[1], g[2]), tauB);
            double scale = 1.0;
            double diff = 0.0;
            for (int k = 0; k < a.dof(); k++)
            {
                scale = Math.max(scale, Math.abs(tauA[k]));
                diff = Math.max(diff, Math.abs(tauA[k] - tauB[k]));
            }
            worst = Math.max(worst, diff / scale);
            assertTrue(diff / scale <= relativeTolerance,
                "seed " + seed + ", sample " + sample + ": relative torque difference " + diff / scale);
        }
        return worst;
    }
}
