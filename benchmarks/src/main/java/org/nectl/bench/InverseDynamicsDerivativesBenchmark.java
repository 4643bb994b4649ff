package org.nectl.bench;

import java.util.concurrent.TimeUnit;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamicsDerivatives;
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
 * Cost of tau with its analytic partial derivatives by q, qd and qdd on any robot description:
 * {@code java -jar benchmarks/target/benchmarks.jar InverseDynamicsDerivativesBenchmark -p model=...}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class InverseDynamicsDerivativesBenchmark
{
    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/panda.yaml")
    public String model;

    private InverseDynamicsDerivatives derivatives;
    private RandomStates states;
    private double[] tau;
    private double[] dtauDq;
    private double[] dtauDqd;
    private double[] massMatrix;

    /** Loads the model and builds the algorithm once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final int n = robot.dof();
        derivatives = new InverseDynamicsDerivatives(CompiledModel.of(robot));
        states = new RandomStates(n, 42);
        tau = new double[n];
        dtauDq = new double[n * n];
        dtauDqd = new double[n * n];
        massMatrix = new double[n * n];
    }

    /** @return d tau / d q, so the work cannot be eliminated. */
    @Benchmark
    public double[] derivatives()
    {
        final int i = states.advance();
        derivatives.compute(states.q(i), states.qd(i), states.qdd(i), tau, dtauDq, dtauDqd, massMatrix);
        return dtauDq;
    }
}
