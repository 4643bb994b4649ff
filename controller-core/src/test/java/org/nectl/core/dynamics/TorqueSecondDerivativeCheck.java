package org.nectl.core.dynamics;

import java.util.SplittableRandom;

import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Checks {@link TorqueSecondDerivative} on one robot and one random state: its tau and tau-dot
 * against {@link InverseDynamics} and {@link TorqueDerivative} (an independent formulation of the
 * first derivative), and its tau-ddot against a 4th-order central difference of TorqueDerivative's
 * tau-dot along the quartic motion q(t) = sum_m q^(m) t^m / m!, m = 0..4, with gravity, friction,
 * and an external wrench on every body whose body-frame components vary quadratically in time.
 * Shared with the tests of other modules through the test-jar.
 *
 * <p>Step choice: the difference errs by h^4 tauDot^(5) / 30 (truncation) plus about
 * 1.5 eps |tauDot| / h (rounding); as for {@link TorqueDerivativeCheck}, h = 5e-4 s keeps both far
 * below 1e-8 of |tau-ddot|. Observed: max 4.5e-11 over 120 random chains and trees, 1.0e-10 on the
 * shipped robots (tree-32); tau and tau-dot agree with the reference classes to 5e-15.
 */
public final class TorqueSecondDerivativeCheck
{
    /** Finite-difference step, s. */
    public static final double STEP_S = 5e-4;
    private static final int DERIVATIVES = 5;

    private TorqueSecondDerivativeCheck()
    {
    }

    /** The two measured discrepancies of one state. */
    public record Errors(double tauAndTauDot, double tauDdot)
    {
    }

    /**
     * @param model the robot.
     * @param seed seeds the state (|qd| in [0.2, 2) so Coulomb friction stays smooth over +-2h,
     *     qdd, qddd, qdddd up to 3, 5, 10), gravity (components up to 10 m/s^2), external wrenches
     *     (up to 10 N, N m) and their first and second rates (up to 20 N/s, 40 N/s^2).
     * @return tau and tau-dot against the reference classes, and tau-ddot against the central
     *     difference, each as max_k |a_k - b_k| / max(1, max_k |a_k|) ({@link FormulationCrossCheck}).
     */
    public static Errors errors(final RobotModel model, final long seed)
    {
        final CompiledModel compiled = CompiledModel.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = model.bodyCount();
        final int dof = model.dof();
        final double[][] coefficients = motion(rnd, dof);
        final double[] g = RandomRobots.vector(rnd, 3, 10.0);
        final double[][] wrench = {
            RandomRobots.vector(rnd, 6 * n, 10.0), RandomRobots.vector(rnd, 6 * n, 20.0), RandomRobots.vector(rnd, 6 * n, 40.0)};
        final TorqueDerivative derivative = new TorqueDerivative(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
        final double[][] state = new double[DERIVATIVES][dof];
        final double[] tau = new double[dof];
        final double[][] samples = new double[PolynomialMotion.STEPS.length][dof];
        for (int s = 0; s < samples.length; s++)
        {
            final double t = PolynomialMotion.STEPS[s] * STEP_S;
            at(coefficients, t, state);
            applyWrenches(loads, wrench, t);
            derivative.compute(state[0], state[1], state[2], state[3], loads, tau, samples[s]);
        }
        final double[] differenced = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            differenced[k] = PolynomialMotion.centralDifference(
                new double[] {samples[0][k], samples[1][k], samples[2][k], samples[3][k]}, STEP_S);
        }
        at(coefficients, 0.0, state);
        applyWrenches(loads, wrench, 0.0);
        final double[] tauDot = new double[dof];
        derivative.compute(state[0], state[1], state[2], state[3], loads, tau, tauDot);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final TorqueSecondDerivative second = new TorqueSecondDerivative(compiled);
        final double[] secondRate = new double[6];
        for (int b = 0; b < n; b++)
        {
            System.arraycopy(wrench[2], 6 * b, secondRate, 0, 6);
            loads.bodyWrenchSecondRate(b, secondRate);
        }
        final double[] tauRnea = new double[dof];
        rnea.compute(state[0], state[1], state[2], loads, tauRnea);
        final double[] tau2 = new double[dof];
        final double[] tauDot2 = new double[dof];
        final double[] tauDdot = new double[dof];
        second.compute(state[0], state[1], state[2], state[3], state[4], loads, tau2, tauDot2, tauDdot);
        final double lowerOrders = Math.max(
            FormulationCrossCheck.discrepancy(tauRnea, tau2), FormulationCrossCheck.discrepancy(tauDot, tauDot2));
        return new Errors(lowerOrders, FormulationCrossCheck.discrepancy(differenced, tauDdot));
    }

    /** q, qd, qdd, qddd, qdddd at 0: q in [-pi, pi), |qd| in [0.2, 2), then up to 3, 5, 10. */
    private static double[][] motion(final SplittableRandom rnd, final int dof)
    {
        final double[][] c = new double[DERIVATIVES][dof];
        final double[] scale = {Math.PI, 2.0, 3.0, 5.0, 10.0};
        for (int k = 0; k < dof; k++)
        {
            for (int m = 0; m < DERIVATIVES; m++)
            {
                c[m][k] = rnd.nextDouble(-scale[m], scale[m]);
            }
            c[1][k] = rnd.nextDouble(0.2, 2.0) * (rnd.nextBoolean() ? 1.0 : -1.0);
        }
        return c;
    }

    /** state[d] = d-th derivative at t of the quartic with Taylor coefficients c at 0. */
    private static void at(final double[][] c, final double t, final double[][] state)
    {
        for (int d = 0; d < DERIVATIVES; d++)
        {
            for (int k = 0; k < c[0].length; k++)
            {
                double sum = 0.0;
                double term = 1.0;
                for (int m = d; m < DERIVATIVES; m++)
                {
                    sum += c[m][k] * term;
                    term *= t / (m - d + 1);
                }
                state[d][k] = sum;
            }
        }
    }

    /** Wrench components w0 + t w1 + t^2/2 w2 and their rate w1 + t w2 at time t. */
    private static void applyWrenches(final AppliedLoads loads, final double[][] wrench, final double t)
    {
        final double[] rate = new double[6];
        for (int b = 0; b < wrench[0].length / 6; b++)
        {
            final int e = 6 * b;
            final double[] w = new double[6];
            for (int c = 0; c < 6; c++)
            {
                w[c] = wrench[0][e + c] + t * (wrench[1][e + c] + t * wrench[2][e + c] / 2.0);
                rate[c] = wrench[1][e + c] + t * wrench[2][e + c];
            }
            loads.bodyWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
            loads.bodyWrenchRate(b, rate);
        }
    }
}
