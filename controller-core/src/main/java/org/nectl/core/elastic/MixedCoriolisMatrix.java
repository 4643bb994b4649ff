package org.nectl.core.elastic;

import org.nectl.core.dynamics.CoriolisMatrix;

/**
 * The Coriolis matrix of a mixed rigid/elastic robot in the block form of Hua, Poursina,
 * Sanfilippo, "Dynamic Modelling of Mixed Rigid-Flexible Joint Robotic Manipulator Using Recursive
 * Newton-Euler Formulation", eq. 30: [[C, C1], [C2, 0]] with C(q, qd) qd + C1 theta_dot the link
 * side and C2 qd the motor side of the Coriolis and centrifugal torques. Computed as P^T C_tree P
 * over the unified bodies ({@link UnifiedBodies}) with the Christoffel-consistent
 * {@link CoriolisMatrix}; P is constant, so A-dot - 2 C stays skew-symmetric, which the passivity
 * argument of the paper's controller (eqs. 40-51) needs, and a controller can form C(q, qd) qr_dot
 * for a reference velocity. Excludes gravity, friction and external wrenches.
 *
 * <p>Layout as {@link MixedMassMatrix}: (dof + elasticCount) square, row-major, q then theta.
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MixedCoriolisMatrix
{
    private final UnifiedBodies bodies;
    private final CoriolisMatrix coriolis;
    private final double[] treeMatrix;
    private final double[] y;
    private final double[] yd;
    private final double[] zeroMotorAngle;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param bodies the robot's unified bodies, shared with its other mixed algorithms.
     */
    public MixedCoriolisMatrix(final UnifiedBodies bodies)
    {
        this.bodies = bodies;
        coriolis = new CoriolisMatrix(bodies.compiledTree);
        final int t = bodies.treeDof();
        treeMatrix = new double[t * t];
        y = new double[t];
        yd = new double[t];
        zeroMotorAngle = new double[bodies.elasticCount];
    }

    /** @return dof + elasticCount: the matrix is that size squared. */
    public int size()
    {
        return bodies.dof + bodies.elasticCount;
    }

    /**
     * Real-time safe: allocates nothing.
     *
     * @param q link positions by coordinate, rad or m.
     * @param qd link velocities.
     * @param thetad motor velocities by elastic index (reflected).
     * @param matrix output, size() square, row-major: entry (i, j) multiplies velocity j in torque i.
     */
    public void compute(final double[] q, final double[] qd, final double[] thetad, final double[] matrix)
    {
        // Rotor angles do not enter (axisymmetric rotors).
        bodies.toTree(q, zeroMotorAngle, y);
        bodies.toTree(qd, thetad, yd);
        coriolis.compute(y, yd, treeMatrix);
        bodies.congruence(treeMatrix, matrix);
    }
}
