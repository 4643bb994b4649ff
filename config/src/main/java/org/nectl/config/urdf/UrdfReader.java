package org.nectl.config.urdf;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.nectl.config.DescriptionException;
import org.nectl.config.DescriptionFiles;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Imports a URDF robot description (fixed or floating base; revolute, continuous, prismatic and
 * fixed joints; branched trees) into the canonical {@link RobotModel}. A {@code floating} joint from
 * a root link that holds nothing else (typically {@code world}) makes its child a floating base
 * ({@link UrdfFloatingBase}); without one, the root link is the fixed base.
 *
 * <p>Frames: URDF puts the joint frame, which is the child link frame at q = 0, at {@code <origin>}
 * in the parent link frame, and moves it about or along an arbitrary {@code <axis>}. The canonical
 * body frame of link i is its URDF link frame turned by A_i = {@link JointAxisFrame} so that z is
 * the joint axis (A = identity for fixed joints and the root); hence placement_i =
 * A_parent^T * origin_i * A_i, and link i's inertia is re-expressed through A_i^T.
 *
 * <p>Generalised coordinates are the movable joints in the order their {@code <joint>} elements
 * appear in the file. Bodies are numbered parents first, following file order where it allows.
 * Rotor inertia is read from Drake's transmission extension
 * ({@code <actuator><drake:rotor_inertia value/><drake:gear_ratio value/>}, reflected inertia =
 * rotor inertia * gear ratio^2); everything else outside links and joints is ignored.
 *
 * <p>Not real-time safe; thread safe (no shared state).
 */
public final class UrdfReader
{
    /** The largest URDF file read, bytes: about 50 times the largest public robot file checked (iCub, 78 kB). */
    public static final int MAX_FILE_BYTES = 4 << 20;

    /** The deepest element nesting read; {@code <robot>} is level 1. */
    public static final int MAX_DEPTH = UrdfDocument.MAX_DEPTH;

    /** The most XML elements read from one file. */
    public static final int MAX_ELEMENTS = UrdfDocument.MAX_ELEMENTS;

    private UrdfReader()
    {
    }

    /**
     * @param file a {@code .urdf} file.
     * @return the canonical model.
     * @throws DescriptionException naming file, line, column, element path and what was expected if the
     *     file cannot be read, is not a regular file, is larger than {@link #MAX_FILE_BYTES}, is not
     *     UTF-8, nests elements deeper than {@link #MAX_DEPTH}, has more than {@link #MAX_ELEMENTS}
     *     elements, or the description is invalid.
     */
    public static RobotModel read(final Path file)
    {
        return read(DescriptionFiles.readUtf8(file, MAX_FILE_BYTES, "a URDF file"), file.toString());
    }

    /**
     * @param urdf URDF text.
     * @param source file name or label used in messages.
     * @return the canonical model.
     * @throws DescriptionException naming source, line, column, element path and what was expected if the
     *     description is invalid.
     */
    public static RobotModel read(final String urdf, final String source)
    {
        final UrdfElement robot = UrdfDocument.parse(urdf, source);
        final String robotName = robot.requiredAttribute("name", "the robot's name");
        final List<UrdfJoint> allJoints = joints(robot);
        final UrdfFloatingBase floating = UrdfFloatingBase.of(links(robot), allJoints);
        final Map<String, UrdfLink> links = floating.links();
        final List<UrdfJoint> joints = floating.joints();
        final UrdfTree tree = UrdfTree.of(robot, links, joints);
        final Map<String, Double> rotorInertia = UrdfTransmissions.reflectedRotorInertias(robot, joints);
        final RobotModel.Builder builder = RobotModel.builder(robotName).baseName(tree.rootLink());
        if (floating.joint() != null)
        {
            builder.floatingBase(inertiaInBodyFrame(links.get(tree.rootLink()), Transforms.identity()));
        }
        final Map<String, Integer> bodyOfLink = new LinkedHashMap<>();
        final Map<String, double[]> axisFrameOfLink = new LinkedHashMap<>();
        bodyOfLink.put(tree.rootLink(), -1);
        axisFrameOfLink.put(tree.rootLink(), Transforms.identity());
        final List<String> coordinateOrder = new ArrayList<>();
        for (final UrdfJoint joint : joints)
        {
            if (joint.type().isMovable())
            {
                coordinateOrder.add(joint.name());
            }
        }
        for (final UrdfJoint joint : tree.jointsParentsFirst())
        {
            final double[] a = joint.type().isMovable()
                ? JointAxisFrame.rotationTakingZTo(joint.axis()) : Transforms.identity();
            final double[] aParentT = Transforms.transpose(axisFrameOfLink.get(joint.parentLink()));
            final int body = builder.addBody(
                joint.childLink(), joint.name(), bodyOfLink.get(joint.parentLink()), joint.type(),
                Transforms.multiply(aParentT, Transforms.multiply(joint.originRotation(), a)),
                Transforms.apply(aParentT, joint.originTranslation()),
                inertiaInBodyFrame(links.get(joint.childLink()), a));
            if (joint.type().isMovable())
            {
                final JointActuation friction = joint.actuation();
                builder.limits(body, joint.limits()).actuation(body, new JointActuation(
                    rotorInertia.getOrDefault(joint.name(), 0.0),
                    friction.coulombFriction(), friction.viscousFriction()));
            }
            bodyOfLink.put(joint.childLink(), body);
            axisFrameOfLink.put(joint.childLink(), a);
        }
        builder.coordinateOrder(coordinateOrder);
        try
        {
            return builder.build();
        }
        catch (final IllegalArgumentException e)
        {
            throw robot.error(e.getMessage());
        }
    }

    /**
     * A link without {@code <inertial>} is massless, as the URDF specification defines it (zero mass
     * and zero inertia) and other URDF readers take it: intermediate frames of multi-axis joints are
     * often written that way. Only links below the root and a floating base get here: a fixed base's
     * {@code <inertial>} no dynamics uses, so it is neither read nor checked.
     */
    private static InertialParameters inertiaInBodyFrame(final UrdfLink link, final double[] a)
    {
        final InertialParameters inLinkFrame = link.inertiaInLinkFrame();
        if (inLinkFrame == null)
        {
            return InertialParameters.ofFirstMoment(0.0, new double[3], new double[9]);
        }
        return inLinkFrame.transformed(Transforms.transpose(a), new double[3]);
    }

    private static Map<String, UrdfLink> links(final UrdfElement robot)
    {
        final Map<String, UrdfLink> links = new LinkedHashMap<>();
        for (final UrdfElement element : robot.children("link"))
        {
            final UrdfLink link = UrdfLink.parse(element);
            final UrdfLink earlier = links.putIfAbsent(link.name(), link);
            if (earlier != null)
            {
                throw element.error("duplicate link name '" + link.name() + "' (first defined on line "
                    + earlier.element().line() + "); expected unique link names");
            }
        }
        if (links.isEmpty())
        {
            throw robot.error("no <link>; expected at least the root link");
        }
        return links;
    }

    private static List<UrdfJoint> joints(final UrdfElement robot)
    {
        final Map<String, UrdfJoint> joints = new LinkedHashMap<>();
        for (final UrdfElement element : robot.children("joint"))
        {
            final UrdfJoint joint = UrdfJoint.parse(element);
            final UrdfJoint earlier = joints.putIfAbsent(joint.name(), joint);
            if (earlier != null)
            {
                throw element.error("duplicate joint name '" + joint.name() + "' (first defined on line "
                    + earlier.element().line() + "); expected unique joint names");
            }
        }
        return new ArrayList<>(joints.values());
    }
}
