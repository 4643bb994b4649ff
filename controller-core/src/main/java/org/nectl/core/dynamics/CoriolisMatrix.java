package org.nectl.core.dynamics;

/**
 * A Coriolis matrix C(q, qd) with C qd = the Coriolis and centrifugal torques and M-dot - 2C
 * skew-symmetric: the Christoffel-consistent factorisation of Echeandia and Wensing, "Numerical
 * methods to compute the Coriolis matrix and Christoffel symbols for rigid-body systems", J.
 * Computational and Nonlinear Dynamics, 2021: C = sum_k J_k^T (I_k J_k-dot + B_k J_k) with
 * B_k = 1/2 (v_k x* I_k - I_k v_k x + (I_k v_k) x-bar*), where B_k v_k = v_k x* I_k v_k and
 * B_k + B_k^T = I_k-dot, which makes M-dot - 2C skew. In base coordinates J_k's columns are the
 * joint axes S_j on k's path and J_k-dot's are S_j-dot = v_j x S_j, so with subtree sums Ic and Bc:
 * C_ij = S_i . (Ic_i S_j-dot + Bc_i S_j) when j supports i, S_i . (Ic_j S_j-dot + Bc_j S_j) when i
 * supports j, 0 otherwise. Being Christoffel-consistent, 2C is also the derivative of the
 * Coriolis and centrifugal torques with respect to qd, which {@link InverseDynamicsDerivatives}
 * uses. Excludes gravity, friction and external wrenches.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class CoriolisMatrix
{
    private final BaseFrameBodies bodies;
    /** u (6), w (3) and phi (6) of one joint, base frame. */
    private final double[] scratch = new double[15];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public CoriolisMatrix(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
    }

    /**
     * Computes C(q, qd), dof x dof row-major (C_ij multiplies qd_j in torque i); q in rad or m, qd
     * in rad/s or m/s. The couplings of {@link BaseFrameBodies} are the full B = 2 B_k, hence the
     * factors 1/2. Real-time safe: allocates nothing.
     */
    public void compute(final double[] q, final double[] qd, final double[] coriolis)
    {
        final BaseFrameBodies b = bodies;
        b.placements(q);
        b.startComposites();
        for (int i = 0; i < b.bodyCount; i++)
        {
            b.velocity(i, qd);
            b.coupling(i, null, null);
        }
        final int n = b.dof;
        for (int i = b.bodyCount - 1; i >= 0; i--)
        {
            // i's subtree sums are complete (its children have higher indices)
            final int p = b.parent[i];
            if (p >= 0)
            {
                b.addCompositeToParent(i, p);
                b.addCouplingToParent(i, p);
            }
            final int ci = b.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            final int si = 6 * i;
            // u = Ic_i S_i, w = angular part of Bc_i^T S_i, phi = Ic_i S_i-dot + Bc_i S_i / 2.
            b.compositeInertiaTimes(i, b.axis, si, scratch, 0);
            b.compositeCouplingTransposedTimes(i, b.axis, si, scratch, 6);
            b.compositeInertiaTimes(i, b.axisRate, si, scratch, 9);
            for (int j = i; j >= 0; j = b.parent[j])
            {
                final int cj = b.coordinate[j];
                if (cj >= 0)
                {
                    final int sj = 6 * j;
                    coriolis[ci * n + cj] = SpatialAlgebra.dot6(scratch, 0, b.axisRate, sj)
                        + 0.5 * Vec3.dot(scratch, 6, b.axis, sj + 3);
                }
            }
            b.compositeCouplingTimes(i, b.axis, si, scratch, 0);
            for (int c = 0; c < 6; c++)
            {
                scratch[9 + c] += 0.5 * scratch[c];
            }
            for (int j = b.parent[i]; j >= 0; j = b.parent[j])
            {
                final int cj = b.coordinate[j];
                if (cj >= 0)
                {
                    coriolis[cj * n + ci] = SpatialAlgebra.dot6(b.axis, 6 * j, scratch, 9);
                }
            }
        }
        b.zeroUncoupledEntries(coriolis);
    }
}
