package org.nectl.hw.mujoco;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;

import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * The copy of a URDF that MuJoCo's URDF importer reads: the robot unchanged, plus
 * <ul>
 * <li>MuJoCo's compiler extension {@code <mujoco><compiler balanceinertia="false"
 * discardvisual="true" fusestatic="true" inertiafromgeom="false" boundmass="1e-12"
 * boundinertia="1e-12"/></mujoco>}: inertias as the file gives them (no balancing, none computed
 * from geometry; massless moving bodies raised to the floors MuJoCo needs), visual geometry
 * dropped, links fixed to their parent fused into it (as nectl's model merges them);</li>
 * <li>the scene's collision shapes on links, as {@code <collision>} elements in the link frame;</li>
 * <li>the scene's payload as a link with only an {@code <inertial>} on a fixed joint to its link,
 * which MuJoCo fuses into the link's body;</li>
 * <li>each obstacle as a link of its own with no parent (MuJoCo makes it a static body of the
 * world), a plane as a box with a marker size that {@link MujocoPlant} turns into a plane after
 * compilation (URDF has no plane);</li>
 * <li>no mesh collision shapes: MuJoCo cannot resolve {@code package://} paths, and the copy lives
 * in a scratch directory.</li>
 * </ul>
 * Not real-time safe.
 */
final class ScratchUrdf
{
    /** Full edge lengths of the marker box standing in for a plane until {@link MujocoNative#makePlane}. */
    static final double[] PLANE_MARKER_SIZE = {0.0123456789, 0.0234567891, 0.0345678912};
    static final String OBSTACLE_LINK_PREFIX = "nectl_obstacle_";
    static final String PAYLOAD_LINK = "nectl_payload";
    /**
     * MuJoCo refuses a moving body without mass or with a zero principal moment (the Puma 560's
     * link 1 has mass 0 and only Izz); its compiler raises them to these floors, far below what
     * changes a torque at the parity tests' tolerance.
     */
    static final double MASS_FLOOR_KG = 1e-12;
    static final double INERTIA_FLOOR_KG_M2 = 1e-12;

    private final Document document;
    private final Element robot;
    private final Set<String> linkNames = new HashSet<>();
    private int droppedMeshes;

    private ScratchUrdf(final String urdf) throws SAXException, IOException, ParserConfigurationException
    {
        final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setExpandEntityReferences(false);
        final DocumentBuilder builder = factory.newDocumentBuilder();
        builder.setErrorHandler(null);
        document = builder.parse(new InputSource(new StringReader(urdf)));
        robot = document.getDocumentElement();
        for (final Element link : children(robot, "link"))
        {
            linkNames.add(link.getAttribute("name"));
        }
    }

    /**
     * Writes the copy.
     *
     * @param urdf the robot's URDF text (nectl has already read and checked it).
     * @param scene shapes to add.
     * @param file where to write it.
     * @return the number of mesh collision shapes left out.
     * @throws IllegalArgumentException naming a scene link that the URDF does not have.
     * @throws IOException if the file cannot be written.
     */
    static int write(final String urdf, final MujocoScene scene, final Path file) throws IOException
    {
        final ScratchUrdf copy;
        try
        {
            copy = new ScratchUrdf(urdf);
        }
        catch (final SAXException | ParserConfigurationException e)
        {
            throw new IllegalArgumentException("the robot description cannot be re-read for MuJoCo: " + e.getMessage(), e);
        }
        copy.dropMeshCollisions();
        copy.compilerOptions();
        for (final MujocoScene.Shape shape : scene.armShapes())
        {
            copy.armShape(shape);
        }
        scene.payload().ifPresent(copy::payload);
        for (int k = 0; k < scene.obstacles().size(); k++)
        {
            copy.obstacle(k, scene.obstacles().get(k));
        }
        Files.writeString(file, copy.text(), StandardCharsets.UTF_8);
        return copy.droppedMeshes;
    }

    private void compilerOptions()
    {
        final List<Element> existing = children(robot, "mujoco");
        final Element mujoco = existing.isEmpty() ? (Element)robot.insertBefore(document.createElement("mujoco"), robot.getFirstChild())
            : existing.get(0);
        final List<Element> compilers = children(mujoco, "compiler");
        final Element compiler = compilers.isEmpty() ? (Element)mujoco.appendChild(document.createElement("compiler")) : compilers.get(0);
        compiler.setAttribute("balanceinertia", "false");
        compiler.setAttribute("discardvisual", "true");
        compiler.setAttribute("fusestatic", "true");
        compiler.setAttribute("inertiafromgeom", "false");
        compiler.setAttribute("boundmass", Double.toString(MASS_FLOOR_KG));
        compiler.setAttribute("boundinertia", Double.toString(INERTIA_FLOOR_KG_M2));
    }

    private void dropMeshCollisions()
    {
        for (final Element link : children(robot, "link"))
        {
            for (final Element collision : children(link, "collision"))
            {
                final NodeList meshes = collision.getElementsByTagName("mesh");
                if (meshes.getLength() > 0)
                {
                    link.removeChild(collision);
                    droppedMeshes++;
                }
            }
        }
    }

    private void armShape(final MujocoScene.Shape shape)
    {
        for (final Element link : children(robot, "link"))
        {
            if (link.getAttribute("name").equals(shape.link()))
            {
                link.appendChild(collision(shape));
                return;
            }
        }
        throw shape.error("no link '" + shape.link() + "' in the robot description; links: " + String.join(", ", sorted(linkNames)));
    }

    private void payload(final MujocoScene.Payload payload)
    {
        if (!linkNames.contains(payload.link()))
        {
            throw payload.error("no link '" + payload.link() + "' in the robot description; links: " + String.join(", ",
                sorted(linkNames)));
        }
        String name = PAYLOAD_LINK;
        while (linkNames.contains(name))
        {
            name = "_" + name;
        }
        linkNames.add(name);
        final Element link = document.createElement("link");
        link.setAttribute("name", name);
        final Element inertial = document.createElement("inertial");
        final Element origin = document.createElement("origin");
        origin.setAttribute("xyz", numbers(payload.comM()));
        origin.setAttribute("rpy", "0 0 0");
        inertial.appendChild(origin);
        final Element mass = document.createElement("mass");
        mass.setAttribute("value", number(payload.massKg()));
        inertial.appendChild(mass);
        final Element inertia = document.createElement("inertia");
        inertia.setAttribute("ixx", number(payload.inertiaKgM2()[0]));
        inertia.setAttribute("iyy", number(payload.inertiaKgM2()[1]));
        inertia.setAttribute("izz", number(payload.inertiaKgM2()[2]));
        inertia.setAttribute("ixy", "0");
        inertia.setAttribute("ixz", "0");
        inertia.setAttribute("iyz", "0");
        inertial.appendChild(inertia);
        link.appendChild(inertial);
        robot.appendChild(link);
        final Element joint = document.createElement("joint");
        joint.setAttribute("name", name + "_joint");
        joint.setAttribute("type", "fixed");
        final Element parent = document.createElement("parent");
        parent.setAttribute("link", payload.link());
        joint.appendChild(parent);
        final Element child = document.createElement("child");
        child.setAttribute("link", name);
        joint.appendChild(child);
        robot.appendChild(joint);
    }

    private void obstacle(final int index, final MujocoScene.Shape shape)
    {
        String name = OBSTACLE_LINK_PREFIX + index;
        while (linkNames.contains(name))
        {
            name = "_" + name;
        }
        linkNames.add(name);
        final Element link = document.createElement("link");
        link.setAttribute("name", name);
        link.appendChild(collision(shape));
        robot.appendChild(link);
    }

    private Element collision(final MujocoScene.Shape shape)
    {
        final Element collision = document.createElement("collision");
        final Element origin = document.createElement("origin");
        origin.setAttribute("xyz", numbers(shape.position()));
        origin.setAttribute("rpy", numbers(shape.rpy()));
        collision.appendChild(origin);
        final Element geometry = document.createElement("geometry");
        final Element solid;
        switch (shape.kind())
        {
            case BOX ->
            {
                solid = document.createElement("box");
                solid.setAttribute("size", numbers(shape.size()));
            }
            case SPHERE ->
            {
                solid = document.createElement("sphere");
                solid.setAttribute("radius", number(shape.size()[0]));
            }
            case CYLINDER ->
            {
                solid = document.createElement("cylinder");
                solid.setAttribute("radius", number(shape.size()[0]));
                solid.setAttribute("length", number(shape.size()[1]));
            }
            default ->
            {
                solid = document.createElement("box");
                solid.setAttribute("size", numbers(PLANE_MARKER_SIZE));
            }
        }
        geometry.appendChild(solid);
        collision.appendChild(geometry);
        return collision;
    }

    private String text()
    {
        try
        {
            final TransformerFactory factory = TransformerFactory.newInstance();
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_STYLESHEET, "");
            final Transformer transformer = factory.newTransformer();
            transformer.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
            final StringWriter out = new StringWriter();
            transformer.transform(new DOMSource(document), new StreamResult(out));
            return out.toString();
        }
        catch (final TransformerException e)
        {
            throw new IllegalStateException("cannot write the MuJoCo copy of the description: " + e.getMessage(), e);
        }
    }

    private static List<Element> children(final Element parent, final String tag)
    {
        final List<Element> result = new ArrayList<>();
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling())
        {
            if (child instanceof Element element && element.getTagName().equals(tag))
            {
                result.add(element);
            }
        }
        return result;
    }

    private static List<String> sorted(final Set<String> names)
    {
        final List<String> list = new ArrayList<>(names);
        list.sort(null);
        return list;
    }

    private static String numbers(final double[] values)
    {
        final StringBuilder out = new StringBuilder();
        for (final double value : values)
        {
            out.append(out.length() == 0 ? "" : " ").append(number(value));
        }
        return out.toString();
    }

    private static String number(final double value)
    {
        // Shortest text that reads back to the same double.
        return Double.toString(value);
    }
}
