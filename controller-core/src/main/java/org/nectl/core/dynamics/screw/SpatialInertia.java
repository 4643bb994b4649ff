package org.nectl.core.dynamics.screw;

import org.nectl.core.model.InertialParameters;

/**
 * The 6x6 spatial inertia G of a body, expressed in the body frame about its origin, for twists
 * ordered (omega, v) and wrenches (moment, force): the wrench G V is the body's momentum.
 *
 * <p>G is built the screw-theory way: diagonal at the centre of mass, G_c = [[I_c, 0], [0, m 1]],
 * then moved to the body frame by the change of frame G_b = [Ad_T_cb]^T G_c [Ad_T_cb] (Lynch and
 * Park, "Modern Robotics: Mechanics, Planning, and Control", 2017, Sec. 8.2.1), where T_cb is the
 * body frame seen from a frame at the centre of mass with parallel axes. Thread safe (stateless).
 */
public final class SpatialInertia
{
    /** Doubles per spatial inertia (6x6 row-major). */
    public static final int SIZE = 36;

    private SpatialInertia()
    {
    }

    /**
     * Not real-time safe (allocates).
     *
     * @param inertia the body's parameters, body frame.
     * @param out destination of G, 36 doubles row-major, body frame about its origin.
     * @param outOffset first index written.
     */
    public static void ofBody(final InertialParameters inertia, final double[] out, final int outOffset)
    {
        final double[] atCentre = new double[SIZE];
        final double[] ic = inertia.inertiaAtCentreOfMass();
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                atCentre[6 * r + c] = ic[3 * r + c];
            }
            atCentre[6 * (r + 3) + r + 3] = inertia.mass();
        }
        final double[] centre = inertia.centreOfMass();
        final double[] bodyFromCentre = new double[RigidTransforms.SIZE];
        RigidTransforms.identity(bodyFromCentre, 0);
        for (int k = 0; k < 3; k++)
        {
            bodyFromCentre[9 + k] = -centre[k];
        }
        final double[] ad = new double[SIZE];
        RigidTransforms.adjointMatrix(bodyFromCentre, 0, ad);
        for (int r = 0; r < 6; r++)
        {
            for (int c = 0; c < 6; c++)
            {
                double sum = 0.0;
                for (int k = 0; k < 6; k++)
                {
                    for (int l = 0; l < 6; l++)
                    {
                        sum += ad[6 * k + r] * atCentre[6 * k + l] * ad[6 * l + c];
                    }
                }
                out[outOffset + 6 * r + c] = sum;
            }
        }
    }

    /**
     * out = G V. Real-time safe.
     *
     * @param g spatial inertia, 36 doubles row-major.
     * @param gOffset offset of G.
     * @param twist V = (omega, v), same frame as G.
     * @param twistOffset offset of V.
     * @param out destination of the wrench (moment, force).
     * @param outOffset first index written.
     */
    public static void apply(
        final double[] g, final int gOffset, final double[] twist, final int twistOffset, final double[] out,
        final int outOffset)
    {
        for (int r = 0; r < 6; r++)
        {
            final int row = gOffset + 6 * r;
            double sum = 0.0;
            for (int c = 0; c < 6; c++)
            {
                sum += g[row + c] * twist[twistOffset + c];
            }
            out[outOffset + r] = sum;
        }
    }
}
