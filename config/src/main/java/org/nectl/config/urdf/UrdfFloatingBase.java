package org.nectl.config.urdf;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the robot's floating base in a URDF: a {@code floating} joint from a root link (typically
 * {@code world}) that holds nothing else to the base link. The root link and the joint are then
 * dropped, so that the base link becomes the root of the tree; its pose in the root link's frame is
 * state, not part of the model, so the joint's {@code <origin>} is not used. A {@code floating}
 * joint anywhere else is refused: only the base may float. Not real-time safe; immutable.
 *
 * @param joint the floating joint, or null for a fixed base.
 * @param links the links without the dropped root.
 * @param joints the joints without the floating one, in file order.
 */
record UrdfFloatingBase(UrdfJoint joint, Map<String, UrdfLink> links, List<UrdfJoint> joints)
{
    /**
     * @param links links by name, in file order.
     * @param joints joints in file order.
     * @return the base found, with the links and joints that remain.
     * @throws org.nectl.config.DescriptionException at the floating joint that is not the base's.
     */
    static UrdfFloatingBase of(final Map<String, UrdfLink> links, final List<UrdfJoint> joints)
    {
        UrdfJoint base = null;
        for (final UrdfJoint joint : joints)
        {
            if (!joint.floating())
            {
                continue;
            }
            requireRootHoldingOnlyThis(links, joints, joint);
            if (base != null)
            {
                throw joint.element().error("a second floating joint (the first is '" + base.name() + "', line "
                    + base.element().line() + "); expected at most one, from a root link such as 'world' to the base link");
            }
            base = joint;
        }
        if (base == null)
        {
            return new UrdfFloatingBase(null, links, joints);
        }
        final Map<String, UrdfLink> remainingLinks = new LinkedHashMap<>(links);
        remainingLinks.remove(base.parentLink());
        final List<UrdfJoint> remainingJoints = new ArrayList<>(joints);
        remainingJoints.remove(base);
        return new UrdfFloatingBase(base, remainingLinks, remainingJoints);
    }

    private static void requireRootHoldingOnlyThis(
        final Map<String, UrdfLink> links, final List<UrdfJoint> joints, final UrdfJoint floating)
    {
        for (final String role : new String[] {"parent", "child"})
        {
            final String link = "parent".equals(role) ? floating.parentLink() : floating.childLink();
            if (!links.containsKey(link))
            {
                throw floating.element().optionalChild(role).error(
                    role + " link '" + link + "' is not defined; expected the name of a <link> of this robot");
            }
        }
        for (final UrdfJoint other : joints)
        {
            if (other.childLink().equals(floating.parentLink()))
            {
                throw floating.element().error("floating joint '" + floating.name() + "' is below the root: its parent"
                    + " link '" + floating.parentLink() + "' is the child of joint '" + other.name() + "' (line "
                    + other.element().line() + "); only the base may float: expected a floating joint from a root link"
                    + " such as 'world', which holds nothing else, to the base link");
            }
            if (other != floating && other.parentLink().equals(floating.parentLink()))
            {
                throw floating.element().error("floating joint '" + floating.name() + "' hangs from link '"
                    + floating.parentLink() + "', which also holds joint '" + other.name() + "' (line "
                    + other.element().line() + "); expected the floating joint's parent to be a root link such as"
                    + " 'world' that holds nothing else");
            }
        }
    }
}
