package org.nectl.core.testing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SplittableRandom;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Seeded random robots for identity tests between algorithms: chains and branched trees, arbitrary
 * joint placements (so arbitrary axes), revolute, prismatic and fixed joints, full physically
 * consistent inertias, rotor inertia and friction. The same seed always gives the same robot.
 */
public final class RandomRobots
{
    /** Which joint kinds a random robot may contain. */
    public enum Joints
    {
        /** Revolute only. */
        REVOLUTE,
        /** Revolute and prismatic. */
        MOVABLE,
        /** Revolute, prismatic and fixed. */
        ALL
    }

    private RandomRobots()
    {
    }

    /**
     * @param seed generator seed.
     * @param bodies number of bodies (joints).
     * @param branched false for a serial chain; true for a tree whose parents are drawn at random.
     * @param joints which joint kinds may appear.
     * @param withActuation true to draw rotor inertia and friction too.
     * @return the model, coordinates in a shuffled (non-body) order when branched.
     */
    public static RobotModel robot(
        final long seed, final int bodies, final boolean branched, final Joints joints, final boolean withActuation)
    {
        return robot(seed, bodies, branched, joints, withActuation, JointLimits.NONE);
    }

    /**
     * As {@link #robot(long, int, boolean, Joints, boolean)}, every movable joint with the given limits.
     *
     * @param limits the limits of every movable joint.
     * @return the model.
     */
    public static RobotModel robot(
        final long seed, final int bodies, final boolean branched, final Joints joints, final boolean withActuation,
        final JointLimits limits)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final RobotModel.Builder builder = RobotModel.builder("random-" + seed);
        final List<String> movable = new ArrayList<>();
        for (int i = 0; i < bodies; i++)
        {
            final int parent = branched ? rnd.nextInt(-1, i) : i - 1;
            final JointType type = type(rnd, joints, i);
            final double[] rotation = randomRotation(rnd);
            final double[] translation = {rnd.nextDouble(-0.5, 0.5), rnd.nextDouble(-0.5, 0.5), rnd.nextDouble(-0.5, 0.5)};
            final int b = builder.addBody(
                "link" + i, "joint" + i, parent, type, rotation, translation, randomInertia(rnd));
            if (type.isMovable())
            {
                movable.add("joint" + i);
                builder.limits(b, limits);
                if (withActuation)
                {
                    builder.actuation(b, new JointActuation(
                        rnd.nextDouble(0.0, 0.5), rnd.nextDouble(0.0, 2.0), rnd.nextDouble(0.0, 1.0)));
                }
            }
        }
        if (branched)
        {
            Collections.shuffle(movable, new java.util.Random(seed));
            builder.coordinateOrder(movable);
        }
        return builder.build();
    }

    /**
     * @param seed generator seed.
     * @return a robot of 1-12 bodies, chain or tree, any joint kinds, with actuation.
     */
    public static RobotModel any(final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed ^ 0x9E3779B97F4A7C15L);
        return robot(seed, rnd.nextInt(1, 13), rnd.nextBoolean(), Joints.ALL, true);
    }

    /**
     * @param rnd generator.
     * @param n length.
     * @param scale values drawn from [-scale, scale).
     * @return a random vector.
     */
    public static double[] vector(final SplittableRandom rnd, final int n, final double scale)
    {
        final double[] v = new double[n];
        for (int i = 0; i < n; i++)
        {
            v[i] = rnd.nextDouble(-scale, scale);
        }
        return v;
    }

    /**
     * @param rnd generator.
     * @return a uniformly random rotation (from a random unit quaternion), row-major.
     */
    public static double[] randomRotation(final SplittableRandom rnd)
    {
        double w;
        double x;
        double y;
        double z;
        double n;
        do
        {
            w = rnd.nextGaussian();
            x = rnd.nextGaussian();
            y = rnd.nextGaussian();
            z = rnd.nextGaussian();
            n = Math.sqrt(w * w + x * x + y * y + z * z);
        }
        while (n < 1e-3);
        w /= n;
        x /= n;
        y /= n;
        z /= n;
        return new double[] {
            1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w),
            2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
            2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)};
    }

    /**
     * @param rnd generator.
     * @return physically consistent inertial parameters: positive mass, offset centre of mass,
     *     principal moments obeying the triangle inequality, principal axes randomly rotated.
     */
    public static InertialParameters randomInertia(final SplittableRandom rnd)
    {
        final double mass = rnd.nextDouble(0.2, 5.0);
        final double[] com = {rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3), rnd.nextDouble(-0.3, 0.3)};
        // Principal moments from a random positive mass distribution: a = sum of second moments.
        final double sx = rnd.nextDouble(0.001, 0.05);
        final double sy = rnd.nextDouble(0.001, 0.05);
        final double sz = rnd.nextDouble(0.001, 0.05);
        final double[] principal = {mass * (sy + sz), 0, 0, 0, mass * (sx + sz), 0, 0, 0, mass * (sx + sy)};
        final double[] r = randomRotation(rnd);
        final double[] inertia = Transforms.multiply(r, Transforms.multiply(principal, Transforms.transpose(r)));
        // Exact symmetry despite rounding.
        inertia[3] = inertia[1];
        inertia[6] = inertia[2];
        inertia[7] = inertia[5];
        return InertialParameters.ofCentreOfMass(mass, com, inertia);
    }

    private static JointType type(final SplittableRandom rnd, final Joints joints, final int index)
    {
        final double u = rnd.nextDouble();
        switch (joints)
        {
            case REVOLUTE:
                return JointType.REVOLUTE;
            case MOVABLE:
                return u < 0.7 ? JointType.REVOLUTE : JointType.PRISMATIC;
            default:
                // Body 0 stays movable so that every robot has at least one coordinate.
                if (index > 0 && u < 0.15)
                {
                    return JointType.FIXED;
                }
                return u < 0.7 ? JointType.REVOLUTE : JointType.PRISMATIC;
        }
    }
}
