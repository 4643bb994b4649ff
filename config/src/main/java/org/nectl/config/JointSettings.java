package org.nectl.config;

import java.util.List;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;

/**
 * Reads one movable joint's entry under {@code joints}: rotor inertia and friction (Khalil 2010,
 * eq. 31: tau += Ia qdd + Fs sign(qd) + Fv qd) and limits. Omitted values mean no rotor inertia, no
 * friction, no limit. Each value is checked with the model's own rules ({@link JointActuation#check},
 * {@link JointLimits#check}) and reported at its key. Not real-time safe.
 */
final class JointSettings
{
    private static final List<String> KEYS = List.of(
        "rotor_inertia", "coulomb_friction", "viscous_friction", "position", "velocity", "effort", "effort_rate");
    private static final double INF = Double.POSITIVE_INFINITY;

    /** Settings of a joint without an entry: no rotor inertia, no friction, no limits. */
    static final JointSettings NONE = new JointSettings(JointActuation.NONE, JointLimits.NONE);

    private final JointActuation actuation;
    private final JointLimits limits;

    private JointSettings(final JointActuation actuation, final JointLimits limits)
    {
        this.actuation = actuation;
        this.limits = limits;
    }

    /**
     * @param entry the joint's mapping.
     * @param type the joint's type (revolute angles follow the file's angle unit).
     * @param angles the file's angle unit.
     * @return the settings.
     */
    static JointSettings read(final YamlField entry, final JointType type, final AngleUnit angles)
    {
        entry.mapping(KEYS);
        final double ia = value(entry, "rotor_inertia", 0.0);
        check(entry, "rotor_inertia", new JointActuation(ia, 0.0, 0.0).check());
        final double fs = value(entry, "coulomb_friction", 0.0);
        check(entry, "coulomb_friction", new JointActuation(0.0, fs, 0.0).check());
        final double fv = value(entry, "viscous_friction", 0.0);
        check(entry, "viscous_friction", new JointActuation(0.0, 0.0, fv).check());
        final double[] position = position(entry, type, angles);
        check(entry, "position", new JointLimits(position[0], position[1], INF, INF, INF).check());
        final double velocity = entry.has("velocity") ? linear(entry.child("velocity"), type, angles) : INF;
        check(entry, "velocity", new JointLimits(-INF, INF, velocity, INF, INF).check());
        final double effort = value(entry, "effort", INF);
        check(entry, "effort", new JointLimits(-INF, INF, INF, effort, INF).check());
        final double effortRate = value(entry, "effort_rate", INF);
        check(entry, "effort_rate", new JointLimits(-INF, INF, INF, INF, effortRate).check());
        return new JointSettings(
            new JointActuation(ia, fs, fv), new JointLimits(position[0], position[1], velocity, effort, effortRate));
    }

    /** @return rotor inertia and friction. */
    JointActuation actuation()
    {
        return actuation;
    }

    /** @return position, velocity, effort and effort-rate limits. */
    JointLimits limits()
    {
        return limits;
    }

    private static double[] position(final YamlField entry, final JointType type, final AngleUnit angles)
    {
        if (!entry.has("position"))
        {
            return new double[] {-INF, INF};
        }
        final List<YamlField> bounds = entry.child("position").elements();
        if (bounds.size() != 2)
        {
            throw entry.child("position").error("expected [min, max], found a list of " + bounds.size());
        }
        return new double[] {linear(bounds.get(0), type, angles), linear(bounds.get(1), type, angles)};
    }

    private static double linear(final YamlField field, final JointType type, final AngleUnit angles)
    {
        return type == JointType.REVOLUTE ? angles.radians(field) : field.number();
    }

    private static double value(final YamlField entry, final String key, final double fallback)
    {
        return entry.has(key) ? entry.child(key).number() : fallback;
    }

    private static void check(final YamlField entry, final String key, final String problem)
    {
        if (problem != null)
        {
            throw (entry.has(key) ? entry.child(key) : entry).error(problem);
        }
    }
}
