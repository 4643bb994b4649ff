package org.nectl.config.urdf;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.Transforms;

/**
 * A URDF {@code <joint>} as the specification defines it: the joint frame (= child link frame at
 * q = 0) is placed in the parent link frame by {@code <origin>}; the joint moves the child about or
 * along {@code axis}, a unit vector expressed in the joint frame.
 *
 * @param name joint name.
 * @param element the {@code <joint>} element, for messages.
 * @param type canonical joint type (continuous and revolute are both REVOLUTE).
 * @param parentLink parent link name.
 * @param childLink child link name.
 * @param originRotation rotation parent link frame -> joint frame, row-major.
 * @param originTranslation joint frame origin in the parent link frame, m.
 * @param axis unit joint axis in the joint frame (unused for fixed joints).
 * @param limits position, velocity and effort limits (none for fixed joints).
 * @param actuation Coulomb and viscous friction from {@code <dynamics>}, no rotor inertia.
 * @param floating true for a {@code floating} joint (six degrees of freedom), whose type is then
 *     FIXED and whose origin, axis and limits are not used: only the robot's base may float
 *     ({@link UrdfReader}).
 */
record UrdfJoint(
    String name,
    UrdfElement element,
    JointType type,
    String parentLink,
    String childLink,
    double[] originRotation,
    double[] originTranslation,
    double[] axis,
    JointLimits limits,
    JointActuation actuation,
    boolean floating)
{
    private static final double[] ZERO = new double[3];
    private static final double[] DEFAULT_AXIS = {1.0, 0.0, 0.0};

    /**
     * @param joint a {@code <joint>} element.
     * @return the joint, every number checked.
     */
    static UrdfJoint parse(final UrdfElement joint)
    {
        final String name = joint.requiredAttribute("name", "a unique joint name");
        final String typeName = joint.requiredAttribute("type", "revolute, continuous, prismatic, fixed or floating");
        final boolean floating = "floating".equals(typeName);
        final JointType type = floating ? JointType.FIXED : type(joint, typeName);
        final UrdfElement mimic = joint.optionalChild("mimic");
        if (mimic != null)
        {
            throw mimic.error("mimic joints are not supported; expected each movable joint to be independent");
        }
        final String parent = joint.requiredChild("parent", "<parent link=\"...\"/>")
            .requiredAttribute("link", "the name of the parent link");
        final String child = joint.requiredChild("child", "<child link=\"...\"/>")
            .requiredAttribute("link", "the name of the child link");
        final UrdfElement origin = joint.optionalChild("origin");
        final double[] xyz = origin == null ? ZERO.clone() : origin.vector3("xyz", ZERO);
        final double[] rpy = origin == null ? ZERO.clone() : origin.vector3("rpy", ZERO);
        final boolean movable = type.isMovable();
        return new UrdfJoint(
            name, joint, type, parent, child, Transforms.rpy(rpy[0], rpy[1], rpy[2]), xyz,
            movable ? axis(joint) : DEFAULT_AXIS.clone(),
            movable ? limits(joint, typeName) : JointLimits.NONE,
            movable ? actuation(joint) : JointActuation.NONE,
            floating);
    }

    private static JointType type(final UrdfElement joint, final String typeName)
    {
        switch (typeName)
        {
            case "revolute":
            case "continuous":
                return JointType.REVOLUTE;
            case "prismatic":
                return JointType.PRISMATIC;
            case "fixed":
                return JointType.FIXED;
            case "planar":
                throw joint.error("joint type 'planar' is not supported: a base moves either not at all or"
                    + " with six degrees of freedom ('floating'); expected revolute, continuous, prismatic, fixed"
                    + " or floating");
            default:
                throw joint.error("unknown joint type '" + typeName
                    + "'; expected revolute, continuous, prismatic, fixed or floating");
        }
    }

    private static double[] axis(final UrdfElement joint)
    {
        final UrdfElement element = joint.optionalChild("axis");
        if (element == null)
        {
            return DEFAULT_AXIS.clone();
        }
        final double[] a = element.vector3("xyz", DEFAULT_AXIS);
        // hypot cannot underflow, so only a true zero vector is rejected.
        final double length = Math.hypot(Math.hypot(a[0], a[1]), a[2]);
        if (length == 0.0)
        {
            throw element.error("axis has zero length; expected a non-zero direction 'x y z'");
        }
        return new double[] {a[0] / length, a[1] / length, a[2] / length};
    }

    /**
     * Revolute and prismatic joints require {@code <limit>} with effort and velocity (lower and
     * upper default to 0); continuous joints may have one but never position limits. The largest
     * double stands for "unlimited" ({@link UrdfLimitValues}).
     */
    private static JointLimits limits(final UrdfElement joint, final String typeName)
    {
        final boolean continuous = typeName.equals("continuous");
        final UrdfElement limit = continuous
            ? joint.optionalChild("limit")
            : joint.requiredChild("limit", "<limit effort=\"...\" velocity=\"...\" lower=\"...\" upper=\"...\"/>"
                + " (required for " + typeName + " joints)");
        if (limit == null)
        {
            return JointLimits.NONE;
        }
        final double effort = UrdfLimitValues.fromUrdfRate(limit.requiredNumber("effort"));
        final double velocity = UrdfLimitValues.fromUrdfRate(limit.requiredNumber("velocity"));
        final JointLimits limits = continuous
            ? new JointLimits(Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY, velocity, effort,
                Double.POSITIVE_INFINITY)
            : new JointLimits(UrdfLimitValues.fromUrdf(limit.number("lower", 0.0)),
                UrdfLimitValues.fromUrdf(limit.number("upper", 0.0)), velocity, effort, Double.POSITIVE_INFINITY);
        final String problem = limits.check();
        if (problem != null)
        {
            throw limit.error(problem);
        }
        return limits;
    }

    private static JointActuation actuation(final UrdfElement joint)
    {
        final UrdfElement dynamics = joint.optionalChild("dynamics");
        if (dynamics == null)
        {
            return JointActuation.NONE;
        }
        final JointActuation actuation = new JointActuation(
            0.0, dynamics.number("friction", 0.0), dynamics.number("damping", 0.0));
        final String problem = actuation.check();
        if (problem != null)
        {
            throw dynamics.error(problem);
        }
        return actuation;
    }
}
