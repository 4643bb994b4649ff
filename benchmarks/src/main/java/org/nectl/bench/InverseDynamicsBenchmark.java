package org.nectl.bench;

import java.util.concurrent.TimeUnit;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.screw.ScrewTheoryInverseDynamics;
import org.nectl.core.dynamics.TorqueDerivative;
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
 * Cost of one inverse-dynamics evaluation (RNEA, and its screw-theory cross-check formulation) and of
 * tau with tau-dot together, on any robot
 * description: {@code java -jar benchmarks/target/benchmarks.jar InverseDynamicsBenchmark
 * -p model=config/robots/panda.yaml -prof gc}. Inputs cycle through 1024 seeded random states.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class InverseDynamicsBenchmark
{
    /** Path of the robot description, relative to the working directory. */
    @Param("config/robots/stanford.yaml")
    public String model;

    private InverseDynamics inverseDynamics;
    private ScrewTheoryInverseDynamics screwTheoryInverseDynamics;
    private TorqueDerivative torqueDerivative;
    private RandomStates states;
    private double[] tau;
    private double[] tauDot;

    /** Loads the model and builds the algorithms once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final CompiledModel compiled = CompiledModel.of(robot);
        inverseDynamics = new InverseDynamics(compiled);
        screwTheoryInverseDynamics = new ScrewTheoryInverseDynamics(robot);
        torqueDerivative = new TorqueDerivative(compiled);
        states = new RandomStates(robot.dof(), 42);
        tau = new double[robot.dof()];
        tauDot = new double[robot.dof()];
    }

    /** @return the torques, so the work cannot be eliminated. */
    @Benchmark
    public double[] rnea()
    {
        final int i = states.advance();
        inverseDynamics.compute(states.q(i), states.qd(i), states.qdd(i), tau);
        return tau;
    }

    /** @return the torques from the screw-theory formulation, so the work cannot be eliminated. */
    @Benchmark
    public double[] screwTheoryRnea()
    {
        final int i = states.advance();
        screwTheoryInverseDynamics.compute(states.q(i), states.qd(i), states.qdd(i), tau);
        return tau;
    }

    /** @return the torque derivatives, so the work cannot be eliminated. */
    @Benchmark
    public double[] rneaAndTorqueDerivative()
    {
        final int i = states.advance();
        torqueDerivative.compute(states.q(i), states.qd(i), states.qdd(i), states.qddd(i), tau, tauDot);
        return tauDot;
    }
}
