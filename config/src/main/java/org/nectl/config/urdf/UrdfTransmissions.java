package org.nectl.config.urdf;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads rotor inertias from Drake's URDF extension of {@code <transmission>}: an {@code <actuator>}
 * with {@code <drake:rotor_inertia value/>} and optional {@code <drake:gear_ratio value/>} (default
 * 1) acting on the transmission's {@code <joint name/>}; the inertia reflected to the joint is
 * rotor inertia * gear ratio^2. Transmissions without a rotor inertia are ignored.
 * Not real-time safe; thread safe.
 */
final class UrdfTransmissions
{
    /** Drake's tag for the rotor inertia, kg m^2. */
    static final String ROTOR_INERTIA = "drake:rotor_inertia";
    /** Drake's tag for the gear ratio (motor turns per joint turn). */
    static final String GEAR_RATIO = "drake:gear_ratio";

    private UrdfTransmissions()
    {
    }

    /**
     * @param robot the {@code <robot>} element.
     * @param joints the robot's joints.
     * @return reflected rotor inertia by joint name, kg m^2 (kg for prismatic joints).
     */
    static Map<String, Double> reflectedRotorInertias(final UrdfElement robot, final List<UrdfJoint> joints)
    {
        final Map<String, UrdfJoint> jointByName = new HashMap<>();
        for (final UrdfJoint joint : joints)
        {
            jointByName.put(joint.name(), joint);
        }
        final Map<String, Double> result = new HashMap<>();
        for (final UrdfElement transmission : robot.children("transmission"))
        {
            final UrdfElement actuator = transmission.optionalChild("actuator");
            final UrdfElement rotor = actuator == null ? null : actuator.optionalChild(ROTOR_INERTIA);
            if (rotor == null)
            {
                continue;
            }
            final UrdfElement jointElement = transmission.requiredChild(
                "joint", "<joint name=\"...\"/> naming the movable joint the rotor drives");
            final String jointName = jointElement.requiredAttribute("name", "the name of a movable joint");
            final UrdfJoint joint = jointByName.get(jointName);
            if (joint == null || !joint.type().isMovable())
            {
                throw jointElement.error("'" + jointName + "' is not a movable joint of this robot;"
                    + " expected the name of a revolute, continuous or prismatic joint");
            }
            final double inertia = rotor.requiredNumber("value");
            final UrdfElement gear = actuator.optionalChild(GEAR_RATIO);
            final double ratio = gear == null ? 1.0 : gear.requiredNumber("value");
            if (inertia < 0.0)
            {
                throw rotor.error("rotor inertia " + inertia + " is negative; expected a value >= 0 kg m^2");
            }
            if (result.put(jointName, inertia * ratio * ratio) != null)
            {
                throw jointElement.error("joint '" + jointName + "' has a second rotor inertia;"
                    + " expected at most one per joint");
            }
        }
        return result;
    }
}
