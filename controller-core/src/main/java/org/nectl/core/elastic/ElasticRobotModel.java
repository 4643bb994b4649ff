package org.nectl.core.elastic;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * An immutable robot with mixed rigid and elastic joints (Hua, Poursina, Sanfilippo, "Dynamic
 * Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive Newton-Euler
 * Formulation", §II): the links of a {@link RobotModel}, plus per movable joint an optional
 * {@link Motor} (rotor on any link, gear ratio, motor friction) and an optional
 * {@link JointElasticity}. An elastic joint with a motor has its motor angle theta as a state of its
 * own; an elastic joint without a motor is passive (Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, eqs. 69-70): a spring to its rest position q0,
 * no theta. A rigid joint with a motor keeps one coordinate q and its rotor turns with
 * gearRatio * q; a joint without a motor keeps the rotor inertia and friction of its
 * {@link org.nectl.core.model.JointActuation}. "Elastic joint" below means one with a motor.
 *
 * <p>State: link coordinates q (dof, the rigid model's coordinate order) and motor coordinates
 * theta (elasticCount, numbered e = 0..elasticCount-1 in the order of their joints' coordinates).
 * See {@link Motor} for the gear-ratio convention.
 *
 * <p>Thread safe (immutable). Accessors are cheap but meant for construction time.
 */
public final class ElasticRobotModel
{
    private final RobotModel links;
    private final Motor[] motor;
    private final JointElasticity[] elasticity;
    private final int[] elasticIndex;
    private final int[] coordinateOfElastic;

    private ElasticRobotModel(final RobotModel links, final Motor[] motor, final JointElasticity[] elasticity)
    {
        this.links = links;
        this.motor = motor;
        this.elasticity = elasticity;
        elasticIndex = new int[motor.length];
        Arrays.fill(elasticIndex, -1);
        int count = 0;
        for (int k = 0; k < motor.length; k++)
        {
            if (elasticity[k] != null && motor[k] != null)
            {
                elasticIndex[k] = count++;
            }
        }
        coordinateOfElastic = new int[count];
        for (int k = 0; k < motor.length; k++)
        {
            if (elasticIndex[k] >= 0)
            {
                coordinateOfElastic[elasticIndex[k]] = k;
            }
        }
    }

    /**
     * @param links the links and joints; rigid joints without a motor keep their actuation.
     * @return a builder adding motors and elasticity to those links.
     */
    public static Builder builder(final RobotModel links)
    {
        return new Builder(links);
    }

    /**
     * @param links the links and joints.
     * @return the model with no motors and no elastic joints: its dynamics are those of the rigid model.
     */
    public static ElasticRobotModel rigid(final RobotModel links)
    {
        return builder(links).build();
    }

    /** @return the links, joints and link-side actuation. */
    public RobotModel links()
    {
        return links;
    }

    /** @return number of link coordinates q. */
    public int dof()
    {
        return motor.length;
    }

    /** @return number of elastic joints, i.e. of motor coordinates theta. */
    public int elasticCount()
    {
        return coordinateOfElastic.length;
    }

    /** @return number of motors (rigid and elastic joints). */
    public int motorCount()
    {
        int count = 0;
        for (final Motor m : motor)
        {
            count += m == null ? 0 : 1;
        }
        return count;
    }

    /** @return whether coordinate k has a motor model. */
    public boolean hasMotor(final int coordinate)
    {
        return motor[coordinate] != null;
    }

    /**
     * @param coordinate link coordinate k.
     * @return its motor.
     * @throws IllegalArgumentException if the joint has no motor.
     */
    public Motor motor(final int coordinate)
    {
        if (motor[coordinate] == null)
        {
            throw new IllegalArgumentException("joint '" + links.coordinateName(coordinate) + "' has no motor");
        }
        return motor[coordinate];
    }

    /** @return whether coordinate k is an elastic joint with a motor (it has a theta). */
    public boolean isElastic(final int coordinate)
    {
        return elasticIndex[coordinate] >= 0;
    }

    /** @return whether coordinate k is a passive elastic joint: a spring to its rest position, no motor. */
    public boolean isPassive(final int coordinate)
    {
        return elasticity[coordinate] != null && motor[coordinate] == null;
    }

    /** @return number of passive elastic joints. */
    public int passiveCount()
    {
        int count = 0;
        for (int k = 0; k < motor.length; k++)
        {
            count += isPassive(k) ? 1 : 0;
        }
        return count;
    }

    /**
     * @param coordinate link coordinate k of an elastic or passive joint.
     * @return its elasticity.
     * @throws IllegalArgumentException if the joint is rigid.
     */
    public JointElasticity elasticity(final int coordinate)
    {
        if (elasticity[coordinate] == null)
        {
            throw new IllegalArgumentException("joint '" + links.coordinateName(coordinate) + "' is rigid");
        }
        return elasticity[coordinate];
    }

    /** @return the motor-coordinate index e of coordinate k, or -1 if the joint is rigid. */
    public int elasticIndex(final int coordinate)
    {
        return elasticIndex[coordinate];
    }

    /** @return the link coordinate k of motor coordinate e. */
    public int coordinateOfElastic(final int elastic)
    {
        return coordinateOfElastic[elastic];
    }

    /**
     * @param stiffnessScale factor applied to every stiffness, > 0.
     * @return the same robot with the stiffness of every elastic joint with a motor multiplied, e.g.
     *     to approach {@link #rigidLimit}; passive joints are kept.
     */
    public ElasticRobotModel withStiffnessScaled(final double stiffnessScale)
    {
        final Builder b = builder(links);
        for (int k = 0; k < motor.length; k++)
        {
            b.motor[k] = motor[k];
            final boolean scaled = elasticity[k] != null && motor[k] != null;
            b.elasticity[k] = scaled
                ? new JointElasticity(elasticity[k].stiffness() * stiffnessScale, elasticity[k].damping())
                : elasticity[k];
        }
        return b.build();
    }

    /**
     * @return the same robot with every elastic joint with a motor rigid, keeping its motor: the limit
     *     K -> infinity; passive joints are kept (their limit would lock them at q0).
     */
    public ElasticRobotModel rigidLimit()
    {
        final Builder b = builder(links);
        System.arraycopy(motor, 0, b.motor, 0, motor.length);
        for (int k = 0; k < motor.length; k++)
        {
            b.elasticity[k] = isPassive(k) ? elasticity[k] : null;
        }
        return b.build();
    }

    /**
     * Collects motors and elasticity by joint name and checks them against the links. Not thread safe.
     */
    public static final class Builder
    {
        private final RobotModel links;
        private final Motor[] motor;
        private final JointElasticity[] elasticity;

        private Builder(final RobotModel links)
        {
            this.links = links;
            motor = new Motor[links.dof()];
            elasticity = new JointElasticity[links.dof()];
        }

        /**
         * @param jointName a movable joint of the links.
         * @param m its motor.
         * @return this builder.
         * @throws IllegalArgumentException if no movable joint has that name.
         */
        public Builder motor(final String jointName, final Motor m)
        {
            motor[coordinate(jointName)] = m;
            return this;
        }

        /**
         * @param jointName a movable joint of the links; with a motor it is elastic, without one passive.
         * @param e its elasticity; a rest position only for a passive joint.
         * @return this builder.
         * @throws IllegalArgumentException if no movable joint has that name.
         */
        public Builder elasticity(final String jointName, final JointElasticity e)
        {
            elasticity[coordinate(jointName)] = e;
            return this;
        }

        private int coordinate(final String jointName)
        {
            final int k = links.coordinateIndex(jointName);
            if (k < 0)
            {
                throw new IllegalArgumentException("no movable joint named '" + jointName + "' in robot '"
                    + links.name() + "'");
            }
            return k;
        }

        /**
         * @return the model.
         * @throws IllegalArgumentException naming the joint, the field, the value and the rule broken.
         */
        public ElasticRobotModel build()
        {
            for (int k = 0; k < motor.length; k++)
            {
                final String where = "joint '" + links.coordinateName(k) + "': ";
                if (elasticity[k] != null)
                {
                    check(where + "elasticity: ", elasticity[k].check());
                    if (motor[k] != null && elasticity[k].restPosition() != 0.0)
                    {
                        throw new IllegalArgumentException(where + "rest position " + elasticity[k].restPosition()
                            + " applies only to a passive joint (no motor); a motor's angle theta is the spring's other end");
                    }
                    if (motor[k] != null && motor[k].axialInertia() <= 0.0)
                    {
                        throw new IllegalArgumentException(where + "motor: axial inertia " + motor[k].axialInertia()
                            + " must be > 0 for an elastic joint (its theta has no other inertia)");
                    }
                }
                if (motor[k] != null)
                {
                    checkMotor(where + "motor: ", k, motor[k]);
                }
            }
            return new ElasticRobotModel(links, motor.clone(), elasticity.clone());
        }

        private void checkMotor(final String where, final int k, final Motor m)
        {
            check(where, m.check());
            if (m.mountBody() >= links.bodyCount())
            {
                throw new IllegalArgumentException(where + "mount body " + m.mountBody() + " does not exist (the robot has "
                    + links.bodyCount() + " bodies; -1 is the base)");
            }
            if (links.actuation(k).rotorInertia() != 0.0)
            {
                throw new IllegalArgumentException(where + "the joint also has rotor inertia "
                    + links.actuation(k).rotorInertia() + " in its actuation; give the rotor once, in the motor");
            }
        }

        private static void check(final String prefix, final String problem)
        {
            if (problem != null)
            {
                throw new IllegalArgumentException(prefix + problem);
            }
        }
    }
}
