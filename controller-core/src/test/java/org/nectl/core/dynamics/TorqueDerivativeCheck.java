package org.nectl.core.dynamics;

import java.util.SplittableRandom;

import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Checks {@link TorqueDerivative} on one robot and one random state against a 4th-order central
 * difference of {@link InverseDynamics} torques along q(t) = q + qd t + qdd t^2/2 + qddd t^3/6, with
 * gravity, friction, and an external wrench on every body whose body-frame components vary linearly
 * in time. Shared with the tests of other modules through the test-jar.
 *
 * <p>Step choice: the difference errs by h^4 tau^(5) / 30 (truncation) plus about 1.5 eps |tau| / h
 * (rounding). With |tau| = O(10-100) N m and tau^(5) up to O(1e5) N m/s^5 on random trees,
 * h = 5e-4 s keeps truncation near 1e-11 and rounding near 1e-13 of |tau-dot|. The observed error
 * falls 16-fold per halving of h (truncation-dominated): on 120 random states, max 8e-9 at
 * h = 2e-3, 5e-10 at 1e-3, 3e-11 at 5e-4 s.
 */
public final class TorqueDerivativeCheck
{
    /** Finite-difference step, s. */
    public static final double STEP_S = 5e-4;

    private TorqueDerivativeCheck()
    {
    }

    /**
     * @param model the robot.
     * @param seed seeds the state (|qd| in [0.2, 2) so Coulomb friction stays smooth over +-2h),
     *     gravity (components up to 10 m/s^2), external wrenches (up to 10 N, N m) and their rates
     *     (up to 20 N/s, N m/s).
     * @return max_k |fd_k - tauDot_k| / max(1, max_k |fd_k|), or the same measure between the two
     *     classes' tau if larger.
     */
    public static double maxRelativeError(final RobotModel model, final long seed)
    {
        final CompiledModel compiled = CompiledModel.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = model.bodyCount();
        final int dof = model.dof();
        final PolynomialMotion motion = new PolynomialMotion(rnd, dof);
        final double[] g = RandomRobots.vector(rnd, 3, 10.0);
        final double[] wrench = RandomRobots.vector(rnd, 6 * n, 10.0);
        final double[] wrenchRate = RandomRobots.vector(rnd, 6 * n, 20.0);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final TorqueDerivative derivative = new TorqueDerivative(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
        final double[][] samples = new double[PolynomialMotion.STEPS.length][dof];
        for (int s = 0; s < samples.length; s++)
        {
            final double t = PolynomialMotion.STEPS[s] * STEP_S;
            motion.at(t);
            applyWrenches(loads, wrench, wrenchRate, t);
            rnea.compute(motion.q, motion.qd, motion.qdd, loads, samples[s]);
        }
        final double[] differenced = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            differenced[k] = PolynomialMotion.centralDifference(
                new double[] {samples[0][k], samples[1][k], samples[2][k], samples[3][k]}, STEP_S);
        }
        motion.at(0.0);
        applyWrenches(loads, wrench, wrenchRate, 0.0);
        final double[] rate = new double[6];
        for (int b = 0; b < n; b++)
        {
            final int e = 6 * b;
            loads.bodyWrench(b, wrench[e], wrench[e + 1], wrench[e + 2], wrench[e + 3], wrench[e + 4], wrench[e + 5]);
            System.arraycopy(wrenchRate, e, rate, 0, 6);
            loads.bodyWrenchRate(b, rate);
        }
        final double[] tauRnea = new double[dof];
        final double[] tau = new double[dof];
        final double[] tauDot = new double[dof];
        rnea.compute(motion.q, motion.qd, motion.qdd, loads, tauRnea);
        derivative.compute(motion.q, motion.qd, motion.qdd, motion.qddd, loads, tau, tauDot);
        return Math.max(
            FormulationCrossCheck.discrepancy(differenced, tauDot), FormulationCrossCheck.discrepancy(tauRnea, tau));
    }

    /** Sets each body's external wrench to its components at time t. */
    private static void applyWrenches(
        final AppliedLoads loads, final double[] wrench, final double[] wrenchRate, final double t)
    {
        final double[] w = new double[6];
        for (int b = 0; b < wrench.length / 6; b++)
        {
            for (int c = 0; c < 6; c++)
            {
                w[c] = wrench[6 * b + c] + t * wrenchRate[6 * b + c];
            }
            loads.bodyWrench(b, w[0], w[1], w[2], w[3], w[4], w[5]);
        }
    }
}
