package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/** One control tick of each law, as the loop runs it, allocates nothing. */
class ControlTickAllocationTest
{
    private static final int WARM_UP = 20_000;
    private static final int MEASURED = 10_000;

    @Test
    void computedTorqueTickWithSamplingAndLimitingAllocatesNothing()
    {
        final RobotModel model = RandomRobots.robot(5, 7, false, RandomRobots.Joints.MOVABLE, true);
        final TrajectorySampler sampler = ControlFixtures.randomTrajectory(model, 5, 2.0);
        final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 400.0);
        final TorqueLimiter limiter = new TorqueLimiter(model, 1_000_000L);
        final ControlFixtures.Reference r = new ControlFixtures.Reference(7);
        final ControlFixtures.Outputs out = new ControlFixtures.Outputs(7);
        final double[] q = new double[7];
        final double[] qd = new double[7];
        final double[] command = new double[7];
        final double[] clock = {0.0};
        final Runnable tick = () ->
        {
            clock[0] = clock[0] >= 2.5 ? -0.1 : clock[0] + 1e-3;
            sampler.sample(clock[0], r.q, r.qd, r.qdd, r.qddd, r.qdddd);
            controller.compute(q, qd, r.q, r.qd, r.qdd, r.qddd, out.tau, out.tauFf, out.tauFfRate);
            limiter.limit(out.tau, command);
        };
        assertEquals(0L, AllocationMeter.bytesAllocated(tick, WARM_UP, MEASURED));
    }

    @Test
    void pdGravityTickAllocatesNothing()
    {
        final RobotModel model = RandomRobots.robot(6, 7, true, RandomRobots.Joints.ALL, true);
        final int n = model.dof();
        final PdGravityController controller = new PdGravityController(CompiledModel.of(model), new double[n], new double[n]);
        final double[] q = RandomRobots.vector(new java.util.SplittableRandom(6), n, 1.0);
        final double[] zero = new double[n];
        final double[] tau = new double[n];
        assertEquals(0L, AllocationMeter.bytesAllocated(() -> controller.compute(q, zero, q, zero, tau), WARM_UP, MEASURED));
    }
}
