package org.nectl.core.elastic;

import org.nectl.core.dynamics.MassMatrix;

/**
 * The inertia matrix A(q) = [[M(q), S(q)], [S(q)^T, B]] of a mixed rigid/elastic robot (Hua,
 * Poursina, Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using
 * Recursive Newton-Euler Formulation", eq. 30): M (dof x dof) the link inertia including the rotors
 * carried by the links and the rotor inertia of rigid joints, S (dof x elasticCount) the coupling of
 * the elastic joints' rotors to the links that carry them, B (elasticCount square, constant,
 * diagonal eta^2 Im_z) the elastic joints' reflected rotor inertias. Computed as P^T M_tree P over
 * the unified bodies ({@link UnifiedBodies}), M_tree by the composite-rigid-body algorithm of
 * {@link MassMatrix}; the paper builds the same columns with ReNEAL and unit accelerations
 * (Algorithm 2, eqs. 34-35), which costs dof + elasticCount Newton-Euler passes instead.
 *
 * <p>Layout: (dof + elasticCount) square, row-major; rows and columns are q_0..q_{dof-1} then
 * theta_0..theta_{elasticCount-1}. M is the top-left block, S the top-right, B the bottom-right.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MixedMassMatrix
{
    private final UnifiedBodies bodies;
    private final MassMatrix crba;
    private final double[] treeMatrix;
    private final double[] treePositions;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public MixedMassMatrix(final UnifiedBodies bodies)
    {
        this.bodies = bodies;
        crba = new MassMatrix(bodies.compiledTree);
        treeMatrix = new double[bodies.treeDof() * bodies.treeDof()];
        treePositions = new double[bodies.treeDof()];
    }

    /** @return dof + elasticCount: A is that size squared. */
    public int size()
    {
        return bodies.dof + bodies.elasticCount;
    }

    /**
     * Computes A(q). Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param inertia output A, size() square, row-major (see the class comment).
     */
    public void compute(final double[] q, final double[] inertia)
    {
        // Rotor angles stay 0: an axisymmetric rotor's inertia is the same at every angle.
        System.arraycopy(q, 0, treePositions, 0, bodies.dof);
        crba.compute(treePositions, treeMatrix);
        // (34)-(35)
        bodies.congruence(treeMatrix, inertia);
    }
}
