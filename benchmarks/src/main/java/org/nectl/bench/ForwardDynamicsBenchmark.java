package org.nectl.bench;

import java.util.concurrent.TimeUnit;

import org.nectl.core.dynamics.CholeskyForwardDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
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
 * Cost of forward dynamics: the recursive O(n) algorithm (Khalil 2010 §3.3.2) and M + h with EJML's
 * Cholesky. Torques are the random states' accelerations reused as torques (any finite values do).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class ForwardDynamicsBenchmark
{
    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/panda.yaml")
    public String model;

    private RecursiveForwardDynamics recursive;
    private CholeskyForwardDynamics cholesky;
    private RandomStates states;
    private double[] qdd;

    /** Loads the model and builds the algorithms once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final CompiledModel compiled = CompiledModel.of(robot);
        recursive = new RecursiveForwardDynamics(compiled);
        cholesky = new CholeskyForwardDynamics(compiled);
        states = new RandomStates(robot.dof(), 42);
        qdd = new double[robot.dof()];
    }

    /** @return qdd, so the work cannot be eliminated. */
    @Benchmark
    public double[] recursive()
    {
        final int i = states.advance();
        recursive.compute(states.q(i), states.qd(i), states.qdd(i), qdd);
        return qdd;
    }

    /** @return qdd, so the work cannot be eliminated. */
    @Benchmark
    public double[] cholesky()
    {
        final int i = states.advance();
        cholesky.compute(states.q(i), states.qd(i), states.qdd(i), qdd);
        return qdd;
    }
}
