package org.nectl.hw;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.model.RobotModel;

/**
 * Settings of a {@link SimulatedArm}, with fluent setters; defaults are an ideal arm: 1 kHz, 4
 * Runge-Kutta substeps, torque limits from the model's effort limits, exact encoders, no noise, no
 * latency, at rest at q = 0, gravity (0, 0, -9.81), no faults.
 *
 * <p>Not real-time safe. Not thread safe: fill it, then hand it to the arm, which copies it.
 */
public final class SimulatedArmConfig
{
    /** Largest accepted accelerometer noise, m/s^2: 50 times a poor MEMS part's at 1 kHz. */
    public static final double MAX_ACCELEROMETER_NOISE = 1.0;
    /** Largest accepted gyro noise, rad/s: 50 times a poor MEMS part's at 1 kHz. */
    public static final double MAX_GYRO_NOISE = 0.1;

    private final int dof;
    private long periodNs = 1_000_000L;
    private int substeps = 4;
    private final double[] torqueLimitNm;
    private double countsPerRevolution;
    private double positionNoise;
    private double velocityNoise;
    private long noiseSeed = 1L;
    private int latencyPeriods;
    private final double[] initialQ;
    private final double[] gravity = {0.0, 0.0, -9.81};
    private final List<InjectedFault> faults = new ArrayList<>();
    private final List<AppliedWrench> wrenches = new ArrayList<>();
    private BaseMotionProfile baseMotion;
    private double accelerometerNoise;
    private double gyroNoise;

    /** @param model the simulated robot; sizes the per-joint settings and gives the torque limits. */
    public SimulatedArmConfig(final RobotModel model)
    {
        dof = model.dof();
        torqueLimitNm = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            torqueLimitNm[k] = model.limits(k).effortMax();
        }
        initialQ = new double[dof];
    }

    /** @param periodNs control period: one simulation step, ns, positive. @return this. */
    public SimulatedArmConfig periodNs(final long periodNs)
    {
        this.periodNs = requirePositive(periodNs, "period (ns)");
        return this;
    }

    /** @param substeps Runge-Kutta substeps per period, at least 1. @return this. */
    public SimulatedArmConfig substeps(final int substeps)
    {
        this.substeps = (int)requirePositive(substeps, "substeps");
        return this;
    }

    /** @param limitsNm |tau| limit of each drive, N m or N, positive, may be infinite. @return this. */
    public SimulatedArmConfig torqueLimitNm(final double... limitsNm)
    {
        requireLength(limitsNm, "torque limits");
        for (int k = 0; k < dof; k++)
        {
            if (!(limitsNm[k] > 0.0))
            {
                throw new IllegalArgumentException("torque limit of joint " + k + " must be > 0, got " + limitsNm[k]);
            }
        }
        System.arraycopy(limitsNm, 0, torqueLimitNm, 0, dof);
        return this;
    }

    /**
     * @param counts encoder counts per revolution (revolute joints) or per metre (prismatic joints);
     *     0 for exact positions.
     * @return this.
     */
    public SimulatedArmConfig countsPerRevolution(final double counts)
    {
        if (!(counts >= 0.0) || Double.isInfinite(counts))
        {
            throw new IllegalArgumentException("encoder counts per revolution must be finite and >= 0, got " + counts);
        }
        countsPerRevolution = counts;
        return this;
    }

    /**
     * @param positionStdDev standard deviation of the Gaussian position noise, rad or m, >= 0.
     * @param velocityStdDev standard deviation of the Gaussian velocity noise, rad/s or m/s, >= 0.
     * @param seed seed of the noise generator: the same seed gives the same noise.
     * @return this.
     */
    public SimulatedArmConfig noise(final double positionStdDev, final double velocityStdDev, final long seed)
    {
        if (!(positionStdDev >= 0.0) || !(velocityStdDev >= 0.0) || Double.isInfinite(positionStdDev)
            || Double.isInfinite(velocityStdDev))
        {
            throw new IllegalArgumentException("noise standard deviations must be finite and >= 0, got "
                + positionStdDev + ", " + velocityStdDev);
        }
        positionNoise = positionStdDev;
        velocityNoise = velocityStdDev;
        noiseSeed = seed;
        return this;
    }

    /** @param periods whole periods between a command's arrival and its effect at the drives, >= 0. @return this. */
    public SimulatedArmConfig latencyPeriods(final int periods)
    {
        if (periods < 0)
        {
            throw new IllegalArgumentException("latency must be >= 0 periods, got " + periods);
        }
        latencyPeriods = periods;
        return this;
    }

    /** @param q initial joint positions by coordinate, rad or m, finite. @return this. */
    public SimulatedArmConfig initialQ(final double... q)
    {
        requireLength(q, "initial positions");
        for (int k = 0; k < dof; k++)
        {
            if (!Double.isFinite(q[k]))
            {
                throw new IllegalArgumentException("initial position of joint " + k + " must be finite, got " + q[k]);
            }
        }
        System.arraycopy(q, 0, initialQ, 0, dof);
        return this;
    }

    /** @param gx x, @param gy y, @param gz z components of gravity in the base frame, m/s^2. @return this. */
    public SimulatedArmConfig gravity(final double gx, final double gy, final double gz)
    {
        gravity[0] = gx;
        gravity[1] = gy;
        gravity[2] = gz;
        return this;
    }

    /** @param fault a fault to inject; its joint must exist. @return this. */
    public SimulatedArmConfig fault(final InjectedFault fault)
    {
        if (fault.joint() >= dof)
        {
            throw new IllegalArgumentException(fault.kind() + " fault on joint " + fault.joint() + ", but the arm has "
                + dof + " joints (0.." + (dof - 1) + ")");
        }
        faults.add(fault);
        return this;
    }

    /**
     * @param wrench a wrench to apply on a link during its window of simulated time (rigid robots
     *     only; {@link SimulatedArm} refuses it for a robot with elastic joints).
     * @return this.
     */
    public SimulatedArmConfig externalWrench(final AppliedWrench wrench)
    {
        wrenches.add(wrench);
        return this;
    }

    /**
     * @param profile the prescribed motion of the arm's base (a ship's deck, a mobile platform), or
     *     null for a fixed base (the default); rigid robots on nectl's own physics only. The arm
     *     publishes the base's motion in each JointState's base block (docs/ADAPTERS.md).
     * @return this.
     */
    public SimulatedArmConfig baseMotion(final BaseMotionProfile profile)
    {
        baseMotion = profile;
        return this;
    }

    /**
     * White noise of the base's simulated IMU (with a {@link #baseMotion} profile; class
     * {@code SimulatedImu}), seeded by {@link #noise}'s seed; the angular acceleration gets the noise
     * of the gyro's backward difference. Default 0, 0: an ideal IMU.
     *
     * @param accelerometerStdDev standard deviation per axis and sample of the specific force, m/s^2,
     *     finite, in [0, 1].
     * @param gyroStdDev standard deviation per axis and sample of the angular velocity, rad/s, finite,
     *     in [0, 0.1].
     * @return this.
     */
    public SimulatedArmConfig imuNoise(final double accelerometerStdDev, final double gyroStdDev)
    {
        if (!(accelerometerStdDev >= 0.0 && accelerometerStdDev <= MAX_ACCELEROMETER_NOISE))
        {
            throw new IllegalArgumentException("accelerometer noise " + accelerometerStdDev + " m/s^2 outside [0, "
                + MAX_ACCELEROMETER_NOISE + "]");
        }
        if (!(gyroStdDev >= 0.0 && gyroStdDev <= MAX_GYRO_NOISE))
        {
            throw new IllegalArgumentException("gyro noise " + gyroStdDev + " rad/s outside [0, " + MAX_GYRO_NOISE + "]");
        }
        accelerometerNoise = accelerometerStdDev;
        gyroNoise = gyroStdDev;
        return this;
    }

    double accelerometerNoise()
    {
        return accelerometerNoise;
    }

    double gyroNoise()
    {
        return gyroNoise;
    }

    /** @return the base's prescribed motion, or empty for a fixed base. */
    Optional<BaseMotionProfile> baseMotion()
    {
        return Optional.ofNullable(baseMotion);
    }

    List<AppliedWrench> externalWrenches()
    {
        return List.copyOf(wrenches);
    }

    int dof()
    {
        return dof;
    }

    long periodNs()
    {
        return periodNs;
    }

    int substeps()
    {
        return substeps;
    }

    double[] torqueLimitNm()
    {
        return torqueLimitNm.clone();
    }

    double countsPerRevolution()
    {
        return countsPerRevolution;
    }

    double positionNoise()
    {
        return positionNoise;
    }

    double velocityNoise()
    {
        return velocityNoise;
    }

    long noiseSeed()
    {
        return noiseSeed;
    }

    int latencyPeriods()
    {
        return latencyPeriods;
    }

    double[] initialQ()
    {
        return initialQ.clone();
    }

    /** @return the gravity, base frame, m/s^2, 3 values (a copy): the one to compile the simulated robot under. */
    public double[] gravity()
    {
        return gravity.clone();
    }

    List<InjectedFault> faults()
    {
        return List.copyOf(faults);
    }

    @Override
    public String toString()
    {
        return "period " + periodNs + " ns, " + substeps + " substeps, torque limits " + Arrays.toString(torqueLimitNm)
            + " N m, " + countsPerRevolution + " counts/rev, noise " + positionNoise + " rad / " + velocityNoise
            + " rad/s (seed " + noiseSeed + "), latency " + latencyPeriods + " periods, faults " + faults + ", " + wrenches.size() + " external wrenches" + (baseMotion == null ? "" : ", base motion " + baseMotion
            + ", IMU noise " + accelerometerNoise + " m/s^2 / " + gyroNoise + " rad/s");
    }

    private void requireLength(final double[] values, final String what)
    {
        if (values.length != dof)
        {
            throw new IllegalArgumentException(what + ": expected " + dof + " values, one per joint, got " + values.length);
        }
    }

    private static long requirePositive(final long value, final String what)
    {
        if (value <= 0)
        {
            throw new IllegalArgumentException(what + " must be positive, got " + value);
        }
        return value;
    }
}
