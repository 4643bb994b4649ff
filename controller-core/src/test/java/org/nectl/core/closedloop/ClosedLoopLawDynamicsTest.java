package org.nectl.core.closedloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.testing.AllocationMeter;

/**
 * The dynamics the control laws use in a closed-loop robot's active coordinates, on seeded random
 * closed-loop robots: Gamma_c as {@link ClosedLoopDynamics} gives it, gravity as Gamma_c at rest,
 * and the torque rate consistent with Gamma_c along a motion (its integral over the motion is
 * Gamma_c's change); positions that do not close the loops are answered false; no allocation.
 */
class ClosedLoopLawDynamicsTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    @Test
    void torqueGravityAndRateAgreeWithTheProjectedDynamicsAlongACubicMotion()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 0);
            final int n = model.activeCount();
            final CompiledModel tree = CompiledModel.of(model.tree(), GRAVITY[0], GRAVITY[1], GRAVITY[2]);
            final ClosedLoopLawDynamics law = new ClosedLoopLawDynamics(model, tree);
            final ClosedLoopDynamics reference = new ClosedLoopDynamics(model, tree);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] q0 = model.homeActive();
            final double[] v = new double[n];
            final double[] a = new double[n];
            final double[] j = new double[n];
            for (int k = 0; k < n; k++)
            {
                v[k] = rnd.nextDouble(-0.5, 0.5);
                a[k] = rnd.nextDouble(-1, 1);
                j[k] = rnd.nextDouble(-2, 2);
            }
            // Simpson's rule over 0.1 s, 100 intervals: the integral of the rate against Gamma_c's change.
            final int intervals = 100;
            final double durationS = 0.1;
            final double[] q = new double[n];
            final double[] qd = new double[n];
            final double[] qdd = new double[n];
            final double[] tau = new double[n];
            final double[] rate = new double[n];
            final double[] start = new double[n];
            final double[] integral = new double[n];
            double scale = 1e-9;
            for (int i = 0; i <= intervals; i++)
            {
                final double t = durationS * i / intervals;
                for (int k = 0; k < n; k++)
                {
                    q[k] = q0[k] + t * (v[k] + t / 2 * (a[k] + t / 3 * j[k]));
                    qd[k] = v[k] + t * (a[k] + t / 2 * j[k]);
                    qdd[k] = a[k] + t * j[k];
                }
                assertTrue(law.torqueAndRate(q, qd, qdd, j, tau, rate), "seed " + seed + " t " + t);
                final double weight = (i == 0 || i == intervals ? 1 : i % 2 == 1 ? 4 : 2) * durationS / intervals / 3;
                for (int k = 0; k < n; k++)
                {
                    integral[k] += weight * rate[k];
                    scale = Math.max(scale, Math.abs(tau[k]));
                }
                if (i == 0)
                {
                    System.arraycopy(tau, 0, start, 0, n);
                    final double[] expected = new double[n];
                    assertTrue(reference.inverseDynamics(law.treePositions(), qd, qdd, expected));
                    for (int k = 0; k < n; k++)
                    {
                        assertEquals(expected[k], tau[k], 1e-12 * (1 + Math.abs(expected[k])), "seed " + seed + " Gamma_c");
                    }
                    final double[] gravity = new double[n];
                    assertTrue(law.gravityTorques(q, gravity));
                    assertTrue(reference.inverseDynamics(law.treePositions(), new double[n], new double[n], expected));
                    for (int k = 0; k < n; k++)
                    {
                        assertEquals(expected[k], gravity[k], 1e-12 * (1 + Math.abs(expected[k])), "seed " + seed + " gravity");
                    }
                }
            }
            double worst = 0.0;
            for (int k = 0; k < n; k++)
            {
                worst = Math.max(worst, Math.abs(integral[k] - (tau[k] - start[k])));
            }
            System.out.println("seed " + seed + ": |integral of the rate - change of Gamma_c| " + worst + " of |Gamma_c| up to " + scale);
            assertTrue(worst <= 1e-7 * scale, "seed " + seed + ": " + worst);
        }
    }

    @Test
    void positionsThatDoNotCloseTheLoopsAreAnsweredFalseAndAnEvaluationAllocatesNothing()
    {
        final ClosedLoopModel model = RandomClosedLoops.robot(3, false);
        final ClosedLoopLawDynamics law = new ClosedLoopLawDynamics(model, CompiledModel.of(model.tree(), GRAVITY[0], GRAVITY[1], GRAVITY[2]));
        final int n = model.activeCount();
        final double[] q = model.homeActive();
        final double[] zero = new double[n];
        final double[] tau = new double[n];
        final double[] rate = new double[n];
        final double[] nan = q.clone();
        nan[0] = Double.NaN;
        assertFalse(law.inverseDynamics(nan, zero, zero, tau));
        assertTrue(law.inverseDynamics(q, zero, zero, tau), "recovers at a closing pose");
        final long bytes = AllocationMeter.bytesAllocated(() -> law.torqueAndRate(q, zero, zero, zero, tau, rate), 2_000, 500);
        assertEquals(0, bytes, "bytes allocated per 500 evaluations");
    }
}
