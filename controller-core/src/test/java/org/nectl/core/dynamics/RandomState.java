package org.nectl.core.dynamics;

import java.util.SplittableRandom;

import org.nectl.core.testing.RandomRobots;

/**
 * A random joint state for identity tests: positions in [-pi, pi), velocities in [-2, 2),
 * accelerations in [-3, 3), per coordinate.
 */
record RandomState(double[] q, double[] qd, double[] qdd)
{
    static RandomState draw(final SplittableRandom rnd, final int dof)
    {
        return new RandomState(
            RandomRobots.vector(rnd, dof, Math.PI), RandomRobots.vector(rnd, dof, 2), RandomRobots.vector(rnd, dof, 3));
    }
}
