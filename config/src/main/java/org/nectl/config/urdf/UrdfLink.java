package org.nectl.config.urdf;

import org.nectl.core.model.InertiaChecks;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.Transforms;

/**
 * A URDF {@code <link>}: its name and element. Its {@code <inertial>} is read on request only, so
 * that the root's, which a fixed base never uses, is not read at all.
 *
 * @param name link name.
 * @param element the {@code <link>} element, for messages.
 */
record UrdfLink(String name, UrdfElement element)
{
    private static final double[] ZERO = new double[3];

    /**
     * @param link a {@code <link>} element.
     * @return the link.
     */
    static UrdfLink parse(final UrdfElement link)
    {
        return new UrdfLink(link.requiredAttribute("name", "a unique link name"), link);
    }

    /**
     * @return the inertial parameters about the link frame origin, link-frame axes, checked for
     *     physical consistency; null when the link has no {@code <inertial>}.
     */
    InertialParameters inertiaInLinkFrame()
    {
        final UrdfElement inertial = element.optionalChild("inertial");
        return inertial == null ? null : inertial(inertial);
    }

    /**
     * URDF gives the inertia tensor about the centre of mass in the axes of the inertial frame,
     * whose pose in the link frame is {@code <origin xyz rpy>}; re-expressed here in the link frame.
     */
    private static InertialParameters inertial(final UrdfElement inertial)
    {
        final UrdfElement origin = inertial.optionalChild("origin");
        final double[] xyz = origin == null ? ZERO.clone() : origin.vector3("xyz", ZERO);
        final double[] rpy = origin == null ? ZERO.clone() : origin.vector3("rpy", ZERO);
        final UrdfElement massElement = inertial.requiredChild("mass", "<mass value=\"kg\"/>");
        final double mass = massElement.requiredNumber("value");
        final String massProblem = InertiaChecks.checkMass(mass);
        if (massProblem != null)
        {
            throw massElement.error(massProblem);
        }
        final UrdfElement tensor = inertial.requiredChild(
            "inertia", "<inertia ixx ixy ixz iyy iyz izz/> about the centre of mass, kg m^2");
        final double ixx = tensor.requiredNumber("ixx");
        final double ixy = tensor.requiredNumber("ixy");
        final double ixz = tensor.requiredNumber("ixz");
        final double iyy = tensor.requiredNumber("iyy");
        final double iyz = tensor.requiredNumber("iyz");
        final double izz = tensor.requiredNumber("izz");
        final double[] inertiaInInertialFrame = {ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz};
        final String tensorProblem = InertiaChecks.checkInertiaAtCentreOfMass(inertiaInInertialFrame);
        if (tensorProblem != null)
        {
            throw tensor.error(tensorProblem + "; expected a physically consistent inertia about the centre of mass");
        }
        final InertialParameters inLinkFrame = InertialParameters.ofCentreOfMass(mass, ZERO, inertiaInInertialFrame)
            .transformed(Transforms.rpy(rpy[0], rpy[1], rpy[2]), xyz);
        final String overflow = InertiaChecks.checkFinite(inLinkFrame);
        if (overflow != null)
        {
            throw (origin == null ? inertial : origin).error(overflow);
        }
        return inLinkFrame;
    }
}
