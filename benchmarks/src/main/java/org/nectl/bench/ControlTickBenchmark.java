package org.nectl.bench;

import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.PdGravityController;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of one rigid-arm control tick as the loop runs it: {@code computedTorqueTick} samples the
 * reference (q, qd, qdd, qddd), computes tau by computed torque, tau_ff and tau_ff' by the
 * torque-derivative recursion, and applies the torque and torque-rate limits; {@code pdGravityTick}
 * is the holding law. {@code timeScaledComputedTorqueTick} is the computed-torque tick with the
 * reference sampled through {@link ReferenceTimeScaling} (look-ahead and per-tick jerk check), its
 * limits at 10 % of the model's so that the clock runs below s' = 1 most of the time, including
 * the start of a new trajectory (window fill) each time the previous one finishes.
 * {@code java -jar benchmarks/target/benchmarks.jar ControlTickBenchmark
 * -p model=config/robots/stanford.yaml -prof gc}. Measured states cycle through 1024 seeded
 * random ones; the reference clock advances 1 ms per call over a 10 s trajectory.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class ControlTickBenchmark
{
    private static final double PERIOD_S = 1e-3;
    private static final double DURATION_S = 10.0;

    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/stanford.yaml")
    public String model;

    private TrajectorySampler sampler;
    private ComputedTorqueController computedTorque;
    private PdGravityController pdGravity;
    private TorqueLimiter limiter;
    private ReferenceTimeScaling timeScaling;
    private RandomStates states;
    private double[] q;
    private double[] qd;
    private double[] qdd;
    private double[] qddd;
    private double[] qdddd;
    private double[] tau;
    private double[] tauFf;
    private double[] tauFfRate;
    private double[] command;
    private double timeS;

    /** Loads the model and builds the trajectory, controllers and limiter once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final int n = robot.dof();
        sampler = new TrajectorySampler(robot, waypoints(robot));
        final double[] kp = new double[n];
        final double[] kd = new double[n];
        Arrays.fill(kp, 400.0);
        Arrays.fill(kd, 40.0);
        final CompiledModel compiled = CompiledModel.of(robot);
        computedTorque = new ComputedTorqueController(compiled, kp, kd);
        pdGravity = new PdGravityController(compiled, kp, kd);
        limiter = new TorqueLimiter(robot, 1_000_000L);
        final ReferenceTimeScaling.Settings d = ReferenceTimeScaling.Settings.defaults();
        timeScaling = new ReferenceTimeScaling(compiled, new ReferenceTimeScaling.Settings(true, 0.1, d.accelerationMax(),
            d.jerkMax(), d.minimumRate(), d.gridSpacingS(), d.evaluationsPerTick()));
        timeScaling.start(sampler);
        states = new RandomStates(n, 42);
        q = new double[n];
        qd = new double[n];
        qdd = new double[n];
        qddd = new double[n];
        qdddd = new double[n];
        tau = new double[n];
        tauFf = new double[n];
        tauFfRate = new double[n];
        command = new double[n];
    }

    /** Eleven waypoints 1 s apart within +/-0.3 (rad or m) of the middle of each joint's range. */
    private static JointWaypoints waypoints(final RobotModel robot)
    {
        final SplittableRandom rnd = new SplittableRandom(7);
        final int count = 11;
        final double[] times = new double[count];
        final double[][] positions = new double[count][robot.dof()];
        for (int k = 0; k < count; k++)
        {
            times[k] = k * DURATION_S / (count - 1);
            for (int j = 0; j < robot.dof(); j++)
            {
                final JointLimits limits = robot.limits(j);
                final double middle = Double.isFinite(limits.positionMin() + limits.positionMax())
                    ? 0.5 * (limits.positionMin() + limits.positionMax()) : 0.0;
                final double halfRange = Math.min(0.3, 0.25 * (limits.positionMax() - limits.positionMin()));
                positions[k][j] = middle + rnd.nextDouble(-halfRange, halfRange);
            }
        }
        return new JointWaypoints(times, positions);
    }

    /** @return the limited command, so the work cannot be eliminated. */
    @Benchmark
    public double[] computedTorqueTick()
    {
        timeS = timeS >= DURATION_S ? 0.0 : timeS + PERIOD_S;
        sampler.sample(timeS, q, qd, qdd, qddd, qdddd);
        final int i = states.advance();
        computedTorque.compute(states.q(i), states.qd(i), q, qd, qdd, qddd, tau, tauFf, tauFfRate);
        limiter.limit(tau, command);
        return command;
    }

    /** @return the limited command, so the work cannot be eliminated. */
    @Benchmark
    public double[] timeScaledComputedTorqueTick()
    {
        if (timeScaling.advance(PERIOD_S, q, qd, qdd, qddd, qdddd) == TrajectorySampler.FINISHED)
        {
            timeScaling.start(sampler);
        }
        final int i = states.advance();
        computedTorque.compute(states.q(i), states.qd(i), q, qd, qdd, qddd, tau, tauFf, tauFfRate);
        limiter.limit(tau, command);
        return command;
    }

    /**
     * What a trajectory start costs the loop on top of a tick: the time-scaling look-ahead window
     * filled at once (three torque-derivative evaluations per grid point).
     *
     * @return the clock rate, so the work cannot be eliminated.
     */
    @Benchmark
    public double timeScalingStart()
    {
        timeScaling.start(sampler);
        return timeScaling.rate();
    }

    /** @return the torques, so the work cannot be eliminated. */
    @Benchmark
    public double[] pdGravityTick()
    {
        final int measured = states.advance();
        final int desired = states.advance();
        pdGravity.compute(states.q(measured), states.qd(measured), states.q(desired), states.qd(desired), tau);
        return tau;
    }
}
