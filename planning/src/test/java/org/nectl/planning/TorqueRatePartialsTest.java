package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class TorqueRatePartialsTest
{
    private static final double[] GRAVITY = {0.3, -1.2, -9.81};

    @Test
    void torqueAndRateEqualTheRecursiveAlgorithmsAndPartialsMatchCentralDifferencesOfTheTorqueDerivative()
    {
        for (long seed = 1; seed <= 10; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 104729);
            final RobotModel model = RandomRobots.robot(
                seed, rnd.nextInt(2, 8), seed % 2 == 0, RandomRobots.Joints.ALL, true);
            final int dof = model.dof();
            final PlanningDynamics dynamics = new PlanningDynamics(model, GRAVITY);
            final TorqueRatePartials partials = new TorqueRatePartials(model, GRAVITY);
            final double[] x = RandomRobots.vector(rnd, 4 * dof, 1.5);
            final double[] tau = new double[dof];
            final double[] tauDot = new double[dof];
            final double[] jacobian = new double[dof * 4 * dof];
            partials.compute(part(x, 0, dof), part(x, 1, dof), part(x, 2, dof), part(x, 3, dof), tau, tauDot, jacobian);

            final double[] expectedTau = new double[dof];
            final double[] expectedRate = new double[dof];
            dynamics.torqueRate(part(x, 0, dof), part(x, 1, dof), part(x, 2, dof), part(x, 3, dof), expectedTau, expectedRate);
            final double tauError = Differences.relativeError(tau, expectedTau, 1e-9);
            final double rateError = Differences.relativeError(tauDot, expectedRate, 1e-9);
            assertTrue(tauError < 1e-12 && rateError < 1e-12,
                "seed " + seed + ": tau error " + tauError + ", tau-dot error " + rateError + " against the recursions");

            final double[] numeric = Differences.jacobian((xs, out) ->
                dynamics.torqueRate(part(xs, 0, dof), part(xs, 1, dof), part(xs, 2, dof), part(xs, 3, dof), new double[dof], out),
                x, dof, 1e-4);
            final double error = Differences.relativeError(jacobian, numeric, 1e-9);
            assertTrue(error < 1e-6, "seed " + seed + " (dof " + dof + "): d tau-dot relative error " + error);
        }
    }

    @Test
    void torqueRateSensitivitiesMatchCentralDifferencesOnRandomRobotsAndQuinticSplines()
    {
        for (long seed = 1; seed <= 8; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 31337);
            final RobotModel model = RandomRobots.robot(
                seed, rnd.nextInt(2, 7), seed % 2 == 0, RandomRobots.Joints.ALL, true);
            final int dof = model.dof();
            final int degree = 4 + (int)(seed % 2);
            final int count = degree + 1 + rnd.nextInt(1, 7);
            final ClampedBSpline spline = new ClampedBSpline(degree, count);
            final double[] points = RandomRobots.vector(rnd, count * dof, 1.5);
            final double duration = rnd.nextDouble(0.3, 3.0);
            final PlanningDynamics dynamics = new PlanningDynamics(model, GRAVITY);
            final SplineTorqueRateSensitivities sensitivities =
                new SplineTorqueRateSensitivities(new TorqueRatePartials(model, GRAVITY), dof);
            final int columns = count * dof;
            final double u = rnd.nextDouble(0.0, 1.0);
            final double[] tauDot = new double[dof];
            final double[] dp = new double[dof * columns];
            final double[] dT = new double[dof];
            sensitivities.compute(new SplineTrajectory(spline, dof, points, duration), u, tauDot, dp, dT);

            final double[] numeric = Differences.ofTrajectory(spline, dof, points, duration, u,
                (q, qd, qdd, qddd, out) -> dynamics.torqueRate(q, qd, qdd, qddd, new double[dof], out));
            final double[] analytic = new double[dof * (columns + 1)];
            for (int r = 0; r < dof; r++)
            {
                System.arraycopy(dp, r * columns, analytic, r * (columns + 1), columns);
                analytic[r * (columns + 1) + columns] = dT[r];
            }
            final double error = Differences.relativeError(analytic, numeric, 1e-9);
            assertTrue(error < 1e-6, "seed " + seed + " (dof " + dof + ", degree " + degree + ", u " + u
                + "): relative error " + error);
        }
    }

    private static double[] part(final double[] x, final int index, final int dof)
    {
        final double[] out = new double[dof];
        System.arraycopy(x, index * dof, out, 0, dof);
        return out;
    }
}
