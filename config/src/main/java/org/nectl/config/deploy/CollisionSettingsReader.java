package org.nectl.config.deploy;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.nectl.config.YamlField;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.CycleSettings;

/**
 * Reads the section {@code collision}: the momentum observer's gain and friction model, the
 * per-joint detection thresholds and the reaction (docs/DEPLOYMENT.md, docs/SAFETY.md). Every absent
 * value takes {@link CollisionSettings#defaults}: without {@code threshold} the external torque is
 * estimated and reported but nothing is detected. Not real-time safe; thread safe.
 */
final class CollisionSettingsReader
{
    /** Keys of the section. */
    static final List<String> KEYS = List.of("observer_gain", "model_friction", "threshold", "reaction", "retract_distance");
    /** Largest threshold, N m (N): above every torque limit nectl has seen; more is a unit error. */
    static final double MAX_THRESHOLD = 10_000.0;
    private static final List<String> REACTIONS = List.of("stop", "hold", "retract");

    private CollisionSettingsReader()
    {
    }

    /**
     * @param section the {@code collision} mapping, if present.
     * @param dof joints of the robot.
     * @param periodNs the control period, ns.
     * @param elastic true if the robot has elastic joints (no observer runs).
     * @param closedLoop true for a closed-loop robot (no observer runs: it is built on a tree's momentum).
     * @return the settings.
     * @throws org.nectl.config.DescriptionException naming the field, its value and the rule broken.
     */
    static CollisionSettings read(final Optional<YamlField> section, final int dof, final long periodNs, final boolean elastic,
        final boolean closedLoop)
    {
        final CollisionSettings d = CollisionSettings.defaults(dof);
        if (section.isEmpty())
        {
            return d;
        }
        final YamlField s = section.get().mapping(KEYS);
        if (elastic)
        {
            throw s.error("collision detection needs a rigid robot: the links of an elastic joint are driven by its"
                + " spring, not by the commanded torque the momentum observer integrates");
        }
        if (closedLoop)
        {
            throw s.error("collision detection needs a tree robot: the momentum observer is built on the generalised"
                + " momentum of a tree, not of a closed-loop robot's active joints");
        }
        final double maxGain = 1e9 / periodNs;
        final double[] gain = s.optional("observer_gain").map(f -> positive(f, dof, maxGain,
            maxGain + " 1/s = 1/period (the discrete observer is stable below it)")).orElse(d.observerGain());
        final double[] threshold = s.optional("threshold")
            .map(f -> positive(f, dof, MAX_THRESHOLD, MAX_THRESHOLD + " N m (more is a unit error)")).orElse(d.thresholdNm());
        final CollisionSettings.Reaction reaction = s.optional("reaction")
            .map(f -> CollisionSettings.Reaction.valueOf(f.choice("collision reaction", REACTIONS).toUpperCase(Locale.ROOT)))
            .orElse(d.reaction());
        final Optional<YamlField> retract = s.optional("retract_distance");
        if (retract.isPresent() && reaction != CollisionSettings.Reaction.RETRACT)
        {
            throw retract.get().error("retract_distance applies to reaction retract only (reaction is "
                + reaction.name().toLowerCase(Locale.ROOT) + ")");
        }
        final double retractDistance = retract.map(f -> f.number(0.0, CollisionSettings.MAX_RETRACT))
            .orElse(reaction == CollisionSettings.Reaction.RETRACT ? 0.01 : 0.0);
        return new CollisionSettings(gain, s.optional("model_friction").map(YamlField::bool).orElse(d.modelFriction()),
            threshold, reaction, retractDistance);
    }

    /** One value per joint (a scalar or a list), each > 0 and below {@code max}. */
    private static double[] positive(final YamlField field, final int dof, final double max, final String rule)
    {
        final double[] values = CycleSettingsReader.perJoint(field, dof, CycleSettingsReader.Limit.NONE);
        for (final double v : values)
        {
            if (!(v > 0.0 && v < max))
            {
                throw field.error("every " + field.key() + " must be > 0 and below " + rule + ", got " + v);
            }
        }
        return values;
    }
}
