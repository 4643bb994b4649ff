package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class ZeroAllocationTest
{
    private static final int WARM_UP_CALLS = 20_000;
    private static final int MEASURED_CALLS = 100_000;

    @Test
    void inverseDynamicsAllocatesNothingPerCall()
    {
        final long seed = 7;
        final RobotModel model = RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true);
        final PolynomialMotion state = new PolynomialMotion(new SplittableRandom(seed), model.dof());
        final InverseDynamics rnea = new InverseDynamics(model);
        rnea.externalWrench(3, 1, 2, 3, 4, 5, 6);
        final double[] tau = new double[model.dof()];
        final double[] wrench = new double[6];
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            rnea.compute(state.q, state.qd, state.qdd, tau);
            rnea.reactionWrench(5, wrench);
        }, WARM_UP_CALLS, MEASURED_CALLS);
        assertEquals(0L, bytes, "seed " + seed + ": bytes allocated over " + MEASURED_CALLS + " calls");
    }
}
