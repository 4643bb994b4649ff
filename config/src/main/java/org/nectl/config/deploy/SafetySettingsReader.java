package org.nectl.config.deploy;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.core.runtime.StopCategory;

/**
 * Reads the section {@code safety}: stop categories per fault and the limits of the supervisor's
 * reflexes; every absent value takes {@link SafetySettings#defaults}. Not real-time safe; thread safe.
 */
final class SafetySettingsReader
{
    /** Longest stop time, ms. */
    static final long MAX_STOP_TIME_MS = 10_000;
    /** Largest deceleration, rad/s^2 or m/s^2 (about 100 g at 1 m: anything larger is a unit error). */
    static final double MAX_DECELERATION = 1_000.0;
    /** Largest standstill velocity, rad/s or m/s. */
    static final double MAX_STANDSTILL_VELOCITY = 0.5;
    /** Largest soft-limit margin and state jump tolerance, rad or m. */
    static final double MAX_DISTANCE = 0.5;

    private static final List<String> KEYS = List.of(
        "stop_time_ms", "deceleration", "standstill_velocity", "soft_limit_margin", "state_jump", "stop_category");
    private static final double NS_PER_MS = 1e6;
    /** Smallest positive value accepted where zero would disable a check. */
    private static final double TINY = 1e-9;

    private SafetySettingsReader()
    {
    }

    /**
     * @param section the {@code safety} mapping, if present.
     * @param model the robot.
     * @return the settings.
     */
    static SafetySettings read(final Optional<YamlField> section, final RobotModel model)
    {
        final int dof = model.dof();
        final SafetySettings d = SafetySettings.defaults(dof);
        if (section.isEmpty())
        {
            return d;
        }
        final YamlField s = section.get().mapping(KEYS);
        final SafetySettings settings = new SafetySettings(
            s.optional("stop_category").map(SafetySettingsReader::categories).orElse(d.categories()),
            s.optional("stop_time_ms").map(f -> (long)(f.integer(1, MAX_STOP_TIME_MS) * NS_PER_MS)).orElse(d.stopTimeNs()),
            s.optional("deceleration").map(f -> deceleration(f, dof)).orElse(d.decelerationMax()),
            s.optional("standstill_velocity").map(f -> f.number(TINY, MAX_STANDSTILL_VELOCITY)).orElse(d.standstillVelocity()),
            s.optional("soft_limit_margin").map(f -> f.number(0.0, MAX_DISTANCE)).orElse(d.softLimitMargin()),
            s.optional("state_jump").map(f -> f.number(TINY, MAX_DISTANCE)).orElse(d.stateJumpTolerance()));
        final String shortfall = settings.stopTimeShortfall(model);
        if (shortfall != null)
        {
            final YamlField at = s.optional("stop_time_ms").or(() -> s.optional("deceleration")).orElse(s);
            throw at.error("the stop time " + settings.stopTimeNs() / NS_PER_MS + " ms is too short: " + shortfall
                + " (a category 1 or 2 stop takes 15/8 v / a)");
        }
        return settings;
    }

    private static double[] deceleration(final YamlField field, final int dof)
    {
        final double[] a = CycleSettingsReader.perJoint(field, dof,
            new CycleSettingsReader.Limit(MAX_DECELERATION, MAX_DECELERATION + " rad/s^2 (more is a unit error)"));
        for (final double value : a)
        {
            if (!(value > 0.0))
            {
                throw field.error("every deceleration must be > 0 (a joint that cannot decelerate cannot stop)");
            }
        }
        return a;
    }

    private static StopCategory[] categories(final YamlField section)
    {
        final List<String> keys = new ArrayList<>();
        for (int bit = 0; bit < Faults.COUNT; bit++)
        {
            if (1 << bit != Faults.STOP_TIMEOUT)
            {
                keys.add(Faults.key(bit));
            }
        }
        section.mapping(keys);
        final StopCategory[] categories = SafetySettings.defaults(1).categories();
        for (int bit = 0; bit < Faults.COUNT; bit++)
        {
            final Optional<YamlField> field = section.optional(Faults.key(bit));
            if (field.isPresent())
            {
                final StopCategory category = StopCategory.of(field.get().integer(0, 2));
                final String rule = SafetySettings.categoryRule(bit, category);
                if (rule != null)
                {
                    throw field.get().error("stop category " + field.get().text() + " not allowed: " + rule);
                }
                categories[bit] = category;
            }
        }
        return categories;
    }
}
