package org.nectl.bench;

import java.util.concurrent.TimeUnit;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
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
 * Cost of the mass matrix: the composite-rigid-body algorithm nectl uses ({@code massMatrix}) and,
 * for the comparison that chose it, M built column by column from n inverse-dynamics calls with
 * unit accelerations, gravity and velocity zero (Khalil 2010 §3.3.1; {@code rneaColumns}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class MassMatrixBenchmark
{
    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/panda.yaml")
    public String model;

    private MassMatrix massMatrix;
    private InverseDynamics inverseDynamics;
    private RandomStates states;
    private double[] m;
    private double[] zero;
    private double[] unit;
    private double[] column;
    private int n;

    /** Loads the model and builds the algorithms once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final CompiledModel compiled = CompiledModel.of(robot);
        n = robot.dof();
        massMatrix = new MassMatrix(compiled);
        inverseDynamics = new InverseDynamics(CompiledModel.of(robot, 0, 0, 0));
        inverseDynamics.jointFriction(false);
        states = new RandomStates(n, 42);
        m = new double[n * n];
        zero = new double[n];
        unit = new double[n];
        column = new double[n];
    }

    /** @return M, so the work cannot be eliminated. */
    @Benchmark
    public double[] massMatrix()
    {
        massMatrix.compute(states.q(states.advance()), m);
        return m;
    }

    /** @return M built from inverse-dynamics columns. */
    @Benchmark
    public double[] rneaColumns()
    {
        final double[] q = states.q(states.advance());
        for (int k = 0; k < n; k++)
        {
            unit[k] = 1.0;
            inverseDynamics.compute(q, zero, unit, column);
            unit[k] = 0.0;
            for (int i = 0; i < n; i++)
            {
                m[i * n + k] = column[i];
            }
        }
        return m;
    }
}
