package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class SplineProblemTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    @Test
    void constraintJacobianAndWeightedObjectiveGradientMatchCentralDifferencesWithEveryKindOfLimit()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed * 65537);
            final JointLimits limits = new JointLimits(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, 2.5, 40.0, 300.0);
            final RobotModel model = RandomRobots.robot(seed, rnd.nextInt(2, 5), seed % 2 == 0, RandomRobots.Joints.MOVABLE,
                true, limits);
            final int dof = model.dof();
            final PlanningSettings settings = new PlanningSettings(5, 9, 2, 0.3, true, true, new double[] {7.0}, GRAVITY, 10);
            final SplineProblem problem = new SplineProblem(new PlanningDynamics(model, GRAVITY),
                RandomRobots.vector(rnd, dof, 1.0), RandomRobots.vector(rnd, dof, 1.0), settings);
            assertEquals((2 * 4 * dof) * problem.samples().length + 1, problem.constraintCount(), "four limits per coordinate");
            final double[] x = new double[problem.variableCount()];
            for (int v = 0; v < x.length - 1; v++)
            {
                x[v] = rnd.nextDouble(-1.0, 1.0);
            }
            x[x.length - 1] = rnd.nextDouble(0.5, 2.0);
            final double[][] jacobian = problem.constraintJacobian(x);
            final double[] analytic = new double[problem.constraintCount() * x.length];
            for (int r = 0; r < jacobian.length; r++)
            {
                System.arraycopy(jacobian[r], 0, analytic, r * x.length, x.length);
            }
            final double[] numeric = Differences.jacobian(
                (xs, out) -> System.arraycopy(problem.constraints(xs), 0, out, 0, out.length), x, problem.constraintCount(), 1e-4);
            final double error = Differences.relativeError(analytic, numeric, 1e-9);
            assertTrue(error < 1e-6, "seed " + seed + ": constraint Jacobian relative error " + error);

            final double[] gradient = problem.objectiveGradient(x).clone();
            final double[] numericGradient = Differences.jacobian(
                (xs, out) -> out[0] = problem.objective(xs), x, 1, 1e-4);
            final double gradientError = Differences.relativeError(gradient, numericGradient, 1e-9);
            assertTrue(gradientError < 1e-6, "seed " + seed + ": objective gradient relative error " + gradientError);
        }
    }
}
