package org.nectl.core.model;

/**
 * Khalil-Kleinfinger modified Denavit-Hartenberg parameters of one joint in tree notation (Khalil,
 * "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eq. 1):
 * {@code a(j)T_j = Rot(z,gamma) Trans(z,b) Rot(x,alpha) Trans(x,d) Rot(z,theta) Trans(z,r)}.
 * For a revolute joint theta = q + thetaOffset, for a prismatic one r = q + rOffset.
 */
public final class ModifiedDh
{
    private ModifiedDh()
    {
    }

    /**
     * @return the constant placement rotation Rot(z,gamma) Rot(x,alpha) Rot(z,theta0), row-major.
     */
    public static double[] placementRotation(
        final double gamma, final double alpha, final double thetaOffset)
    {
        return Transforms.multiply(Transforms.rotZ(gamma), Transforms.multiply(Transforms.rotX(alpha), Transforms.rotZ(thetaOffset)));
    }

    /**
     * @return the constant placement translation of the joint frame in the antecedent frame, m:
     *     Rot(z,gamma) [ (0,0,b) + Rot(x,alpha) ((d,0,0) + (0,0,r0)) ].
     */
    public static double[] placementTranslation(
        final double gamma, final double b, final double alpha, final double d, final double rOffset)
    {
        final double[] inner = Transforms.apply(Transforms.rotX(alpha), new double[] {d, 0.0, rOffset});
        inner[2] += b;
        return Transforms.apply(Transforms.rotZ(gamma), inner);
    }
}
