package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The control cycle driven in lockstep with the in-process arm simulator ({@link CycleHarness}).
 */
class ControlCycleTest
{
    private static final long SEED = 17;

    /** A 7-joint revolute chain with no joint limits. */
    private static CycleHarness chain()
    {
        return new CycleHarness(RandomRobots.robot(SEED, 7, false, RandomRobots.Joints.REVOLUTE, false));
    }

    @Test
    void computedTorqueTracksATrajectoryInLockstepToWellUnderAMilliradian()
    {
        final CycleHarness h = chain();
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(200);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(h.move(0.5, 4.0)), "seed " + SEED);
        assertEquals(ControllerMode.TRACKING, h.cycle.mode());
        h.run(4100);
        assertEquals(ControllerMode.ENABLED, h.cycle.mode(), "faults: " + Faults.describe(h.cycle.faults()));
        assertEquals(1, h.cycle.completedTrajectories());
        for (int j = 0; j < 7; j++)
        {
            // Exact model, 1 kHz zero-order hold: the residual is the torque held over one period.
            assertTrue(h.cycle.trackingRms(j) < 1e-3, "seed " + SEED + " joint " + j + " rms " + h.cycle.trackingRms(j));
        }
    }

    @Test
    void missingStatesFaultAfterTheConfiguredNumberOfTicks()
    {
        final CycleHarness h = chain();
        h.run(1);
        h.cycle.enable(null);
        h.run(10);
        h.step(false, 0L);
        assertEquals(ControllerMode.ENABLED, h.cycle.mode());
        h.step(false, 0L);
        assertEquals(ControllerMode.FAULT, h.cycle.mode());
        assertEquals(Faults.STATE_MISSING, h.cycle.faults());
        for (final double tau : h.cycle.tauCommand())
        {
            assertEquals(0.0, tau);
        }
        assertTrue(!h.cycle.drivesEnabled());
        assertEquals(ControlCycle.REJECTED_MODE, h.cycle.disable(), "FAULT is left only by a reset");
    }

    @Test
    void heartbeatTimeoutAndNonFiniteStateFault()
    {
        final CycleHarness h = chain();
        h.run(1);
        h.cycle.enable(null);
        h.step(true, 60_000_000L);
        assertEquals(Faults.HEARTBEAT_TIMEOUT, h.cycle.faults());

        final CycleHarness g = chain();
        g.run(1);
        g.cycle.enable(null);
        g.arm.positions(g.cycle.measuredQ());
        g.cycle.measuredQ()[3] = Double.NaN;
        g.cycle.tick(0L, true, 0L, false);
        assertEquals(ControllerMode.FAULT, g.cycle.mode());
        assertEquals(Faults.NON_FINITE_STATE, g.cycle.faults());
    }

    @Test
    void streamingHoldsAfterTheCommandTimeout()
    {
        final CycleHarness h = chain();
        h.run(1);
        h.cycle.enable(null);
        h.run(10);
        final double[] q = h.cycle.referenceQ().clone();
        final double[] zero = new double[7];
        assertEquals(ControlCycle.ACCEPTED, h.cycle.streamSetpoint(q, zero, zero, zero));
        assertEquals(ControllerMode.TRACKING, h.cycle.mode());
        h.run(100);
        assertEquals(ControllerMode.TRACKING, h.cycle.mode());
        h.run(2);
        assertEquals(ControllerMode.HOLD, h.cycle.mode());
    }

    @Test
    void aTrajectoryThatWouldMakeTheReferenceJumpIsRejected()
    {
        final CycleHarness h = chain();
        h.run(1);
        assertEquals(ControlCycle.REJECTED_MODE, h.cycle.startTrajectory(h.move(0.5, 2.0)));
        h.cycle.enable(null);
        final int n = h.model.dof();
        final double[][] far = new double[2][n];
        far[0][0] = 0.3;
        far[1][0] = 0.3;
        final TrajectorySampler offset = new TrajectorySampler(h.model, new JointWaypoints(new double[] {0, 1}, far));
        assertEquals(ControlCycle.REJECTED_DISCONTINUOUS, h.cycle.startTrajectory(offset));
        assertEquals(ControllerMode.ENABLED, h.cycle.mode());
    }

    /**
     * A trajectory refused for a discontinuous start leaves the held reference as it was: the
     * feedforward torque rate of the held pose stays exactly zero (the continuity check once sampled
     * the refused trajectory into the live reference's jerk and snap).
     */
    @Test
    void aRefusedTrajectoryLeavesTheHeldReferenceUntouched()
    {
        final CycleHarness h = chain();
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(700);
        assertEquals(0.0, maxAbs(h.cycle.tauFeedforwardRate()), "holding a pose");
        final int n = h.model.dof();
        final double[][] far = new double[3][n];
        for (int j = 0; j < n; j++)
        {
            far[0][j] = 0.3;
            far[1][j] = 0.9;
            far[2][j] = 0.3;
        }
        final TrajectorySampler offset = new TrajectorySampler(h.model, new JointWaypoints(new double[] {0, 1, 2}, far));
        assertEquals(ControlCycle.REJECTED_DISCONTINUOUS, h.cycle.startTrajectory(offset));
        h.run(1);
        assertEquals(ControllerMode.ENABLED, h.cycle.mode());
        assertEquals(0.0, maxAbs(h.cycle.tauFeedforwardRate()), "still holding the same pose");
    }

    private static double maxAbs(final double[] v)
    {
        double max = 0.0;
        for (final double x : v)
        {
            max = Math.max(max, Math.abs(x));
        }
        return max;
    }

    @Test
    void aTickAllocatesNothing()
    {
        final CycleHarness h = chain();
        h.run(1);
        h.cycle.enable(null);
        h.cycle.startTrajectory(h.move(0.2, 1000.0));
        final long bytes = AllocationMeter.bytesAllocated(() -> h.step(true, 0L), 20_000, 50_000);
        assertEquals(0L, bytes, "bytes allocated over 50000 ticks");
    }
}
