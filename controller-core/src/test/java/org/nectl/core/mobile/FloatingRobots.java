package org.nectl.core.mobile;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

/** Seeded random floating-base robots and base states: {@link RandomRobots} trees on a free base of random inertia. */
final class FloatingRobots
{
    private FloatingRobots()
    {
    }

    /**
     * @param seed generator seed.
     * @param bodies number of bodies.
     * @param branched chain or tree.
     * @param withActuation rotor inertia and friction too.
     * @return the robot of {@link RandomRobots#robot} with a floating base.
     */
    static RobotModel robot(final long seed, final int bodies, final boolean branched, final boolean withActuation)
    {
        return floating(RandomRobots.robot(seed, bodies, branched, RandomRobots.Joints.ALL, withActuation),
            new SplittableRandom(~seed));
    }

    /** @return the same tree on a floating base of random inertia. */
    static RobotModel floating(final RobotModel fixed, final SplittableRandom rnd)
    {
        final RobotModel.Builder builder = RobotModel.builder(fixed.name()).baseName(fixed.baseName())
            .floatingBase(RandomRobots.randomInertia(rnd));
        for (int i = 0; i < fixed.bodyCount(); i++)
        {
            final int b = builder.addBody(fixed.bodyName(i), fixed.jointName(i), fixed.parent(i), fixed.jointType(i),
                fixed.placementRotation(i), fixed.placementTranslation(i), fixed.inertialParameters(i));
            final int k = fixed.coordinateOfBody(i);
            if (k >= 0)
            {
                builder.actuation(b, fixed.actuation(k)).limits(b, fixed.limits(k));
            }
        }
        final List<String> order = new ArrayList<>();
        for (int k = 0; k < fixed.dof(); k++)
        {
            order.add(fixed.coordinateName(k));
        }
        return builder.coordinateOrder(order).build();
    }

    /** @return a random pose: position in [-1, 1)^3 and a uniformly random unit quaternion. */
    static double[] pose(final SplittableRandom rnd)
    {
        final double[] pose = RandomRobots.vector(rnd, 7, 1.0);
        double n;
        do
        {
            for (int i = 3; i < 7; i++)
            {
                pose[i] = rnd.nextGaussian();
            }
            n = Math.sqrt(pose[3] * pose[3] + pose[4] * pose[4] + pose[5] * pose[5] + pose[6] * pose[6]);
        }
        while (n < 1e-3);
        for (int i = 3; i < 7; i++)
        {
            pose[i] /= n;
        }
        return pose;
    }
}
