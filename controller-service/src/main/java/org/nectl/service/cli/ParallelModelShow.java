package org.nectl.service.cli;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Locale;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.nectl.config.ClosedLoopDescriptions;
import org.nectl.config.DescriptionException;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.CutJoint;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;

/**
 * {@code nectl model show} for the descriptions that are not a plain tree: a closed-loop robot (its
 * tree joints with their active or passive role, the cut joints and the independent closure
 * equations) and a Gough-Stewart platform (its legs, their attachment points, home lengths and
 * actuator limits, and the passive joints of each leg). Not real-time safe.
 */
final class ParallelModelShow
{
    private ParallelModelShow()
    {
    }

    /**
     * @param file a description file.
     * @return true if it is a closed-loop or Gough-Stewart description, which {@link #show} prints.
     */
    static boolean handles(final Path file)
    {
        return ClosedLoopDescriptions.isClosedLoop(file) || GoughStewartDescriptions.isGoughStewart(file);
    }

    /**
     * Prints a closed-loop or Gough-Stewart description, or its first error.
     *
     * @param file the description, one that {@link #handles}.
     * @param json true for one JSON object instead of the table.
     * @param out where the description goes.
     * @param err where an error goes.
     * @return the exit status: 0, or 2 for an invalid description.
     */
    static int show(final Path file, final boolean json, final PrintStream out, final PrintStream err)
    {
        try
        {
            if (GoughStewartDescriptions.isGoughStewart(file))
            {
                final GoughStewartModel hexapod = GoughStewartDescriptions.load(file);
                out.println(json ? hexapodJson(hexapod) : hexapodTable(hexapod));
            }
            else
            {
                final ClosedLoopModel robot = ClosedLoopDescriptions.load(file);
                out.println(json ? closedLoopJson(robot) : closedLoopTable(robot));
            }
            return 0;
        }
        catch (final DescriptionException e)
        {
            err.println("nectl model show: " + e.getMessage());
            return 2;
        }
    }

    /**
     * @param robot the closed-loop robot.
     * @return {@code {"kind":"closed-loop","tree_dof":n,"active":[..],"passive":[..],"joints":[..],
     *     "cut_joints":[..],"closure_equations":{"candidate":m,"independent":p}}}.
     */
    static String closedLoopJson(final ClosedLoopModel robot)
    {
        final RobotModel tree = robot.tree();
        final ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("kind", "closed-loop");
        root.put("name", tree.name());
        root.put("tree_dof", tree.dof());
        final ArrayNode active = root.putArray("active");
        for (final int c : robot.activeCoordinates())
        {
            active.add(tree.coordinateName(c));
        }
        final ArrayNode passive = root.putArray("passive");
        for (final int c : robot.passiveCoordinates())
        {
            passive.add(tree.coordinateName(c));
        }
        final double[] home = robot.home();
        final ArrayNode joints = root.putArray("joints");
        for (int c = 0; c < tree.dof(); c++)
        {
            final int body = tree.bodyOfCoordinate(c);
            final ObjectNode joint = joints.addObject();
            joint.put("name", tree.jointName(body));
            joint.put("type", tree.jointType(body).name().toLowerCase(Locale.ROOT));
            joint.put("role", isActive(robot, c) ? "active" : "passive");
            joint.put("parent", linkName(tree, tree.parent(body)));
            joint.put("home", home[c]);
            limits(joint, tree.limits(c));
        }
        final ArrayNode cuts = root.putArray("cut_joints");
        int candidates = 0;
        for (final CutJoint cut : robot.cutJoints())
        {
            final ObjectNode node = cuts.addObject();
            node.put("name", cut.name());
            node.put("type", cut.type().name().toLowerCase(Locale.ROOT));
            node.put("frame_k_link", linkName(tree, cut.bodyK()));
            node.put("frame_k_plus_b_link", linkName(tree, cut.bodyKPlusB()));
            node.put("candidate_equations", cut.type().rows());
            candidates += cut.type().rows();
        }
        final ObjectNode equations = root.putObject("closure_equations");
        equations.put("candidate", candidates);
        equations.put("independent", robot.selectedRows().length);
        return root.toString();
    }

    private static String closedLoopTable(final ClosedLoopModel robot)
    {
        final RobotModel tree = robot.tree();
        final StringBuilder text = new StringBuilder();
        int candidates = 0;
        for (final CutJoint cut : robot.cutJoints())
        {
            candidates += cut.type().rows();
        }
        final int cutCount = robot.cutJoints().size();
        text.append(String.format(Locale.ROOT, "%s: closed loop: %d tree joints, %d active (the degrees of freedom), %d passive; "
                + "%d cut joint%s; %d independent closure equations of %d; total mass %.4f kg%n",
            tree.name(), tree.dof(), robot.activeCount(), tree.dof() - robot.activeCount(), cutCount, cutCount == 1 ? "" : "s",
            robot.selectedRows().length, candidates, tree.totalMass()));
        text.append(String.format(Locale.ROOT, "fixed base: root link '%s'; commanded in the active joints' coordinates, "
            + "in the order of closure.active%n", tree.baseName()));
        text.append(String.format(Locale.ROOT, "%-4s %-16s %-10s %-8s %-16s %-16s %12s %12s %12s %10s %10s%n",
            "k", "joint", "type", "role", "parent link", "child link", "home", "q min", "q max", "qd max", "tau max"));
        final double[] home = robot.home();
        for (int c = 0; c < tree.dof(); c++)
        {
            final int body = tree.bodyOfCoordinate(c);
            final JointLimits limits = tree.limits(c);
            text.append(String.format(Locale.ROOT, "%-4d %-16s %-10s %-8s %-16s %-16s %12.6g %12.5g %12.5g %10.4g %10.4g%n",
                c, tree.jointName(body), tree.jointType(body).name().toLowerCase(Locale.ROOT),
                isActive(robot, c) ? "active" : "passive", linkName(tree, tree.parent(body)), tree.bodyName(body), home[c],
                limits.positionMin(), limits.positionMax(), limits.velocityMax(), limits.effortMax()));
        }
        text.append(String.format(Locale.ROOT, "%-16s %-10s %-20s %-20s %s%n", "cut joint", "type", "frame k on",
            "frame k+B on", "candidate equations"));
        for (final CutJoint cut : robot.cutJoints())
        {
            text.append(String.format(Locale.ROOT, "%-16s %-10s %-20s %-20s %d%n", cut.name(),
                cut.type().name().toLowerCase(Locale.ROOT), linkName(tree, cut.bodyK()), linkName(tree, cut.bodyKPlusB()),
                cut.type().rows()));
        }
        return text.toString().stripTrailing();
    }

    /**
     * @param hexapod the platform.
     * @return {@code {"kind":"gough-stewart","legs":[{"active":..,"passive":[..],"base_point":[..],
     *     "platform_point":[..],"home_length":..}, ..],"actuator":{..},"home":{..},..}}.
     */
    static String hexapodJson(final GoughStewartModel hexapod)
    {
        final ObjectNode root = new ObjectMapper().createObjectNode();
        root.put("kind", "gough-stewart");
        root.put("name", hexapod.name());
        root.put("leg_kinematics", "U-P-S");
        root.put("platform_mass", hexapod.platform().mass());
        root.put("leg_mass", hexapod.legs().totalMass() / GoughStewartModel.LEGS);
        final ObjectNode home = root.putObject("home");
        final ArrayNode position = home.putArray("position");
        for (final double v : hexapod.homePosition())
        {
            position.add(v);
        }
        final ArrayNode rpy = home.putArray("rpy");
        for (final double v : rpy(hexapod.homeRotation()))
        {
            rpy.add(v);
        }
        home.put("conditioning", hexapod.conditioning(hexapod.homePosition(), hexapod.homeRotation()));
        final JointLimits stroke = hexapod.actuatorLimits();
        final ObjectNode actuator = root.putObject("actuator");
        actuator.put("stroke_min", stroke.positionMin());
        actuator.put("stroke_max", stroke.positionMax());
        actuator.put("velocity", stroke.velocityMax());
        actuator.put("effort", stroke.effortMax());
        final double[] lengths = homeLengths(hexapod);
        final double[] base = hexapod.basePoints();
        final double[] platform = hexapod.platformPoints();
        final RobotModel legs = hexapod.legs();
        final ArrayNode legNodes = root.putArray("legs");
        for (int i = 0; i < GoughStewartModel.LEGS; i++)
        {
            final ObjectNode leg = legNodes.addObject();
            leg.put("active", legs.coordinateName(3 * i + 2));
            final ArrayNode passive = leg.putArray("passive");
            passive.add(legs.coordinateName(3 * i));
            passive.add(legs.coordinateName(3 * i + 1));
            passive.add("spherical at B" + (i + 1));
            final ArrayNode a = leg.putArray("base_point");
            final ArrayNode b = leg.putArray("platform_point");
            for (int e = 0; e < 3; e++)
            {
                a.add(base[3 * i + e]);
                b.add(platform[3 * i + e]);
            }
            leg.put("home_length", lengths[i]);
        }
        return root.toString();
    }

    private static String hexapodTable(final GoughStewartModel hexapod)
    {
        final StringBuilder text = new StringBuilder();
        final JointLimits stroke = hexapod.actuatorLimits();
        final double[] p = hexapod.homePosition();
        final double[] rpy = rpy(hexapod.homeRotation());
        text.append(String.format(Locale.ROOT, "%s: Gough-Stewart platform, 6 U-P-S legs, commanded in leg lengths "
                + "(6 active prismatic actuators); platform %.4f kg, each leg %.4f kg%n",
            hexapod.name(), hexapod.platform().mass(), hexapod.legs().totalMass() / GoughStewartModel.LEGS));
        text.append(String.format(Locale.ROOT, "home: platform origin [%s, %s, %s] m, rpy [%s, %s, %s] rad; "
                + "J_p^-1 singular-value ratio %.4g (singular below %s)%n", plain(p[0]), plain(p[1]), plain(p[2]),
            plain(rpy[0]), plain(rpy[1]), plain(rpy[2]), hexapod.conditioning(hexapod.homePosition(), hexapod.homeRotation()),
            GoughStewartDescriptions.SINGULAR_CONDITIONING));
        text.append(String.format(Locale.ROOT, "actuators: stroke [%s, %s] m, speed %s m/s, force %s N (every leg)%n",
            plain(stroke.positionMin()), plain(stroke.positionMax()), plain(stroke.velocityMax()), plain(stroke.effortMax())));
        text.append(String.format(Locale.ROOT, "%-4s %-16s %-34s %-30s %-30s %10s%n", "leg", "active joint",
            "passive joints", "base point A_i (m)", "platform point B_i (m)", "home L (m)"));
        final double[] lengths = homeLengths(hexapod);
        final double[] base = hexapod.basePoints();
        final double[] platform = hexapod.platformPoints();
        final RobotModel legs = hexapod.legs();
        for (int i = 0; i < GoughStewartModel.LEGS; i++)
        {
            text.append(String.format(Locale.ROOT, "%-4d %-16s %-34s %-30s %-30s %10.6f%n", i + 1,
                legs.coordinateName(3 * i + 2),
                legs.coordinateName(3 * i) + ", " + legs.coordinateName(3 * i + 1) + ", S at B" + (i + 1),
                point(base, i), point(platform, i), lengths[i]));
        }
        return text.toString().stripTrailing();
    }

    /** The value as written in a description: no exponent, no trailing zeros, no sign on zero. */
    private static String plain(final double value)
    {
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static double[] homeLengths(final GoughStewartModel hexapod)
    {
        final double[] lengths = new double[GoughStewartModel.LEGS];
        new GoughStewartKinematics(hexapod).inverse(hexapod.homePosition(), hexapod.homeRotation(), lengths);
        return lengths;
    }

    private static String point(final double[] points, final int leg)
    {
        return String.format(Locale.ROOT, "[%.4f, %.4f, %.4f]", points[3 * leg], points[3 * leg + 1], points[3 * leg + 2]);
    }

    /** Roll, pitch, yaw of R = Rz(yaw) Ry(pitch) Rx(roll), as the description's {@code home.rpy}. */
    private static double[] rpy(final double[] r)
    {
        return new double[] {Math.atan2(r[7], r[8]), -Math.asin(Math.max(-1.0, Math.min(1.0, r[6]))), Math.atan2(r[3], r[0])};
    }

    private static boolean isActive(final ClosedLoopModel robot, final int coordinate)
    {
        for (final int a : robot.activeCoordinates())
        {
            if (a == coordinate)
            {
                return true;
            }
        }
        return false;
    }

    private static String linkName(final RobotModel tree, final int body)
    {
        return body < 0 ? tree.baseName() : tree.bodyName(body);
    }

    /** The joint's limits, null where the description sets none (an infinite limit has no JSON number). */
    private static void limits(final ObjectNode joint, final JointLimits limits)
    {
        finiteOrNull(joint, "q_min", limits.positionMin());
        finiteOrNull(joint, "q_max", limits.positionMax());
        finiteOrNull(joint, "qd_max", limits.velocityMax());
        finiteOrNull(joint, "tau_max", limits.effortMax());
    }

    private static void finiteOrNull(final ObjectNode node, final String field, final double value)
    {
        if (Double.isFinite(value))
        {
            node.put(field, value);
        }
        else
        {
            node.putNull(field);
        }
    }
}
