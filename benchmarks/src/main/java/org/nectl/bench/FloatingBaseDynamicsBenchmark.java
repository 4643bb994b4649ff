package org.nectl.bench;

import java.util.concurrent.TimeUnit;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.mobile.FreeBaseForwardDynamics;
import org.nectl.core.mobile.FreeBaseInverseDynamics;
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
 * Cost of free-floating dynamics (Khalil 2010 §7): inverse dynamics by the composite inertia and two
 * Newton-Euler passes, direct dynamics by the articulated-body recursion with a free root, and,
 * for scale, one fixed-base RNEA of the same tree. The base pose turns about a tilted axis and the
 * base twist is the first six joint velocities of the state; torques are the states' accelerations
 * reused (any finite values do).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class FloatingBaseDynamicsBenchmark
{
    /** Path of a floating-base robot description, relative to the working directory. */
    @Param({"config/robots/quadruped-12.urdf", "config/robots/humanoid-31.urdf"})
    public String model;

    private FreeBaseInverseDynamics inverse;
    private FreeBaseForwardDynamics direct;
    private InverseDynamics fixedBase;
    private RandomStates states;
    private final double[] pose = {0.1, -0.2, 0.5, 0.9238795325112867, 0.22094238269039454, 0.22094238269039454, 0.22094238269039454};
    private double[] joints;
    private final double[] base = new double[6];
    private final double[] gravity = {0.0, 0.0, -9.81};

    /** Loads the model and builds the algorithms once per trial. */
    @Setup
    public void setUp()
    {
        final RobotModel robot = BenchmarkModel.load(model);
        final CompiledModel compiled = CompiledModel.of(robot);
        inverse = new FreeBaseInverseDynamics(compiled);
        direct = new FreeBaseForwardDynamics(compiled);
        fixedBase = new InverseDynamics(compiled);
        states = new RandomStates(robot.dof(), 42);
        joints = new double[robot.dof()];
    }

    /** @return tau, so the work cannot be eliminated. */
    @Benchmark
    public double[] inverseDynamics()
    {
        final int i = states.advance();
        inverse.compute(pose, states.qd(i), states.q(i), states.qd(i), states.qdd(i), gravity, base, joints);
        return joints;
    }

    /** @return qdd, so the work cannot be eliminated. */
    @Benchmark
    public double[] directDynamics()
    {
        final int i = states.advance();
        direct.compute(pose, states.qd(i), states.q(i), states.qd(i), states.qdd(i), gravity, base, joints);
        return joints;
    }

    /** @return tau of the tree on a fixed base, for scale. */
    @Benchmark
    public double[] fixedBaseRnea()
    {
        final int i = states.advance();
        fixedBase.compute(states.q(i), states.qd(i), states.qdd(i), joints);
        return joints;
    }
}
