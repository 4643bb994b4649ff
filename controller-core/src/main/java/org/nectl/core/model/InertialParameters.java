package org.nectl.core.model;

/**
 * Khalil's standard inertial parameters of one body, expressed in the body (link) frame: mass M,
 * first moment MS = M c about the frame origin, and the inertia tensor J about the frame origin.
 * Immutable.
 */
public final class InertialParameters
{
    private final double mass;
    private final double[] firstMoment;
    private final double[] inertiaAtOrigin;

    private InertialParameters(final double mass, final double[] firstMoment, final double[] inertiaAtOrigin)
    {
        this.mass = mass;
        this.firstMoment = firstMoment.clone();
        this.inertiaAtOrigin = inertiaAtOrigin.clone();
    }

    /**
     * @param mass kg.
     * @param firstMoment MS = M c in kg m, body frame.
     * @param inertiaAtOrigin 3x3 row-major, kg m^2, about the body frame origin.
     * @return the parameters, unchecked (see {@link InertiaChecks}).
     */
    public static InertialParameters ofFirstMoment(
        final double mass, final double[] firstMoment, final double[] inertiaAtOrigin)
    {
        return new InertialParameters(mass, firstMoment, inertiaAtOrigin);
    }

    /**
     * Converts centre-of-mass data with the parallel-axis theorem: J_O = I_c + m (|c|^2 1 - c c^T).
     *
     * @param mass kg.
     * @param centreOfMass c in m, body frame.
     * @param inertiaAtCentreOfMass 3x3 row-major, kg m^2, about c, axes parallel to the body frame.
     * @return the parameters about the body frame origin.
     */
    public static InertialParameters ofCentreOfMass(
        final double mass, final double[] centreOfMass, final double[] inertiaAtCentreOfMass)
    {
        final double cx = centreOfMass[0];
        final double cy = centreOfMass[1];
        final double cz = centreOfMass[2];
        final double c2 = cx * cx + cy * cy + cz * cz;
        final double[] j = inertiaAtCentreOfMass.clone();
        final double[] c = {cx, cy, cz};
        for (int r = 0; r < 3; r++)
        {
            for (int k = 0; k < 3; k++)
            {
                j[3 * r + k] += mass * ((r == k ? c2 : 0.0) - c[r] * c[k]);
            }
        }
        return new InertialParameters(mass, new double[] {mass * cx, mass * cy, mass * cz}, j);
    }

    /**
     * Re-expresses these parameters in another frame rigidly attached to the same body.
     *
     * @param rotation R whose columns are this frame's axes expressed in the new frame (3x3 row-major).
     * @param translation position of this frame's origin expressed in the new frame, m.
     * @return the same body's parameters in the new frame.
     */
    public InertialParameters transformed(final double[] rotation, final double[] translation)
    {
        final double[] c = centreOfMass();
        final double[] cNew = Transforms.apply(rotation, c);
        for (int i = 0; i < 3; i++)
        {
            cNew[i] += translation[i];
        }
        final double[] ic = inertiaAtCentreOfMass();
        final double[] icNew = Transforms.multiply(rotation, Transforms.multiply(ic, Transforms.transpose(rotation)));
        return ofCentreOfMass(mass, cNew, icNew);
    }

    /** @return mass in kg. */
    public double mass()
    {
        return mass;
    }

    /** @return a copy of MS = M c, kg m, body frame. */
    public double[] firstMoment()
    {
        return firstMoment.clone();
    }

    /** @return a copy of the inertia about the body frame origin, 3x3 row-major, kg m^2. */
    public double[] inertiaAtOrigin()
    {
        return inertiaAtOrigin.clone();
    }

    /** @return the centre of mass in m, body frame; the origin for a massless body. */
    public double[] centreOfMass()
    {
        if (mass == 0.0)
        {
            return new double[3];
        }
        return new double[] {firstMoment[0] / mass, firstMoment[1] / mass, firstMoment[2] / mass};
    }

    /** @return a copy of the inertia about the centre of mass, axes of the body frame, 3x3 row-major. */
    public double[] inertiaAtCentreOfMass()
    {
        final double[] c = centreOfMass();
        final double c2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        final double[] j = inertiaAtOrigin.clone();
        for (int r = 0; r < 3; r++)
        {
            for (int k = 0; k < 3; k++)
            {
                j[3 * r + k] -= mass * ((r == k ? c2 : 0.0) - c[r] * c[k]);
            }
        }
        return j;
    }
}
