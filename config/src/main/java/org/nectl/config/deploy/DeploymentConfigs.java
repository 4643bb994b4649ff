package org.nectl.config.deploy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

import org.nectl.config.DescriptionException;
import org.nectl.config.DescriptionFiles;
import org.nectl.config.ClosedChains;
import org.nectl.config.ElasticDescriptions;
import org.nectl.config.YamlField;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;

/**
 * Reads a YAML deployment file (format in docs/DEPLOYMENT.md) into a {@link DeploymentConfig}.
 * Not real-time safe (reads files, allocates); thread safe.
 */
public final class DeploymentConfigs
{
    /** Default control period, us. */
    public static final long DEFAULT_PERIOD_US = 1_000;
    /** Shortest control period, us (10 kHz). */
    public static final long MIN_PERIOD_US = 100;
    /** Longest control period, us (100 Hz). */
    public static final long MAX_PERIOD_US = 10_000;
    /** Largest CPU number accepted for {@code core}. */
    public static final long MAX_CORE = 1_023;
    /** Highest SCHED_FIFO priority accepted for {@code realtime_priority} (Linux's maximum). */
    public static final long MAX_REALTIME_PRIORITY = 99;

    private static final List<String> KEYS = List.of("model", "mode", "period_us", "core", "realtime_priority", "aeron", "planner",
        "telemetry", "hardware", "control", "supervision", "gravity", "safety", "reference_blend", "collision",
        "recording", "base");
    private static final List<String> BASE_KEYS = List.of("carried", "max_age_ms", "rates", "rate_filter_ms",
        "angular_acceleration_filter_ms");
    /** Longest low-pass time constant on the base's signals, ms: a lag of 0.2 s compensates a deck's motion wrongly. */
    static final double MAX_BASE_FILTER_MS = 200.0;
    /** Longest base motion age accepted, ms: a base's motion a second old compensates nothing. */
    static final double MAX_BASE_AGE_MS = 1_000.0;
    private static final List<String> PLANNER_KEYS = List.of("bind", "keys", "allowed_sources", "time_window_ms");
    private static final List<String> MODES = List.of("realtime", "lockstep");
    private static final List<String> LAWS = List.of("computed_torque", "pd_gravity", "mixed_elastic");
    private static final long NS_PER_US = 1_000;
    private static final long NS_PER_MS = 1_000_000;
    private static final List<String> CONTROL_KEYS = concat(CycleSettingsReader.CONTROL_KEYS, MixedLawReader.KEYS);

    private DeploymentConfigs()
    {
    }

    private static List<String> concat(final List<String> a, final List<String> b)
    {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /**
     * @param path the deployment file.
     * @return the validated deployment, with its robot model loaded.
     * @throws DescriptionException naming file, line, field, value and the rule broken (in the
     *     deployment file or in the robot description it names).
     */
    public static DeploymentConfig load(final Path path)
    {
        final YamlField root = YamlField.load(path).mapping(KEYS);
        final Path modelFile = modelFile(path, root.child("model"));
        // A closed-loop robot is controlled in its active joints, a Gough-Stewart platform in its leg lengths.
        final ClosedLoopModel closedLoop = ClosedChains.isClosedChain(modelFile) ? ClosedChains.load(modelFile) : null;
        final ElasticRobotModel robot = closedLoop == null ? ElasticDescriptions.load(modelFile)
            : ElasticRobotModel.rigid(ActiveJoints.of(closedLoop));
        refusePassiveJoints(root.child("model"), robot);
        refuseFloatingBase(root.child("model"), robot.links());
        final RobotModel model = robot.links();
        final long periodNs = root.optional("period_us")
            .map(f -> f.integer(MIN_PERIOD_US, MAX_PERIOD_US)).orElse(DEFAULT_PERIOD_US) * NS_PER_US;
        final Optional<YamlField> control = root.optional("control").map(c -> c.mapping(CONTROL_KEYS));
        final CycleSettings cycle = CycleSettingsReader.read(
            control, root.optional("supervision"), root.optional("gravity"), model.dof(), periodNs);
        final TelemetrySettings telemetry = section(root, "telemetry", TelemetrySettings::read, TelemetrySettings.defaults());
        final HardwareSettings hardware = section(root, "hardware", HardwareSettings::read, HardwareSettings.defaults());
        checkStreams(root, telemetry, hardware);
        return new DeploymentConfig(
            path,
            modelFile,
            model,
            DeploymentMode.valueOf(word(root.optional("mode"), "mode", MODES, "realtime")),
            root.optional("core").map(f -> OptionalInt.of((int)f.integer(0, MAX_CORE))).orElse(OptionalInt.empty()),
            root.optional("realtime_priority").map(f -> OptionalInt.of((int)f.integer(1, MAX_REALTIME_PRIORITY)))
                .orElse(OptionalInt.empty()),
            law(control, robot),
            cycle,
            SafetySettingsReader.read(root.optional("safety"), model),
            section(root, "aeron", AeronSettings::read, AeronSettings.defaults()),
            section(root, "planner", DeploymentConfigs::planner, PlannerEndpoint.defaults()),
            section(root, "planner", p -> PlannerAuthenticationSettings.read(path, p), PlannerAuthenticationSettings.defaults()),
            telemetry,
            hardware,
            MixedLawReader.read(control, robot),
            CycleSettingsReader.lockstepLivenessNs(root.optional("supervision")),
            ReferenceBlendReader.read(root.optional("reference_blend"), model, periodNs),
            CollisionSettingsReader.read(root.optional("collision"), model.dof(), periodNs, robot.elasticCount() > 0,
                closedLoop != null),
            section(root, "recording", r -> RecordingSettings.read(path, r), RecordingSettings.disabled()),
            base(root.optional("base"), periodNs, robot, closedLoop != null),
            closedLoop);
    }

    /**
     * Section {@code base}: whether the arm's base is carried (a vehicle, a mobile platform, a ship), and
     * how old its measured motion may grow.
     */
    private static CarriedBaseSettings base(final Optional<YamlField> section, final long periodNs,
        final ElasticRobotModel robot, final boolean closedLoop)
    {
        final CarriedBaseSettings defaults = CarriedBaseSettings.defaults(false, periodNs);
        if (section.isEmpty())
        {
            return defaults;
        }
        final YamlField base = section.get().mapping(BASE_KEYS);
        final Optional<YamlField> carriedField = base.optional("carried");
        final boolean carried = carriedField.map(YamlField::bool).orElse(false);
        if (carried && closedLoop)
        {
            // The laws on a closed chain's projected dynamics would run as on a fixed base.
            throw carriedField.get().error("'" + robot.links().name() + "' is a closed-loop robot: a carried base is"
                + " compensated for tree robots only (computed torque, PD + gravity, the mixed rigid/elastic law)");
        }
        final long maxAgeNs = base.optional("max_age_ms").map(f -> baseMaxAgeNs(f, periodNs)).orElse(defaults.maxAgeNs());
        final CarriedBaseSettings.Rates rates = base.optional("rates").map(f -> CarriedBaseSettings.Rates.valueOf(
            f.choice("rates", List.of("estimated", "constant")).toUpperCase(Locale.ROOT))).orElse(defaults.rates());
        final long rateFilterNs = base.optional("rate_filter_ms").map(DeploymentConfigs::baseFilterNs).orElse(defaults.rateFilterNs());
        final Optional<YamlField> angularAccelerationFilter = base.optional("angular_acceleration_filter_ms");
        if (carried && angularAccelerationFilter.isEmpty())
        {
            // Its right value depends on the adapter's IMU: a default would be wrong for one kind of adapter or
            // the other, and wrong for a differenced gyro means a command chattering at its rate clip.
            throw carriedField.get().error("a carried base needs base.angular_acceleration_filter_ms: 0 when the"
                + " adapter's angular acceleration is measured, filtered or exact (nectl sim), about 10 when it"
                + " differences a gyro with 0.0005 rad/s of noise, 30 at 0.002 rad/s (docs/CONTROL.md, \"A noisy IMU\")");
        }
        return new CarriedBaseSettings(carried, maxAgeNs, rates, rateFilterNs,
            angularAccelerationFilter.map(DeploymentConfigs::baseFilterNs).orElse(defaults.angularAccelerationFilterNs()));
    }

    /** @return a low-pass time constant on the base's signals, ms, in ns. */
    private static long baseFilterNs(final YamlField field)
    {
        return Math.round(field.number(0.0, MAX_BASE_FILTER_MS) * NS_PER_MS);
    }

    /** @return a base motion age in ms, of at least one control period, in ns. */
    private static long baseMaxAgeNs(final YamlField field, final long periodNs)
    {
        final long ns = Math.round(field.number(0.0, MAX_BASE_AGE_MS) * NS_PER_MS);
        if (ns < periodNs)
        {
            throw field.error("value " + field.text() + " ms is shorter than one control period (" + periodNs / (double)NS_PER_MS
                + " ms): a valid base block arrives at most once a period");
        }
        return ns;
    }

    /**
     * The control laws hold the base fixed (or carried: its motion measured, docs/CONTROL.md); a
     * free-floating base has no actuator, so a floating-base description is for {@code nectl
     * dynamics} only, and running it as a fixed-base arm would control a different robot.
     */
    private static void refuseFloatingBase(final YamlField modelField, final RobotModel model)
    {
        if (model.floatingBase())
        {
            throw modelField.error("'" + model.name() + "' has a floating base (a free body with six degrees of freedom): "
                + "the controller serves fixed and carried bases (base: {carried: true} for an arm whose base is moved "
                + "by a vehicle, with its description fixed at the base)");
        }
    }

    /** Every control law commands a torque at every joint: a passive joint has no motor to take it. */
    private static void refusePassiveJoints(final YamlField modelField, final ElasticRobotModel robot)
    {
        for (int k = 0; k < robot.dof(); k++)
        {
            if (robot.isPassive(k))
            {
                throw modelField.error("joint '" + robot.links().coordinateName(k) + "' of '" + robot.links().name()
                    + "' is passive (a spring, no motor): the controller commands a torque at every joint");
            }
        }
    }

    /** The law; mixed_elastic only for a robot with elastic joints. */
    private static ControlLaw law(final Optional<YamlField> control, final ElasticRobotModel robot)
    {
        final Optional<YamlField> field = control.flatMap(c -> c.optional("law"));
        final ControlLaw law = ControlLaw.valueOf(word(field, "control law", LAWS, "computed_torque"));
        if (law == ControlLaw.MIXED_ELASTIC && robot.elasticCount() == 0)
        {
            throw field.orElseThrow().error("control law mixed_elastic needs a robot with elastic joints (a drives "
                + "section with a stiffness), but '" + robot.links().name() + "' has none");
        }
        return law;
    }

    private static Path modelFile(final Path path, final YamlField field)
    {
        final Path directory = path.toAbsolutePath().getParent();
        final Path resolved = directory.resolve(field.text()).normalize();
        if (!Files.exists(resolved))
        {
            throw field.error("robot description '" + field.text() + "' not found (looked for " + resolved
                + "; a relative path is taken from the deployment file's directory)");
        }
        if (!Files.isRegularFile(resolved))
        {
            throw field.error("robot description '" + field.text() + "' is not a regular file ("
                + DescriptionFiles.kindOf(resolved) + ": " + resolved + ")");
        }
        return resolved;
    }

    private static <T> T section(
        final YamlField root, final String key, final Function<YamlField, T> reader, final T defaults)
    {
        return root.optional(key).map(reader).orElse(defaults);
    }

    private static PlannerEndpoint planner(final YamlField section)
    {
        section.mapping(PLANNER_KEYS);
        return section.optional("bind").map(PlannerEndpoint::read).orElse(PlannerEndpoint.defaults());
    }

    /** @return the enum constant name of the word chosen from {@code allowed}, or of the default. */
    private static String word(
        final Optional<YamlField> field, final String what, final List<String> allowed, final String fallback)
    {
        return field.map(f -> f.choice(what, allowed)).orElse(fallback).toUpperCase(Locale.ROOT);
    }

    /** Streams that share a channel must differ, or one reader would receive another's messages. */
    private static void checkStreams(
        final YamlField root, final TelemetrySettings telemetry, final HardwareSettings hardware)
    {
        final String[] names = {"hardware.joint_state_stream", "hardware.motor_command_stream",
            "hardware.heartbeat_stream", "telemetry.stream"};
        final String[] channels = {hardware.channel(), hardware.channel(), hardware.channel(), telemetry.channel()};
        final int[] ids = {hardware.jointStateStreamId(), hardware.motorCommandStreamId(), hardware.heartbeatStreamId(),
            telemetry.streamId()};
        for (int i = 1; i < ids.length; i++)
        {
            for (int j = 0; j < i; j++)
            {
                if (ids[i] == ids[j] && channels[i].equals(channels[j]))
                {
                    final boolean laterWritten = written(root, names[i]).isPresent();
                    final String at = laterWritten ? names[i] : names[j];
                    final String other = laterWritten ? names[j] : names[i];
                    throw written(root, at).orElseGet(() -> root.named(at)).error("stream " + ids[i]
                        + " is already used by " + other + " on channel " + channels[i]
                        + "; streams on one channel must differ");
                }
            }
        }
    }

    /** @return the field at a dotted path, if the file writes it. */
    private static Optional<YamlField> written(final YamlField root, final String dotted)
    {
        final String[] keys = dotted.split("\\.");
        return root.optional(keys[0]).flatMap(section -> section.optional(keys[1]));
    }
}
