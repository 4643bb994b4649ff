package org.nectl.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Orders the joints of a description so that every antecedent comes before its children, as
 * {@code RobotModel} requires, keeping file order wherever the tree allows. Rejects duplicate
 * names, antecedents that name no link, and antecedent cycles. Not real-time safe.
 */
final class TreeOrder
{
    private TreeOrder()
    {
    }

    /**
     * @param joints the joints in file order.
     * @param baseName the fixed base's name.
     * @return the same joints, parents before children.
     */
    static List<DescribedJoint> sort(final List<DescribedJoint> joints, final String baseName)
    {
        final Map<String, DescribedJoint> byLink = uniqueNames(joints, baseName);
        for (final DescribedJoint j : joints)
        {
            if (!j.antecedent().equals(baseName) && !byLink.containsKey(j.antecedent()))
            {
                final Set<String> known = new HashSet<>(byLink.keySet());
                known.add(baseName);
                throw j.antecedentField().error("antecedent '" + j.antecedent() + "' of link '" + j.link()
                    + "' is neither a link of this table nor the base '" + baseName + "'"
                    + Suggestions.didYouMean(j.antecedent(), known));
            }
        }
        final List<DescribedJoint> ordered = new ArrayList<>();
        final Set<String> placed = new HashSet<>();
        placed.add(baseName);
        boolean progress = true;
        while (progress && ordered.size() < joints.size())
        {
            progress = false;
            for (final DescribedJoint j : joints)
            {
                if (!placed.contains(j.link()) && placed.contains(j.antecedent()))
                {
                    ordered.add(j);
                    placed.add(j.link());
                    progress = true;
                }
            }
        }
        if (ordered.size() < joints.size())
        {
            throw cycle(joints, placed, byLink);
        }
        return ordered;
    }

    private static Map<String, DescribedJoint> uniqueNames(final List<DescribedJoint> joints, final String baseName)
    {
        final Map<String, DescribedJoint> byLink = new LinkedHashMap<>();
        final Set<String> jointNames = new HashSet<>();
        for (final DescribedJoint j : joints)
        {
            if (j.link().equals(baseName))
            {
                throw j.field().error("link name '" + j.link() + "' is the name of the base; names must be unique");
            }
            if (byLink.put(j.link(), j) != null)
            {
                throw j.field().error("link name '" + j.link() + "' is used twice; link names must be unique");
            }
            if (!jointNames.add(j.joint()))
            {
                throw j.field().error("joint name '" + j.joint() + "' is used twice; joint names must be unique");
            }
        }
        return byLink;
    }

    private static DescriptionException cycle(
        final List<DescribedJoint> joints, final Set<String> placed, final Map<String, DescribedJoint> byLink)
    {
        DescribedJoint j = joints.stream().filter(x -> !placed.contains(x.link())).findFirst().orElseThrow();
        final Map<String, Integer> seen = new HashMap<>();
        final List<String> walk = new ArrayList<>();
        while (!seen.containsKey(j.link()))
        {
            seen.put(j.link(), walk.size());
            walk.add(j.link());
            j = byLink.get(j.antecedent());
        }
        final List<String> loop = new ArrayList<>(walk.subList(seen.get(j.link()), walk.size()));
        loop.add(j.link());
        return j.antecedentField().error("antecedents form a cycle: " + String.join(" -> ", loop)
            + " (each link's antecedent must lead back to the base)");
    }
}
