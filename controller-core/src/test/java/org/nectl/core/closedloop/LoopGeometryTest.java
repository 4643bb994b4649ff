package org.nectl.core.closedloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomRobots;

class LoopGeometryTest
{
    private static final int ROBOTS = 12;

    @Test
    void closureJacobianAndVelocityProductTermsMatchFiniteDifferencesOnRandomLoops()
    {
        for (int seed = 1; seed <= ROBOTS; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 0);
            final LoopGeometry geometry = new LoopGeometry(model);
            final int n = model.treeDof();
            final int m = geometry.candidateRows();
            final SplittableRandom rnd = new SplittableRandom(100 + seed);
            // Any configuration, on the loop or not: e, J and the second derivative are defined everywhere.
            final double[] q = RandomRobots.vector(rnd, n, 2.0);
            final double[] qd = RandomRobots.vector(rnd, n, 1.5);
            final double[] qdd = RandomRobots.vector(rnd, n, 3.0);
            final double[] e = new double[m];
            final double[] jacobian = new double[m * n];
            final double[] second = new double[m];
            geometry.candidateTerms(q, qd, qdd, e, jacobian, second);
            final double h = 1e-3;
            final double[][] samples = new double[5][];
            for (int s = -2; s <= 2; s++)
            {
                final double t = s * h;
                final double[] qt = new double[n];
                for (int i = 0; i < n; i++)
                {
                    qt[i] = q[i] + qd[i] * t + 0.5 * qdd[i] * t * t;
                }
                samples[s + 2] = residual(geometry, qt, m, n);
            }
            for (int r = 0; r < m; r++)
            {
                final double rate = (samples[0][r] - 8 * samples[1][r] + 8 * samples[3][r] - samples[4][r]) / (12 * h);
                double jqd = 0.0;
                for (int c = 0; c < n; c++)
                {
                    jqd += jacobian[r * n + c] * qd[c];
                }
                assertEquals(rate, jqd, 1e-8 * (1 + Math.abs(rate)), "seed " + seed + " row " + r + ": J qd");
                final double curvature = (-samples[0][r] + 16 * samples[1][r] - 30 * samples[2][r] + 16 * samples[3][r]
                    - samples[4][r]) / (12 * h * h);
                assertEquals(curvature, second[r], 1e-6 * (1 + Math.abs(curvature)),
                    "seed " + seed + " row " + r + ": J qdd + Jdot qd");
            }
        }
    }

    @Test
    void passiveJointsFollowTheActiveOnesWithTheVelocitiesOfGAndTheAccelerationsOfTheLoop()
    {
        for (int seed = 1; seed <= ROBOTS; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 1);
            final LoopGeometry geometry = new LoopGeometry(model);
            final int n = model.treeDof();
            final int na = model.activeCount();
            final SplittableRandom rnd = new SplittableRandom(200 + seed);
            final double[] qdActive = RandomRobots.vector(rnd, na, 1.0);
            final double[] qddActive = RandomRobots.vector(rnd, na, 2.0);
            // Newton stops at a 1e-12 residual, which a second difference divides by h^2: the
            // curvature is Richardson's extrapolation of h = 1e-2 and 5e-3 (seed 12's fourth-order error
            // alone is 1.4e-6 relative at 5e-3).
            final double[][] path = loopPath(model, geometry, qdActive, qddActive, 1e-3, seed);
            final double[][] coarse = loopPath(model, geometry, qdActive, qddActive, 1e-2, seed);
            final double[][] fine = loopPath(model, geometry, qdActive, qddActive, 5e-3, seed);
            final double[] home = model.home();
            assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(home));
            final double[] qd = new double[n];
            final double[] qdd = new double[n];
            geometry.treeVelocities(qdActive, qd);
            geometry.treeAccelerations(qd, qddActive, qdd);
            for (int i = 0; i < n; i++)
            {
                final double rate = (path[0][i] - 8 * path[1][i] + 8 * path[3][i] - path[4][i]) / (12 * 1e-3);
                final double curvature = (16 * curvature(fine, i, 5e-3) - curvature(coarse, i, 1e-2)) / 15;
                assertEquals(rate, qd[i], 1e-8 * (1 + Math.abs(rate)), "seed " + seed + " joint " + i + ": G qd_a");
                assertEquals(curvature, qdd[i], 1e-6 * (1 + Math.abs(curvature)), "seed " + seed + " joint " + i + ": qdd");
            }
        }
    }

    @Test
    void newtonReportsConvergenceFromAFarGuessAndFailureWhenTheLoopCannotClose()
    {
        final ClosedLoopModel model = RandomClosedLoops.robot(7, false);
        final LoopGeometry geometry = new LoopGeometry(model);
        final double[] q = model.home();
        for (final int p : model.passiveCoordinates())
        {
            q[p] += 0.2;
        }
        assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q));
        assertTrue(geometry.residualNorm() <= LoopGeometry.TOLERANCE);
        assertTrue(geometry.iterations() >= 2 && geometry.iterations() <= 10, geometry.iterations() + " iterations");
        // Active joints far from any closable configuration: Newton must say it failed, not claim success.
        final double[] far = model.home();
        for (int a = 0; a < model.activeCount(); a++)
        {
            far[model.activeCoordinate(a)] += 40.0;
        }
        final int status = geometry.solvePassive(far);
        if (status == LoopGeometry.CONVERGED)
        {
            assertTrue(geometry.residualNorm() <= LoopGeometry.TOLERANCE);
        }
        else
        {
            assertTrue(geometry.residualNorm() > LoopGeometry.TOLERANCE || status == LoopGeometry.SINGULAR);
        }
    }

    private static double curvature(final double[][] w, final int i, final double h)
    {
        return (-w[0][i] + 16 * w[1][i] - 30 * w[2][i] + 16 * w[3][i] - w[4][i]) / (12 * h * h);
    }

    /** q(t) on the loop at t = -2h .. 2h for qa(t) = qa0 + qd t + qdd t^2 / 2. */
    private static double[][] loopPath(
        final ClosedLoopModel model, final LoopGeometry geometry, final double[] qdActive, final double[] qddActive,
        final double h, final int seed)
    {
        final double[][] path = new double[5][];
        for (int s = -2; s <= 2; s++)
        {
            final double t = s * h;
            final double[] q = model.home();
            for (int a = 0; a < model.activeCount(); a++)
            {
                q[model.activeCoordinate(a)] += qdActive[a] * t + 0.5 * qddActive[a] * t * t;
            }
            assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q), "seed " + seed);
            assertTrue(geometry.iterations() <= 6, "seed " + seed + ": " + geometry.iterations() + " iterations");
            path[s + 2] = q;
        }
        return path;
    }

    private static double[] residual(final LoopGeometry geometry, final double[] q, final int m, final int n)
    {
        final double[] e = new double[m];
        geometry.candidateTerms(q, new double[n], new double[n], e, new double[m * n], new double[m]);
        return e;
    }
}
