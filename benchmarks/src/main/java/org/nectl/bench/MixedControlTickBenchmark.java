package org.nectl.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nectl.config.ElasticDescriptions;
import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.UnifiedBodies;
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
 * Cost of one tick of the mixed rigid/elastic inverse-dynamics controller: the motor reference
 * (tau, tau-dot, tau-ddot along the reference), A(q), three bias-force evaluations, the closed-loop
 * solve, and the torque and torque-rate limits. {@code java -jar benchmarks/target/benchmarks.jar
 * MixedControlTickBenchmark -prof gc}. The reference is q_d = 0.5 sin(0.5 pi t) on every joint, its
 * clock advancing 1 ms per call; measured states cycle through 1024 seeded random ones.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class MixedControlTickBenchmark
{
    private static final int STATES = 1024;
    private static final double OMEGA = 0.5 * Math.PI;

    /** Path of the robot description with drives, relative to the working directory. */
    @Param("config/robots/mixed-elastic-3dof.yaml")
    public String model;

    private MixedInverseDynamicsController controller;
    private double[][] q;
    private double[][] theta;
    private double[][] qd;
    private double[][] thetad;
    private double[][] reference;
    private double[] command;
    private double timeS;
    private int next;

    /** Loads the model and builds the controller and the states once per trial. */
    @Setup
    public void setUp()
    {
        final ElasticRobotModel robot = ElasticDescriptions.load(Path.of(model));
        final int n = robot.dof();
        final int ne = robot.elasticCount();
        controller = new MixedInverseDynamicsController(UnifiedBodies.of(robot), filled(n, 2000.0), filled(n, 100.0),
            filled(ne, 20.0), filled(ne, 2.0), new TorqueLimiter(robot.links(), 1_000_000L));
        final SplittableRandom rnd = new SplittableRandom(42);
        q = random(rnd, n, 1.0);
        theta = random(rnd, ne, 1.0);
        qd = random(rnd, n, 1.0);
        thetad = random(rnd, ne, 1.0);
        reference = new double[5][n];
        command = new double[n];
    }

    private static double[] filled(final int n, final double value)
    {
        final double[] a = new double[n];
        Arrays.fill(a, value);
        return a;
    }

    private static double[][] random(final SplittableRandom rnd, final int n, final double scale)
    {
        final double[][] values = new double[STATES][n];
        for (final double[] v : values)
        {
            for (int k = 0; k < n; k++)
            {
                v[k] = rnd.nextDouble(-scale, scale);
            }
        }
        return values;
    }

    /** @return the first command, so the tick is not dead code. */
    @Benchmark
    public double mixedInverseDynamicsTick()
    {
        timeS += 1e-3;
        final double s = 0.5 * Math.sin(OMEGA * timeS);
        final double c = 0.5 * Math.cos(OMEGA * timeS);
        for (int k = 0; k < command.length; k++)
        {
            reference[0][k] = s;
            reference[1][k] = OMEGA * c;
            reference[2][k] = -OMEGA * OMEGA * s;
            reference[3][k] = -OMEGA * OMEGA * OMEGA * c;
            reference[4][k] = OMEGA * OMEGA * OMEGA * OMEGA * s;
        }
        final int i = next;
        next = (next + 1) & (STATES - 1);
        controller.compute(q[i], theta[i], qd[i], thetad[i], reference, command);
        return command[0];
    }
}
