package org.nectl.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartModel;

/**
 * Reads a Gough-Stewart platform (see docs/ROBOT_DESCRIPTIONS.md, "Gough-Stewart platforms"): a
 * YAML file of {@code format: gough-stewart} with the base and platform attachment points, the leg
 * kinematics (U-P-S), the platform, cylinder and rod inertias, the actuator limits and the home pose.
 * Not real-time safe (reads files); thread safe.
 */
public final class GoughStewartDescriptions
{
    /** The format name. */
    public static final String FORMAT = "gough-stewart";
    /** Smallest conditioning of J_p^-1 (singular-value ratio) accepted at home. */
    public static final double SINGULAR_CONDITIONING = 1e-6;

    private static final List<String> KEYS = List.of("name", "format", "angles", "legs", "base_points",
        "platform_points", "home", "platform", "cylinder", "rod", "actuator");
    private static final List<String> HOME_KEYS = List.of("position", "rpy");
    private static final List<String> ACTUATOR_KEYS = List.of("stroke", "velocity", "effort");

    private GoughStewartDescriptions()
    {
    }

    /**
     * @param path the {@code .yaml} file.
     * @return the validated model.
     * @throws DescriptionException naming file, line, field, value and the rule broken: not six
     *     points, a home leg length outside the stroke, a singular home, impossible inertias.
     */
    public static GoughStewartModel load(final Path path)
    {
        final YamlField root = YamlField.load(path);
        root.mapping(KEYS);
        root.child("format").choice("format", List.of(FORMAT));
        root.child("legs").choice("legs", List.of("U-P-S"));
        final AngleUnit angles = AngleUnit.of(root);
        final double[] base = points(root.child("base_points"));
        final double[] platform = points(root.child("platform_points"));
        final YamlField home = root.child("home").mapping(HOME_KEYS);
        final double[] position = home.child("position").numbers(3);
        final YamlField rpyField = home.child("rpy");
        final List<YamlField> rpy = rpyField.elements();
        if (rpy.size() != 3)
        {
            throw rpyField.error("expected [roll, pitch, yaw], found " + rpy.size() + " values");
        }
        final double[] rotation = Transforms.rpy(angles.radians(rpy.get(0)), angles.radians(rpy.get(1)),
            angles.radians(rpy.get(2)));
        final YamlField actuator = root.child("actuator").mapping(ACTUATOR_KEYS);
        final YamlField strokeField = actuator.child("stroke");
        final double[] stroke = strokeField.numbers(2);
        if (!(stroke[0] > 0.0 && stroke[0] < stroke[1]))
        {
            throw strokeField.error("stroke [" + stroke[0] + ", " + stroke[1] + "] m must satisfy 0 < min < max");
        }
        final JointLimits limits = new JointLimits(stroke[0], stroke[1],
            actuator.child("velocity").number(Double.MIN_VALUE, Double.POSITIVE_INFINITY),
            actuator.child("effort").number(Double.MIN_VALUE, Double.POSITIVE_INFINITY), Double.POSITIVE_INFINITY);
        final InertialParameters plate = LinkInertia.read(root.child("platform"));
        final InertialParameters cylinder = LinkInertia.read(root.child("cylinder"));
        final InertialParameters rod = LinkInertia.read(root.child("rod"));
        final GoughStewartModel model = new GoughStewartModel(root.child("name").text(), base, platform, plate,
            cylinder, rod, limits, position, rotation);
        final double[] lengths = model.legLengths(position, rotation);
        for (int i = 0; i < lengths.length; i++)
        {
            if (lengths[i] < stroke[0] || lengths[i] > stroke[1])
            {
                throw home.error("at home leg " + (i + 1) + " is " + lengths[i] + " m long, outside the stroke ["
                    + stroke[0] + ", " + stroke[1] + "] m");
            }
        }
        final double conditioning = model.conditioning(position, rotation);
        if (!(conditioning >= SINGULAR_CONDITIONING))
        {
            throw home.error("the platform is at a singularity at home: the leg-rate Jacobian J_p^-1 has singular-value"
                + " ratio " + conditioning + ", below " + SINGULAR_CONDITIONING);
        }
        return model;
    }

    /**
     * @param path a description file.
     * @return true if it is a YAML file declaring {@code format: gough-stewart}; false for any other
     *     file, including unreadable ones (loading them reports why).
     */
    public static boolean isGoughStewart(final Path path)
    {
        final Path name = path.getFileName();
        final String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".yaml") && !lower.endsWith(".yml"))
        {
            return false;
        }
        try
        {
            final YamlField root = YamlField.load(path);
            return root.has("format") && FORMAT.equals(root.child("format").text());
        }
        catch (final DescriptionException e)
        {
            return false;
        }
    }

    private static double[] points(final YamlField field)
    {
        final List<YamlField> items = field.elements();
        if (items.size() != GoughStewartModel.LEGS)
        {
            throw field.error("expected " + GoughStewartModel.LEGS + " points [x, y, z], one per leg, found " + items.size());
        }
        final double[] points = new double[3 * GoughStewartModel.LEGS];
        for (int i = 0; i < items.size(); i++)
        {
            System.arraycopy(items.get(i).numbers(3), 0, points, 3 * i, 3);
        }
        return points;
    }
}
