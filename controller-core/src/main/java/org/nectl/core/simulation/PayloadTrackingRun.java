package org.nectl.core.simulation;

import java.util.Arrays;

import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.identification.ExcitationTrajectory;
import org.nectl.core.identification.PayloadEstimate;
import org.nectl.core.identification.PayloadIdentification;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.CycleSettings;

/**
 * Payload identification end to end on nectl's own plant: a {@link ControlCycle} with the model
 * without payload tracks an excitation on an {@link ArmSimulator} whose robot carries the payload
 * (lockstep, 1 kHz, RK4); the ticks are identified; the estimate is ramped into the running cycle
 * ({@link ControlCycle#changeModel}, 0.5 s, holding) and the excitation tracked again. Not
 * real-time safe.
 */
public final class PayloadTrackingRun
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final double PERIOD_S = PERIOD_NS * 1e-9;
    private static final long RAMP_NS = 500_000_000L;
    private static final int HOLD_TICKS = 200;

    /**
     * @param estimate the payload identified from the first run.
     * @param rmsBefore per joint, tracking RMS without the payload in the model, rad or m.
     * @param rmsAfter per joint, tracking RMS with the estimate in the model.
     * @param faults fault bits latched at the end.
     */
    public record Result(PayloadEstimate estimate, double[] rmsBefore, double[] rmsAfter, int faults)
    {
        /** Copies the arrays. */
        public Result
        {
            rmsBefore = rmsBefore.clone();
            rmsAfter = rmsAfter.clone();
        }

        /** @return a copy of the RMS before. */
        @Override
        public double[] rmsBefore()
        {
            return rmsBefore.clone();
        }

        /** @return a copy of the RMS after. */
        @Override
        public double[] rmsAfter()
        {
            return rmsAfter.clone();
        }
    }

    private PayloadTrackingRun()
    {
    }

    /**
     * @param model the robot without payload: the controller's model.
     * @param body the link carrying the payload.
     * @param plant the robot with the payload: the simulated arm.
     * @param excitation the motion to identify from.
     * @return the estimate and the tracking before and after it was set.
     */
    public static Result run(final RobotModel model, final int body, final RobotModel plant, final ExcitationTrajectory excitation)
    {
        final int dof = model.dof();
        final ControlCycle cycle = new ControlCycle(model, CycleSettings.defaults(dof, PERIOD_NS));
        final ArmSimulator arm = new ArmSimulator(plant, PERIOD_NS, 4);
        final double[] q = new double[dof];
        final double[] scratch = new double[dof];
        excitation.sample(0.0, q, scratch, scratch);
        arm.reset(q, new double[dof]);
        final Lockstep lockstep = new Lockstep(cycle, arm);
        lockstep.run(1, null);
        require(cycle.enable(null), "enable");
        lockstep.run(HOLD_TICKS, null);
        final TrajectorySampler trajectory = sampler(model, excitation);
        final int ticks = (int)Math.ceil(excitation.periodS() / PERIOD_S) + HOLD_TICKS;
        require(cycle.startTrajectory(trajectory), "start the excitation");
        final PayloadIdentification identification = new PayloadIdentification(model, body);
        lockstep.run(ticks, identification);
        final double[] before = squares(cycle);
        final long ticksBefore = cycle.trackingTicks();
        final double[] rmsBefore = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            rmsBefore[j] = cycle.trackingRms(j);
        }
        final PayloadEstimate estimate = identification.estimate();
        require(cycle.changeModel(cycle.prepareModel(Payloads.withPayload(model, body, estimate.body())), RAMP_NS), "set the payload");
        lockstep.run((int)(RAMP_NS / PERIOD_NS) + HOLD_TICKS, null);
        require(cycle.startTrajectory(trajectory), "start the excitation again");
        lockstep.run(ticks, null);
        final double[] after = squares(cycle);
        final double[] rmsAfter = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            rmsAfter[j] = Math.sqrt((after[j] - before[j]) / (cycle.trackingTicks() - ticksBefore));
        }
        return new Result(estimate, rmsBefore, rmsAfter, cycle.faults());
    }

    private static void require(final int result, final String what)
    {
        if (result != ControlCycle.ACCEPTED)
        {
            throw new IllegalStateException("the simulated controller refused to " + what + " (code " + result + ")");
        }
    }

    private static double[] squares(final ControlCycle cycle)
    {
        final double[] sums = new double[cycle.measuredQ().length];
        for (int j = 0; j < sums.length; j++)
        {
            sums[j] = cycle.trackingRms(j) * cycle.trackingRms(j) * cycle.trackingTicks();
        }
        return sums;
    }

    private static TrajectorySampler sampler(final RobotModel model, final ExcitationTrajectory excitation)
    {
        final double[][] rows = excitation.waypoints(0.02);
        final double[] times = new double[rows.length];
        final double[][] positions = new double[rows.length][];
        for (int i = 0; i < rows.length; i++)
        {
            times[i] = rows[i][0];
            positions[i] = Arrays.copyOfRange(rows[i], 1, rows[i].length);
        }
        return new TrajectorySampler(model, new JointWaypoints(times, positions));
    }

    /** The cycle and the arm one period at a time; with an identification, every tick after the first two is a sample. */
    private static final class Lockstep
    {
        private final ControlCycle cycle;
        private final ArmSimulator arm;
        private final int dof;
        private final double[][] window;
        private int filled;
        private long timeNs;

        Lockstep(final ControlCycle cycle, final ArmSimulator arm)
        {
            this.cycle = cycle;
            this.arm = arm;
            dof = arm.dof();
            window = new double[3][3 * dof];
        }

        void run(final int ticks, final PayloadIdentification identification)
        {
            filled = 0;
            for (int k = 0; k < ticks; k++)
            {
                arm.positions(cycle.measuredQ());
                arm.velocities(cycle.measuredQd());
                cycle.tick(timeNs, true, 0L, false);
                if (identification != null)
                {
                    record(identification);
                }
                arm.torque(cycle.tauCommand());
                if (arm.step() != ArmSimulator.STEP_OK)
                {
                    throw new IllegalStateException("the simulated arm's physics failed at " + timeNs * 1e-9 + " s");
                }
                timeNs += PERIOD_NS;
            }
        }

        /** Central differences of qd around the middle tick, with the mean of the torques held before and after it. */
        private void record(final PayloadIdentification identification)
        {
            final double[] newest = window[0];
            window[0] = window[1];
            window[1] = window[2];
            window[2] = newest;
            System.arraycopy(cycle.measuredQ(), 0, newest, 0, dof);
            System.arraycopy(cycle.measuredQd(), 0, newest, dof, dof);
            System.arraycopy(cycle.tauCommand(), 0, newest, 2 * dof, dof);
            if (++filled < 3)
            {
                return;
            }
            final double[] q = Arrays.copyOfRange(window[1], 0, dof);
            final double[] qd = Arrays.copyOfRange(window[1], dof, 2 * dof);
            final double[] qdd = new double[dof];
            final double[] tau = new double[dof];
            for (int j = 0; j < dof; j++)
            {
                qdd[j] = (window[2][dof + j] - window[0][dof + j]) / (2 * PERIOD_S);
                tau[j] = 0.5 * (window[0][2 * dof + j] + window[1][2 * dof + j]);
            }
            identification.add(q, qd, qdd, tau);
        }
    }
}
