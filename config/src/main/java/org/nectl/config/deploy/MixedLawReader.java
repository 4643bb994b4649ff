package org.nectl.config.deploy;

import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.runtime.MixedLawSettings;

/**
 * Reads the gains of the mixed rigid/elastic law from the {@code control} section: {@code kp_q},
 * {@code kd_q} per joint and {@code kp_theta}, {@code kd_theta} per elastic joint, each one number
 * or a list, every absent value taking {@link MixedLawSettings#defaults}. Not real-time safe; thread safe.
 */
final class MixedLawReader
{
    /** Keys of the {@code control} section read here. */
    static final List<String> KEYS = List.of("kp_q", "kd_q", "kp_theta", "kd_theta");

    private MixedLawReader()
    {
    }

    /**
     * @param control the {@code control} mapping, keys already checked, if present.
     * @param model the robot with its drives.
     * @return the robot and the law's gains.
     * @throws org.nectl.config.DescriptionException for a gain that is not positive, or a list of the wrong length.
     */
    static MixedLawSettings read(final Optional<YamlField> control, final ElasticRobotModel model)
    {
        final MixedLawSettings d = MixedLawSettings.defaults(model);
        return new MixedLawSettings(model,
            gains(control, "kp_q", model.dof(), d.kpQ()),
            gains(control, "kd_q", model.dof(), d.kdQ()),
            gains(control, "kp_theta", model.elasticCount(), d.kpTheta()),
            gains(control, "kd_theta", model.elasticCount(), d.kdTheta()));
    }

    private static double[] gains(final Optional<YamlField> control, final String key, final int count, final double[] defaults)
    {
        final Optional<YamlField> field = control.flatMap(c -> c.optional(key));
        if (field.isEmpty())
        {
            return defaults;
        }
        final double[] gains = CycleSettingsReader.perJoint(field.get(), count, CycleSettingsReader.Limit.NONE);
        for (final double gain : gains)
        {
            if (!(gain > 0.0))
            {
                throw field.get().error("every " + key + " gain of the mixed_elastic law must be > 0, got " + gain);
            }
        }
        return gains;
    }
}
