package org.nectl.core.dynamics.screw;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.testing.RandomRobots;

final class SpatialInertiaTest
{
    @Test
    void spatialInertiaAtTheBodyOriginUsesTheFirstMomentAndInertiaAboutTheOrigin()
    {
        for (long seed = 1; seed <= 500; seed++)
        {
            final InertialParameters inertia = RandomRobots.randomInertia(new SplittableRandom(seed));
            final double[] g = new double[SpatialInertia.SIZE];
            SpatialInertia.ofBody(inertia, g, 0);
            // Khalil's standard parameters: G = [[J_O, [MS]], [-[MS], M 1]] for (omega, v) ordering.
            final double[] j = inertia.inertiaAtOrigin();
            final double[] h = inertia.firstMoment();
            final double m = inertia.mass();
            final double[][] expected = {
                {j[0], j[1], j[2], 0, -h[2], h[1]},
                {j[3], j[4], j[5], h[2], 0, -h[0]},
                {j[6], j[7], j[8], -h[1], h[0], 0},
                {0, h[2], -h[1], m, 0, 0},
                {-h[2], 0, h[0], 0, m, 0},
                {h[1], -h[0], 0, 0, 0, m}};
            for (int r = 0; r < 6; r++)
            {
                for (int c = 0; c < 6; c++)
                {
                    assertTrue(Math.abs(expected[r][c] - g[6 * r + c]) <= 1e-13,
                        "seed " + seed + ": G[" + r + "][" + c + "] = " + g[6 * r + c] + ", expected " + expected[r][c]);
                }
            }
            final double[] twist = RandomRobots.vector(new SplittableRandom(seed), 6, 2);
            final double[] momentum = new double[6];
            SpatialInertia.apply(g, 0, twist, 0, momentum, 0);
            assertTrue(RigidTransformsTest.dot(twist, momentum) > 0, "seed " + seed + ": kinetic energy not positive");
        }
    }
}
