package org.nectl.core.model;

/**
 * Physical-consistency rules for inertial parameters. Each check returns null when the rule holds,
 * or a sentence naming the value and the rule broken, so that description readers can prefix it
 * with file, line and field.
 */
public final class InertiaChecks
{
    /**
     * Relative slack for the symmetry, positive-semi-definite and triangle-inequality rules, a
     * fraction of the tensor's largest element: it accepts tables rounded at print and the rounding
     * of frame changes.
     */
    public static final double RELATIVE_TOLERANCE = 1e-9;

    /**
     * Absolute slack added to the relative one, kg m^2: rounding residue of a zero or nearly zero
     * tensor after a frame change (e.g. a product of inertia of 2.4e-35) is no physical violation.
     * The smallest inertia of a real part, a 1 g bead of 1 mm radius, is 4e-10 kg m^2.
     */
    public static final double ABSOLUTE_TOLERANCE_KG_M2 = 1e-18;

    /**
     * The largest mass accepted, kg: 1000 t, a hundred times the heaviest industrial robot, and far
     * from the range where the products m c and m |c|^2 of the dynamics lose all precision or overflow.
     */
    public static final double MAX_MASS_KG = 1e6;

    private InertiaChecks()
    {
    }

    /**
     * @param mass kg.
     * @return null if mass is finite, non-negative and at most {@link #MAX_MASS_KG}.
     */
    public static String checkMass(final double mass)
    {
        if (!Double.isFinite(mass))
        {
            return "mass " + mass + " is not a finite number";
        }
        if (mass < 0.0)
        {
            return "mass " + mass + " kg is negative; mass must be >= 0";
        }
        if (mass > MAX_MASS_KG)
        {
            return "mass " + mass + " kg is more than the limit of " + MAX_MASS_KG + " kg";
        }
        return null;
    }

    /**
     * Checks an inertia tensor about the centre of mass: finite, symmetric, positive semi-definite
     * (principal moments >= 0) and satisfying the triangle inequality I1 + I2 >= I3 for every
     * permutation, each within {@link #RELATIVE_TOLERANCE} of the largest element plus
     * {@link #ABSOLUTE_TOLERANCE_KG_M2}. A zero tensor is accepted (point mass or massless frame).
     *
     * @param inertiaAtCentreOfMass 3x3 row-major, kg m^2.
     * @return null if the tensor is physically consistent.
     */
    public static String checkInertiaAtCentreOfMass(final double[] inertiaAtCentreOfMass)
    {
        return checkInertiaAtCentreOfMass(inertiaAtCentreOfMass, 0.0);
    }

    /**
     * As {@link #checkInertiaAtCentreOfMass(double[])} for a tensor computed from larger terms, whose
     * rounding error scales with them: the relative slack applies to the larger of the tensor's
     * largest element and {@code scale}.
     *
     * @param inertiaAtCentreOfMass 3x3 row-major, kg m^2.
     * @param scale magnitude of the terms the tensor was computed from, kg m^2 (e.g. the largest
     *     element of the inertia about the frame origin).
     * @return null if the tensor is physically consistent.
     */
    public static String checkInertiaAtCentreOfMass(final double[] inertiaAtCentreOfMass, final double scale)
    {
        final double[] j = inertiaAtCentreOfMass;
        double largest = Double.isFinite(scale) ? scale : 0.0;
        for (int i = 0; i < 9; i++)
        {
            if (!Double.isFinite(j[i]))
            {
                return "inertia element " + i + " is " + j[i] + ", not a finite number";
            }
            largest = Math.max(largest, Math.abs(j[i]));
        }
        final double slack = RELATIVE_TOLERANCE * largest + ABSOLUTE_TOLERANCE_KG_M2;
        if (Math.abs(j[1] - j[3]) > slack || Math.abs(j[2] - j[6]) > slack || Math.abs(j[5] - j[7]) > slack)
        {
            return "inertia tensor is not symmetric (Ixy " + j[1] + " vs " + j[3] + ", Ixz " + j[2] + " vs " + j[6]
                + ", Iyz " + j[5] + " vs " + j[7] + ")";
        }
        final double[] principal = symmetricEigenvalues(j);
        if (principal[0] < -slack)
        {
            return "inertia tensor is not positive semi-definite: principal moment " + principal[0] + " kg m^2 < 0"
                + " (tolerance " + slack + ")";
        }
        if (principal[0] + principal[1] < principal[2] - slack)
        {
            return "inertia tensor violates the triangle inequality: principal moments " + principal[0] + " + "
                + principal[1] + " < " + principal[2] + " kg m^2 (tolerance " + slack + ")";
        }
        return null;
    }

    /**
     * @param parameters inertial parameters computed from a mass and a centre of mass.
     * @return null if the first moment m c and the inertia about the frame origin are finite; else the
     *     rule broken, naming the distance of the centre of mass that made them overflow.
     */
    public static String checkFinite(final InertialParameters parameters)
    {
        final double[] ms = parameters.firstMoment();
        final double[] jo = parameters.inertiaAtOrigin();
        if (Double.isFinite(largestMagnitude(ms)) && Double.isFinite(largestMagnitude(jo)))
        {
            return null;
        }
        final double[] c = parameters.centreOfMass();
        return "mass " + parameters.mass() + " kg with its centre of mass " + Math.sqrt(c[0] * c[0] + c[1] * c[1]
            + c[2] * c[2]) + " m from the frame origin gives a first moment or an inertia about the origin that is"
            + " not a finite number";
    }

    /**
     * @param values any numbers.
     * @return the largest absolute value, 0 for none.
     */
    public static double largestMagnitude(final double[] values)
    {
        double largest = 0.0;
        for (final double x : values)
        {
            largest = Math.max(largest, Math.abs(x));
        }
        return largest;
    }

    /**
     * Eigenvalues of a symmetric 3x3 matrix in ascending order (closed form, trigonometric).
     *
     * @param a row-major symmetric matrix.
     * @return the three eigenvalues, ascending.
     */
    static double[] symmetricEigenvalues(final double[] a)
    {
        final double p1 = a[1] * a[1] + a[2] * a[2] + a[5] * a[5];
        final double[] eig = new double[3];
        if (p1 == 0.0)
        {
            eig[0] = a[0];
            eig[1] = a[4];
            eig[2] = a[8];
        }
        else
        {
            final double q = (a[0] + a[4] + a[8]) / 3.0;
            final double p2 = (a[0] - q) * (a[0] - q) + (a[4] - q) * (a[4] - q) + (a[8] - q) * (a[8] - q) + 2.0 * p1;
            final double p = Math.sqrt(p2 / 6.0);
            final double b0 = (a[0] - q) / p;
            final double b4 = (a[4] - q) / p;
            final double b8 = (a[8] - q) / p;
            final double b1 = a[1] / p;
            final double b2 = a[2] / p;
            final double b5 = a[5] / p;
            final double detB = b0 * (b4 * b8 - b5 * b5) - b1 * (b1 * b8 - b5 * b2) + b2 * (b1 * b5 - b4 * b2);
            final double r = Math.max(-1.0, Math.min(1.0, detB / 2.0));
            final double phi = Math.acos(r) / 3.0;
            eig[2] = q + 2.0 * p * Math.cos(phi);
            eig[0] = q + 2.0 * p * Math.cos(phi + 2.0 * Math.PI / 3.0);
            eig[1] = 3.0 * q - eig[0] - eig[2];
        }
        java.util.Arrays.sort(eig);
        return eig;
    }
}
