package org.nectl.hw;

import java.util.Random;

import org.nectl.core.dynamics.BaseMotion;

/**
 * The base's IMU of a carried simulated arm: the true base motion plus seeded white Gaussian noise,
 * one draw per period. The accelerometer's specific force and the gyro's angular velocity get
 * independent noise of the configured standard deviations per axis and sample. The angular
 * acceleration, which an IMU does not measure, is what an adapter obtains by differencing the gyro
 * once per period: its noise is the backward difference of the gyro's, (n_k - n_(k-1)) / T
 * (standard deviation sqrt(2) sigma_gyro / T, correlated from one sample to the next), added to the
 * true value so that the noise and not the difference's lag of T / 2 is what is simulated. The
 * orientation stays exact (the dynamics do not use it).
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
final class SimulatedImu
{
    /** Offset of the IMU's noise seed from the encoders': two independent sequences from one --seed. */
    private static final long SEED_OFFSET = 0x1D0_5EEDL;

    private final double accelerometerNoise;
    private final double gyroNoise;
    private final double periodS;
    private final Random noise;
    private final double[] lastGyroNoise = new double[3];
    private final double[] gyroNoiseNow = new double[3];
    private final BaseMotion measured = new BaseMotion();

    SimulatedImu(final SimulatedArmConfig config)
    {
        accelerometerNoise = config.accelerometerNoise();
        gyroNoise = config.gyroNoise();
        periodS = config.periodNs() * 1e-9;
        noise = new Random(config.noiseSeed() + SEED_OFFSET);
    }

    /** @return true if any noise is configured: otherwise the samples are the true motion. */
    boolean noisy()
    {
        return accelerometerNoise > 0.0 || gyroNoise > 0.0;
    }

    /**
     * Samples the IMU at the end of a period.
     *
     * @param trueMotion the base's true motion at that time.
     * @param first true for the first sample: no earlier gyro reading to difference.
     */
    void sample(final BaseMotion trueMotion, final boolean first)
    {
        measured.copyFrom(trueMotion);
        if (!noisy())
        {
            return;
        }
        for (int k = 0; k < 3; k++)
        {
            gyroNoiseNow[k] = gyroNoise * noise.nextGaussian();
            if (first)
            {
                lastGyroNoise[k] = gyroNoiseNow[k];
            }
        }
        measured.angularVelocity(trueMotion.angularVelocity(0) + gyroNoiseNow[0], trueMotion.angularVelocity(1) + gyroNoiseNow[1],
            trueMotion.angularVelocity(2) + gyroNoiseNow[2]);
        measured.angularAcceleration(trueMotion.angularAcceleration(0) + (gyroNoiseNow[0] - lastGyroNoise[0]) / periodS,
            trueMotion.angularAcceleration(1) + (gyroNoiseNow[1] - lastGyroNoise[1]) / periodS,
            trueMotion.angularAcceleration(2) + (gyroNoiseNow[2] - lastGyroNoise[2]) / periodS);
        measured.specificForce(trueMotion.specificForce(0) + accelerometerNoise * noise.nextGaussian(),
            trueMotion.specificForce(1) + accelerometerNoise * noise.nextGaussian(),
            trueMotion.specificForce(2) + accelerometerNoise * noise.nextGaussian());
        System.arraycopy(gyroNoiseNow, 0, lastGyroNoise, 0, 3);
    }

    /** @return the last sample. */
    BaseMotion measured()
    {
        return measured;
    }
}
