package org.nectl.core.mobile;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/**
 * A random floating tree tumbling freely for 10 s without gravity or external load: the total
 * spatial momentum in the world frame is conserved, and the kinetic energy changes by exactly the
 * work of the joint torques. Both are summed body by body ({@link FloatingBaseMomentum}),
 * independently of the articulated-body recursion that drives the simulation; the base pose is
 * integrated from the twist, so a wrong base-acceleration convention would show as a drift.
 */
class FreeFloatingConservationTest
{
    private static final double DURATION = 10.0;
    private static final double STEP = 1e-3;

    @Test
    void momentumIsConservedAndEnergyBalancedOverTenSeconds()
    {
        for (final long seed : new long[] {11, 12})
        {
            check(seed, true);
            check(seed, false);
        }
    }

    /**
     * @param driven true for joint torques tau = -K (q - q0) - D qd held over each step (springs and
     *     dampers between the links: internal, so momentum is still conserved; the energy balance
     *     then includes their work); false for no torque at all (energy conserved).
     */
    private static void check(final long seed, final boolean driven)
    {
        final RobotModel robot = FloatingRobots.robot(seed, 8, seed % 2 == 0, false);
        final CompiledModel compiled = CompiledModel.of(robot);
        final FreeBaseForwardDynamics dynamics = new FreeBaseForwardDynamics(compiled);
        final FloatingBaseSimulator simulator = new FloatingBaseSimulator(robot, dynamics, new double[3]);
        final FloatingBaseMomentum momentum = new FloatingBaseMomentum(compiled);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = robot.dof();
        final double[] pose = FloatingRobots.pose(rnd);
        final double[] twist = RandomRobots.vector(rnd, 6, 1.0);
        final double[] q = RandomRobots.vector(rnd, n, 1.0);
        final double[] qd = RandomRobots.vector(rnd, n, 1.0);
        final double[] rest = q.clone();
        simulator.reset(pose, twist, q, qd);
        final double[] start = new double[6];
        momentum.worldMomentum(pose, twist, q, qd, start);
        final double startEnergy = momentum.kineticEnergyJoules(twist, q, qd);
        final double startNorm = norm(start);
        final double[] now = new double[6];
        final double[] tau = new double[n];
        final double[] before = new double[n];
        double work = 0.0;
        double worstMomentum = 0.0;
        double worstEnergy = 0.0;
        final int steps = (int)Math.round(DURATION / STEP);
        for (int s = 0; s < steps; s++)
        {
            torques(driven, q, qd, rest, tau);
            System.arraycopy(q, 0, before, 0, n);
            assertTrue(simulator.step(STEP, tau), "seed " + seed);
            simulator.basePose(pose);
            simulator.baseTwist(twist);
            simulator.jointPositions(q);
            simulator.jointVelocities(qd);
            // torques held over the step: their work tau . (q(t+h) - q(t)) is exact
            for (int k = 0; k < n; k++)
            {
                work += tau[k] * (q[k] - before[k]);
            }
            momentum.worldMomentum(pose, twist, q, qd, now);
            double difference = 0.0;
            for (int c = 0; c < 6; c++)
            {
                difference += (now[c] - start[c]) * (now[c] - start[c]);
            }
            worstMomentum = Math.max(worstMomentum, Math.sqrt(difference) / startNorm);
            final double energy = momentum.kineticEnergyJoules(twist, q, qd);
            worstEnergy = Math.max(worstEnergy, Math.abs(energy - startEnergy - work) / startEnergy);
        }
        System.out.printf("seed %d %s: 10 s at 1 ms, largest relative momentum drift %.3e, energy balance %.3e, work %.4f J of %.4f J%n",
            seed, driven ? "driven" : "torque-free", worstMomentum, worstEnergy, work, startEnergy);
        assertTrue(worstMomentum <= 1e-10, "seed " + seed + ": momentum drift " + worstMomentum);
        assertTrue(worstEnergy <= 1e-8, "seed " + seed + ": energy balance " + worstEnergy);
    }

    private static void torques(final boolean driven, final double[] q, final double[] qd, final double[] rest,
        final double[] tau)
    {
        for (int k = 0; k < tau.length; k++)
        {
            tau[k] = driven ? -5.0 * (q[k] - rest[k]) - 0.5 * qd[k] : 0.0;
        }
    }

    private static double norm(final double[] v)
    {
        double s = 0.0;
        for (final double x : v)
        {
            s += x * x;
        }
        return Math.sqrt(s);
    }
}
