package org.nectl.config;

import java.util.ArrayList;
import java.util.List;

import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.JointElasticity;
import org.nectl.core.elastic.Motor;
import org.nectl.core.model.RobotModel;

/**
 * Reads the {@code drives} mapping of a robot description or an actuator overlay (see
 * docs/ROBOT_DESCRIPTIONS.md): per movable joint an optional {@code motor} and an optional
 * {@code stiffness} (which makes the joint elastic, or passive without a motor) with {@code damping}
 * and, for a passive joint, {@code rest_position}. Every value is checked
 * and reported at its key; rules that involve the whole robot are reported at the joint's entry.
 * Not real-time safe.
 */
final class DriveSection
{
    /** Key of the section. */
    static final String KEY = "drives";

    private static final List<String> DRIVE_KEYS = List.of("motor", "stiffness", "damping", "rest_position");
    private static final List<String> MOTOR_KEYS = List.of("mount", "axis", "centre", "gear_ratio", "axial_inertia",
        "mass", "transverse_inertia", "coulomb_friction", "viscous_friction");
    private static final double INF = Double.POSITIVE_INFINITY;

    private DriveSection()
    {
    }

    /**
     * @param links the robot's links and joints.
     * @param drives the {@code drives} mapping, or null for none.
     * @return the model with those drives.
     * @throws DescriptionException naming file, line, field, value and the rule broken.
     */
    static ElasticRobotModel read(final RobotModel links, final YamlField drives)
    {
        final ElasticRobotModel.Builder builder = ElasticRobotModel.builder(links);
        if (drives == null)
        {
            return builder.build();
        }
        for (final YamlField entry : drives.entries())
        {
            readDrive(links, entry);
        }
        for (final YamlField entry : drives.entries())
        {
            final ElasticRobotModel.Builder single = ElasticRobotModel.builder(links);
            apply(single, links, entry);
            build(single, entry);
            apply(builder, links, entry);
        }
        return build(builder, drives);
    }

    private static void readDrive(final RobotModel links, final YamlField entry)
    {
        if (links.coordinateIndex(entry.key()) < 0)
        {
            throw entry.keyError("no movable joint named '" + entry.key() + "' in robot '" + links.name() + "'"
                + Suggestions.didYouMean(entry.key(), movableJoints(links)));
        }
        entry.mapping(DRIVE_KEYS);
        if (entry.has("damping") && !entry.has("stiffness"))
        {
            throw entry.child("damping").error("damping without stiffness: give the stiffness of the elastic joint");
        }
        if (entry.has("rest_position") && (entry.has("motor") || !entry.has("stiffness")))
        {
            throw entry.child("rest_position").error("rest_position belongs to a passive joint (stiffness, no motor);"
                + " with a motor the spring's other end is the motor angle");
        }
    }

    private static void apply(final ElasticRobotModel.Builder builder, final RobotModel links, final YamlField entry)
    {
        if (entry.has("motor"))
        {
            builder.motor(entry.key(), motor(links, entry.child("motor")));
        }
        if (entry.has("stiffness"))
        {
            final double stiffness = entry.child("stiffness").number(0.0, INF);
            if (stiffness == 0.0)
            {
                throw entry.child("stiffness").error("stiffness 0 must be > 0 (omit it for a rigid joint)");
            }
            final double damping = entry.has("damping") ? entry.child("damping").number(0.0, INF) : 0.0;
            final double rest = entry.has("rest_position") ? entry.child("rest_position").number() : 0.0;
            builder.elasticity(entry.key(), new JointElasticity(stiffness, damping, rest));
        }
    }

    private static Motor motor(final RobotModel links, final YamlField field)
    {
        field.mapping(MOTOR_KEYS);
        final int mount = mount(links, field.child("mount"));
        final double[] axis = field.has("axis") ? unit(field.child("axis")) : new double[] {0, 0, 1};
        final double[] centre = field.has("centre") ? field.child("centre").numbers(3) : new double[3];
        final double gearRatio = value(field, "gear_ratio", 1.0);
        if (gearRatio <= 0.0)
        {
            throw field.child("gear_ratio").error("gear ratio " + gearRatio + " must be > 0 (turn the axis to reverse the rotor)");
        }
        final double axial = field.child("axial_inertia").number(0.0, INF);
        final double transverse = value(field, "transverse_inertia", axial / 2.0);
        final Motor motor = new Motor(mount, axis, centre, gearRatio, axial, value(field, "mass", 0.0), transverse,
            value(field, "coulomb_friction", 0.0), value(field, "viscous_friction", 0.0));
        final String problem = motor.check();
        if (problem != null)
        {
            throw field.error(problem);
        }
        return motor;
    }

    private static int mount(final RobotModel links, final YamlField field)
    {
        final String name = field.text();
        if (name.equals(links.baseName()))
        {
            return -1;
        }
        final int body = links.bodyIndex(name);
        if (body < 0)
        {
            final List<String> known = new ArrayList<>();
            known.add(links.baseName());
            for (int i = 0; i < links.bodyCount(); i++)
            {
                known.add(links.bodyName(i));
            }
            throw field.error("no link named '" + name + "'" + Suggestions.didYouMean(name, known)
                + "; the mount is a link name or the base '" + links.baseName() + "'");
        }
        return body;
    }

    private static double[] unit(final YamlField field)
    {
        final double[] v = field.numbers(3);
        final double norm = Math.sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
        if (!(norm > 0.0))
        {
            throw field.error("axis [0, 0, 0] has no direction");
        }
        return new double[] {v[0] / norm, v[1] / norm, v[2] / norm};
    }

    private static double value(final YamlField field, final String key, final double fallback)
    {
        return field.has(key) ? field.child(key).number(0.0, INF) : fallback;
    }

    private static ElasticRobotModel build(final ElasticRobotModel.Builder builder, final YamlField where)
    {
        try
        {
            return builder.build();
        }
        catch (final IllegalArgumentException e)
        {
            throw where.error(e.getMessage());
        }
    }

    private static List<String> movableJoints(final RobotModel links)
    {
        final List<String> names = new ArrayList<>();
        for (int k = 0; k < links.dof(); k++)
        {
            names.add(links.coordinateName(k));
        }
        return names;
    }
}
