package org.nectl.core.simulation;

import org.nectl.core.control.ControlStatus;
import org.nectl.core.control.MixedInverseDynamicsController;

/**
 * A closed-loop tracking run of a mixed rigid/elastic arm: every control period the controller reads
 * the simulated state and the reference, its saturated command is held over the period while the
 * simulator integrates it. Records per joint the RMS and largest absolute tracking error, the largest
 * commanded torque rate, and the behaviour of the controller's Lyapunov function V2.
 *
 * <p>Deterministic; not thread safe. Not real-time safe (allocates the result), but allocates nothing
 * per tick.
 */
public final class MixedTrackingRun
{
    /** A joint reference: q_d and its derivatives up to the 4th at a time. */
    @FunctionalInterface
    public interface Reference
    {
        /**
         * @param timeS time, s.
         * @param derivatives receives d^n q_d,k / dt^n in [n][k], n = 0..4.
         */
        void sample(double timeS, double[][] derivatives);
    }

    /**
     * The measured run.
     *
     * @param rmsRad RMS of q_d - q per joint over the ticks, rad (m).
     * @param maxAbsRad largest |q_d - q| per joint, rad (m).
     * @param maxAbsSettledRad largest |q_d - q| per joint from the settling tick on, rad (m).
     * @param maxTorqueRateNmPerS largest |command change| / period per joint between successive ticks, N m/s.
     * @param lyapunovStartJoules V2 at the first tick, J.
     * @param lyapunovEndJoules V2 at the last tick, J.
     * @param lyapunovLargestRiseJoules largest increase of V2 from one tick to the next (0 if it never rises), J.
     * @param torqueClips ticks each joint's command was torque-saturated.
     * @param rateClips ticks each joint's command was rate-saturated.
     * @param ticks ticks run (fewer than asked if the controller or the simulator failed).
     * @param failure the first non-OK controller status, or 100 + the simulator's step code, or 0.
     */
    public record Result(double[] rmsRad, double[] maxAbsRad, double[] maxAbsSettledRad, double[] maxTorqueRateNmPerS,
        double lyapunovStartJoules, double lyapunovEndJoules, double lyapunovLargestRiseJoules,
        long[] torqueClips, long[] rateClips, long ticks, int failure)
    {
    }

    private MixedTrackingRun()
    {
    }

    /**
     * Runs from the simulator's current state.
     *
     * @param simulator the arm, with its state, gravity and loads set.
     * @param controller the controller, gravity set; its limiter's previous command is the start of
     *     the rate window.
     * @param reference the reference.
     * @param periodNs control period, ns (the simulator's).
     * @param ticks number of control periods.
     * @param settleTicks first tick of {@link Result#maxAbsSettledRad}.
     * @return the measurements.
     */
    public static Result run(final MixedArmSimulator simulator, final MixedInverseDynamicsController controller,
        final Reference reference, final long periodNs, final long ticks, final long settleTicks)
    {
        final int dof = controller.limiter().dof();
        final int elastic = simulator.elasticCount();
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] theta = new double[elastic];
        final double[] thetad = new double[elastic];
        final double[][] desired = new double[5][dof];
        final double[] command = new double[dof];
        final double[] previous = new double[dof];
        final double[] sumSquares = new double[dof];
        final double[] maxAbs = new double[dof];
        final double[] maxAbsSettled = new double[dof];
        final double[] maxRate = new double[dof];
        final double periodS = periodNs * 1e-9;
        double lyapunovStart = 0.0;
        double lyapunov = 0.0;
        double largestRise = 0.0;
        int failure = 0;
        long tick = 0;
        for (; tick < ticks && failure == 0; tick++)
        {
            simulator.positions(q);
            simulator.velocities(qd);
            simulator.motorPositions(theta);
            simulator.motorVelocities(thetad);
            reference.sample(tick * periodS, desired);
            final int status = controller.compute(q, theta, qd, thetad, desired, command);
            final double v = controller.lyapunovJoules();
            if (tick == 0)
            {
                lyapunovStart = v;
            }
            else
            {
                largestRise = Math.max(largestRise, v - lyapunov);
            }
            lyapunov = v;
            for (int k = 0; k < dof; k++)
            {
                final double error = desired[0][k] - q[k];
                sumSquares[k] += error * error;
                maxAbs[k] = Math.max(maxAbs[k], Math.abs(error));
                if (tick >= settleTicks)
                {
                    maxAbsSettled[k] = Math.max(maxAbsSettled[k], Math.abs(error));
                }
                if (tick > 0)
                {
                    maxRate[k] = Math.max(maxRate[k], Math.abs(command[k] - previous[k]) / periodS);
                }
                previous[k] = command[k];
            }
            simulator.command(command);
            final int step = simulator.step();
            failure = status != ControlStatus.OK ? status : (step != ArmSimulator.STEP_OK ? 100 + step : 0);
        }
        final double[] rms = new double[dof];
        final long[] torqueClips = new long[dof];
        final long[] rateClips = new long[dof];
        for (int k = 0; k < dof; k++)
        {
            rms[k] = Math.sqrt(sumSquares[k] / Math.max(1, tick));
            torqueClips[k] = controller.limiter().torqueClipCount(k);
            rateClips[k] = controller.limiter().rateClipCount(k);
        }
        return new Result(rms, maxAbs, maxAbsSettled, maxRate, lyapunovStart, lyapunov, largestRise, torqueClips, rateClips, tick, failure);
    }
}
