package org.nectl.core.mobile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * Free-floating inverse and direct dynamics as identities between algorithms on seeded random
 * floating trees (chains and trees, revolute, prismatic and fixed joints, rotor inertia, friction,
 * gravity, any base orientation and twist).
 */
class FreeBaseDynamicsTest
{
    private static final int ROBOTS = 24;
    private static final int SAMPLES = 20;
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    /** Khalil §7.2 (composite inertia, two Newton-Euler passes) against §7.3 (articulated bodies). */
    @Test
    void inverseAndDirectDynamicsInvertEachOther()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel robot = FloatingRobots.robot(seed, 1 + (int)(seed % 12), seed % 2 == 0, true);
            final CompiledModel compiled = CompiledModel.of(robot);
            final FreeBaseInverseDynamics inverse = new FreeBaseInverseDynamics(compiled);
            final FreeBaseForwardDynamics direct = new FreeBaseForwardDynamics(compiled);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = robot.dof();
            final double[] baseAcceleration = new double[6];
            final double[] tau = new double[n];
            final double[] directBase = new double[6];
            final double[] qdd = new double[n];
            for (int s = 0; s < SAMPLES; s++)
            {
                final double[] pose = FloatingRobots.pose(rnd);
                final double[] twist = RandomRobots.vector(rnd, 6, 2.0);
                final double[] q = RandomRobots.vector(rnd, n, Math.PI);
                final double[] qd = RandomRobots.vector(rnd, n, 2.0);
                final double[] qddGiven = RandomRobots.vector(rnd, n, 4.0);
                assertTrue(inverse.compute(pose, twist, q, qd, qddGiven, GRAVITY, baseAcceleration, tau), "seed " + seed);
                assertTrue(direct.compute(pose, twist, q, qd, tau, GRAVITY, directBase, qdd), "seed " + seed);
                worst = Math.max(worst, relativeError(qddGiven, qdd));
                worst = Math.max(worst, relativeError(baseAcceleration, directBase));
                assertTrue(worst <= 1e-9, "seed " + seed + " sample " + s + ": relative error " + worst);
            }
        }
        System.out.printf("inverse vs direct dynamics, %d robots x %d states: largest relative error %.2e%n",
            ROBOTS, SAMPLES, worst);
    }

    /** The base acceleration found leaves no wrench on the base; any other one needs a wrench to impose it. */
    @Test
    void theFreeBaseAccelerationNeedsNoWrenchOnTheBase()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel robot = FloatingRobots.robot(seed, 1 + (int)(seed % 12), seed % 2 == 1, true);
            final FreeBaseInverseDynamics inverse = new FreeBaseInverseDynamics(CompiledModel.of(robot));
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = robot.dof();
            final double[] pose = FloatingRobots.pose(rnd);
            final double[] twist = RandomRobots.vector(rnd, 6, 2.0);
            final double[] q = RandomRobots.vector(rnd, n, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qdd = RandomRobots.vector(rnd, n, 4.0);
            final double[] a = new double[6];
            final double[] tau = new double[n];
            final double[] tauPrescribed = new double[n];
            final double[] wrench = new double[6];
            inverse.compute(pose, twist, q, qd, qdd, GRAVITY, a, tau);
            inverse.computeWithBaseAcceleration(pose, twist, a, q, qd, qdd, GRAVITY, tauPrescribed, wrench);
            final double scale = robot.baseInertia().mass() * 10.0 + 1.0;
            for (int k = 0; k < 6; k++)
            {
                assertEquals(0.0, wrench[k], 1e-10 * scale, "seed " + seed + " component " + k);
            }
            assertEquals(0.0, relativeError(tau, tauPrescribed), 1e-12, "seed " + seed);
            a[0] += 1.0;
            inverse.computeWithBaseAcceleration(pose, twist, a, q, qd, qdd, GRAVITY, tauPrescribed, wrench);
            assertTrue(Math.abs(wrench[0]) > 0.1, "seed " + seed + ": " + wrench[0]);
        }
    }

    /** Base at rest, its acceleration forced to zero: the fixed-base InverseDynamics under gravity 0R_w g. */
    @Test
    void fixedBaseLimitEqualsInverseDynamics()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel fixedRobot = RandomRobots.any(seed);
            final RobotModel robot = FloatingRobots.floating(fixedRobot, new SplittableRandom(seed));
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] pose = FloatingRobots.pose(rnd);
            final double[] r = new double[9];
            BasePose.rotation(pose, r);
            // 0R_w g with g = (0, 0, -9.81): minus 9.81 times the third row of wR_0
            final InverseDynamics fixed = new InverseDynamics(
                CompiledModel.of(fixedRobot, -9.81 * r[6], -9.81 * r[7], -9.81 * r[8]));
            final FreeBaseInverseDynamics inverse = new FreeBaseInverseDynamics(CompiledModel.of(robot));
            final int n = robot.dof();
            final double[] expected = new double[n];
            final double[] actual = new double[n];
            final double[] wrench = new double[6];
            for (int s = 0; s < SAMPLES; s++)
            {
                final double[] q = RandomRobots.vector(rnd, n, Math.PI);
                final double[] qd = RandomRobots.vector(rnd, n, 2.0);
                final double[] qdd = RandomRobots.vector(rnd, n, 4.0);
                fixed.compute(q, qd, qdd, expected);
                inverse.computeWithBaseAcceleration(pose, new double[6], new double[6], q, qd, qdd, GRAVITY, actual, wrench);
                for (int k = 0; k < n; k++)
                {
                    assertEquals(expected[k], actual[k], 1e-12 * (1.0 + Math.abs(expected[k])), "seed " + seed + " k " + k);
                }
            }
        }
    }

    @Test
    void aPayloadKeepsTheBaseFloating()
    {
        final RobotModel robot = FloatingRobots.robot(5, 4, false, false);
        final RobotModel loaded = Payloads.withPayload(robot, 3, RandomRobots.randomInertia(new SplittableRandom(5)));
        assertTrue(loaded.floatingBase());
        assertEquals(robot.baseInertia().mass(), loaded.baseInertia().mass(), 0.0);
    }

    @Test
    void aFixedBaseRobotIsRefused()
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new FreeBaseForwardDynamics(CompiledModel.of(RandomRobots.any(3))));
        assertTrue(e.getMessage().contains("has a fixed base; floating-base dynamics need a floating one"), e.getMessage());
    }

    @Test
    void inverseAndDirectDynamicsAllocateNothing()
    {
        final RobotModel robot = FloatingRobots.robot(7, 12, true, true);
        final CompiledModel compiled = CompiledModel.of(robot);
        final FreeBaseInverseDynamics inverse = new FreeBaseInverseDynamics(compiled);
        final FreeBaseForwardDynamics direct = new FreeBaseForwardDynamics(compiled);
        final SplittableRandom rnd = new SplittableRandom(7);
        final int n = robot.dof();
        final double[] pose = FloatingRobots.pose(rnd);
        final double[] twist = RandomRobots.vector(rnd, 6, 2.0);
        final double[] q = RandomRobots.vector(rnd, n, Math.PI);
        final double[] qd = RandomRobots.vector(rnd, n, 2.0);
        final double[] qdd = RandomRobots.vector(rnd, n, 4.0);
        final double[] a = new double[6];
        final double[] tau = new double[n];
        assertEquals(0L, AllocationMeter.bytesAllocated(
            () -> inverse.compute(pose, twist, q, qd, qdd, GRAVITY, a, tau), 20_000, 1000), "inverse dynamics");
        assertEquals(0L, AllocationMeter.bytesAllocated(
            () -> direct.compute(pose, twist, q, qd, tau, GRAVITY, a, qdd), 20_000, 1000), "direct dynamics");
    }

    /** Largest |expected - actual| / (1 + |expected|). */
    static double relativeError(final double[] expected, final double[] actual)
    {
        double worst = 0.0;
        for (int i = 0; i < expected.length; i++)
        {
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]) / (1.0 + Math.abs(expected[i])));
        }
        return worst;
    }
}
