package org.nectl.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Reads a YAML robot description (format {@code modified-dh} or {@code standard-dh}, see
 * docs/ROBOT_DESCRIPTIONS.md) into a {@link RobotModel}. The generalised coordinates follow the
 * order of the movable joints in the file; bodies are ordered parents first. Not real-time safe;
 * thread safe (no state).
 */
final class YamlRobotDescription
{
    /** Khalil's tree notation. */
    static final String MODIFIED_DH = "modified-dh";
    /** Standard DH, frames at the link tips, serial chains. */
    static final String STANDARD_DH = "standard-dh";

    private static final List<String> FORMATS = List.of(MODIFIED_DH, STANDARD_DH);
    private static final List<String> MODIFIED_DH_KEYS =
        List.of("name", "base", "base_type", "format", "angles", "kinematics", "links", "joints", DriveSection.KEY,
            ClosedLoopDescriptions.KEY);
    private static final List<String> STANDARD_DH_KEYS =
        List.of("name", "base", "base_type", "format", "angles", "tool", "kinematics", "links", "joints",
            DriveSection.KEY);
    private static final String DEFAULT_BASE = "base";
    private static final String FLOATING = "floating";
    private static final List<String> BASE_TYPES = List.of("fixed", FLOATING);

    private YamlRobotDescription()
    {
    }

    /**
     * @param path the file.
     * @return the validated model.
     * @throws DescriptionException naming file, line, field and rule broken.
     */
    static RobotModel read(final Path path)
    {
        final YamlField root = YamlField.load(path);
        final String format = format(root);
        root.mapping(MODIFIED_DH.equals(format) ? MODIFIED_DH_KEYS : STANDARD_DH_KEYS);
        final String name = root.child("name").text();
        final String base = root.has("base") ? root.child("base").text() : DEFAULT_BASE;
        final boolean floating = root.has("base_type")
            && FLOATING.equals(root.child("base_type").choice("base_type", BASE_TYPES));
        final AngleUnit angles = AngleUnit.of(root);
        final YamlField kinematics = root.child("kinematics");
        final List<DescribedJoint> fileOrder = MODIFIED_DH.equals(format)
            ? ModifiedDhTable.read(kinematics, angles, base)
            : StandardDhTable.read(kinematics, angles, base, root.optional("tool"));
        final List<DescribedJoint> treeOrder = TreeOrder.sort(fileOrder, base);
        final Map<String, YamlField> links = named(root.child("links"), fileOrder, "link", floating ? base : null);
        final Map<String, YamlField> joints = root.has("joints")
            ? named(root.child("joints"), fileOrder, "joint", null) : Map.of();
        final RobotModel.Builder builder = RobotModel.builder(name).baseName(base);
        if (floating)
        {
            builder.floatingBase(baseInertia(root, links, base));
        }
        final Map<String, Integer> bodyIndex = new HashMap<>();
        bodyIndex.put(base, -1);
        for (final DescribedJoint j : treeOrder)
        {
            final int body = builder.addBody(
                j.link(), j.joint(), bodyIndex.get(j.antecedent()), j.type(), j.rotation(), j.translation(),
                inertia(j, links));
            bodyIndex.put(j.link(), body);
            final JointSettings settings = settings(j, joints, angles);
            builder.actuation(body, settings.actuation()).limits(body, settings.limits());
        }
        builder.coordinateOrder(movableJointNames(fileOrder));
        try
        {
            return builder.build();
        }
        catch (final IllegalArgumentException e)
        {
            throw root.error(e.getMessage());
        }
    }

    private static String format(final YamlField root)
    {
        return root.child("format").choice("format", FORMATS);
    }

    /** A floating base's inertia is required: it is a body of the robot like any other link. */
    private static InertialParameters baseInertia(
        final YamlField root, final Map<String, YamlField> links, final String base)
    {
        final YamlField entry = links.get(base);
        if (entry == null)
        {
            throw root.child("base_type").error("the base '" + base + "' floats but has no entry under 'links'"
                + " (give its mass, com and inertia in the base frame)");
        }
        return LinkInertia.read(entry);
    }

    /**
     * @param floatingBase the base's name if it floats (then it may have a {@code links} entry), else null.
     * @return the entries of a {@code links} or {@code joints} mapping by name, each naming a link or
     *     joint of the table.
     */
    private static Map<String, YamlField> named(
        final YamlField section, final List<DescribedJoint> joints, final String what, final String floatingBase)
    {
        final List<String> known = new ArrayList<>();
        if (floatingBase != null)
        {
            known.add(floatingBase);
        }
        for (final DescribedJoint j : joints)
        {
            known.add("link".equals(what) ? j.link() : j.joint());
        }
        final Map<String, YamlField> result = new LinkedHashMap<>();
        for (final YamlField entry : section.entries())
        {
            if (!known.contains(entry.key()))
            {
                throw entry.keyError("no " + what + " named '" + entry.key() + "' in the kinematics table"
                    + Suggestions.didYouMean(entry.key(), known));
            }
            result.put(entry.key(), entry);
        }
        return result;
    }

    private static InertialParameters inertia(final DescribedJoint j, final Map<String, YamlField> links)
    {
        final YamlField entry = links.get(j.link());
        if (entry == null)
        {
            if (j.type().isMovable())
            {
                throw j.field().error("link '" + j.link() + "' is moved by joint '" + j.joint()
                    + "' but has no entry under 'links' (give mass, com and inertia; mass may be 0)");
            }
            return InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        }
        final InertialParameters written = LinkInertia.read(entry);
        if (Arrays.equals(j.dataRotation(), Transforms.identity()) && Arrays.equals(j.dataTranslation(), new double[3]))
        {
            return written;
        }
        return written.transformed(j.dataRotation(), j.dataTranslation());
    }

    private static JointSettings settings(
        final DescribedJoint j, final Map<String, YamlField> joints, final AngleUnit angles)
    {
        final YamlField entry = joints.get(j.joint());
        if (entry == null)
        {
            return JointSettings.NONE;
        }
        if (!j.type().isMovable())
        {
            throw entry.keyError("joint '" + j.joint() + "' is fixed; only movable joints have actuation and limits");
        }
        return JointSettings.read(entry, j.type(), angles);
    }

    private static List<String> movableJointNames(final List<DescribedJoint> fileOrder)
    {
        final List<String> names = new ArrayList<>();
        for (final DescribedJoint j : fileOrder)
        {
            if (j.type().isMovable())
            {
                names.add(j.joint());
            }
        }
        return names;
    }
}
