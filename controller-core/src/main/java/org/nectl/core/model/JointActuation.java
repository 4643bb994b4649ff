package org.nectl.core.model;

/**
 * Joint-space terms of one movable joint (Khalil, "Dynamic modeling of robots using recursive
 * Newton-Euler techniques", 2010, eq. 31): tau += Ia qdd + Fs sign(qd) + Fv qd.
 *
 * @param rotorInertia Ia, rotor inertia reflected to the joint, kg m^2 (or kg for prismatic).
 * @param coulombFriction Fs, N m (or N).
 * @param viscousFriction Fv, N m s/rad (or N s/m).
 */
public record JointActuation(double rotorInertia, double coulombFriction, double viscousFriction)
{
    /** A joint with no rotor inertia and no friction. */
    public static final JointActuation NONE = new JointActuation(0.0, 0.0, 0.0);

    /** @return null if consistent, else the rule broken. */
    public String check()
    {
        if (!Double.isFinite(rotorInertia) || rotorInertia < 0.0)
        {
            return "rotor inertia " + rotorInertia + " must be finite and >= 0";
        }
        if (!Double.isFinite(coulombFriction) || coulombFriction < 0.0)
        {
            return "Coulomb friction " + coulombFriction + " must be finite and >= 0";
        }
        if (!Double.isFinite(viscousFriction) || viscousFriction < 0.0)
        {
            return "viscous friction " + viscousFriction + " must be finite and >= 0";
        }
        return null;
    }
}
