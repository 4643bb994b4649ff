package org.nectl.core.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.identification.ExcitationTrajectory;
import org.nectl.core.identification.PayloadEstimate;
import org.nectl.core.identification.PayloadIdentification;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * Setting an identified payload in a running control cycle: the plant (RK4) carries 1.5 kg at 5 cm
 * that the cycle's model lacks; the payload is identified from an excitation the cycle tracks, the
 * new model prepared off the loop and ramped in while holding; the same trajectory is then tracked
 * again.
 */
final class ModelChangeCycleTest
{
    private static final int DOF = 7;
    private static final double PERIOD_S = CycleHarness.PERIOD_NS * 1e-9;

    @Test
    void anIdentifiedPayloadRampedIntoTheRunningCycleImprovesTrackingWithoutAStepInTheCommand()
    {
        final RobotModel model = RandomRobots.robot(5, DOF, false, RandomRobots.Joints.REVOLUTE, false);
        final int body = model.bodyCount() - 1;
        final InertialParameters payload = InertialParameters.ofCentreOfMass(1.5, new double[] {0.05, 0.0, 0.0},
            new double[] {4e-3, 0, 0, 0, 3e-3, 0, 0, 0, 2e-3});
        final RobotModel plant = Payloads.withPayload(model, body, payload);
        final CycleHarness h = new CycleHarness(model);
        final ArmSimulator arm = new ArmSimulator(plant, CycleHarness.PERIOD_NS, 4);
        arm.reset(new double[DOF], new double[DOF]);
        final TrajectorySampler excitation = excitation(model);
        final PayloadIdentification identification = new PayloadIdentification(model, body);
        step(h, arm, 1, null);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
        step(h, arm, 200, null);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(excitation));
        step(h, arm, 4200, identification);
        final double before = worstRms(h.cycle);
        final PayloadEstimate estimate = identification.estimate();

        final ControlCycle.PreparedModel prepared = h.cycle.prepareModel(Payloads.withPayload(model, body, estimate.body()));
        assertEquals(ControlCycle.ACCEPTED, h.cycle.changeModel(prepared, 500_000_000L));
        assertTrue(h.cycle.modelChanging());
        final double largestStep = step(h, arm, 600, null);
        assertFalse(h.cycle.modelChanging(), "the 0.5 s ramp is over");
        assertEquals(1, h.cycle.modelChanges());

        final long ticksBefore = h.cycle.trackingTicks();
        final double[] squaresBefore = squares(h.cycle);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.startTrajectory(excitation));
        step(h, arm, 4200, null);
        final double after = worstRmsSince(h.cycle, squaresBefore, ticksBefore);
        System.out.printf("payload set while holding: mass %.4f kg, tracking RMS (worst joint) %.3e rad before, %.3e rad after;"
            + " largest command change per tick during the ramp %.3f N m, faults %s%n", estimate.mass(), before, after,
            largestStep, Faults.describe(h.cycle.faults()));
        assertEquals(0, h.cycle.faults(), Faults.describe(h.cycle.faults()));
        assertTrue(after < 0.1 * before, "tracking RMS " + after + " after, " + before + " before");
        assertTrue(largestStep < 1.0, "the ramp moved the command by " + largestStep + " N m in one tick");
    }

    @Test
    void aRampingModelChangeAllocatesNothingOnTheLoop()
    {
        final RobotModel model = RandomRobots.robot(5, DOF, false, RandomRobots.Joints.REVOLUTE, false);
        final CycleHarness h = new CycleHarness(model);
        h.run(1);
        assertEquals(ControlCycle.ACCEPTED, h.cycle.enable(null));
        final ControlCycle.PreparedModel heavier = h.cycle.prepareModel(Payloads.withPayload(model, model.bodyCount() - 1,
            InertialParameters.ofCentreOfMass(0.5, new double[] {0, 0, 0.05}, new double[] {1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3})));
        final ControlCycle.PreparedModel original = h.cycle.prepareModel(model);
        final boolean[] which = {false};
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            if (!h.cycle.modelChanging())
            {
                which[0] = !which[0];
                h.cycle.changeModel(which[0] ? heavier : original, 20_000_000L);
            }
            h.step(true, 0L);
        }, 20_000, 50_000);
        assertEquals(0L, bytes, "bytes allocated over 50000 ticks with model changes ramping");
    }

    /** Steps harness and plant together; returns the largest change of the command between ticks. */
    private static double step(final CycleHarness h, final ArmSimulator arm, final int ticks, final PayloadIdentification record)
    {
        final double[] previousTau = h.cycle.tauCommand().clone();
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[][] history = new double[3][];
        double largestStep = 0.0;
        for (int k = 0; k < ticks; k++)
        {
            arm.positions(h.cycle.measuredQ());
            arm.velocities(h.cycle.measuredQd());
            h.cycle.tick(h.timeNs, true, 0L, false);
            for (int j = 0; j < DOF; j++)
            {
                largestStep = Math.max(largestStep, Math.abs(h.cycle.tauCommand()[j] - previousTau[j]));
            }
            System.arraycopy(h.cycle.tauCommand(), 0, previousTau, 0, DOF);
            if (record != null)
            {
                history[0] = history[1];
                history[1] = history[2];
                arm.positions(q);
                arm.velocities(qd);
                history[2] = concat(q, qd, h.cycle.tauCommand());
                if (history[0] != null)
                {
                    feed(record, history);
                }
            }
            arm.torque(h.cycle.tauCommand());
            assertEquals(ArmSimulator.STEP_OK, arm.step());
            h.timeNs += CycleHarness.PERIOD_NS;
        }
        return largestStep;
    }

    /** Central differences around the middle sample, with the mean of the torques held before and after it. */
    private static void feed(final PayloadIdentification record, final double[][] history)
    {
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final double[] qdd = new double[DOF];
        final double[] tau = new double[DOF];
        for (int j = 0; j < DOF; j++)
        {
            q[j] = history[1][j];
            qd[j] = history[1][DOF + j];
            qdd[j] = (history[2][DOF + j] - history[0][DOF + j]) / (2 * PERIOD_S);
            tau[j] = 0.5 * (history[0][2 * DOF + j] + history[1][2 * DOF + j]);
        }
        record.add(q, qd, qdd, tau);
    }

    private static double[] concat(final double[] q, final double[] qd, final double[] tau)
    {
        final double[] all = new double[3 * DOF];
        System.arraycopy(q, 0, all, 0, DOF);
        System.arraycopy(qd, 0, all, DOF, DOF);
        System.arraycopy(tau, 0, all, 2 * DOF, DOF);
        return all;
    }

    /** The 4 s excitation from the rest pose at 0, as waypoints every 50 ms. */
    private static TrajectorySampler excitation(final RobotModel model)
    {
        final double[][] rows = new ExcitationTrajectory(new double[DOF], 4.0, 0.5, 5).waypoints(0.05);
        final double[] times = new double[rows.length];
        final double[][] positions = new double[rows.length][];
        for (int i = 0; i < rows.length; i++)
        {
            times[i] = rows[i][0];
            positions[i] = java.util.Arrays.copyOfRange(rows[i], 1, DOF + 1);
        }
        return new TrajectorySampler(model, new JointWaypoints(times, positions));
    }

    private static double worstRms(final ControlCycle cycle)
    {
        double worst = 0.0;
        for (int j = 0; j < DOF; j++)
        {
            worst = Math.max(worst, cycle.trackingRms(j));
        }
        return worst;
    }

    /** @return per joint, the sum of squared tracking errors over the TRACKING ticks so far. */
    private static double[] squares(final ControlCycle cycle)
    {
        final double[] sums = new double[DOF];
        for (int j = 0; j < DOF; j++)
        {
            sums[j] = cycle.trackingRms(j) * cycle.trackingRms(j) * cycle.trackingTicks();
        }
        return sums;
    }

    /** @return the worst joint's RMS over the TRACKING ticks after the ones summed in {@code before}. */
    private static double worstRmsSince(final ControlCycle cycle, final double[] before, final long ticksBefore)
    {
        final double[] now = squares(cycle);
        double worst = 0.0;
        for (int j = 0; j < DOF; j++)
        {
            worst = Math.max(worst, Math.sqrt((now[j] - before[j]) / (cycle.trackingTicks() - ticksBefore)));
        }
        return worst;
    }
}
