package org.nectl.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.nectl.core.closedloop.ClosedLoopDefectException;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.CutJoint;
import org.nectl.core.model.JointType;
import org.nectl.core.model.ModifiedDh;
import org.nectl.core.model.RobotModel;

/**
 * Reads a closed-loop robot (see docs/ROBOT_DESCRIPTIONS.md, "Closed-loop robots"): a
 * {@code modified-dh} description of the equivalent tree plus a {@code closure} section in Khalil's
 * notation (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO
 * 2010, §2.2) giving the cut joints (frames k and k+B), the active joints and the home
 * configuration. {@link RobotDescriptions#load} reads the same file as the tree alone. Not real-time
 * safe (reads files); thread safe.
 */
public final class ClosedLoopDescriptions
{
    /** The top-level key of the closure section. */
    public static final String KEY = "closure";

    private static final List<String> CLOSURE_KEYS = List.of("active", "home", "cut_joints");
    private static final List<String> CUT_KEYS = List.of("type", "frame_k", "frame_k_plus_b");
    private static final List<String> FRAME_KEYS = List.of("antecedent", "gamma", "b", "alpha", "d", "theta", "r");
    private static final List<String> TYPES = List.of("R", "P", "S");

    private ClosedLoopDescriptions()
    {
    }

    /**
     * @param path a {@code .yaml} modified-DH description with a {@code closure} section.
     * @return the validated model, its home closed to Newton's tolerance.
     * @throws DescriptionException naming file, line, field, value and the rule broken, including
     *     loops that do not close at home, a wrong number of active joints and a singular home.
     */
    public static ClosedLoopModel load(final Path path)
    {
        final RobotModel tree = RobotDescriptions.load(path);
        final YamlField root = YamlField.load(path);
        if (!root.has(KEY))
        {
            throw root.error("no '" + KEY + "' section: this describes a tree, not a closed-loop robot");
        }
        final YamlField closure = root.child(KEY).mapping(CLOSURE_KEYS);
        final AngleUnit angles = AngleUnit.of(root);
        final int[] active = activeJoints(tree, closure.child("active"));
        final YamlField homeField = closure.child("home");
        final double[] home = home(tree, homeField, angles);
        final List<CutJoint> cuts = new ArrayList<>();
        final List<YamlField> cutFields = closure.child("cut_joints").entries();
        if (cutFields.isEmpty())
        {
            throw closure.child("cut_joints").error("no cut joints: a closed-loop robot has at least one");
        }
        for (final YamlField cut : cutFields)
        {
            cuts.add(cutJoint(tree, cut, angles));
        }
        try
        {
            return new ClosedLoopModel(tree, cuts, active, home);
        }
        catch (final ClosedLoopDefectException e)
        {
            final YamlField at = e.defect() == ClosedLoopDefectException.Defect.NOT_CLOSED_AT_HOME
                ? homeField : closure.child("active");
            throw at.error(e.getMessage());
        }
    }

    /**
     * @param path a description file.
     * @return true if it is a YAML description with a {@code closure} section; false for any other
     *     file, including unreadable ones (loading them reports why).
     */
    public static boolean isClosedLoop(final Path path)
    {
        final Path name = path.getFileName();
        final String lower = name == null ? "" : name.toString().toLowerCase(Locale.ROOT);
        if (!lower.endsWith(".yaml") && !lower.endsWith(".yml"))
        {
            return false;
        }
        try
        {
            return YamlField.load(path).has(KEY);
        }
        catch (final DescriptionException e)
        {
            return false;
        }
    }

    private static int[] activeJoints(final RobotModel tree, final YamlField field)
    {
        final List<YamlField> names = field.elements();
        if (names.isEmpty())
        {
            throw field.error("no active joints: name the motorised joints of the tree");
        }
        final int[] active = new int[names.size()];
        final Map<String, Integer> seen = new HashMap<>();
        for (int i = 0; i < active.length; i++)
        {
            final YamlField name = names.get(i);
            active[i] = coordinate(tree, name, name.text());
            if (seen.put(name.text(), i) != null)
            {
                throw name.error("joint '" + name.text() + "' is named twice");
            }
        }
        return active;
    }

    private static double[] home(final RobotModel tree, final YamlField field, final AngleUnit angles)
    {
        final double[] home = new double[tree.dof()];
        final boolean[] given = new boolean[tree.dof()];
        for (final YamlField entry : field.entries())
        {
            final int c = coordinate(tree, entry, entry.key());
            final boolean revolute = tree.jointType(tree.bodyOfCoordinate(c)) == JointType.REVOLUTE;
            home[c] = revolute ? angles.radians(entry) : entry.number();
            given[c] = true;
        }
        for (int c = 0; c < home.length; c++)
        {
            if (!given[c])
            {
                throw field.error("no home position for joint '" + tree.coordinateName(c)
                    + "'; give every joint of the tree, active and passive");
            }
        }
        return home;
    }

    private static int coordinate(final RobotModel tree, final YamlField at, final String jointName)
    {
        final List<String> names = new ArrayList<>();
        for (int c = 0; c < tree.dof(); c++)
        {
            names.add(tree.coordinateName(c));
        }
        final int c = names.indexOf(jointName);
        if (c < 0)
        {
            throw at.error("no movable joint named '" + jointName + "' in the tree" + Suggestions.didYouMean(jointName, names));
        }
        return c;
    }

    private static CutJoint cutJoint(final RobotModel tree, final YamlField cut, final AngleUnit angles)
    {
        cut.mapping(CUT_KEYS);
        final String type = cut.child("type").choice("type", TYPES);
        final YamlField k = cut.child("frame_k").mapping(FRAME_KEYS);
        final YamlField kPlusB = cut.child("frame_k_plus_b").mapping(FRAME_KEYS);
        final CutJoint.Type cutType = switch (type)
        {
            case "R" -> CutJoint.Type.REVOLUTE;
            case "P" -> CutJoint.Type.PRISMATIC;
            default -> CutJoint.Type.SPHERICAL;
        };
        return new CutJoint(cut.key(), cutType,
            body(tree, k), rotation(k, angles), translation(k, angles),
            body(tree, kPlusB), rotation(kPlusB, angles), translation(kPlusB, angles));
    }

    private static int body(final RobotModel tree, final YamlField frame)
    {
        final YamlField antecedent = frame.child("antecedent");
        final String name = antecedent.text();
        if (name.equals(tree.baseName()))
        {
            return -1;
        }
        final List<String> links = new ArrayList<>();
        for (int b = 0; b < tree.bodyCount(); b++)
        {
            links.add(tree.bodyName(b));
        }
        if (!links.contains(name))
        {
            links.add(tree.baseName());
            throw antecedent.error("no link named '" + name + "' in the tree" + Suggestions.didYouMean(name, links)
                + "; the antecedent is a link name or the base '" + tree.baseName() + "'");
        }
        return tree.bodyIndex(name);
    }

    private static double[] rotation(final YamlField frame, final AngleUnit angles)
    {
        return ModifiedDh.placementRotation(angle(frame, "gamma", angles), angle(frame, "alpha", angles),
            angle(frame, "theta", angles));
    }

    private static double[] translation(final YamlField frame, final AngleUnit angles)
    {
        return ModifiedDh.placementTranslation(angle(frame, "gamma", angles), length(frame, "b"),
            angle(frame, "alpha", angles), length(frame, "d"), length(frame, "r"));
    }

    private static double angle(final YamlField frame, final String key, final AngleUnit angles)
    {
        return frame.has(key) ? angles.radians(frame.child(key)) : 0.0;
    }

    private static double length(final YamlField frame, final String key)
    {
        return frame.has(key) ? frame.child(key).number() : 0.0;
    }
}
