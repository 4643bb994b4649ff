package org.nectl.hw.mujoco;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

import org.nectl.config.DescriptionException;
import org.nectl.config.YamlField;

/**
 * What the MuJoCo plant adds to the robot description: obstacles fixed in the world, collision
 * shapes on the robot's links (a description without {@code <collision>} elements has none), an
 * optional external wrench profile on one link, and an optional payload rigidly fixed to one link. Read from a small YAML file (docs/ADAPTERS.md,
 * "The MuJoCo plant"); every value is checked with its file:line. Immutable.
 *
 * @param obstacles shapes fixed in the world, poses in the world (base) frame.
 * @param armShapes collision shapes on links, poses in the URDF link frame.
 * @param wrench the external wrench profile, if any.
 * @param payload a payload on a link, if any: part of MuJoCo's robot, unknown to nectl's model.
 */
public record MujocoScene(List<Shape> obstacles, List<Shape> armShapes, Optional<WrenchProfile> wrench, Optional<Payload> payload)
{
    /** An empty scene: no obstacles, no collision shapes beyond the description's, no wrench, no payload. */
    public static final MujocoScene EMPTY = new MujocoScene(List.of(), List.of(), Optional.empty());

    private static final List<String> SCENE_KEYS = List.of("obstacles", "arm", "wrench", "payload");
    private static final List<String> PAYLOAD_KEYS = List.of("link", "mass", "com", "inertia");
    private static final double MAX_MASS_KG = 1e3;
    /** Principal moments about the centre of mass when the scene gives none: a 1.5 kg, 8 cm solid cube's order, kg m^2. */
    private static final double[] DEFAULT_PAYLOAD_INERTIA = {1e-3, 1e-3, 1e-3};
    private static final List<String> SHAPES = List.of("box", "sphere", "cylinder", "plane");
    private static final List<String> WRENCH_KEYS = List.of("link", "point", "force", "torque", "start", "duration", "ramp");
    private static final double MAX_EXTENT_M = 1e3;
    private static final double MAX_FORCE_N = 1e5;

    /**
     * A scene without a payload.
     *
     * @param obstacles shapes fixed in the world.
     * @param armShapes collision shapes on links.
     * @param wrench the external wrench profile, if any.
     */
    public MujocoScene(final List<Shape> obstacles, final List<Shape> armShapes, final Optional<WrenchProfile> wrench)
    {
        this(obstacles, armShapes, wrench, Optional.empty());
    }

    /**
     * A rigid payload fixed to a link (a tool, a grasped part): in MuJoCo's copy of the robot a
     * massive link without geometry on a fixed joint, which MuJoCo's compiler fuses into the link's
     * body (mass, centre of mass and inertia combined).
     *
     * @param link the URDF link carrying it (a fixed link such as flange is allowed).
     * @param massKg mass, kg, positive.
     * @param comM centre of mass in the link frame, m.
     * @param inertiaKgM2 principal moments about the centre of mass along the link frame's axes, kg m^2.
     * @param source where it was declared, for messages; null if not read from a file.
     */
    public record Payload(String link, double massKg, double[] comM, double[] inertiaKgM2, YamlField source)
    {
        /**
         * @param reason what is wrong.
         * @return an exception located at the declaration when there is one.
         */
        RuntimeException error(final String reason)
        {
            return source != null ? source.error(reason) : new IllegalArgumentException(reason);
        }
    }

    /** Geometry kinds. */
    public enum Kind
    {
        /** Box; size = full edge lengths x, y, z. */
        BOX,
        /** Sphere; size[0] = radius. */
        SPHERE,
        /** Cylinder along z; size = radius, length. */
        CYLINDER,
        /** Infinite plane through the position, normal along the pose's z axis; no size. */
        PLANE
    }

    /**
     * A collision shape.
     *
     * @param kind geometry.
     * @param size dimensions, m (see {@link Kind}).
     * @param position position, m.
     * @param rpy orientation, URDF roll-pitch-yaw, rad.
     * @param link the link it is fixed to (arm shapes), or empty for the world.
     * @param source where it was declared, for messages; null if not read from a file.
     */
    public record Shape(Kind kind, double[] size, double[] position, double[] rpy, String link, YamlField source)
    {
        /**
         * @param reason what is wrong.
         * @return an exception located at the declaration when there is one.
         */
        RuntimeException error(final String reason)
        {
            return source != null ? source.error(reason) : new IllegalArgumentException(reason);
        }
    }

    /**
     * A wrench on one link, applied from {@code startS} for {@code durationS} seconds of simulated
     * time, ramped linearly up and down over {@code rampS}.
     *
     * @param link the URDF link (one MuJoCo keeps as a body: it has a movable joint).
     * @param pointM point of application in the link frame, m.
     * @param forceN force in the world frame, N.
     * @param torqueNm torque in the world frame, N m.
     * @param startS start, simulated s.
     * @param durationS duration, s (infinite: until the end).
     * @param rampS ramp time at both ends, s.
     * @param source where it was declared, for messages; null if not read from a file.
     */
    public record WrenchProfile(String link, double[] pointM, double[] forceN, double[] torqueNm, double startS, double durationS,
        double rampS, YamlField source)
    {
        /**
         * @param reason what is wrong.
         * @return an exception located at the declaration when there is one.
         */
        RuntimeException error(final String reason)
        {
            return source != null ? source.error(reason) : new IllegalArgumentException(reason);
        }

        /**
         * @param timeS simulated time, s.
         * @return the profile's scale at that time, 0..1. Real-time safe.
         */
        public double scale(final double timeS)
        {
            final double since = timeS - startS;
            final double until = startS + durationS - timeS;
            if (since < 0.0 || until < 0.0)
            {
                return 0.0;
            }
            if (rampS <= 0.0)
            {
                return 1.0;
            }
            return Math.min(1.0, Math.min(since, until) / rampS);
        }
    }

    /**
     * @param file the scene file.
     * @return the scene.
     * @throws DescriptionException with file:line, the field and the rule broken.
     */
    public static MujocoScene load(final Path file)
    {
        final YamlField root = YamlField.load(file).mapping(SCENE_KEYS);
        final List<Shape> obstacles = root.optional("obstacles").map(f -> f.elements().stream()
            .map(e -> shape(e, false)).toList()).orElse(List.of());
        final List<Shape> arm = root.optional("arm").map(f -> f.elements().stream()
            .map(e -> shape(e, true)).toList()).orElse(List.of());
        final Optional<WrenchProfile> wrench = root.optional("wrench").map(MujocoScene::wrench);
        final Optional<Payload> payload = root.optional("payload").map(MujocoScene::payload);
        return new MujocoScene(obstacles, arm, wrench, payload);
    }

    private static Payload payload(final YamlField field)
    {
        field.mapping(PAYLOAD_KEYS);
        return new Payload(
            field.child("link").text(),
            field.child("mass").number(1e-6, MAX_MASS_KG),
            field.optional("com").map(f -> bounded(f, 3, MAX_EXTENT_M)).orElse(new double[3]),
            field.optional("inertia").map(f -> positive(f, 3)).orElse(DEFAULT_PAYLOAD_INERTIA.clone()),
            field);
    }

    private static Shape shape(final YamlField field, final boolean onLink)
    {
        final List<String> keys = onLink
            ? List.of("link", "shape", "size", "radius", "length", "position", "rpy")
            : List.of("shape", "size", "radius", "length", "position", "rpy");
        field.mapping(keys);
        final Kind kind = Kind.valueOf(field.child("shape").choice("shape", onLink ? SHAPES.subList(0, 3) : SHAPES)
            .toUpperCase(Locale.ROOT));
        final double[] size = switch (kind)
        {
            case BOX -> positive(field.child("size"), 3);
            case SPHERE -> new double[] {field.child("radius").number(1e-6, MAX_EXTENT_M)};
            case CYLINDER -> new double[] {field.child("radius").number(1e-6, MAX_EXTENT_M),
                field.child("length").number(1e-6, MAX_EXTENT_M)};
            case PLANE -> new double[0];
        };
        for (final String unused : List.of("size", "radius", "length"))
        {
            if (field.has(unused) && !uses(kind, unused))
            {
                throw field.child(unused).keyError("a " + kind.name().toLowerCase(Locale.ROOT) + " has no " + unused);
            }
        }
        final double[] position = field.optional("position").map(f -> bounded(f, 3, MAX_EXTENT_M)).orElse(new double[3]);
        final double[] rpy = field.optional("rpy").map(f -> bounded(f, 3, 4 * Math.PI)).orElse(new double[3]);
        return new Shape(kind, size, position, rpy, onLink ? field.child("link").text() : "", field);
    }

    private static boolean uses(final Kind kind, final String key)
    {
        return switch (kind)
        {
            case BOX -> key.equals("size");
            case SPHERE -> key.equals("radius");
            case CYLINDER -> key.equals("radius") || key.equals("length");
            case PLANE -> false;
        };
    }

    private static WrenchProfile wrench(final YamlField field)
    {
        field.mapping(WRENCH_KEYS);
        final double duration = field.optional("duration").map(f -> f.number(0.0, Double.MAX_VALUE)).orElse(Double.POSITIVE_INFINITY);
        return new WrenchProfile(
            field.child("link").text(),
            field.optional("point").map(f -> bounded(f, 3, MAX_EXTENT_M)).orElse(new double[3]),
            field.optional("force").map(f -> bounded(f, 3, MAX_FORCE_N)).orElse(new double[3]),
            field.optional("torque").map(f -> bounded(f, 3, MAX_FORCE_N)).orElse(new double[3]),
            field.optional("start").map(f -> f.number(0.0, Double.MAX_VALUE)).orElse(0.0),
            duration,
            field.optional("ramp").map(f -> f.number(0.0, Double.MAX_VALUE)).orElse(0.0),
            field);
    }

    private static double[] positive(final YamlField field, final int count)
    {
        final double[] values = field.numbers(count);
        for (final double value : values)
        {
            if (!(value > 0.0) || value > MAX_EXTENT_M)
            {
                throw field.error("each value must be in (0, " + MAX_EXTENT_M + "] m, got " + value);
            }
        }
        return values;
    }

    private static double[] bounded(final YamlField field, final int count, final double limit)
    {
        final double[] values = field.numbers(count);
        for (final double value : values)
        {
            if (Math.abs(value) > limit)
            {
                throw field.error("each value must be within +-" + limit + ", got " + value);
            }
        }
        return values;
    }
}
