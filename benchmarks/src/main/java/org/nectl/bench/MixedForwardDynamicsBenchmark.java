package org.nectl.bench;

import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.JointElasticity;
import org.nectl.core.elastic.MixedForwardDynamics;
import org.nectl.core.elastic.Motor;
import org.nectl.core.elastic.RecursiveMixedForwardDynamics;
import org.nectl.core.elastic.UnifiedBodies;
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
 * Cost of the mixed rigid/elastic forward dynamics: the inertia-matrix route (A(q), zeta, EJML
 * Cholesky) and the recursive one, on a description with drives, or on one without drives geared
 * here: every joint's motor on its link's parent (gear ratio 100, I_mz 1e-4 kg m^2, 0.5 kg), every
 * second joint elastic (K 5000 N m/rad), so each rotor is reduced together with its joint. States
 * cycle through 1024 seeded random ones.
 * {@code java -jar benchmarks/target/benchmarks.jar MixedForwardDynamicsBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class MixedForwardDynamicsBenchmark
{
    private static final int STATES = 1024;

    /** Path of the robot description with drives, relative to the working directory. */
    @Param({"config/robots/mixed-elastic-3dof.yaml", "config/robots/panda.yaml"})
    public String model;

    private MixedForwardDynamics cholesky;
    private RecursiveMixedForwardDynamics recursive;
    private double[][] q;
    private double[][] theta;
    private double[][] qd;
    private double[][] thetad;
    private double[][] jointTorque;
    private double[][] motorTorque;
    private double[] qdd;
    private double[] thetadd;
    private int next;

    /** Loads the model and builds the algorithms and the states once per trial. */
    @Setup
    public void setUp()
    {
        final ElasticRobotModel described = ElasticDescriptions.load(Path.of(model));
        final ElasticRobotModel robot = described.motorCount() > 0 ? described : geared(described.links());
        final int n = robot.dof();
        final int ne = robot.elasticCount();
        final UnifiedBodies bodies = UnifiedBodies.of(robot);
        cholesky = new MixedForwardDynamics(bodies);
        recursive = new RecursiveMixedForwardDynamics(bodies);
        final SplittableRandom rnd = new SplittableRandom(42);
        q = random(rnd, n, 1.0);
        theta = random(rnd, ne, 1.0);
        qd = random(rnd, n, 1.0);
        thetad = random(rnd, ne, 1.0);
        jointTorque = random(rnd, n, 10.0);
        motorTorque = random(rnd, ne, 10.0);
        qdd = new double[n];
        thetadd = new double[ne];
    }

    private static ElasticRobotModel geared(final RobotModel links)
    {
        final ElasticRobotModel.Builder b = ElasticRobotModel.builder(links);
        for (int k = 0; k < links.dof(); k++)
        {
            final String joint = links.coordinateName(k);
            final int mount = links.parent(links.bodyOfCoordinate(k));
            b.motor(joint, new Motor(mount, new double[] {0, 0, 1}, new double[3], 100.0, 1e-4, 0.5, 1e-4, 0.0, 0.0));
            if (k % 2 == 1)
            {
                b.elasticity(joint, new JointElasticity(5000.0, 0.0));
            }
        }
        return b.build();
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

    /** @return qdd, so the work cannot be eliminated. */
    @Benchmark
    public double[] cholesky()
    {
        final int i = next++ & (STATES - 1);
        cholesky.compute(q[i], theta[i], qd[i], thetad[i], jointTorque[i], motorTorque[i], qdd, thetadd);
        return qdd;
    }

    /** @return qdd, so the work cannot be eliminated. */
    @Benchmark
    public double[] recursive()
    {
        final int i = next++ & (STATES - 1);
        recursive.compute(q[i], theta[i], qd[i], thetad[i], jointTorque[i], motorTorque[i], qdd, thetadd);
        return qdd;
    }
}
