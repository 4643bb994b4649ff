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
    private final double[] scratch = new double[SCRATCH];

    /** Doubles of scratch that {@link #fill} needs. */
    static final int SCRATCH = 15;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public CoriolisMatrix(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
    }

    /**
     * Computes C(q, qd). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param qd joint velocities, rad/s or m/s.
     * @param coriolis output, dof x dof row-major: C_ij multiplies qd_j in torque i.
     */
    public void compute(final double[] q, final double[] qd, final double[] coriolis)
    {
        bodies.placements(q);
        bodies.velocities(qd);
        bodies.compositeInertias();
        bodies.compositeCouplings();
        fill(bodies, scratch, 1.0, coriolis);
    }

    /**
     * Writes scale * C. Requires placements, velocities, composite inertias and couplings; the
     * couplings in {@link BaseFrameBodies} are the full B = 2 B_k, hence the factors 1/2 below.
     * Real-time safe.
     *
     * @param bodies the prepared base-frame bodies.
     * @param scratch {@link #SCRATCH} doubles.
     * @param scale factor applied to every entry.
     * @param out dof x dof row-major.
     */
    static void fill(final BaseFrameBodies bodies, final double[] scratch, final double scale, final double[] out)
    {
        final int n = bodies.dof;
        final double half = 0.5 * scale;
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int ci = bodies.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            final int si = 6 * i;
            // u = Ic_i S_i, w = angular part of Bc_i^T S_i, phi = Ic_i S_i-dot + Bc_i S_i / 2.
            bodies.compositeInertiaTimes(i, bodies.axis, si, scratch, 0);
            bodies.compositeCouplingTransposedTimes(i, bodies.axis, si, scratch, 6);
            bodies.compositeInertiaTimes(i, bodies.axisRate, si, scratch, 9);
            for (int j = i; j >= 0; j = bodies.parent[j])
            {
                final int cj = bodies.coordinate[j];
                if (cj >= 0)
                {
                    final int sj = 6 * j;
                    out[ci * n + cj] = scale * SpatialAlgebra.dot6(scratch, 0, bodies.axisRate, sj)
                        + half * (scratch[6] * bodies.axis[sj + 3] + scratch[7] * bodies.axis[sj + 4]
                        + scratch[8] * bodies.axis[sj + 5]);
                }
            }
            bodies.compositeCouplingTimes(i, bodies.axis, si, scratch, 0);
            for (int c = 0; c < 6; c++)
            {
                scratch[9 + c] += 0.5 * scratch[c];
            }
            for (int j = bodies.parent[i]; j >= 0; j = bodies.parent[j])
            {
                final int cj = bodies.coordinate[j];
                if (cj >= 0)
                {
                    out[cj * n + ci] = scale * SpatialAlgebra.dot6(bodies.axis, 6 * j, scratch, 9);
                }
            }
        }
        bodies.zeroUncoupledEntries(out);
    }
}
