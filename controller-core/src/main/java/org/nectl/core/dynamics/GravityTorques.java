package org.nectl.core.dynamics;

/**
 * The gravity torques g(q) of tau = M qdd + C qd + g: the joint torques that hold the robot still
 * against gravity alone (no external wrench, no friction). With qd = 0 and qdd = 0 every body's
 * spatial acceleration is the base's (-g, 0), so the wrench across joint i is the subtree's
 * composite inertia times it: F_i = (m_c (-g), h_c x (-g)), in the base frame about its origin,
 * and g_i = S_i . F_i (the Newton-Euler recursion of Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, eqs. 13-31, collapsed to composite mass and
 * first moment). One forward and one backward pass, no inertia tensors. Gravity is the compiled
 * model's ({@link CompiledModel#of(org.nectl.core.model.RobotModel, double, double, double)}).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class GravityTorques
{
    private final BaseFrameBodies bodies;
    private final double[] baseAcceleration = new double[3];
    private final double[] wrench = new double[6];

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public GravityTorques(final CompiledModel model)
    {
        bodies = new BaseFrameBodies(model);
        baseAcceleration[0] = -model.gravity[0];
        baseAcceleration[1] = -model.gravity[1];
        baseAcceleration[2] = -model.gravity[2];
    }

    /**
     * Computes g(q). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param gravityTorque output by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] gravityTorque)
    {
        bodies.placements(q);
        compositeMasses();
        jointTorques(gravityTorque);
    }

    /** Backward pass: subtree mass and first moment about the base origin. */
    private void compositeMasses()
    {
        System.arraycopy(bodies.mass, 0, bodies.compositeMass, 0, bodies.bodyCount);
        System.arraycopy(bodies.firstMoment, 0, bodies.compositeFirstMoment, 0, 3 * bodies.bodyCount);
        for (int i = bodies.bodyCount - 1; i >= 0; i--)
        {
            final int p = bodies.parent[i];
            if (p >= 0)
            {
                bodies.compositeMass[p] += bodies.compositeMass[i];
                Vec3.add(bodies.compositeFirstMoment, 3 * i, bodies.compositeFirstMoment, 3 * p);
            }
        }
    }

    /** g_i = S_i . (m_c a0, h_c x a0) with a0 = -g. */
    private void jointTorques(final double[] gravityTorque)
    {
        final double ax = baseAcceleration[0];
        final double ay = baseAcceleration[1];
        final double az = baseAcceleration[2];
        for (int k = 0; k < bodies.dof; k++)
        {
            final int i = bodies.bodyOfCoordinate[k];
            final double m = bodies.compositeMass[i];
            final double hx = bodies.compositeFirstMoment[3 * i];
            final double hy = bodies.compositeFirstMoment[3 * i + 1];
            final double hz = bodies.compositeFirstMoment[3 * i + 2];
            wrench[0] = m * ax;
            wrench[1] = m * ay;
            wrench[2] = m * az;
            wrench[3] = hy * az - hz * ay;
            wrench[4] = hz * ax - hx * az;
            wrench[5] = hx * ay - hy * ax;
            gravityTorque[k] = SpatialAlgebra.dot6(bodies.axis, 6 * i, wrench, 0);
        }
    }
}
