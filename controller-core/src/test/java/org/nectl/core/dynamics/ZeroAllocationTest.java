package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class ZeroAllocationTest
{
    private static final long SEED = 7;
    private static final int WARM_UP_CALLS = 20_000;
    private static final int MEASURED_CALLS = 100_000;

    /** A 12-body tree with every joint kind, actuation and friction on, an external wrench on body 3. */
    private final RobotModel model = RandomRobots.robot(SEED, 12, true, RandomRobots.Joints.ALL, true);
    private final PolynomialMotion state = new PolynomialMotion(new SplittableRandom(SEED), model.dof());
    private final double[] tau = new double[model.dof()];
    private final double[] tauDot = new double[model.dof()];

    @Test
    void inverseDynamicsAllocatesNothingPerCall()
    {
        final InverseDynamics rnea = new InverseDynamics(model);
        rnea.externalWrench(3, 1, 2, 3, 4, 5, 6);
        final double[] wrench = new double[6];
        assertNoAllocation(() ->
        {
            rnea.compute(state.q, state.qd, state.qdd, tau);
            rnea.reactionWrench(5, wrench);
        });
    }

    @Test
    void torqueDerivativeAllocatesNothingPerCall()
    {
        final TorqueDerivative derivative = new TorqueDerivative(model);
        derivative.externalWrench(3, 1, 2, 3, 4, 5, 6);
        derivative.externalWrenchRate(3, new double[] {6, 5, 4, 3, 2, 1});
        assertNoAllocation(() -> derivative.compute(state.q, state.qd, state.qdd, state.qddd, tau, tauDot));
    }

    @Test
    void mechanicalEnergyAllocatesNothingPerCall()
    {
        final MechanicalEnergy energy = new MechanicalEnergy(model);
        assertNoAllocation(() -> tau[0] = energy.kineticEnergyJoules(state.q, state.qd) + energy.potentialEnergyJoules(state.q));
    }

    private static void assertNoAllocation(final Runnable calls)
    {
        final long bytes = AllocationMeter.bytesAllocated(calls, WARM_UP_CALLS, MEASURED_CALLS);
        assertEquals(0L, bytes, "seed " + SEED + ": bytes allocated over " + MEASURED_CALLS + " calls");
    }
}
