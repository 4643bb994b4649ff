package org.nectl.config.deploy;

import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;

/**
 * Reads the section {@code reference_blend}: how the position step of a streamed setpoint or a new
 * trajectory decays ({@link ReferenceBlend}). Every absent value takes
 * {@link ReferenceBlend.Settings#defaults}. Not real-time safe; thread safe.
 */
final class ReferenceBlendReader
{
    /** Keys of the section. */
    static final List<String> KEYS = List.of("pole", "acceleration", "jerk");

    private ReferenceBlendReader()
    {
    }

    /**
     * @param section the {@code reference_blend} mapping, if present.
     * @param model the robot.
     * @param periodNs the control period, ns.
     * @return the settings.
     * @throws org.nectl.config.DescriptionException for a pole above 0.1 / period or a bound that is not positive.
     */
    static ReferenceBlend.Settings read(final Optional<YamlField> section, final RobotModel model, final long periodNs)
    {
        final ReferenceBlend.Settings d = ReferenceBlend.Settings.defaults(CompiledModel.of(model), periodNs);
        section.ifPresent(s -> s.mapping(KEYS));
        final double maxPole = ReferenceBlend.MAX_POLE_TIMES_PERIOD / (periodNs * 1e-9);
        final double pole = section.flatMap(s -> s.optional("pole")).map(f -> pole(f, maxPole)).orElse(d.pole());
        return new ReferenceBlend.Settings(pole,
            bounds(section, "acceleration", model.dof(), d.accelerationMax()),
            bounds(section, "jerk", model.dof(), d.jerkMax()));
    }

    private static double pole(final YamlField field, final double maxPole)
    {
        final double pole = field.number(0.0, Double.POSITIVE_INFINITY);
        if (!(pole > 0.0) || pole > maxPole)
        {
            throw field.error("pole " + field.text() + " 1/s must be > 0 and at most " + maxPole
                + " = 0.1 / period (ten control periods per time constant)");
        }
        return pole;
    }

    private static double[] bounds(final Optional<YamlField> section, final String key, final int dof, final double[] defaults)
    {
        final Optional<YamlField> field = section.flatMap(s -> s.optional(key));
        if (field.isEmpty())
        {
            return defaults;
        }
        final double[] bounds = CycleSettingsReader.perJoint(field.get(), dof, CycleSettingsReader.Limit.NONE);
        for (final double bound : bounds)
        {
            if (!(bound > 0.0))
            {
                throw field.get().error("every " + key + " bound of the reference blend must be > 0, got " + bound);
            }
        }
        return bounds;
    }
}
