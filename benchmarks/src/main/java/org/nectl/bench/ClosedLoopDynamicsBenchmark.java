package org.nectl.bench;

import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nectl.config.ClosedLoopDescriptions;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartDynamics;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cost of the closed-loop and parallel-robot dynamics: the palletiser's closed-loop inverse dynamics
 * (G from the loop Jacobian, the tree's Newton-Euler step, G^T), its direct dynamics (plus the tree's
 * mass matrix and G^T A G), the passive-joint Newton solve after a small move, and the hexapod's
 * inverse dynamic model (eqs. 59-66) and direct dynamics (seven inverse models), and its inverse
 * kinematics (leg lengths, rates, accelerations) and forward kinematics (Newton from home):
 * {@code java -jar benchmarks/target/benchmarks.jar ClosedLoopDynamicsBenchmark -prof gc}, run from
 * the repository root. Inputs cycle through 64 seeded states near home.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-XX:+UseParallelGC"})
public class ClosedLoopDynamicsBenchmark
{
    private static final int STATES = 64;

    private ClosedLoopModel palletiser;
    private ClosedLoopDynamics closedLoop;
    private LoopGeometry geometry;
    private GoughStewartDynamics hexapod;
    private GoughStewartKinematics hexapodKinematics;
    private double[] homePosition;
    private double[] homeRotation;
    private double[][] legLengths;
    private double[] lengths;
    private double[] lengthRates;
    private double[] lengthAccelerations;
    private double[] solvedPosition;
    private double[] solvedRotation;
    private double[][] q;
    private double[][] qd;
    private double[][] qdd;
    private double[][] position;
    private double[][] rotation;
    private double[][] twist;
    private double[][] twistRate;
    private double[] gamma;
    private double[] forces;
    private double[] accelerations;
    private double[] solveScratch;
    private int next;

    /** Loads both robots and draws the states once per trial. */
    @Setup
    public void setUp()
    {
        palletiser = ClosedLoopDescriptions.load(Path.of("config/robots/palletiser.yaml"));
        closedLoop = new ClosedLoopDynamics(palletiser, CompiledModel.of(palletiser.tree()));
        geometry = new LoopGeometry(palletiser);
        final GoughStewartModel platform = GoughStewartDescriptions.load(Path.of("config/parallel-robots/hexapod.yaml"));
        hexapod = new GoughStewartDynamics(platform, CompiledModel.of(platform.legs()));
        hexapodKinematics = new GoughStewartKinematics(platform);
        homePosition = platform.homePosition();
        homeRotation = platform.homeRotation();
        final SplittableRandom rnd = new SplittableRandom(42);
        final int na = palletiser.activeCount();
        q = new double[STATES][];
        qd = new double[STATES][na];
        qdd = new double[STATES][na];
        position = new double[STATES][];
        rotation = new double[STATES][];
        twist = new double[STATES][6];
        twistRate = new double[STATES][6];
        for (int s = 0; s < STATES; s++)
        {
            q[s] = palletiser.home();
            for (int a = 0; a < na; a++)
            {
                q[s][palletiser.activeCoordinate(a)] += rnd.nextDouble(-0.1, 0.1);
                qd[s][a] = rnd.nextDouble(-1, 1);
                qdd[s][a] = rnd.nextDouble(-3, 3);
            }
            if (geometry.solvePassive(q[s]) != LoopGeometry.CONVERGED)
            {
                throw new IllegalStateException("palletiser state " + s + " does not close");
            }
            position[s] = platform.homePosition();
            for (int e = 0; e < 3; e++)
            {
                position[s][e] += rnd.nextDouble(-0.05, 0.05);
                twist[s][e] = rnd.nextDouble(-0.2, 0.2);
                twist[s][3 + e] = rnd.nextDouble(-0.5, 0.5);
                twistRate[s][e] = rnd.nextDouble(-2, 2);
                twistRate[s][3 + e] = rnd.nextDouble(-4, 4);
            }
            rotation[s] = Transforms.rpy(rnd.nextDouble(-0.1, 0.1), rnd.nextDouble(-0.1, 0.1), rnd.nextDouble(-0.1, 0.1));
        }
        legLengths = new double[STATES][6];
        for (int s = 0; s < STATES; s++)
        {
            hexapodKinematics.inverse(position[s], rotation[s], legLengths[s]);
        }
        lengths = new double[6];
        lengthRates = new double[6];
        lengthAccelerations = new double[6];
        solvedPosition = new double[3];
        solvedRotation = new double[9];
        gamma = new double[na];
        forces = new double[6];
        accelerations = new double[6];
        solveScratch = palletiser.home();
    }

    private int advance()
    {
        next = (next + 1) & (STATES - 1);
        return next;
    }

    /** @return the active torques of the palletiser, so the work cannot be eliminated. */
    @Benchmark
    public double[] palletiserInverseDynamics()
    {
        final int s = advance();
        closedLoop.inverseDynamics(q[s], qd[s], qdd[s], gamma);
        return gamma;
    }

    /** @return the active accelerations of the palletiser under the torques of the last call. */
    @Benchmark
    public double[] palletiserForwardDynamics()
    {
        final int s = advance();
        closedLoop.forwardDynamics(q[s], qd[s], qdd[s], gamma);
        return gamma;
    }

    /** @return the passive joints solved from the previous state's, Newton from a neighbouring state. */
    @Benchmark
    public double[] palletiserPassiveJoints()
    {
        final int s = advance();
        for (int a = 0; a < palletiser.activeCount(); a++)
        {
            solveScratch[palletiser.activeCoordinate(a)] = q[s][palletiser.activeCoordinate(a)];
        }
        geometry.solvePassive(solveScratch);
        return solveScratch;
    }

    /** @return the hexapod's actuator forces. */
    @Benchmark
    public double[] hexapodInverseDynamics()
    {
        final int s = advance();
        hexapod.inverseDynamics(position[s], rotation[s], twist[s], twistRate[s], forces);
        return forces;
    }

    /** @return the hexapod's leg length accelerations for a platform motion (rates and lengths alongside). */
    @Benchmark
    public double[] hexapodInverseKinematics()
    {
        final int s = advance();
        hexapodKinematics.inverse(position[s], rotation[s], twist[s], twistRate[s], lengths, lengthRates, lengthAccelerations);
        return lengthAccelerations;
    }

    /** @return the platform rotation with a state's leg lengths, by Newton from home. */
    @Benchmark
    public double[] hexapodForwardKinematics()
    {
        final int s = advance();
        System.arraycopy(homePosition, 0, solvedPosition, 0, 3);
        System.arraycopy(homeRotation, 0, solvedRotation, 0, 9);
        hexapodKinematics.forward(legLengths[s], solvedPosition, solvedRotation);
        return solvedRotation;
    }

    /** @return the hexapod's platform acceleration under the forces of the last inverse call. */
    @Benchmark
    public double[] hexapodForwardDynamics()
    {
        final int s = advance();
        hexapod.forwardDynamics(position[s], rotation[s], twist[s], forces, accelerations);
        return accelerations;
    }
}
