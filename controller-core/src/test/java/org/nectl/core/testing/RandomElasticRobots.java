package org.nectl.core.testing;

import java.util.SplittableRandom;

import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.JointElasticity;
import org.nectl.core.elastic.Motor;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.RobotModel;

/**
 * Seeded random robots with mixed rigid and elastic joints for identity tests: the links of
 * {@link RandomRobots} (chains or trees, arbitrary axes, revolute, prismatic and fixed joints, link
 * friction), motors on most joints (random mount link, axis, centre, gear ratio, rotor mass and
 * inertia, motor friction), about half of the motorised joints elastic with random stiffness and
 * damping. The same seed always gives the same robot.
 */
public final class RandomElasticRobots
{
    private RandomElasticRobots()
    {
    }

    /**
     * @param seed generator seed.
     * @param rigidMotorsOnBase true to mount every rigid joint's motor on the base (the robots that
     *     recursive forward dynamics accepts); elastic joints' motors are mounted anywhere.
     * @return a robot of 1-8 bodies with at least one elastic joint.
     */
    public static ElasticRobotModel robot(final long seed, final boolean rigidMotorsOnBase)
    {
        final SplittableRandom rnd = new SplittableRandom(seed ^ 0x5DEECE66DL);
        final RobotModel drawn = RandomRobots.robot(seed, rnd.nextInt(1, 9), rnd.nextBoolean(), RandomRobots.Joints.ALL, true);
        final boolean[] motorised = new boolean[drawn.dof()];
        final boolean[] elastic = new boolean[drawn.dof()];
        for (int k = 0; k < drawn.dof(); k++)
        {
            motorised[k] = rnd.nextDouble() < 0.75;
            elastic[k] = motorised[k] && rnd.nextBoolean();
        }
        final int first = rnd.nextInt(drawn.dof());
        motorised[first] = true;
        elastic[first] = true;
        final RobotModel links = withoutRotorInertia(drawn, motorised);
        final ElasticRobotModel.Builder builder = ElasticRobotModel.builder(links);
        for (int k = 0; k < links.dof(); k++)
        {
            if (!motorised[k])
            {
                continue;
            }
            final int mount = rigidMotorsOnBase && !elastic[k] ? -1 : rnd.nextInt(-1, links.bodyCount());
            builder.motor(links.coordinateName(k), motor(rnd, mount));
            if (elastic[k])
            {
                builder.elasticity(links.coordinateName(k),
                    new JointElasticity(rnd.nextDouble(20.0, 500.0), rnd.nextDouble(0.0, 2.0)));
            }
        }
        return builder.build();
    }

    /**
     * @param seed generator seed.
     * @param rigidMotorsOnBase as for {@link #robot}.
     * @return the robot of {@link #robot}(seed, rigidMotorsOnBase) with passive elastic joints (Khalil 2010, eqs.
     *     69-70): every joint without a motor and one more drawn joint (its motor removed) get a
     *     spring to a random rest position, random stiffness 20-500 and damping 0-2.
     */
    public static ElasticRobotModel withPassiveJoints(final long seed, final boolean rigidMotorsOnBase)
    {
        final ElasticRobotModel model = robot(seed, rigidMotorsOnBase);
        final SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
        final int forced = rnd.nextInt(model.dof());
        final ElasticRobotModel.Builder b = ElasticRobotModel.builder(model.links());
        for (int k = 0; k < model.dof(); k++)
        {
            final String joint = model.links().coordinateName(k);
            if (model.hasMotor(k) && k != forced)
            {
                b.motor(joint, model.motor(k));
                if (model.isElastic(k))
                {
                    b.elasticity(joint, model.elasticity(k));
                }
            }
            else
            {
                b.elasticity(joint, new JointElasticity(rnd.nextDouble(20.0, 500.0), rnd.nextDouble(0.0, 2.0),
                    rnd.nextDouble(-1.0, 1.0)));
            }
        }
        return b.build();
    }

    /**
     * @param seed generator seed.
     * @return the robot of {@link #robot}(seed, false) with every rigid joint's motor moved to its
     *     joint's link or that link's parent (drawn), the usual mounts of a gearmotor.
     */
    public static ElasticRobotModel withMotorsNextToTheirJoints(final long seed)
    {
        final ElasticRobotModel model = robot(seed, false);
        final SplittableRandom rnd = new SplittableRandom(seed * 17 + 3);
        final RobotModel links = model.links();
        final ElasticRobotModel.Builder b = ElasticRobotModel.builder(links);
        for (int k = 0; k < model.dof(); k++)
        {
            final String joint = links.coordinateName(k);
            if (!model.hasMotor(k))
            {
                continue;
            }
            final Motor m = model.motor(k);
            final int body = links.bodyOfCoordinate(k);
            final int mount = model.isElastic(k) ? m.mountBody() : rnd.nextBoolean() ? body : links.parent(body);
            b.motor(joint, new Motor(mount, m.axis(), m.centre(), m.gearRatio(), m.axialInertia(), m.rotorMass(),
                m.transverseInertia(), m.coulombFriction(), m.viscousFriction()));
            if (model.isElastic(k))
            {
                b.elasticity(joint, model.elasticity(k));
            }
        }
        return b.build();
    }

    /**
     * @param rnd generator.
     * @param mount mount body, -1 for the base.
     * @return a motor with random axis, centre, gear ratio, rotor mass and inertia, friction.
     */
    public static Motor motor(final SplittableRandom rnd, final int mount)
    {
        final double[] axis = RandomRobots.vector(rnd, 3, 1.0);
        final double n = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        final double axial = rnd.nextDouble(0.001, 0.05);
        return new Motor(mount, new double[] {axis[0] / n, axis[1] / n, axis[2] / n}, RandomRobots.vector(rnd, 3, 0.3),
            rnd.nextDouble(0.5, 4.0), axial, rnd.nextDouble(0.0, 1.5), rnd.nextDouble(axial / 2.0, axial * 2.0),
            rnd.nextDouble(0.0, 1.0), rnd.nextDouble(0.0, 0.5));
    }

    /**
     * @param model a robot.
     * @param motorised per coordinate: true if a motor model replaces its rotor inertia.
     * @return the same robot with zero rotor inertia (friction kept) on the motorised joints.
     */
    public static RobotModel withoutRotorInertia(final RobotModel model, final boolean[] motorised)
    {
        final RobotModel.Builder b = RobotModel.builder(model.name()).baseName(model.baseName());
        final String[] order = new String[model.dof()];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final int body = b.addBody(model.bodyName(i), model.jointName(i), model.parent(i), model.jointType(i),
                model.placementRotation(i), model.placementTranslation(i), model.inertialParameters(i));
            final int k = model.coordinateOfBody(i);
            if (k >= 0)
            {
                final JointActuation a = model.actuation(k);
                b.actuation(body, motorised[k] ? new JointActuation(0.0, a.coulombFriction(), a.viscousFriction()) : a)
                    .limits(body, model.limits(k));
                order[k] = model.jointName(i);
            }
        }
        return b.coordinateOrder(java.util.List.of(order)).build();
    }

    /** True if some elastic joint's rotor is mounted on a body outboard of an elastic joint. */
    public static boolean elasticRotorOutboardOfElasticJoint(final ElasticRobotModel model)
    {
        final RobotModel links = model.links();
        for (int e = 0; e < model.elasticCount(); e++)
        {
            for (int f = 0; f < model.elasticCount(); f++)
            {
                final int jointBody = links.bodyOfCoordinate(model.coordinateOfElastic(f));
                for (int b = model.motor(model.coordinateOfElastic(e)).mountBody(); b >= 0; b = links.parent(b))
                {
                    if (b == jointBody)
                    {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /**
     * @param rnd generator.
     * @return a carried base turning at up to 1 rad/s, accelerating angularly at up to 3 rad/s^2, with a
     *     specific force up to 4 m/s^2 off 9.81 m/s^2 along z per component.
     */
    public static BaseMotion carriedBase(final SplittableRandom rnd)
    {
        final double[] w = RandomRobots.vector(rnd, 3, 1.0);
        final double[] wd = RandomRobots.vector(rnd, 3, 3.0);
        final double[] f = RandomRobots.vector(rnd, 3, 4.0);
        return new BaseMotion().orientation(0.6, 0.0, 0.0, 0.8).angularVelocity(w[0], w[1], w[2])
            .angularAcceleration(wd[0], wd[1], wd[2]).specificForce(f[0], f[1], f[2] + 9.81);
    }
}
