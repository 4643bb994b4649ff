package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.screw.ScrewTheoryInverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class ZeroAllocationTest
{
    private static final int WARM_UP_CALLS = 20_000;
    private static final int MEASURED_CALLS = 100_000;
    private static final long SEED = 7;

    private final RobotModel model = RandomRobots.robot(SEED, 12, true, RandomRobots.Joints.ALL, true);
    private final CompiledModel compiled = CompiledModel.of(model);
    private final PolynomialMotion state = new PolynomialMotion(new SplittableRandom(SEED), model.dof());
    private final double[] tau = new double[model.dof()];
    private final double[] tauDot = new double[model.dof()];
    private final double[] wrench = new double[6];

    @Test
    void inverseDynamicsAllocatesNothingPerCall()
    {
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(3, 1, 2, 3, 4, 5, 6);
        assertAllocatesNothing(() ->
        {
            rnea.compute(state.q, state.qd, state.qdd, loads, tau);
            rnea.reactionWrench(5, wrench);
        });
    }

    @Test
    void screwTheoryInverseDynamicsAllocatesNothingPerCall()
    {
        final ScrewTheoryInverseDynamics screw = new ScrewTheoryInverseDynamics(model);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(3, 1, 2, 3, 4, 5, 6);
        assertAllocatesNothing(() ->
        {
            screw.compute(state.q, state.qd, state.qdd, loads, tau);
            screw.reactionWrench(5, wrench);
        });
    }

    @Test
    void torqueDerivativeAllocatesNothingPerCall()
    {
        final TorqueDerivative derivative = new TorqueDerivative(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).bodyWrench(3, 1, 2, 3, 4, 5, 6)
            .bodyWrenchRate(3, new double[] {6, 5, 4, 3, 2, 1});
        assertAllocatesNothing(() -> derivative.compute(state.q, state.qd, state.qdd, state.qddd, loads, tau, tauDot));
    }

    @Test
    void mechanicalEnergyAllocatesNothingPerCall()
    {
        final MechanicalEnergy energy = new MechanicalEnergy(model);
        assertAllocatesNothing(
            () -> tau[0] = energy.kineticEnergyJoules(state.q, state.qd) + energy.potentialEnergyJoules(state.q));
    }

    private static void assertAllocatesNothing(final Runnable call)
    {
        final long bytes = AllocationMeter.bytesAllocated(call, WARM_UP_CALLS, MEASURED_CALLS);
        assertEquals(0L, bytes, "seed " + SEED + ": bytes allocated over " + MEASURED_CALLS + " calls");
    }
}
