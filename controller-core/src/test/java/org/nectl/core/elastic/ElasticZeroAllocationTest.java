package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomElasticRobots;

class ElasticZeroAllocationTest
{
    private static final int WARM_UP_CALLS = 20_000;
    private static final int MEASURED_CALLS = 100_000;
    private static final long SEED = 11;

    private final ElasticRobotModel mixed = RandomElasticRobots.robot(SEED, false);
    private final ElasticRobotModel baseMotors = RandomElasticRobots.robot(SEED, true);
    private final MixedState state = new MixedState(new SplittableRandom(SEED), mixed);
    private final double[] jointTorque = new double[mixed.dof()];
    private final double[] motorTorque = new double[mixed.elasticCount()];
    private final double[] qdd = new double[mixed.dof()];
    private final double[] thetadd = new double[mixed.elasticCount()];

    @Test
    void mixedInverseDynamicsAllocatesNothingPerCall()
    {
        final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(mixed));
        inverse.externalWrench(0, 1, 2, 3, 4, 5, 6);
        assertAllocatesNothing(() -> inverse.compute(
            state.q, state.theta, state.qd, state.thetad, state.qdd, state.thetadd, jointTorque, motorTorque));
    }

    @Test
    void mixedInertiaMatrixAndBiasAllocateNothingPerCall()
    {
        final UnifiedBodies bodies = UnifiedBodies.of(mixed);
        final MixedMassMatrix inertia = new MixedMassMatrix(bodies);
        final MixedBiasForces bias = new MixedBiasForces(bodies);
        final SpringTorques springs = new SpringTorques(mixed);
        final double[] a = new double[inertia.size() * inertia.size()];
        final double[] zeta = new double[bias.size()];
        assertAllocatesNothing(() ->
        {
            inertia.compute(state.q, a);
            bias.compute(state.q, state.qd, state.thetad, zeta);
            springs.compute(state.q, state.theta, state.qd, state.thetad, motorTorque);
        });
    }

    @Test
    void mixedForwardDynamicsAllocatesNothingPerCall()
    {
        final MixedForwardDynamics forward = new MixedForwardDynamics(UnifiedBodies.of(mixed));
        assertAllocatesNothing(() -> forward.compute(
            state.q, state.theta, state.qd, state.thetad, jointTorque, motorTorque, qdd, thetadd));
    }

    @Test
    void recursiveMixedForwardDynamicsAllocatesNothingPerCall()
    {
        assertForwardDynamicsAllocatesNothing(baseMotors, SEED);
    }

    @Test
    void recursiveMixedForwardDynamicsWithTiedRotorsAndPassiveJointsAllocatesNothingPerCall()
    {
        long seed = SEED;
        while (new UnifiedBodies(RandomElasticRobots.withPassiveJoints(seed, false)).coupledRotors.length == 0)
        {
            seed++;
        }
        final ElasticRobotModel model = RandomElasticRobots.withPassiveJoints(seed, false);
        assertTrue(model.passiveCount() > 0, "seed " + seed);
        assertForwardDynamicsAllocatesNothing(model, seed);
    }

    @Test
    void recursiveMixedForwardDynamicsFoldingRotorsIntoTheirJointsAllocatesNothingPerCall()
    {
        long seed = SEED;
        while (new UnifiedBodies(RandomElasticRobots.withMotorsNextToTheirJoints(seed)).coupledRotors.length == 0)
        {
            seed++;
        }
        assertForwardDynamicsAllocatesNothing(RandomElasticRobots.withMotorsNextToTheirJoints(seed), seed);
    }

    private static void assertForwardDynamicsAllocatesNothing(final ElasticRobotModel model, final long seed)
    {
        final RecursiveMixedForwardDynamics forward = new RecursiveMixedForwardDynamics(UnifiedBodies.of(model));
        final MixedState s = new MixedState(new SplittableRandom(seed), model);
        final double[] tau = new double[model.dof()];
        final double[] tauM = new double[model.elasticCount()];
        final double[] acc = new double[model.dof()];
        final double[] accM = new double[model.elasticCount()];
        assertAllocatesNothing(() -> forward.compute(s.q, s.theta, s.qd, s.thetad, tau, tauM, acc, accM));
    }

    private static void assertAllocatesNothing(final Runnable call)
    {
        final long bytes = AllocationMeter.bytesAllocated(call, WARM_UP_CALLS, MEASURED_CALLS);
        assertEquals(0L, bytes, "seed " + SEED + ": bytes allocated over " + MEASURED_CALLS + " calls");
    }
}
