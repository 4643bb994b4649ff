package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class SplineTorqueSensitivitiesTest
{
    private static final double[] GRAVITY = {0.3, -1.2, -9.81};

    @Test
    void torqueSensitivitiesMatchCentralDifferencesOnRandomRobotsAndSplines()
    {
        for (long seed = 1; seed <= 12; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 7919);
            final RobotModel model = RandomRobots.robot(
                seed, rnd.nextInt(2, 8), seed % 2 == 0, RandomRobots.Joints.ALL, true);
            final int dof = model.dof();
            final int degree = seed % 3 == 0 ? 5 : 3;
            final int count = degree + 1 + rnd.nextInt(1, 9);
            final ClampedBSpline spline = new ClampedBSpline(degree, count);
            final double[] points = RandomRobots.vector(rnd, count * dof, 1.5);
            final double duration = rnd.nextDouble(0.3, 3.0);
            final PlanningDynamics dynamics = new PlanningDynamics(model, GRAVITY);
            final SplineTorqueSensitivities sensitivities = new SplineTorqueSensitivities(dynamics);
            final int columns = count * dof;
            for (int trial = 0; trial < 4; trial++)
            {
                final double u = rnd.nextDouble(0.0, 1.0);
                final double[] tau = new double[dof];
                final double[] dTauDp = new double[dof * columns];
                final double[] dTauDT = new double[dof];
                sensitivities.compute(new SplineTrajectory(spline, dof, points, duration), u, tau, dTauDp, dTauDT);

                // the independent plain RNEA as the oracle's function
                final double[] numeric = Differences.ofTrajectory(spline, dof, points, duration, u,
                    (q, qd, qdd, qddd, out) -> dynamics.torque(q, qd, qdd, out));
                final double[] analytic = new double[dof * (columns + 1)];
                for (int r = 0; r < dof; r++)
                {
                    System.arraycopy(dTauDp, r * columns, analytic, r * (columns + 1), columns);
                    analytic[r * (columns + 1) + columns] = dTauDT[r];
                }
                final double error = Differences.relativeError(analytic, numeric, 1e-9);
                assertTrue(error < 1e-6, "seed " + seed + " (dof " + dof + ", degree " + degree + ", " + count
                    + " points, T " + duration + ", u " + u + "): relative error " + error);
            }
        }
    }
}
