package org.nectl.config.deploy;

import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;
import org.nectl.core.runtime.CycleSettings;

/**
 * Reads the sections {@code control} (gains), {@code supervision} and {@code gravity} into the
 * settings of a control cycle; every absent value takes {@link CycleSettings#defaults}. Not
 * real-time safe; thread safe.
 */
final class CycleSettingsReader
{
    /** Keys of the {@code control} section. */
    static final List<String> CONTROL_KEYS = List.of("law", "kp", "kd", "pd_kp", "pd_kd", "friction_feedforward");
    /** Largest timeout, ms. */
    static final long MAX_TIMEOUT_MS = 60_000;
    /** Default wall time without a state before a lockstep simulator counts as dead, ms. */
    static final long DEFAULT_LOCKSTEP_LIVENESS_MS = 2_000;
    /** Shortest lockstep liveness timeout, ms: below it a descheduled simulator would look dead. */
    static final long MIN_LOCKSTEP_LIVENESS_MS = 100;
    /** Largest count of consecutive missing joint states. */
    static final long MAX_MISSING_STATES = 1_000;
    /** Largest position margin beyond the limits, rad or m. */
    static final double MAX_POSITION_MARGIN = 0.5;
    /** Largest magnitude of a gravity component, m/s^2 (10 g: anything larger is a unit error). */
    static final double MAX_GRAVITY = 98.1;

    private static final List<String> SUPERVISION_KEYS = List.of(
        "heartbeat_timeout_ms", "max_missing_states", "command_timeout_ms", "position_margin", "max_saturated_ms",
        "lockstep_liveness_ms");
    private static final double NS_PER_MS = 1e6;
    private static final double NS_PER_S = 1e9;

    private CycleSettingsReader()
    {
    }

    /**
     * @param control the {@code control} mapping, keys already checked, if present.
     * @param supervision the {@code supervision} mapping, if present.
     * @param gravity the {@code gravity} list, if present.
     * @param dof the robot's number of coordinates.
     * @param periodNs the control period, ns.
     * @return the settings.
     */
    static CycleSettings read(
        final Optional<YamlField> control, final Optional<YamlField> supervision, final Optional<YamlField> gravity,
        final int dof, final long periodNs)
    {
        final CycleSettings d = CycleSettings.defaults(dof, periodNs);
        final double periodS = periodNs / NS_PER_S;
        supervision.ifPresent(s -> s.mapping(SUPERVISION_KEYS));
        return new CycleSettings(
            periodNs,
            control.flatMap(c -> c.optional("kp")).map(f -> stiffness(f, dof, periodS)).orElse(d.kp()),
            control.flatMap(c -> c.optional("kd")).map(f -> damping(f, dof, periodS)).orElse(d.kd()),
            control.flatMap(c -> c.optional("pd_kp")).map(f -> perJoint(f, dof, Limit.NONE)).orElse(d.pdKp()),
            control.flatMap(c -> c.optional("pd_kd")).map(f -> perJoint(f, dof, Limit.NONE)).orElse(d.pdKd()),
            gravity.map(CycleSettingsReader::gravity).orElse(d.gravity()),
            supervision.flatMap(s -> s.optional("heartbeat_timeout_ms")).map(f -> timeoutNs(f, periodNs))
                .orElse(d.heartbeatTimeoutNs()),
            supervision.flatMap(s -> s.optional("max_missing_states")).map(f -> (int)f.integer(1, MAX_MISSING_STATES))
                .orElse(d.maxMissingStates()),
            supervision.flatMap(s -> s.optional("command_timeout_ms")).map(f -> timeoutNs(f, periodNs))
                .orElse(d.commandTimeoutNs()),
            supervision.flatMap(s -> s.optional("position_margin")).map(f -> f.number(0.0, MAX_POSITION_MARGIN))
                .orElse(d.positionMargin()),
            supervision.flatMap(s -> s.optional("max_saturated_ms")).map(f -> saturatedTicks(f, periodNs))
                .orElse(d.maxSaturatedTicks()),
            control.flatMap(c -> c.optional("friction_feedforward")).map(YamlField::bool)
                .orElse(d.frictionFeedforward()));
    }

    /**
     * @param supervision the {@code supervision} mapping, if present.
     * @return {@code lockstep_liveness_ms} in ns, 100 ms to 60 s, default
     *     {@value #DEFAULT_LOCKSTEP_LIVENESS_MS} ms.
     */
    static long lockstepLivenessNs(final Optional<YamlField> supervision)
    {
        return supervision.flatMap(s -> s.optional("lockstep_liveness_ms"))
            .map(f -> f.integer(MIN_LOCKSTEP_LIVENESS_MS, MAX_TIMEOUT_MS)).orElse(DEFAULT_LOCKSTEP_LIVENESS_MS) * 1_000_000L;
    }

    /**
     * Computed-torque stiffness, 1/s^2: the error's natural frequency sqrt(kp) may not exceed one
     * radian per period (below a sixth of the sampling rate), so the sampled loop behaves as designed.
     */
    private static double[] stiffness(final YamlField field, final int dof, final double periodS)
    {
        return perJoint(field, dof, new Limit(1.0 / (periodS * periodS), "1/period^2 (sqrt(kp) at most 1 rad per period)"));
    }

    /** Computed-torque damping, 1/s: kd / 2 (the critically damped frequency) within one radian per period. */
    private static double[] damping(final YamlField field, final int dof, final double periodS)
    {
        return perJoint(field, dof, new Limit(2.0 / periodS, "2/period (kd/2 at most 1 rad per period)"));
    }

    /** @return one value of at least 0 for every joint, written as a scalar or as a list of dof numbers. */
    static double[] perJoint(final YamlField field, final int dof, final Limit limit)
    {
        if (!field.isList())
        {
            return CycleSettings.filled(dof, limit.check(field));
        }
        final List<YamlField> items = field.elements();
        if (items.size() != dof)
        {
            throw field.error("expected one number for all joints or a list of " + dof
                + " (one per joint of the model), found a list of " + items.size());
        }
        final double[] gains = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            gains[j] = limit.check(items.get(j));
        }
        return gains;
    }

    private static double[] gravity(final YamlField field)
    {
        final List<YamlField> items = field.elements();
        if (items.size() != 3)
        {
            throw field.error("expected [gx, gy, gz] in m/s^2, found a list of " + items.size());
        }
        final double[] g = new double[3];
        for (int i = 0; i < 3; i++)
        {
            g[i] = items.get(i).number(-MAX_GRAVITY, MAX_GRAVITY);
        }
        return g;
    }

    /** @return a timeout in whole ms of at least one control period, in ns. */
    private static long timeoutNs(final YamlField field, final long periodNs)
    {
        final long ns = (long)(field.integer(1, MAX_TIMEOUT_MS) * NS_PER_MS);
        if (ns < periodNs)
        {
            throw field.error("value " + field.text() + " ms is shorter than one control period ("
                + periodNs / NS_PER_MS + " ms)");
        }
        return ns;
    }

    /** @return a duration in whole ms as whole control periods, rounded up. */
    private static int saturatedTicks(final YamlField field, final long periodNs)
    {
        final long ns = (long)(field.integer(1, MAX_TIMEOUT_MS) * NS_PER_MS);
        return (int)((ns + periodNs - 1) / periodNs);
    }

    /**
     * An upper bound on a gain and the rule it comes from.
     *
     * @param max largest value.
     * @param rule how the bound follows from the period, for messages.
     */
    record Limit(double max, String rule)
    {
        static final Limit NONE = new Limit(Double.POSITIVE_INFINITY, "");

        double check(final YamlField field)
        {
            final double v = field.number(0.0, Double.POSITIVE_INFINITY);
            if (v > max)
            {
                throw field.error("value " + field.text() + " is above the allowed maximum " + max + " = " + rule);
            }
            return v;
        }
    }
}
