package org.nectl.core.dynamics;

import java.util.SplittableRandom;

import org.nectl.core.dynamics.screw.ScrewTheoryInverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * Runs the modified-DH ({@link InverseDynamics}) and the screw-theory
 * ({@link ScrewTheoryInverseDynamics}) Newton-Euler algorithms side by side on one robot, with the
 * same random state, gravity, external wrench on every body and friction setting, and measures how
 * far apart their joint torques and joint reaction wrenches are.
 *
 * <p>Discrepancy of two vectors = max_k |a_k - b_k| / max(1, max_k |a_k|): relative for large
 * values, absolute below 1 (N, N m). Shared with the tests of other modules through the test-jar.
 */
public final class FormulationCrossCheck
{
    private FormulationCrossCheck()
    {
    }

    /**
     * @param model the robot.
     * @param seed seeds the state (q, qd, qdd), gravity (|g_x,y,z| up to 15 m/s^2), external wrenches
     *     (components up to 20 N, N m) and whether friction is on.
     * @return the largest discrepancy over the joint torques and the reaction wrench of every body.
     */
    public static double maxDiscrepancy(final RobotModel model, final long seed)
    {
        final CompiledModel compiled = CompiledModel.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final PolynomialMotion state = new PolynomialMotion(rnd, model.dof());
        final double[] g = RandomRobots.vector(rnd, 3, 15);
        final boolean friction = rnd.nextBoolean();
        final InverseDynamics modifiedDh = new InverseDynamics(compiled);
        final ScrewTheoryInverseDynamics screw = new ScrewTheoryInverseDynamics(model);
        final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
        modifiedDh.jointFriction(friction);
        screw.jointFriction(friction);
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final double[] w = RandomRobots.vector(rnd, 6, 20);
            loads.bodyWrench(i, w[0], w[1], w[2], w[3], w[4], w[5]);
        }
        final double[] tauDh = new double[model.dof()];
        final double[] tauScrew = new double[model.dof()];
        modifiedDh.compute(state.q, state.qd, state.qdd, loads, tauDh);
        screw.compute(state.q, state.qd, state.qdd, loads, tauScrew);
        double worst = discrepancy(tauDh, tauScrew);
        final double[] wrenchDh = new double[6];
        final double[] wrenchScrew = new double[6];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            modifiedDh.reactionWrench(i, wrenchDh);
            screw.reactionWrench(i, wrenchScrew);
            worst = Math.max(worst, discrepancy(wrenchDh, wrenchScrew));
        }
        return worst;
    }

    /** @return max_k |a_k - b_k| / max(1, max_k |a_k|). */
    public static double discrepancy(final double[] a, final double[] b)
    {
        double scale = 1.0;
        double error = 0.0;
        for (int k = 0; k < a.length; k++)
        {
            scale = Math.max(scale, Math.abs(a[k]));
            error = Math.max(error, Math.abs(a[k] - b[k]));
        }
        return error / scale;
    }
}
