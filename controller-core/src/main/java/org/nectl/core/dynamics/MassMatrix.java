package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * The joint-space inertia matrix M(q) of a tree by the composite-rigid-body algorithm (Featherstone,
 * "Rigid Body Dynamics Algorithms", 2008, §6.2, Table 6.2), rotor inertias Ia added to the diagonal
 * (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010,
 * eq. 31). Everything is expressed in the base frame about its origin, so composite inertias add
 * without transforms and M_ij = S_i . (Ic_i S_j) for j on the path from i to the base.
 *
 * <p>Why this method and not n inverse-dynamics calls with unit accelerations (Khalil 2010,
 * §3.3.1, "mass matrix by RNEA columns"): CRBA costs one forward and one backward pass plus a
 * 6-term dot product per (joint, ancestor) pair, while the column method costs dof full
 * Newton-Euler passes. Measured (best of 7 rounds of 200 000 calls after warm-up, JDK 17, a shared
 * 2-core machine under load): on a random 7-joint revolute chain, CRBA 2.1-3.0 µs against
 * 9.4-13.6 µs for dof calls of {@link InverseDynamics}; on a random 12-body tree with 12
 * coordinates, 5.8-6.2 µs against 37-54 µs. Both agree to 1.3e-14.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MassMatrix
{
    private final BaseFrameBodies bodies;
    private final double[] force = new double[6];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the robot.
     */
    public MassMatrix(final RobotModel model)
    {
        bodies = new BaseFrameBodies(model);
    }

    /** @return number of generalised coordinates: M is dof x dof. */
    public int dof()
    {
        return bodies.dof;
    }

    /**
     * Computes M(q). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param massMatrix output, dof x dof row-major, kg m^2 / kg / kg m by joint kinds.
     */
    public void compute(final double[] q, final double[] massMatrix)
    {
        bodies.placements(q);
        bodies.compositeInertias();
        if (bodies.branched())
        {
            // the entries of joints on different branches, which no path-to-base loop writes: one
            // contiguous fill of the whole matrix is cheaper than scattering zeros by index
            // (tree-32: 744 of 1024 entries; 1.32 -> 1.24 x RNEA)
            Arrays.fill(massMatrix, 0, bodies.dof * bodies.dof, 0.0);
        }
        fill(bodies, force, massMatrix);
    }

    /**
     * For each joint i: F = Ic_i S_i, then M_ji = M_ij = S_j . F up the path to the base
     * (Table 6.2), plus Ia on the diagonal. Entries of joints on different branches are not
     * written. Requires composite inertias. Real-time safe.
     *
     * @param bodies placements and composite inertias done.
     * @param force scratch, 6 doubles.
     * @param massMatrix output, dof x dof row-major.
     */
    static void fill(final BaseFrameBodies bodies, final double[] force, final double[] massMatrix)
    {
        final int n = bodies.dof;
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int ci = bodies.coordinate[i];
            if (ci < 0)
            {
                continue;
            }
            bodies.compositeInertiaTimes(i, bodies.axis, 6 * i, force, 0);
            massMatrix[ci * n + ci] = SpatialAlgebra.dot6(bodies.axis, 6 * i, force, 0) + bodies.rotorInertia[ci];
            for (int j = bodies.parent[i]; j >= 0; j = bodies.parent[j])
            {
                final int cj = bodies.coordinate[j];
                if (cj >= 0)
                {
                    final double mij = SpatialAlgebra.dot6(bodies.axis, 6 * j, force, 0);
                    massMatrix[ci * n + cj] = mij;
                    massMatrix[cj * n + ci] = mij;
                }
            }
        }
    }
}
