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

    /**
     * A segment applied between two ticks runs on the controller clock from the last tick before it
     * (docs/PROTOCOL.md, "How a segment becomes the reference"): the first tick after it samples the
     * segment one period after its first waypoint, the tenth ten periods after; a first waypoint at
     * t > 0 is not waited for. A slow move, so the reference clock keeps its rate 1.
     */
    @Test
    void aSegmentsClockStartsAtTheLastTickBeforeItWasApplied()
    {
        final CycleHarness h = chain();
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(ControlLaw.COMPUTED_TORQUE));
        h.run(50);
        final int dof = h.model.dof();
        final double[][] positions = new double[3][dof];
        positions[1][0] = 0.05;
        final TrajectorySampler segment = new TrajectorySampler(h.model, new JointWaypoints(new double[] {0.3, 2.3, 4.3}, positions));
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(segment));
        final double[] expected = new double[dof];
        final double[] oneTickLater = new double[dof];
        final double[] scratch = new double[dof];
        final double periodS = CycleHarness.PERIOD_NS * 1e-9;
        for (int tick = 1; tick <= 1000; tick++)
        {
            h.step(true, 0L);
            assertEquals(1.0, h.cycle.timeScaling().rate(), "tick " + tick);
            if (tick == 1 || tick == 10 || tick == 1000)
            {
                segment.sample(0.3 + tick * periodS, expected, scratch, scratch, scratch, scratch);
                for (int j = 0; j < dof; j++)
                {
                    assertEquals(expected[j], h.cycle.referenceQ()[j], 1e-12, "tick " + tick + " joint " + j);
                }
            }
        }
        // The check above tells the two clocks apart: a clock started at the first tick would be one period behind.
        segment.sample(0.3 + 999 * periodS, oneTickLater, scratch, scratch, scratch, scratch);
        assertTrue(Math.abs(h.cycle.referenceQ()[0] - oneTickLater[0]) > 1e-6,
            "one period of the move at 1 s: " + (h.cycle.referenceQ()[0] - oneTickLater[0]) + " rad");
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
