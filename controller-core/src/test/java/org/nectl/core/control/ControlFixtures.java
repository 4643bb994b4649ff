package org.nectl.core.control;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/** Shared set-up of the control-law tests: gains, references, output arrays, trajectories. */
final class ControlFixtures
{
    private ControlFixtures()
    {
    }

    /** Critically damped gains kd = 2 sqrt(kp) on every joint. */
    static ComputedTorqueController controller(final CompiledModel model, final double kp)
    {
        final double[] p = new double[model.dof()];
        final double[] d = new double[model.dof()];
        Arrays.fill(p, kp);
        Arrays.fill(d, 2 * Math.sqrt(kp));
        return new ComputedTorqueController(model, p, d);
    }

    /** Rest-to-rest through 6 random waypoints within +/-0.6 rad of a random pose. */
    static TrajectorySampler randomTrajectory(final RobotModel model, final long seed, final double durationS)
    {
        final SplittableRandom rnd = new SplittableRandom(seed * 7919);
        final double[] centre = RandomRobots.vector(rnd, model.dof(), 1.0);
        final int count = 6;
        final double[] times = new double[count];
        final double[][] positions = new double[count][];
        for (int k = 0; k < count; k++)
        {
            times[k] = durationS * k / (count - 1);
            positions[k] = RandomRobots.vector(rnd, model.dof(), 0.6);
            for (int j = 0; j < model.dof(); j++)
            {
                positions[k][j] += centre[j];
            }
        }
        return new TrajectorySampler(model, new JointWaypoints(times, positions));
    }

    /** A reference (or measured) state: q, qd, qdd, qddd, qdddd. */
    static final class Reference
    {
        final double[] q;
        final double[] qd;
        final double[] qdd;
        final double[] qddd;
        final double[] qdddd;

        Reference(final int n)
        {
            q = new double[n];
            qd = new double[n];
            qdd = new double[n];
            qddd = new double[n];
            qdddd = new double[n];
        }

        static Reference random(final SplittableRandom rnd, final int n)
        {
            final Reference r = new Reference(n);
            for (int j = 0; j < n; j++)
            {
                r.q[j] = rnd.nextDouble(-2, 2);
                r.qd[j] = rnd.nextDouble(-2, 2);
                r.qdd[j] = rnd.nextDouble(-5, 5);
                r.qddd[j] = rnd.nextDouble(-20, 20);
            }
            return r;
        }

        int sample(final TrajectorySampler sampler, final double t)
        {
            return sampler.sample(t, q, qd, qdd, qddd, qdddd);
        }
    }

    /** The three outputs of one tick. */
    static final class Outputs
    {
        final double[] tau;
        final double[] tauFf;
        final double[] tauFfRate;

        Outputs(final int n)
        {
            tau = new double[n];
            tauFf = new double[n];
            tauFfRate = new double[n];
        }
    }
}
