package org.nectl.core.mobile;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class CarriedBaseInverseDynamicsTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final int SAMPLES = 50;

    @Test
    void baseAtRestEqualsFixedBaseInverseDynamics()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final CompiledModel model = CompiledModel.of(RandomRobots.any(seed));
            final InverseDynamics fixed = new InverseDynamics(model);
            final CarriedBaseInverseDynamics carried = new CarriedBaseInverseDynamics(model);
            final BaseMotion rest = new BaseMotion().atRest(GRAVITY);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] expected = new double[model.dof()];
            final double[] actual = new double[model.dof()];
            for (int n = 0; n < SAMPLES; n++)
            {
                final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
                final double[] qd = RandomRobots.vector(rnd, model.dof(), 2.0);
                final double[] qdd = RandomRobots.vector(rnd, model.dof(), 4.0);
                fixed.compute(q, qd, qdd, expected);
                carried.compute(q, qd, qdd, rest, actual);
                assertClose(expected, actual, 1e-12, "seed " + seed);
            }
        }
    }

    @Test
    void pureTranslationEqualsFixedBaseUnderGravityMinusBaseAcceleration()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final RobotModel robot = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] a = RandomRobots.vector(rnd, 3, 6.0);
            final CarriedBaseInverseDynamics carried = new CarriedBaseInverseDynamics(CompiledModel.of(robot));
            final InverseDynamics equivalent = new InverseDynamics(
                CompiledModel.of(robot, GRAVITY[0] - a[0], GRAVITY[1] - a[1], GRAVITY[2] - a[2]));
            final BaseMotion translating = new BaseMotion().atRest(GRAVITY).worldAcceleration(a[0], a[1], a[2], GRAVITY);
            final double[] expected = new double[robot.dof()];
            final double[] actual = new double[robot.dof()];
            for (int n = 0; n < SAMPLES; n++)
            {
                final double[] q = RandomRobots.vector(rnd, robot.dof(), Math.PI);
                final double[] qd = RandomRobots.vector(rnd, robot.dof(), 2.0);
                final double[] qdd = RandomRobots.vector(rnd, robot.dof(), 4.0);
                equivalent.compute(q, qd, qdd, expected);
                carried.compute(q, qd, qdd, translating, actual);
                assertClose(expected, actual, 1e-12, "seed " + seed + ", base acceleration " + a[0] + " " + a[1] + " " + a[2]);
            }
        }
    }

    @Test
    void carriedBaseInverseDynamicsAllocatesNothingPerCall()
    {
        final long seed = 7;
        final CompiledModel model = CompiledModel.of(RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true));
        final SplittableRandom rnd = new SplittableRandom(seed);
        final double[] q = RandomRobots.vector(rnd, model.dof(), Math.PI);
        final double[] qd = RandomRobots.vector(rnd, model.dof(), 2.0);
        final double[] qdd = RandomRobots.vector(rnd, model.dof(), 4.0);
        final double[] tau = new double[model.dof()];
        final double[] wrench = new double[6];
        final CarriedBaseInverseDynamics carried = new CarriedBaseInverseDynamics(model);
        final BaseMotion base = new BaseMotion().orientation(0.5, 0.5, 0.5, 0.5).angularVelocity(0.1, -0.2, 0.3)
            .angularAcceleration(1.0, 0.5, -0.5).specificForce(0.3, -1.2, 9.9);
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            carried.compute(q, qd, qdd, base, tau);
            carried.carrierWrench(wrench);
        }, 20_000, 100_000);
        assertEquals(0L, bytes, "seed " + seed + ": bytes allocated over 100000 calls");
    }

    static void assertClose(final double[] expected, final double[] actual, final double relative, final String context)
    {
        for (int k = 0; k < expected.length; k++)
        {
            final double tolerance = relative * Math.max(1.0, Math.abs(expected[k]));
            assertEquals(expected[k], actual[k], tolerance, context + ", coordinate " + k);
        }
    }
}
