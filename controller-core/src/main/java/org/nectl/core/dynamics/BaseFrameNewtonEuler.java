package org.nectl.core.dynamics;

/**
 * The recursive Newton-Euler algorithm with every quantity expressed in the base frame about its
 * origin (Featherstone, "Rigid Body Dynamics Algorithms", 2008, §5.3 and Table 5.1 with
 * base-coordinate transforms equal to the identity): spatial accelerations forward, body wrenches,
 * subtree wrenches backward, projection on the joint axes plus Khalil's rotor and friction terms
 * (ICINCO 2010, eq. 31). Run by {@link BiasForces}; {@link InverseDynamicsDerivatives} fills the same
 * acceleration and wrench arrays with its own fused forward step. Not thread safe.
 */
final class BaseFrameNewtonEuler
{
    final BaseFrameBodies bodies;
    /** The base's spatial acceleration (-g, 0), base frame, set from each call's loads. */
    final double[] baseAcceleration = new double[6];
    /** Spatial acceleration a_i, base frame, 6 per body. */
    final double[] acceleration;
    /** Wrench the parent exerts on body i through its joint, base frame, about the base origin, 6 per body. */
    final double[] wrench;
    boolean friction = true;

    private final double[] momentum = new double[6];
    private final double[] scratch = new double[6];

    /** Not real-time safe: allocates the workspace. */
    BaseFrameNewtonEuler(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
        acceleration = new double[6 * bodies.bodyCount];
        wrench = new double[6 * bodies.bodyCount];
    }

    /** Gravity enters as the base acceleration -g (Featherstone 2008, §5.3). Real-time safe. */
    void gravity(final AppliedLoads loads)
    {
        baseAcceleration[0] = -loads.gravity[0];
        baseAcceleration[1] = -loads.gravity[1];
        baseAcceleration[2] = -loads.gravity[2];
    }

    /** Real-time safe. */
    void compute(final double[] q, final double[] qd, final double[] qdd, final AppliedLoads loads, final double[] tau)
    {
        gravity(loads);
        bodies.placements(q);
        bodies.velocities(qd);
        forwardPass(qdd, loads);
        backwardPass();
        jointForces(qd, qdd, tau);
    }

    /** a_i, then f_i = I_i a_i + v_i x* I_i v_i - f_ext,i (Featherstone 2008, §5.3). */
    private void forwardPass(final double[] qdd, final AppliedLoads loads)
    {
        final boolean loaded = loads.any();
        for (int i = 0; i < bodies.bodyCount; i++)
        {
            final int s = 6 * i;
            bodies.accelerationFromParent(
                i, baseAcceleration, acceleration, bodies.movable(i) ? qdd[bodies.coordinate[i]] : 0.0);
            bodies.inertiaTimes(i, acceleration, s, wrench, s);
            bodies.inertiaTimes(i, bodies.velocity, s, momentum, 0);
            SpatialAlgebra.addCrossForce(bodies.velocity, s, momentum, 0, wrench, s);
            if (loaded)
            {
                loads.subtractInBase(i, bodies.rotation, bodies.position, scratch, wrench, s);
            }
        }
    }

    /** F_parent += F_i (Featherstone 2008, Table 5.1; no transform in base coordinates). */
    private void backwardPass()
    {
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            final int p = bodies.parent[i];
            if (p >= 0)
            {
                for (int c = 0; c < 6; c++)
                {
                    wrench[6 * p + c] += wrench[6 * i + c];
                }
            }
        }
    }

    /** tau_k = S . F + Ia qdd + Fs sign(qd) + Fv qd (Khalil 2010, eq. 31). */
    private void jointForces(final double[] qd, final double[] qdd, final double[] tau)
    {
        for (int k = 0; k < bodies.dof; k++)
        {
            final int i = bodies.bodyOfCoordinate[k];
            tau[k] = SpatialAlgebra.dot6(bodies.axis, 6 * i, wrench, 6 * i)
                + bodies.model.rotorInertia[k] * qdd[k] + bodies.model.friction(k, qd[k], friction);
        }
    }
}
