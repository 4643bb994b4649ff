package org.nectl.core.model;

/**
 * Physical-consistency rules for inertial parameters. Each check returns null when the rule holds,
 * or a sentence naming the value and the rule broken, so that description readers can prefix it
 * with file, line and field.
 */
public final class InertiaChecks
{
    /** Relative slack for the symmetry and triangle-inequality rules, to accept rounded table values. */
    public static final double RELATIVE_TOLERANCE = 1e-9;

    private InertiaChecks()
    {
    }

    /**
     * @param mass kg.
     * @return null if mass is finite and non-negative.
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
        return null;
    }

    /**
     * Checks an inertia tensor about the centre of mass: finite, symmetric, positive semi-definite
     * (principal moments >= 0) and satisfying the triangle inequality I1 + I2 >= I3 for every
     * permutation. A zero tensor is accepted (point mass or massless frame).
     *
     * @param inertiaAtCentreOfMass 3x3 row-major, kg m^2.
     * @return null if the tensor is physically consistent.
     */
    public static String checkInertiaAtCentreOfMass(final double[] inertiaAtCentreOfMass)
    {
        final double[] j = inertiaAtCentreOfMass;
        double scale = 0.0;
        for (int i = 0; i < 9; i++)
        {
            if (!Double.isFinite(j[i]))
            {
                return "inertia element " + i + " is " + j[i] + ", not a finite number";
            }
            scale = Math.max(scale, Math.abs(j[i]));
        }
        final double slack = RELATIVE_TOLERANCE * Math.max(scale, Double.MIN_NORMAL);
        if (Math.abs(j[1] - j[3]) > slack || Math.abs(j[2] - j[6]) > slack || Math.abs(j[5] - j[7]) > slack)
        {
            return "inertia tensor is not symmetric (Ixy " + j[1] + " vs " + j[3] + ", Ixz " + j[2] + " vs " + j[6]
                + ", Iyz " + j[5] + " vs " + j[7] + ")";
        }
        final double[] principal = symmetricEigenvalues(j);
        if (principal[0] < -slack)
        {
            return "inertia tensor is not positive semi-definite: principal moment " + principal[0] + " kg m^2 < 0";
        }
        if (principal[0] + principal[1] < principal[2] - slack)
        {
            return "inertia tensor violates the triangle inequality: principal moments " + principal[0] + " + "
                + principal[1] + " < " + principal[2] + " kg m^2";
        }
        return null;
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
