package org.nectl.core.elastic;

import java.util.Arrays;

/**
 * The motor driving one joint, as a rotor in a "unified rigid body" (Hua, Poursina, Sanfilippo,
 * "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation", assumption A2 and eqs. 1, 6-9): an axisymmetric rotor whose centre of
 * mass lies on its spin axis, mounted on a link (or on the base) and turning relative to it.
 *
 * <p>Gear-ratio convention (one for the whole project): the motor coordinate theta of an elastic
 * joint is the rotor angle reflected through the gearbox to the joint side, in the joint's units
 * (rad, or m for a prismatic joint), so that the spring torque is K (theta - q) and theta = q at
 * rest. The rotor turns relative to its mount by gearRatio * theta (elastic joint) or gearRatio * q
 * (rigid joint), in rad. Motor torques and motor friction are reflected the same way: they are the
 * generalised forces on theta (or on q for a rigid joint), i.e. gearRatio times the torque on the
 * rotor shaft. A motor on the base with any axis reproduces Khalil's rotor inertia Ia =
 * gearRatio^2 axialInertia ("Dynamic modeling of robots using recursive Newton-Euler techniques",
 * 2010, eq. 31) exactly.
 *
 * @param mountBody body index of the link the stator is fixed to, -1 for the base.
 * @param axis unit spin axis, expressed in the mount body's frame (base frame for the base).
 * @param centre rotor centre of mass on the axis, m, in the mount body's frame.
 * @param gearRatio eta > 0: rotor rad per joint rad (or per joint m).
 * @param axialInertia Im_z, rotor inertia about its spin axis, kg m^2 (rotor side, not reflected).
 * @param rotorMass rotor mass, kg, carried by the mount link.
 * @param transverseInertia rotor inertia about an axis through its centre normal to the spin axis,
 *     kg m^2.
 * @param coulombFriction motor-side Coulomb friction, reflected: Fs sign(theta_dot), N m (or N).
 * @param viscousFriction motor-side viscous friction, reflected: Fv theta_dot, N m s/rad (or N s/m).
 */
public record Motor(
    int mountBody,
    double[] axis,
    double[] centre,
    double gearRatio,
    double axialInertia,
    double rotorMass,
    double transverseInertia,
    double coulombFriction,
    double viscousFriction)
{
    /** Tolerance on the axis' unit length. */
    public static final double AXIS_TOLERANCE = 1e-9;

    /** Copies the arrays so the record stays immutable. */
    public Motor
    {
        axis = axis.clone();
        centre = centre.clone();
    }

    /**
     * A motor that is pure rotor inertia on the base, reflected: Khalil's Ia with gear ratio 1.
     *
     * @param reflectedInertia Ia, kg m^2 (or kg).
     * @return the motor.
     */
    public static Motor onBase(final double reflectedInertia)
    {
        return new Motor(-1, new double[] {0, 0, 1}, new double[3], 1.0, reflectedInertia, 0.0,
            reflectedInertia / 2.0, 0.0, 0.0);
    }

    /** @return a copy of the unit spin axis, mount frame. */
    @Override
    public double[] axis()
    {
        return axis.clone();
    }

    /** @return a copy of the rotor centre, m, mount frame. */
    @Override
    public double[] centre()
    {
        return centre.clone();
    }

    /** @return the rotor's axial inertia reflected through the gearbox, eta^2 Im_z. */
    public double reflectedInertia()
    {
        return gearRatio * gearRatio * axialInertia;
    }

    /**
     * Checks the motor alone; the mount body is checked against the robot by the model builder.
     *
     * @return null if consistent, else the field, value and rule broken.
     */
    public String check()
    {
        if (mountBody < -1)
        {
            return "mount body " + mountBody + " must be -1 (base) or a body index";
        }
        final String vectors = checkVectors();
        if (vectors != null)
        {
            return vectors;
        }
        if (!Double.isFinite(gearRatio) || gearRatio <= 0.0)
        {
            return "gear ratio " + gearRatio + " must be finite and > 0 (turn the axis to reverse the rotor)";
        }
        final String scalars = checkNonNegative();
        if (scalars != null)
        {
            return scalars;
        }
        if (axialInertia > 2.0 * transverseInertia * (1.0 + AXIS_TOLERANCE))
        {
            return "axial inertia " + axialInertia + " kg m^2 exceeds twice the transverse inertia "
                + transverseInertia + " kg m^2 (triangle inequality of an axisymmetric rotor)";
        }
        return null;
    }

    private String checkVectors()
    {
        if (axis.length != 3 || centre.length != 3)
        {
            return "axis and centre must have 3 components (axis " + axis.length + ", centre " + centre.length + ")";
        }
        for (int i = 0; i < 3; i++)
        {
            if (!Double.isFinite(axis[i]) || !Double.isFinite(centre[i]))
            {
                return "axis " + Arrays.toString(axis) + " and centre " + Arrays.toString(centre) + " must be finite";
            }
        }
        final double norm = Math.sqrt(axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]);
        if (Math.abs(norm - 1.0) > AXIS_TOLERANCE)
        {
            return "axis " + Arrays.toString(axis) + " has length " + norm + "; it must be a unit vector";
        }
        return null;
    }

    private String checkNonNegative()
    {
        final String[] names = {"axial inertia", "rotor mass", "transverse inertia", "Coulomb friction", "viscous friction"};
        final double[] values = {axialInertia, rotorMass, transverseInertia, coulombFriction, viscousFriction};
        for (int i = 0; i < names.length; i++)
        {
            if (!Double.isFinite(values[i]) || values[i] < 0.0)
            {
                return names[i] + " " + values[i] + " must be finite and >= 0";
            }
        }
        return null;
    }

    @Override
    public boolean equals(final Object other)
    {
        return other instanceof Motor m && mountBody == m.mountBody && Arrays.equals(axis, m.axis)
            && Arrays.equals(centre, m.centre) && gearRatio == m.gearRatio && axialInertia == m.axialInertia
            && rotorMass == m.rotorMass && transverseInertia == m.transverseInertia
            && coulombFriction == m.coulombFriction && viscousFriction == m.viscousFriction;
    }

    @Override
    public int hashCode()
    {
        return 31 * Arrays.hashCode(axis) + Arrays.hashCode(centre) + Double.hashCode(axialInertia) + mountBody;
    }

    @Override
    public String toString()
    {
        return "Motor[mountBody=" + mountBody + ", axis=" + Arrays.toString(axis) + ", centre=" + Arrays.toString(centre)
            + ", gearRatio=" + gearRatio + ", axialInertia=" + axialInertia + ", rotorMass=" + rotorMass
            + ", transverseInertia=" + transverseInertia + ", coulombFriction=" + coulombFriction
            + ", viscousFriction=" + viscousFriction + "]";
    }
}
