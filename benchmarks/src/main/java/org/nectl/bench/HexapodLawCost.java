package org.nectl.bench;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.LawDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.parallel.GoughStewartClosedChain;
import org.nectl.core.parallel.GoughStewartDynamics;
import org.nectl.core.parallel.GoughStewartLawDynamics;
import org.nectl.core.parallel.GoughStewartModel;

/**
 * What the hexapod's control laws cost per evaluation on a host too loaded for JMH's means: batches
 * of calls of the platform's inverse dynamic model alone (eqs. 59-66 at a given platform motion),
 * of {@link GoughStewartLawDynamics} (forward kinematics, twist and its rate, eqs. 59-66) and of
 * {@link ClosedLoopLawDynamics} on the same hexapod as a closed chain (Newton on the passive joints,
 * projection), each for the forces alone and for the forces and their rate; interleaved, and the
 * fastest batch of each kept, the one no other process interrupted. The leg states follow a motion
 * sampled every 1 ms, as the control loop sees it: each evaluation starts Newton from the previous
 * solution. {@code java -cp benchmarks/target/benchmarks.jar org.nectl.bench.HexapodLawCost [rounds]},
 * from the repository root.
 */
public final class HexapodLawCost
{
    private static final int BATCHES = 200;
    private static final int CALLS = 1000;
    /** One period of the motion, sampled every 1 ms. */
    private static final int STATES = 1000;
    private static final double AMPLITUDE_M = 0.03;

    private static double sink;

    private HexapodLawCost()
    {
    }

    /**
     * @param args rounds (default 3).
     */
    public static void main(final String[] args)
    {
        final int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(Path.of("config/parallel-robots/hexapod.yaml"));
        final CompiledModel legs = CompiledModel.of(hexapod.legs(), 0.0, 0.0, -9.81);
        final LawDynamics own = new GoughStewartLawDynamics(hexapod, legs);
        final ClosedLoopModel chain = GoughStewartClosedChain.of(hexapod);
        final LawDynamics projected = new ClosedLoopLawDynamics(chain, CompiledModel.of(chain.tree(), 0.0, 0.0, -9.81));
        final GoughStewartDynamics model = new GoughStewartDynamics(hexapod, legs);
        final double[][] q = new double[STATES][6];
        final double[][] qd = new double[STATES][6];
        final double[][] qdd = new double[STATES][6];
        final double[][] qddd = new double[STATES][6];
        final double[] home = hexapod.legLengths(hexapod.homePosition(), hexapod.homeRotation());
        for (int s = 0; s < STATES; s++)
        {
            for (int i = 0; i < 6; i++)
            {
                // Legs swing 3 cm about home, each a sixth of a period behind the last, 1 Hz.
                final double w = 2.0 * Math.PI;
                final double phase = w * s / STATES + i * Math.PI / 3.0;
                q[s][i] = home[i] + AMPLITUDE_M * Math.sin(phase);
                qd[s][i] = AMPLITUDE_M * w * Math.cos(phase);
                qdd[s][i] = -AMPLITUDE_M * w * w * Math.sin(phase);
                qddd[s][i] = -AMPLITUDE_M * w * w * w * Math.cos(phase);
            }
        }
        final double[] position = hexapod.homePosition();
        final double[] rotation = hexapod.homeRotation();
        final double[] twist = {0.01, -0.02, 0.03, 0.1, -0.05, 0.08};
        final double[] twistRate = {0.3, 0.2, -0.4, 1.0, 0.5, -0.7};
        final double[] tau = new double[6];
        final double[] rate = new double[6];
        final String[] names = {"eqs. 59-66 alone", "own: forces", "own: forces and rate", "projection: forces",
            "projection: forces and rate"};
        for (int round = 1; round <= rounds; round++)
        {
            final long[] best = new long[names.length];
            Arrays.fill(best, Long.MAX_VALUE);
            int s = 0;
            for (int b = 0; b < BATCHES; b++)
            {
                long t = System.nanoTime();
                for (int k = 0; k < CALLS; k++)
                {
                    model.inverseDynamics(position, rotation, twist, twistRate, tau);
                    sink += tau[0];
                }
                t = record(best, 0, t);
                for (int k = 0; k < CALLS; k++, s = (s + 1) % STATES)
                {
                    own.inverseDynamics(q[s], qd[s], qdd[s], tau);
                    sink += tau[0];
                }
                t = record(best, 1, t);
                for (int k = 0; k < CALLS; k++, s = (s + 1) % STATES)
                {
                    own.torqueAndRate(q[s], qd[s], qdd[s], qddd[s], tau, rate);
                    sink += rate[0];
                }
                t = record(best, 2, t);
                for (int k = 0; k < CALLS; k++, s = (s + 1) % STATES)
                {
                    projected.inverseDynamics(q[s], qd[s], qdd[s], tau);
                    sink += tau[0];
                }
                t = record(best, 3, t);
                for (int k = 0; k < CALLS; k++, s = (s + 1) % STATES)
                {
                    projected.torqueAndRate(q[s], qd[s], qdd[s], qddd[s], tau, rate);
                    sink += rate[0];
                }
                record(best, 4, t);
            }
            final StringBuilder line = new StringBuilder(String.format(Locale.ROOT,
                "round %d, fastest of %d batches of %d calls:", round, BATCHES, CALLS));
            for (int k = 0; k < names.length; k++)
            {
                line.append(String.format(Locale.ROOT, " %s %.0f ns;", names[k], best[k] / (double)CALLS));
            }
            line.append(String.format(Locale.ROOT, " projection / own: %.1f (forces), %.1f (forces and rate)",
                best[3] / (double)best[1], best[4] / (double)best[2]));
            System.out.println(line);
        }
        if (sink == Double.MIN_VALUE)
        {
            System.out.println();
        }
    }

    private static long record(final long[] best, final int index, final long startNs)
    {
        final long now = System.nanoTime();
        best[index] = Math.min(best[index], now - startNs);
        return now;
    }
}
