package org.nectl.config.urdf;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;

import org.nectl.config.DescriptionException;

/**
 * The topology of a URDF: exactly one root link (no joint's child), every other link the child of
 * exactly one joint, no cycles. Orders the joints parents first, taking the earliest joint in the
 * file whenever several are ready, so that a file written parents first keeps its order.
 * Not real-time safe; immutable.
 */
final class UrdfTree
{
    private final String rootLink;
    private final List<UrdfJoint> jointsParentsFirst;

    private UrdfTree(final String rootLink, final List<UrdfJoint> jointsParentsFirst)
    {
        this.rootLink = rootLink;
        this.jointsParentsFirst = jointsParentsFirst;
    }

    /**
     * @param robot the {@code <robot>} element, for messages.
     * @param links links by name, in file order.
     * @param joints joints in file order.
     * @return the checked tree.
     * @throws DescriptionException for an undefined link, a link with two parents, no or several roots, a cycle.
     */
    static UrdfTree of(final UrdfElement robot, final Map<String, UrdfLink> links, final List<UrdfJoint> joints)
    {
        final Map<String, UrdfJoint> parentJointOfLink = new HashMap<>();
        for (final UrdfJoint joint : joints)
        {
            requireLink(links, joint, "parent", joint.parentLink());
            requireLink(links, joint, "child", joint.childLink());
            final UrdfJoint earlier = parentJointOfLink.putIfAbsent(joint.childLink(), joint);
            if (earlier != null)
            {
                throw joint.element().error("link '" + joint.childLink() + "' is already the child of joint '"
                    + earlier.name() + "' (line " + earlier.element().line()
                    + "); expected each link to have at most one parent joint (a tree)");
            }
        }
        final String root = root(robot, links, parentJointOfLink);
        return new UrdfTree(root, parentsFirst(root, joints));
    }

    /** @return the name of the root link (the fixed base). */
    String rootLink()
    {
        return rootLink;
    }

    /** @return every joint, each after the joint of its parent link. */
    List<UrdfJoint> jointsParentsFirst()
    {
        return jointsParentsFirst;
    }

    private static void requireLink(
        final Map<String, UrdfLink> links, final UrdfJoint joint, final String role, final String link)
    {
        if (!links.containsKey(link))
        {
            throw joint.element().optionalChild(role).error(
                role + " link '" + link + "' is not defined; expected the name of a <link> of this robot");
        }
    }

    private static String root(
        final UrdfElement robot, final Map<String, UrdfLink> links, final Map<String, UrdfJoint> parentJointOfLink)
    {
        UrdfLink root = null;
        for (final UrdfLink link : links.values())
        {
            if (parentJointOfLink.containsKey(link.name()))
            {
                continue;
            }
            if (root != null)
            {
                throw link.element().error("link '" + link.name() + "' is a second root (no joint has it as child)"
                    + " besides '" + root.name() + "' (line " + root.element().line()
                    + "); expected exactly one root link, every other link the child of a joint");
            }
            root = link;
        }
        if (root == null)
        {
            throw robot.error("every link is the child of a joint, so the joints form a cycle;"
                + " expected exactly one root link");
        }
        return root.name();
    }

    private static List<UrdfJoint> parentsFirst(final String root, final List<UrdfJoint> joints)
    {
        final Map<String, List<Integer>> jointsByParentLink = new HashMap<>();
        for (int j = 0; j < joints.size(); j++)
        {
            jointsByParentLink.computeIfAbsent(joints.get(j).parentLink(), k -> new ArrayList<>()).add(j);
        }
        final PriorityQueue<Integer> ready = new PriorityQueue<>(jointsByParentLink.getOrDefault(root, List.of()));
        final List<UrdfJoint> ordered = new ArrayList<>();
        final Set<Integer> placed = new HashSet<>();
        while (!ready.isEmpty())
        {
            final int j = ready.poll();
            ordered.add(joints.get(j));
            placed.add(j);
            ready.addAll(jointsByParentLink.getOrDefault(joints.get(j).childLink(), List.of()));
        }
        for (int j = 0; j < joints.size(); j++)
        {
            if (!placed.contains(j))
            {
                final UrdfJoint joint = joints.get(j);
                throw joint.element().error("joint '" + joint.name() + "' is on a cycle: its parent link '"
                    + joint.parentLink() + "' cannot be reached from the root link '" + root
                    + "'; expected the joints to form a tree");
            }
        }
        return ordered;
    }
}
