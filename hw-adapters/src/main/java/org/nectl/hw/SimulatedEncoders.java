package org.nectl.hw;

import java.util.Random;

import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * The arm's joint encoders: the true state plus injected slips (JUMP faults), plus seeded Gaussian
 * noise, quantised to whole encoder counts, with failed encoders (NAN faults) reading NaN.
 * Velocities are the drives' estimates: true velocity plus Gaussian noise, not quantised. One
 * sample is drawn per period, so the noise sequence depends only on the seed and the number of
 * periods, never on how often a sample is read.
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
final class SimulatedEncoders
{
    private final int dof;
    /** Position of one count per joint, rad or m; 0 for exact positions. */
    private final double[] resolution;
    private final double positionNoise;
    private final double velocityNoise;
    private final Random noise;
    private final FaultSchedule faults;
    private final double[] q;
    private final double[] qd;

    SimulatedEncoders(final RobotModel model, final SimulatedArmConfig config, final FaultSchedule faults)
    {
        dof = model.dof();
        resolution = new double[dof];
        final double counts = config.countsPerRevolution();
        for (int k = 0; k < dof; k++)
        {
            final boolean revolute = model.jointType(model.bodyOfCoordinate(k)) == JointType.REVOLUTE;
            resolution[k] = counts == 0.0 ? 0.0 : (revolute ? 2.0 * Math.PI : 1.0) / counts;
        }
        positionNoise = config.positionNoise();
        velocityNoise = config.velocityNoise();
        noise = new Random(config.noiseSeed());
        this.faults = faults;
        q = new double[dof];
        qd = new double[dof];
    }

    /** Samples the encoders at the end of period {@code step}. */
    void sample(final long step, final double[] trueQ, final double[] trueQd)
    {
        for (int k = 0; k < dof; k++)
        {
            double position = trueQ[k] + faults.slip(step, k);
            if (positionNoise > 0.0)
            {
                position += positionNoise * noise.nextGaussian();
            }
            if (resolution[k] > 0.0)
            {
                position = Math.rint(position / resolution[k]) * resolution[k];
            }
            q[k] = faults.encoderFailed(step, k) ? Double.NaN : position;
            qd[k] = velocityNoise > 0.0 ? trueQd[k] + velocityNoise * noise.nextGaussian() : trueQd[k];
        }
    }

    /** Copies the last sample. */
    void read(final double[] positions, final double[] velocities)
    {
        System.arraycopy(q, 0, positions, 0, dof);
        System.arraycopy(qd, 0, velocities, 0, dof);
    }
}
