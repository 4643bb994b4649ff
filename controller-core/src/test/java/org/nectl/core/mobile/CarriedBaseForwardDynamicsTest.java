package org.nectl.core.mobile;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.testing.RandomRobots;

class CarriedBaseForwardDynamicsTest
{
    @Test
    void forwardDynamicsInvertsCarriedBaseInverseDynamicsOnRandomTrees()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final CompiledModel model = CompiledModel.of(RandomRobots.any(seed));
            final SplittableRandom rnd = new SplittableRandom(seed);
            final CarriedBaseInverseDynamics inverse = new CarriedBaseInverseDynamics(model);
            final CarriedBaseForwardDynamics forward = new CarriedBaseForwardDynamics(model);
            final AppliedLoads loads = new AppliedLoads(model);
            final BaseMotion base = new BaseMotion();
            new ShipMotion(0.17, 0.2, 0.05, 0.15, 0.5, 0.1).at(rnd.nextDouble(0.0, 10.0), new double[] {0, 0, -9.81}, base);
            final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
            final double[] qd = RandomRobots.vector(rnd, model.dof(), 2.0);
            final double[] qdd = RandomRobots.vector(rnd, model.dof(), 4.0);
            final double[] tau = new double[model.dof()];
            final double[] solved = new double[model.dof()];
            inverse.compute(q, qd, qdd, loads, base, tau);
            forward.compute(q, qd, tau, loads, base, solved);
            CarriedBaseInverseDynamicsTest.assertClose(qdd, solved, 1e-9, "seed " + seed);
        }
    }
}
