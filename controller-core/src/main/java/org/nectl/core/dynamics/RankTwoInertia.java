package org.nectl.core.dynamics;

import java.util.Arrays;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.factory.DecompositionFactory_DDRM;
import org.ejml.interfaces.decomposition.EigenDecomposition_F64;

/**
 * Splits a rotational inertia into an isotropic part and two rank-one parts,
 * Ic = lambda 1 + g g^T + k k^T, with lambda the smallest principal moment, g = sqrt(lambda_2 - lambda) e_2
 * and k = sqrt(lambda_3 - lambda) e_3 (e_2, e_3 the other principal axes). Rotating it then needs
 * two rotated vectors: R Ic R^T = lambda 1 + (R g)(R g)^T + (R k)(R k)^T, 18 multiplications
 * instead of the 45 of R Ic R^T, on every body of every base-frame algorithm call. Not real-time
 * safe (model set-up only).
 */
final class RankTwoInertia
{
    private RankTwoInertia()
    {
    }

    /**
     * Splits a 3x3 row-major inertia about the centre of mass (symmetrised here): writes g then k to
     * factors at offset at; returns lambda, the smallest principal moment, kg m^2.
     */
    static double split(final double[] inertia, final double[] factors, final int at)
    {
        final DMatrixRMaj symmetric = new DMatrixRMaj(3, 3);
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                symmetric.set(r, c, 0.5 * (inertia[3 * r + c] + inertia[3 * c + r]));
            }
        }
        final EigenDecomposition_F64<DMatrixRMaj> eigen = DecompositionFactory_DDRM.eig(3, true, true);
        if (!eigen.decompose(symmetric))
        {
            throw new IllegalArgumentException("no principal axes for the inertia " + Arrays.toString(inertia));
        }
        final double[] moments = new double[3];
        int smallest = 0;
        for (int e = 0; e < 3; e++)
        {
            moments[e] = eigen.getEigenvalue(e).real;
            if (moments[e] < moments[smallest])
            {
                smallest = e;
            }
        }
        final double lambda = moments[smallest];
        int slot = at;
        for (int e = 0; e < 3; e++)
        {
            if (e == smallest)
            {
                continue;
            }
            final DMatrixRMaj axis = eigen.getEigenVector(e);
            final double scale = Math.sqrt(Math.max(0.0, moments[e] - lambda)) / Math.sqrt(
                axis.get(0) * axis.get(0) + axis.get(1) * axis.get(1) + axis.get(2) * axis.get(2));
            for (int c = 0; c < 3; c++)
            {
                factors[slot + c] = scale * axis.get(c);
            }
            slot += 3;
        }
        return lambda;
    }
}
