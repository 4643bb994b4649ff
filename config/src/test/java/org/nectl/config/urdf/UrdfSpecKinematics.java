package org.nectl.config.urdf;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * An independent evaluator of URDF semantics for tests, written straight from the specification and
 * sharing no code with the importer: its own XML parse (DOM), its own roll-pitch-yaw matrix, and
 * joint motion as a rotation about the arbitrary axis by Rodrigues' formula (or a translation along
 * it). Gives every link's world pose and its inertia in the world frame at given joint positions.
 */
final class UrdfSpecKinematics
{
    /** A rigid pose in the world frame: rotation row-major, translation. */
    record Pose(double[] rotation, double[] translation)
    {
    }

    /** A link's mass, centre of mass and inertia about it, all in the world frame. */
    record WorldInertia(double mass, double[] centreOfMass, double[] inertiaAtCentreOfMass)
    {
    }

    private record Joint(String name, String type, String parent, String child, double[] xyz, double[] rpy,
        double[] axis)
    {
    }

    private record Inertial(double mass, double[] xyz, double[] rpy, double[] tensor)
    {
    }

    private final String rootLink;
    private final List<Joint> joints = new ArrayList<>();
    private final Map<String, Joint> jointOfChild = new HashMap<>();
    private final Map<String, Inertial> inertials = new LinkedHashMap<>();

    UrdfSpecKinematics(final String urdf)
    {
        final Document doc;
        try
        {
            doc = DocumentBuilderFactory.newDefaultInstance().newDocumentBuilder()
                .parse(new ByteArrayInputStream(urdf.getBytes(StandardCharsets.UTF_8)));
        }
        catch (final Exception e)
        {
            throw new IllegalStateException(e);
        }
        final Element robot = doc.getDocumentElement();
        final List<String> links = new ArrayList<>();
        for (final Element link : children(robot, "link"))
        {
            links.add(link.getAttribute("name"));
            final Element inertial = child(link, "inertial");
            if (inertial != null)
            {
                final Element origin = child(inertial, "origin");
                final Element t = child(inertial, "inertia");
                final double ixy = num(t, "ixy");
                final double ixz = num(t, "ixz");
                final double iyz = num(t, "iyz");
                inertials.put(link.getAttribute("name"), new Inertial(
                    num(child(inertial, "mass"), "value"), vec(origin, "xyz", 0, 0, 0), vec(origin, "rpy", 0, 0, 0),
                    new double[] {num(t, "ixx"), ixy, ixz, ixy, num(t, "iyy"), iyz, ixz, iyz, num(t, "izz")}));
            }
        }
        for (final Element j : children(robot, "joint"))
        {
            final Element origin = child(j, "origin");
            final double[] axis = vec(child(j, "axis"), "xyz", 1, 0, 0);
            final double n = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
            final Joint joint = new Joint(j.getAttribute("name"), j.getAttribute("type"),
                child(j, "parent").getAttribute("link"), child(j, "child").getAttribute("link"),
                vec(origin, "xyz", 0, 0, 0), vec(origin, "rpy", 0, 0, 0),
                new double[] {axis[0] / n, axis[1] / n, axis[2] / n});
            joints.add(joint);
            jointOfChild.put(joint.child(), joint);
        }
        rootLink = links.stream().filter(l -> !jointOfChild.containsKey(l)).findFirst().orElseThrow();
    }

    /** @return the names of the movable joints in file order (the URDF's coordinate order). */
    List<String> movableJoints()
    {
        final List<String> names = new ArrayList<>();
        for (final Joint j : joints)
        {
            if (!j.type().equals("fixed"))
            {
                names.add(j.name());
            }
        }
        return names;
    }

    /** @return the unit axis of a joint, in its joint frame. */
    double[] axis(final String joint)
    {
        return joints.stream().filter(j -> j.name().equals(joint)).findFirst().orElseThrow().axis().clone();
    }

    /** @return the world pose of the link at joint positions q (by joint name; missing = 0). */
    Pose linkPose(final String link, final Map<String, Double> q)
    {
        if (link.equals(rootLink))
        {
            return new Pose(new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[3]);
        }
        final Joint j = jointOfChild.get(link);
        final Pose parent = linkPose(j.parent(), q);
        // T_parent_child(q) = T_origin * Motion(axis, q) (URDF: the child frame is the joint frame).
        final double[] ro = rpy(j.rpy());
        final double[] rotation = mul(parent.rotation(), ro);
        final double[] translation = add(parent.translation(), apply(parent.rotation(), j.xyz()));
        final double qj = q.getOrDefault(j.name(), 0.0);
        switch (j.type())
        {
            case "revolute":
            case "continuous":
                return new Pose(mul(rotation, rodrigues(j.axis(), qj)), translation);
            case "prismatic":
                return new Pose(rotation, add(translation, apply(rotation, scale(j.axis(), qj))));
            default:
                return new Pose(rotation, translation);
        }
    }

    /** @return the link's inertia in the world frame at q, or null if the link has no inertial. */
    WorldInertia worldInertia(final String link, final Map<String, Double> q)
    {
        final Inertial in = inertials.get(link);
        if (in == null)
        {
            return null;
        }
        final Pose pose = linkPose(link, q);
        final double[] r = mul(pose.rotation(), rpy(in.rpy()));
        return new WorldInertia(in.mass(), add(pose.translation(), apply(pose.rotation(), in.xyz())),
            mul(r, mul(in.tensor(), transpose(r))));
    }

    /** Fixed-axis roll, pitch, yaw: Rz(y) Ry(p) Rx(r), written out element by element. */
    static double[] rpy(final double[] a)
    {
        final double cr = Math.cos(a[0]);
        final double sr = Math.sin(a[0]);
        final double cp = Math.cos(a[1]);
        final double sp = Math.sin(a[1]);
        final double cy = Math.cos(a[2]);
        final double sy = Math.sin(a[2]);
        return new double[] {
            cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr,
            sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr,
            -sp, cp * sr, cp * cr};
    }

    /** Rotation by angle about unit axis u: cos I + sin [u]x + (1 - cos) u u^T. */
    static double[] rodrigues(final double[] u, final double angle)
    {
        final double c = Math.cos(angle);
        final double s = Math.sin(angle);
        final double v = 1.0 - c;
        return new double[] {
            c + v * u[0] * u[0], v * u[0] * u[1] - s * u[2], v * u[0] * u[2] + s * u[1],
            v * u[1] * u[0] + s * u[2], c + v * u[1] * u[1], v * u[1] * u[2] - s * u[0],
            v * u[2] * u[0] - s * u[1], v * u[2] * u[1] + s * u[0], c + v * u[2] * u[2]};
    }

    static double[] mul(final double[] a, final double[] b)
    {
        final double[] r = new double[9];
        for (int i = 0; i < 3; i++)
        {
            for (int j = 0; j < 3; j++)
            {
                for (int k = 0; k < 3; k++)
                {
                    r[3 * i + j] += a[3 * i + k] * b[3 * k + j];
                }
            }
        }
        return r;
    }

    static double[] apply(final double[] a, final double[] v)
    {
        final double[] r = new double[3];
        for (int i = 0; i < 3; i++)
        {
            for (int k = 0; k < 3; k++)
            {
                r[i] += a[3 * i + k] * v[k];
            }
        }
        return r;
    }

    static double[] transpose(final double[] a)
    {
        final double[] r = new double[9];
        for (int i = 0; i < 3; i++)
        {
            for (int j = 0; j < 3; j++)
            {
                r[3 * j + i] = a[3 * i + j];
            }
        }
        return r;
    }

    static double[] add(final double[] a, final double[] b)
    {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }

    private static double[] scale(final double[] a, final double s)
    {
        return new double[] {a[0] * s, a[1] * s, a[2] * s};
    }

    private static List<Element> children(final Element parent, final String tag)
    {
        final List<Element> result = new ArrayList<>();
        final NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++)
        {
            final Node n = nodes.item(i);
            if (n instanceof Element && ((Element) n).getTagName().equals(tag))
            {
                result.add((Element) n);
            }
        }
        return result;
    }

    private static Element child(final Element parent, final String tag)
    {
        final List<Element> found = children(parent, tag);
        return found.isEmpty() ? null : found.get(0);
    }

    private static double num(final Element e, final String attribute)
    {
        return Double.parseDouble(e.getAttribute(attribute));
    }

    private static double[] vec(final Element e, final String attribute, final double x, final double y, final double z)
    {
        if (e == null || !e.hasAttribute(attribute))
        {
            return new double[] {x, y, z};
        }
        final String[] parts = e.getAttribute(attribute).trim().split("\\s+");
        return new double[] {Double.parseDouble(parts[0]), Double.parseDouble(parts[1]), Double.parseDouble(parts[2])};
    }
}
