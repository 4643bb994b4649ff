package org.nectl.bench;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.IntToLongFunction;

import org.nectl.config.RobotDescriptions;
import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CholeskyForwardDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.InverseDynamicsDerivatives;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;

/**
 * The ratio of the inverse-dynamics derivatives to RNEA for several builds of nectl side by side in
 * one JVM: each build's jar gets its own class loader, and round after round each build runs a
 * batch of RNEA calls then a batch of derivative calls, so every build sees the same host state and
 * the per-round ratios of different builds can be compared (a host whose speed drifts biases
 * ratios taken from separate JVMs). Reports per build the median ns per call and the median and
 * quartiles of the per-round ratio. The states are those of the JMH benchmarks
 * ({@link RandomStates}). Code layout alone moves a build's ratio by a few percent between class
 * loaders, so compare builds over repeated runs. {@code scripts/interleaved-ratio.sh} builds the
 * jars of given revisions and runs this. Not part of the tests; not real-time code.
 *
 * <p>{@code java [-Dnectl.workload=W] -cp benchmarks.jar org.nectl.bench.InterleavedRatio MODEL ROUNDS BATCH JAR...}
 *
 * <p>W is the workload set against RNEA: {@code derivatives} (default), {@code mass-matrix}
 * ({@link MassMatrix}), {@code cholesky} ({@link CholeskyForwardDynamics}), {@code torque-derivative}
 * (tau and tau-dot, {@link TorqueDerivative}), {@code recursive-fd} ({@link RecursiveForwardDynamics})
 * or {@code control-tick} (the computed-torque tick of {@code ControlTickBenchmark}). All but the
 * first run in {@link MassMatrixDriver} or {@link StepDriver}, classes that older builds may lack:
 * their class loader then takes them from the runner's jar and links them against the build's own
 * dynamics classes.
 */
public final class InterleavedRatio
{
    private static final int WARM_UP_ROUNDS = 40;
    private static final List<String> WORKLOADS =
        List.of("derivatives", "mass-matrix", "cholesky", "torque-derivative", "recursive-fd", "control-tick");

    private InterleavedRatio()
    {
    }

    /**
     * @param args robot description, rounds, calls per batch, then one benchmarks jar per build.
     * @throws Exception if a jar cannot be loaded.
     */
    public static void main(final String[] args) throws Exception
    {
        if (args.length < 4)
        {
            System.err.println("usage: InterleavedRatio MODEL ROUNDS BATCH JAR...");
            System.exit(2);
        }
        final String model = args[0];
        final int rounds = Integer.parseInt(args[1]);
        final int batch = Integer.parseInt(args[2]);
        final int builds = args.length - 3;
        final String workload = System.getProperty("nectl.workload", "derivatives");
        if (!WORKLOADS.contains(workload))
        {
            System.err.println("InterleavedRatio: nectl.workload is one of " + WORKLOADS + ", got '" + workload + "'");
            System.exit(2);
        }
        final IntToLongFunction[] drivers = new IntToLongFunction[builds];
        for (int b = 0; b < builds; b++)
        {
            final URLClassLoader loader = new URLClassLoader(
                new URL[] {Path.of(args[3 + b]).toUri().toURL(), InterleavedRatio.class.getProtectionDomain()
                    .getCodeSource().getLocation()}, ClassLoader.getPlatformClassLoader());
            if (workload.equals("derivatives"))
            {
                drivers[b] = (IntToLongFunction) loader.loadClass(Driver.class.getName())
                    .getConstructor(String.class, Integer.class).newInstance(model, batch);
            }
            else if (workload.equals("mass-matrix") || workload.equals("cholesky"))
            {
                drivers[b] = (IntToLongFunction) loader.loadClass(MassMatrixDriver.class.getName())
                    .getConstructor(String.class, Integer.class, Boolean.class)
                    .newInstance(model, batch, workload.equals("cholesky"));
            }
            else
            {
                drivers[b] = (IntToLongFunction) loader.loadClass(StepDriver.class.getName())
                    .getConstructor(String.class, Integer.class, String.class).newInstance(model, batch, workload);
            }
        }
        for (int w = 0; w < WARM_UP_ROUNDS; w++)
        {
            for (final IntToLongFunction d : drivers)
            {
                d.applyAsLong(Driver.RNEA);
                d.applyAsLong(Driver.DERIVATIVES);
            }
        }
        final double[][] rnea = new double[builds][rounds];
        final double[][] derivatives = new double[builds][rounds];
        final double[][] ratio = new double[builds][rounds];
        for (int r = 0; r < rounds; r++)
        {
            for (int b = 0; b < builds; b++)
            {
                final long reference = drivers[b].applyAsLong(Driver.RNEA);
                final long measured = drivers[b].applyAsLong(Driver.DERIVATIVES);
                rnea[b][r] = reference / (double) batch;
                derivatives[b][r] = measured / (double) batch;
                ratio[b][r] = measured / (double) reference;
            }
        }
        for (int b = 0; b < builds; b++)
        {
            Arrays.sort(rnea[b]);
            Arrays.sort(derivatives[b]);
            Arrays.sort(ratio[b]);
            System.out.printf("%s %s: rnea %.0f ns, %s %.0f ns, ratio %.3f [%.3f, %.3f]%n", args[3 + b], model,
                rnea[b][rounds / 2], workload, derivatives[b][rounds / 2], ratio[b][rounds / 2], ratio[b][rounds / 4],
                ratio[b][3 * rounds / 4]);
        }
    }

    /** One build's workload; loaded once per build, so it links against that build's classes. */
    public static final class Driver implements IntToLongFunction
    {
        static final int RNEA = 0;
        static final int DERIVATIVES = 1;

        private final InverseDynamics inverseDynamics;
        private final InverseDynamicsDerivatives derivatives;
        private final RandomStates states;
        private final double[] tau;
        private final double[] dtauDq;
        private final double[] dtauDqd;
        private final double[] massMatrix;
        private final int batch;
        /** Every result feeds this field, so no call can be optimised away. */
        private double sink;

        /**
         * @param model robot description path.
         * @param batch calls per batch.
         */
        public Driver(final String model, final Integer batch)
        {
            final RobotModel robot = RobotDescriptions.load(Path.of(model));
            final CompiledModel compiled = CompiledModel.of(robot);
            final int n = robot.dof();
            states = new RandomStates(n, 42);
            inverseDynamics = new InverseDynamics(compiled);
            derivatives = new InverseDynamicsDerivatives(compiled);
            tau = new double[n];
            dtauDq = new double[n * n];
            dtauDqd = new double[n * n];
            massMatrix = new double[n * n];
            this.batch = batch;
        }

        /** Runs one batch of RNEA ({@link #RNEA}) or derivative calls; returns its duration, ns. */
        @Override
        public long applyAsLong(final int what)
        {
            final long start = System.nanoTime();
            final RandomStates s = states;
            for (int k = 0; k < batch; k++)
            {
                final int i = s.advance();
                if (what == RNEA)
                {
                    inverseDynamics.compute(s.q(i), s.qd(i), s.qdd(i), tau);
                    sink += tau[0];
                }
                else
                {
                    derivatives.compute(s.q(i), s.qd(i), s.qdd(i), tau, dtauDq, dtauDqd, massMatrix);
                    sink += dtauDq[dtauDq.length - 1];
                }
            }
            return System.nanoTime() - start;
        }
    }

    /** One build's mass-matrix or Cholesky forward-dynamics workload against its RNEA (see the class comment). */
    public static final class MassMatrixDriver implements IntToLongFunction
    {
        private final InverseDynamics inverseDynamics;
        private final MassMatrix massMatrix;
        private final CholeskyForwardDynamics forwardDynamics;
        private final boolean cholesky;
        private final RandomStates states;
        private final double[] tau;
        private final double[] matrix;
        private final double[] qdd;
        private final int batch;
        /** Every result feeds this field, so no call can be optimised away. */
        private double sink;

        /**
         * @param model robot description path.
         * @param batch calls per batch.
         * @param cholesky true to time {@link CholeskyForwardDynamics}, false for {@link MassMatrix}.
         */
        public MassMatrixDriver(final String model, final Integer batch, final Boolean cholesky)
        {
            final RobotModel robot = RobotDescriptions.load(Path.of(model));
            final CompiledModel compiled = CompiledModel.of(robot);
            final int n = robot.dof();
            states = new RandomStates(n, 42);
            inverseDynamics = new InverseDynamics(compiled);
            massMatrix = new MassMatrix(compiled);
            forwardDynamics = new CholeskyForwardDynamics(compiled);
            this.cholesky = cholesky;
            tau = new double[n];
            matrix = new double[n * n];
            qdd = new double[n];
            this.batch = batch;
        }

        /** Runs one batch of RNEA ({@link Driver#RNEA}) or workload calls; returns its duration, ns. */
        @Override
        public long applyAsLong(final int what)
        {
            final long start = System.nanoTime();
            final RandomStates s = states;
            for (int k = 0; k < batch; k++)
            {
                final int i = s.advance();
                if (what == Driver.RNEA)
                {
                    inverseDynamics.compute(s.q(i), s.qd(i), s.qdd(i), tau);
                    sink += tau[0];
                }
                else if (cholesky)
                {
                    forwardDynamics.compute(s.q(i), s.qd(i), s.qdd(i), qdd);
                    sink += qdd[0];
                }
                else
                {
                    massMatrix.compute(s.q(i), matrix);
                    sink += matrix[matrix.length - 1];
                }
            }
            return System.nanoTime() - start;
        }
    }

    /** One build's torque-derivative, recursive forward-dynamics or control-tick workload against its RNEA. */
    public static final class StepDriver implements IntToLongFunction
    {
        private static final double PERIOD_S = 1e-3;
        private static final double DURATION_S = 10.0;

        private final InverseDynamics inverseDynamics;
        private final TorqueDerivative torqueDerivative;
        private final RecursiveForwardDynamics forwardDynamics;
        private final ComputedTorqueController computedTorque;
        private final TorqueLimiter limiter;
        private final TrajectorySampler sampler;
        private final String workload;
        private final RandomStates states;
        private final double[] tau;
        private final double[] tauDot;
        private final double[] qdd;
        private final double[][] reference;
        private final double[] command;
        private final int batch;
        private double timeS;
        /** Every result feeds this field, so no call can be optimised away. */
        private double sink;

        /**
         * @param model robot description path.
         * @param batch calls per batch.
         * @param workload torque-derivative, recursive-fd or control-tick.
         */
        public StepDriver(final String model, final Integer batch, final String workload)
        {
            final RobotModel robot = RobotDescriptions.load(Path.of(model));
            final CompiledModel compiled = CompiledModel.of(robot);
            final int n = robot.dof();
            states = new RandomStates(n, 42);
            inverseDynamics = new InverseDynamics(compiled);
            torqueDerivative = new TorqueDerivative(compiled);
            forwardDynamics = new RecursiveForwardDynamics(compiled);
            final double[] kp = new double[n];
            final double[] kd = new double[n];
            Arrays.fill(kp, 400.0);
            Arrays.fill(kd, 40.0);
            computedTorque = new ComputedTorqueController(compiled, kp, kd);
            limiter = new TorqueLimiter(robot, 1_000_000L);
            // from the middle of each joint's range (0 where unbounded) to a quarter range away and back
            final double[] times = {0.0, DURATION_S / 2, DURATION_S};
            final double[][] positions = new double[3][n];
            for (int j = 0; j < n; j++)
            {
                final JointLimits limits = robot.limits(j);
                final double middle = Double.isFinite(limits.positionMin() + limits.positionMax())
                    ? 0.5 * (limits.positionMin() + limits.positionMax()) : 0.0;
                positions[0][j] = middle;
                positions[1][j] = middle + Math.min(0.3, 0.25 * (limits.positionMax() - limits.positionMin()));
                positions[2][j] = middle;
            }
            sampler = new TrajectorySampler(robot, new JointWaypoints(times, positions));
            this.workload = workload;
            tau = new double[n];
            tauDot = new double[n];
            qdd = new double[n];
            reference = new double[5][n];
            command = new double[n];
            this.batch = batch;
        }

        /** Runs one batch of RNEA ({@link Driver#RNEA}) or workload calls; returns its duration, ns. */
        @Override
        public long applyAsLong(final int what)
        {
            final long start = System.nanoTime();
            final RandomStates s = states;
            for (int k = 0; k < batch; k++)
            {
                final int i = s.advance();
                if (what == Driver.RNEA)
                {
                    inverseDynamics.compute(s.q(i), s.qd(i), s.qdd(i), tau);
                    sink += tau[0];
                }
                else if (workload.equals("torque-derivative"))
                {
                    torqueDerivative.compute(s.q(i), s.qd(i), s.qdd(i), s.qdd(i), tau, tauDot);
                    sink += tauDot[0];
                }
                else if (workload.equals("recursive-fd"))
                {
                    forwardDynamics.compute(s.q(i), s.qd(i), s.qdd(i), qdd);
                    sink += qdd[0];
                }
                else
                {
                    timeS = timeS >= DURATION_S ? 0.0 : timeS + PERIOD_S;
                    final double[][] r = reference;
                    sampler.sample(timeS, r[0], r[1], r[2], r[3], r[4]);
                    computedTorque.compute(s.q(i), s.qd(i), r[0], r[1], r[2], r[3], tau, tauDot, qdd);
                    limiter.limit(tau, command);
                    sink += command[0];
                }
            }
            return System.nanoTime() - start;
        }
    }
}
