package org.nectl.config.urdf;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;

import org.nectl.core.model.InertialParameters;
import org.nectl.core.testing.RandomRobots;

/**
 * Seeded random URDF text exercising everything the importer must get right: branched trees,
 * revolute, continuous, prismatic and fixed joints, arbitrary non-unit axes (and the default and
 * the +-z, -y special cases), rpy origins including gimbal lock, inertials with their own rpy, links
 * without inertials behind fixed joints, and link and joint elements in shuffled file order.
 */
public final class RandomUrdf
{
    private static final String[] TYPES = {"revolute", "continuous", "prismatic", "fixed"};

    private RandomUrdf()
    {
    }

    /**
     * @param seed the seed: the same seed gives the same text.
     * @return the URDF text of a random robot named {@code random<seed>}.
     */
    public static String generate(final long seed)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int links = rnd.nextInt(2, 15);
        final List<String> linkElements = new ArrayList<>();
        final List<String> jointElements = new ArrayList<>();
        linkElements.add(link("base_link", rnd.nextBoolean() ? RandomRobots.randomInertia(rnd) : null, rnd));
        for (int i = 1; i < links; i++)
        {
            final String type = TYPES[rnd.nextInt(TYPES.length)];
            final boolean fixed = type.equals("fixed");
            final InertialParameters inertia = fixed && rnd.nextBoolean() ? null : RandomRobots.randomInertia(rnd);
            linkElements.add(link("link" + i, inertia, rnd));
            final int parent = rnd.nextInt(0, i);
            jointElements.add(joint(i, type, parent == 0 ? "base_link" : "link" + parent, rnd));
        }
        Collections.shuffle(linkElements, new Random(seed));
        Collections.shuffle(jointElements, new Random(seed + 1));
        final StringBuilder out = new StringBuilder("<?xml version=\"1.0\"?>\n<robot name=\"random" + seed + "\">\n");
        linkElements.forEach(out::append);
        jointElements.forEach(out::append);
        return out.append("</robot>\n").toString();
    }

    private static String link(final String name, final InertialParameters inertia, final SplittableRandom rnd)
    {
        if (inertia == null)
        {
            return "  <link name=\"" + name + "\"/>\n";
        }
        final double[] i = inertia.inertiaAtCentreOfMass();
        return "  <link name=\"" + name + "\">\n    <inertial>\n"
            + "      " + origin(rnd) + "\n"
            + "      <mass value=\"" + inertia.mass() + "\"/>\n"
            + "      <inertia ixx=\"" + i[0] + "\" ixy=\"" + i[1] + "\" ixz=\"" + i[2] + "\" iyy=\"" + i[4]
            + "\" iyz=\"" + i[5] + "\" izz=\"" + i[8] + "\"/>\n"
            + "    </inertial>\n  </link>\n";
    }

    private static String joint(final int index, final String type, final String parent, final SplittableRandom rnd)
    {
        final StringBuilder out = new StringBuilder();
        out.append("  <joint name=\"joint").append(index).append("\" type=\"").append(type).append("\">\n");
        out.append("    <parent link=\"").append(parent).append("\"/>\n");
        out.append("    <child link=\"link").append(index).append("\"/>\n");
        out.append("    ").append(origin(rnd)).append('\n');
        final String axis = axis(rnd);
        if (axis != null)
        {
            out.append("    <axis xyz=\"").append(axis).append("\"/>\n");
        }
        if (type.equals("revolute") || type.equals("prismatic"))
        {
            out.append("    <limit lower=\"-1.5\" upper=\"").append(rnd.nextDouble(0.1, 2.0))
                .append("\" effort=\"50\" velocity=\"1.5\"/>\n");
        }
        else if (type.equals("continuous") && rnd.nextBoolean())
        {
            out.append("    <limit effort=\"20\" velocity=\"3\"/>\n");
        }
        if (!type.equals("fixed") && rnd.nextBoolean())
        {
            out.append("    <dynamics damping=\"").append(rnd.nextDouble(0, 1)).append("\" friction=\"")
                .append(rnd.nextDouble(0, 2)).append("\"/>\n");
        }
        return out.append("  </joint>\n").toString();
    }

    private static String origin(final SplittableRandom rnd)
    {
        final double u = rnd.nextDouble();
        if (u < 0.1)
        {
            return "<!-- default origin -->";
        }
        final String xyz = rnd.nextDouble(-0.5, 0.5) + " " + rnd.nextDouble(-0.5, 0.5) + " " + rnd.nextDouble(-0.5, 0.5);
        if (u < 0.2)
        {
            return "<origin xyz=\"" + xyz + "\"/>";
        }
        final double pitch = u < 0.3 ? (rnd.nextBoolean() ? 1 : -1) * Math.PI / 2 : rnd.nextDouble(-Math.PI, Math.PI);
        return "<origin xyz=\"" + xyz + "\" rpy=\"" + rnd.nextDouble(-Math.PI, Math.PI) + " " + pitch + " "
            + rnd.nextDouble(-Math.PI, Math.PI) + "\"/>";
    }

    /** @return an axis attribute value, or null to leave the default (1, 0, 0). */
    private static String axis(final SplittableRandom rnd)
    {
        final double u = rnd.nextDouble();
        if (u < 0.1)
        {
            return null;
        }
        if (u < 0.2)
        {
            return "0 0 1";
        }
        if (u < 0.3)
        {
            return "0 0 -1";
        }
        if (u < 0.35)
        {
            return "0 -1 0";
        }
        if (u < 0.4)
        {
            return "1e-9 -2e-9 -1";
        }
        return rnd.nextDouble(-2, 2) + " " + rnd.nextDouble(-2, 2) + " " + rnd.nextDouble(-2, 2);
    }
}
