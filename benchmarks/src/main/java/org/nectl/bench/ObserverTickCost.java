package org.nectl.bench;

import java.util.Arrays;
import java.util.Locale;

import org.nectl.core.control.ExternalTorqueObserver;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.CoriolisMatrix;
import org.nectl.core.dynamics.GravityTorques;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.model.RobotModel;

/**
 * The momentum observer's cost per tick on a host too loaded for JMH's means: batches of calls of
 * RNEA, {@link ExternalTorqueObserver#update} and the dense route (M, C, g and the two products)
 * interleaved, and the fastest batch of each kept, the one no other process interrupted.
 * {@code java -cp benchmarks/target/benchmarks.jar org.nectl.bench.ObserverTickCost [model] [rounds]}.
 */
public final class ObserverTickCost
{
    private static final int BATCHES = 400;
    private static final int CALLS = 2000;

    private static double sink;

    private ObserverTickCost()
    {
    }

    /**
     * @param args robot description (default config/robots/panda.yaml), rounds (default 3).
     */
    public static void main(final String[] args)
    {
        final RobotModel model = BenchmarkModel.load(args.length > 0 ? args[0] : "config/robots/panda.yaml");
        final CompiledModel compiled = CompiledModel.of(model);
        final int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        final int n = model.dof();
        final RandomStates states = new RandomStates(n, 42);
        final double[] gains = new double[n];
        Arrays.fill(gains, 50.0);
        final ExternalTorqueObserver observer = new ExternalTorqueObserver(compiled, gains, 1_000_000L, true);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final MassMatrix massMatrix = new MassMatrix(compiled);
        final CoriolisMatrix coriolisMatrix = new CoriolisMatrix(compiled);
        final GravityTorques gravityTorques = new GravityTorques(compiled);
        final double[] tau = new double[n];
        final double[] m = new double[n * n];
        final double[] c = new double[n * n];
        for (int round = 1; round <= rounds; round++)
        {
            final long[] best = {Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE};
            for (int b = 0; b < BATCHES; b++)
            {
                final long t0 = System.nanoTime();
                for (int k = 0; k < CALLS; k++)
                {
                    final int i = states.advance();
                    rnea.compute(states.q(i), states.qd(i), states.qdd(i), tau);
                    sink += tau[0];
                }
                final long t1 = System.nanoTime();
                for (int k = 0; k < CALLS; k++)
                {
                    final int i = states.advance();
                    observer.update(states.q(i), states.qd(i), states.qdd(i));
                    sink += observer.externalTorque()[0];
                }
                final long t2 = System.nanoTime();
                for (int k = 0; k < CALLS; k++)
                {
                    final int i = states.advance();
                    sink += denseTerms(massMatrix, coriolisMatrix, gravityTorques, states.q(i), states.qd(i), m, c, tau);
                }
                final long t3 = System.nanoTime();
                best[0] = Math.min(best[0], t1 - t0);
                best[1] = Math.min(best[1], t2 - t1);
                best[2] = Math.min(best[2], t3 - t2);
            }
            System.out.printf(Locale.ROOT, "round %d, fastest of %d batches of %d calls: rnea %.1f ns, observer %.1f ns (%.2f x rnea),"
                + " dense M, C, g %.1f ns (%.2f x rnea)%n", round, BATCHES, CALLS, best[0] / (double)CALLS, best[1] / (double)CALLS,
                best[1] / (double)best[0], best[2] / (double)CALLS, best[2] / (double)best[0]);
        }
        if (sink == Double.MIN_VALUE)
        {
            System.out.println();
        }
    }

    private static double denseTerms(final MassMatrix massMatrix, final CoriolisMatrix coriolisMatrix,
        final GravityTorques gravityTorques, final double[] q, final double[] qd, final double[] m, final double[] c,
        final double[] g)
    {
        final int n = q.length;
        massMatrix.compute(q, m);
        coriolisMatrix.compute(q, qd, c);
        gravityTorques.compute(q, g);
        double sum = 0.0;
        for (int r = 0; r < n; r++)
        {
            for (int k = 0; k < n; k++)
            {
                sum += m[r * n + k] * qd[k] + c[k * n + r] * qd[k];
            }
            sum -= g[r];
        }
        return sum;
    }
}
