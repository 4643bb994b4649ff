package org.nectl.config.urdf;

import java.io.IOException;
import java.nio.file.Path;

import org.nectl.config.OutputFiles;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Writes a {@link RobotModel} as URDF: the root link is the base, then one link per body (link
 * frame = canonical body frame, so every axis is "0 0 1"), one joint per body with its placement as
 * origin xyz + rpy, the inertial at the centre of mass with body-frame axes, limits, and friction as
 * {@code <dynamics>}. Rotor inertia goes into Drake's transmission extension, which
 * {@link UrdfReader} reads back. Movable joints are written in coordinate order, so re-import keeps
 * the coordinates. Numbers are written as decimals that parse back to exactly the same doubles.
 *
 * <p>Revolute joints without position limits become continuous joints; any other missing limit is
 * written as the largest double, which {@link UrdfReader} reads back as unlimited
 * ({@link UrdfLimitValues}). Torque-rate limits have no URDF counterpart and are not written.
 *
 * <p>Not real-time safe; thread safe (no shared state).
 */
public final class UrdfWriter
{
    private static final String INDENT = "  ";

    private UrdfWriter()
    {
    }

    /**
     * @param model the model to write.
     * @param file destination, created ({@link OutputFiles}: never through a symbolic link).
     * @param replace whether an existing regular file may be replaced.
     * @throws IOException if the file cannot be written, exists and {@code replace} is false, or is a
     *     link or not a regular file.
     */
    public static void write(final RobotModel model, final Path file, final boolean replace) throws IOException
    {
        OutputFiles.writeString(file, write(model), replace);
    }

    /**
     * @param model the model to write.
     * @return URDF text.
     */
    public static String write(final RobotModel model)
    {
        final StringBuilder out = new StringBuilder(4096);
        out.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        out.append("<robot name=\"").append(escape(model.name())).append('"');
        if (hasRotorInertia(model))
        {
            out.append(" xmlns:drake=\"http://drake.mit.edu\"");
        }
        out.append(">\n");
        if (model.floatingBase())
        {
            floatingBase(out, model);
        }
        else
        {
            out.append(INDENT).append("<link name=\"").append(escape(model.baseName())).append("\"/>\n");
        }
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final InertialParameters inertia = model.inertialParameters(i);
            link(out, model.bodyName(i), inertia,
                inertia.mass() == 0.0 && isZero(inertia.inertiaAtCentreOfMass()) && !model.jointType(i).isMovable());
        }
        int nextCoordinate = 0;
        for (int i = 0; i < model.bodyCount(); i++)
        {
            // Each movable slot takes the next coordinate, so movable joints appear in coordinate order.
            joint(out, model, model.jointType(i).isMovable() ? model.bodyOfCoordinate(nextCoordinate++) : i);
        }
        for (int k = 0; k < model.dof(); k++)
        {
            transmission(out, model, k);
        }
        out.append("</robot>\n");
        return out.toString();
    }

    /** A floating base is a {@code floating} joint from a massless world link, as {@link UrdfReader} reads it. */
    private static void floatingBase(final StringBuilder out, final RobotModel model)
    {
        String world = "world";
        while (world.equals(model.baseName()) || model.bodyIndex(world) >= 0)
        {
            world = "_" + world;
        }
        out.append(INDENT).append("<link name=\"").append(escape(world)).append("\"/>\n");
        link(out, model.baseName(), model.baseInertia(), false);
        out.append(INDENT).append("<joint name=\"").append(escape(model.baseName())).append("_floating\" type=\"floating\">")
            .append("<parent link=\"").append(escape(world)).append("\"/><child link=\"")
            .append(escape(model.baseName())).append("\"/></joint>\n");
    }

    private static void link(final StringBuilder out, final String name, final InertialParameters inertia, final boolean bare)
    {
        final double[] ic = inertia.inertiaAtCentreOfMass();
        out.append(INDENT).append("<link name=\"").append(escape(name)).append('"');
        if (bare)
        {
            out.append("/>\n");
            return;
        }
        out.append(">\n");
        out.append(INDENT.repeat(2)).append("<inertial>\n");
        out.append(INDENT.repeat(3)).append("<origin xyz=\"").append(vector(inertia.centreOfMass()))
            .append("\" rpy=\"0 0 0\"/>\n");
        out.append(INDENT.repeat(3)).append("<mass value=\"").append(number(inertia.mass())).append("\"/>\n");
        out.append(INDENT.repeat(3)).append("<inertia ixx=\"").append(number(ic[0]))
            .append("\" ixy=\"").append(number(ic[1]))
            .append("\" ixz=\"").append(number(ic[2]))
            .append("\" iyy=\"").append(number(ic[4]))
            .append("\" iyz=\"").append(number(ic[5]))
            .append("\" izz=\"").append(number(ic[8])).append("\"/>\n");
        out.append(INDENT.repeat(2)).append("</inertial>\n");
        out.append(INDENT).append("</link>\n");
    }

    private static void joint(final StringBuilder out, final RobotModel model, final int body)
    {
        final JointType type = model.jointType(body);
        final int coordinate = model.coordinateOfBody(body);
        final JointLimits limits = type.isMovable() ? model.limits(coordinate) : JointLimits.NONE;
        final String urdfType = urdfType(type, limits);
        final int parent = model.parent(body);
        out.append(INDENT).append("<joint name=\"").append(escape(model.jointName(body)))
            .append("\" type=\"").append(urdfType).append("\">\n");
        out.append(INDENT.repeat(2)).append("<parent link=\"")
            .append(escape(parent < 0 ? model.baseName() : model.bodyName(parent))).append("\"/>\n");
        out.append(INDENT.repeat(2)).append("<child link=\"").append(escape(model.bodyName(body))).append("\"/>\n");
        out.append(INDENT.repeat(2)).append("<origin xyz=\"").append(vector(model.placementTranslation(body)))
            .append("\" rpy=\"").append(vector(RollPitchYaw.of(model.placementRotation(body)))).append("\"/>\n");
        if (type.isMovable())
        {
            out.append(INDENT.repeat(2)).append("<axis xyz=\"0 0 1\"/>\n");
            limit(out, urdfType, limits);
            final JointActuation actuation = model.actuation(coordinate);
            out.append(INDENT.repeat(2)).append("<dynamics damping=\"").append(number(actuation.viscousFriction()))
                .append("\" friction=\"").append(number(actuation.coulombFriction())).append("\"/>\n");
        }
        out.append(INDENT).append("</joint>\n");
    }

    /** Revolute joints without position limits are continuous in URDF, all others keep their type. */
    private static String urdfType(final JointType type, final JointLimits limits)
    {
        if (type == JointType.FIXED)
        {
            return "fixed";
        }
        if (type == JointType.PRISMATIC)
        {
            return "prismatic";
        }
        final boolean unbounded = limits.positionMin() == Double.NEGATIVE_INFINITY
            && limits.positionMax() == Double.POSITIVE_INFINITY;
        return unbounded ? "continuous" : "revolute";
    }

    private static void limit(final StringBuilder out, final String urdfType, final JointLimits limits)
    {
        final String rates = "effort=\"" + limitValue(limits.effortMax()) + "\" velocity=\""
            + limitValue(limits.velocityMax()) + "\"/>\n";
        if (urdfType.equals("continuous"))
        {
            // The element is optional for continuous joints: leave it out when nothing is limited.
            if (Double.isFinite(limits.effortMax()) || Double.isFinite(limits.velocityMax()))
            {
                out.append(INDENT.repeat(2)).append("<limit ").append(rates);
            }
            return;
        }
        out.append(INDENT.repeat(2)).append("<limit lower=\"").append(limitValue(limits.positionMin()))
            .append("\" upper=\"").append(limitValue(limits.positionMax())).append("\" ").append(rates);
    }

    private static void transmission(final StringBuilder out, final RobotModel model, final int coordinate)
    {
        final double rotorInertia = model.actuation(coordinate).rotorInertia();
        if (rotorInertia == 0.0)
        {
            return;
        }
        final String joint = escape(model.coordinateName(coordinate));
        out.append(INDENT).append("<transmission name=\"").append(joint).append("_transmission\">\n");
        out.append(INDENT.repeat(2)).append("<type>transmission_interface/SimpleTransmission</type>\n");
        out.append(INDENT.repeat(2)).append("<joint name=\"").append(joint).append("\">\n");
        out.append(INDENT.repeat(3))
            .append("<hardwareInterface>hardware_interface/EffortJointInterface</hardwareInterface>\n");
        out.append(INDENT.repeat(2)).append("</joint>\n");
        out.append(INDENT.repeat(2)).append("<actuator name=\"").append(joint).append("_motor\">\n");
        out.append(INDENT.repeat(3)).append('<').append(UrdfTransmissions.ROTOR_INERTIA).append(" value=\"")
            .append(number(rotorInertia)).append("\"/>\n");
        out.append(INDENT.repeat(3)).append('<').append(UrdfTransmissions.GEAR_RATIO).append(" value=\"1\"/>\n");
        out.append(INDENT.repeat(2)).append("</actuator>\n");
        out.append(INDENT).append("</transmission>\n");
    }

    private static boolean hasRotorInertia(final RobotModel model)
    {
        for (int k = 0; k < model.dof(); k++)
        {
            if (model.actuation(k).rotorInertia() != 0.0)
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isZero(final double[] values)
    {
        for (final double v : values)
        {
            if (v != 0.0)
            {
                return false;
            }
        }
        return true;
    }

    private static String vector(final double[] v)
    {
        return number(v[0]) + " " + number(v[1]) + " " + number(v[2]);
    }

    private static String limitValue(final double value)
    {
        return number(UrdfLimitValues.toUrdf(value));
    }

    /** Double.toString gives a decimal that parses back to exactly the same double; -0 is written as 0. */
    private static String number(final double value)
    {
        return value == 0.0 ? "0.0" : Double.toString(value);
    }

    private static String escape(final String text)
    {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
