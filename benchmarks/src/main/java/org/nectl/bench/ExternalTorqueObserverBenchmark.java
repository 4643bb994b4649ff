package org.nectl.bench;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.nectl.core.control.ExternalTorqueObserver;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.CoriolisMatrix;
import org.nectl.core.dynamics.GravityTorques;
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
 * Cost the momentum observer adds to a control tick: one {@link ExternalTorqueObserver#update}
 * ({@code observer}), against the dense route it avoids, M qd from {@link MassMatrix} and C^T qd from
 * {@link CoriolisMatrix} plus g ({@code denseTerms}), and one inverse dynamics call for scale ({@code rnea}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class ExternalTorqueObserverBenchmark
{
    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/panda.yaml")
    public String model;

    private ExternalTorqueObserver observer;
    private MassMatrix massMatrix;
    private CoriolisMatrix coriolisMatrix;
    private GravityTorques gravityTorques;
    private InverseDynamics inverseDynamics;
    private RandomStates states;
    private double[] tau;
    private double[] m;
    private double[] c;
    private double[] terms;
    private int n;

    /** Loads the model and builds the algorithms once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final CompiledModel compiled = CompiledModel.of(robot);
        n = robot.dof();
        final double[] gains = new double[n];
        Arrays.fill(gains, 50.0);
        observer = new ExternalTorqueObserver(compiled, gains, 1_000_000L, true);
        massMatrix = new MassMatrix(compiled);
        coriolisMatrix = new CoriolisMatrix(compiled);
        gravityTorques = new GravityTorques(compiled);
        inverseDynamics = new InverseDynamics(compiled);
        states = new RandomStates(n, 42);
        tau = new double[n];
        m = new double[n * n];
        c = new double[n * n];
        terms = new double[2 * n];
    }

    /** @return the estimate, so the work cannot be eliminated. */
    @Benchmark
    public double[] observer()
    {
        final int i = states.advance();
        observer.update(states.q(i), states.qd(i), states.qdd(i));
        return observer.externalTorque();
    }

    /** @return M qd, then C^T qd, so the work cannot be eliminated. */
    @Benchmark
    public double[] denseTerms()
    {
        final int i = states.advance();
        final double[] q = states.q(i);
        final double[] qd = states.qd(i);
        massMatrix.compute(q, m);
        coriolisMatrix.compute(q, qd, c);
        gravityTorques.compute(q, tau);
        for (int r = 0; r < n; r++)
        {
            double p = 0.0;
            double ct = 0.0;
            for (int k = 0; k < n; k++)
            {
                p += m[r * n + k] * qd[k];
                ct += c[k * n + r] * qd[k];
            }
            terms[r] = p;
            terms[n + r] = ct - tau[r];
        }
        return terms;
    }

    /** @return the torques, for scale. */
    @Benchmark
    public double[] rnea()
    {
        final int i = states.advance();
        inverseDynamics.compute(states.q(i), states.qd(i), states.qdd(i), tau);
        return tau;
    }
}
