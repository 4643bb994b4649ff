package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * The gravity torques g(q) of tau = M qdd + C qd + g: the joint torques that hold the robot still
 * against gravity alone (no external wrench, no friction). With qd = 0 and qdd = 0 every body's
 * spatial acceleration is the base's (-g, 0), so the wrench across joint i is the subtree's
 * composite inertia times it: F_i = (m_c (-g), h_c x (-g)) about body i's origin, and
 * g_i = S_i . F_i (the Newton-Euler recursion of Khalil, "Dynamic modeling of robots using
 * recursive Newton-Euler techniques", ICINCO 2010, eqs. 13-31, collapsed to composite mass and
 * first moment). Taken in body i's frame, where S_i is z: a forward pass carries -g into each
 * body's frame, a backward pass each subtree's first moment into its parent's; subtree masses are
 * constants. No inertia tensors, no base-frame poses. {@link GeneralizedMomentum} runs these passes
 * on its own joint transforms. Gravity is the compiled model's ({@link CompiledModel#withGravity}).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class GravityTorques
{
    private final CompiledModel model;
    private final JointTransforms joints;
    /** -g in the base frame, then in each body's frame, m/s^2, 3 per body. */
    private final double[] gravityAcceleration;
    /** Subtree mass, kg. */
    private final double[] compositeMass;
    /** Subtree first moment about the body origin, body frame, kg m, 3 per body. */
    private final double[] compositeFirstMoment;

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public GravityTorques(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public GravityTorques(final CompiledModel model)
    {
        this(model, new JointTransforms(model));
    }

    /** For a caller that updates the shared joint transforms itself. Not real-time safe. */
    GravityTorques(final CompiledModel model, final JointTransforms joints)
    {
        this.model = model;
        this.joints = joints;
        gravityAcceleration = new double[3 * model.bodyCount];
        compositeMass = model.mass.clone();
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            if (model.parent[j] >= 0)
            {
                compositeMass[model.parent[j]] += compositeMass[j];
            }
        }
        compositeFirstMoment = new double[3 * model.bodyCount];
    }

    /**
     * Computes g(q). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param gravityTorque output by coordinate, N m or N.
     */
    public void compute(final double[] q, final double[] gravityTorque)
    {
        joints.update(q);
        fromJointTransforms(model.gravity, gravityTorque);
    }

    /** g under gravity g (base frame, m/s^2) at the joint transforms' last update. Real-time safe. */
    void fromJointTransforms(final double[] gravity, final double[] gravityTorque)
    {
        final double[] a = gravityAcceleration;
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int i = model.parent[j];
            if (i < 0)
            {
                a[3 * j] = -gravity[0];
                a[3 * j + 1] = -gravity[1];
                a[3 * j + 2] = -gravity[2];
                Vec3.multiplyTransposed(joints.rotation, 9 * j, a, 3 * j, a, 3 * j);
            }
            else
            {
                Vec3.multiplyTransposed(joints.rotation, 9 * j, a, 3 * i, a, 3 * j);
            }
        }
        final double[] h = compositeFirstMoment;
        System.arraycopy(model.firstMoment, 0, h, 0, h.length);
        for (int j = model.bodyCount - 1; j >= 0; j--)
        {
            final int t = 3 * j;
            final int k = model.coordinate[j];
            if (k >= 0)
            {
                // S . (m a, h x a): the z moment for S = (0, z), the z force for S = (z, 0)
                gravityTorque[k] = model.sigma[j] == CompiledModel.REVOLUTE ? h[t] * a[t + 1] - h[t + 1] * a[t]
                    : compositeMass[j] * a[t + 2];
            }
            final int i = model.parent[j];
            if (i >= 0)
            {
                // h_i += iR_j h_j + m_j iP_j
                Vec3.multiply(joints.rotation, 9 * j, h, t, h, t);
                for (int c = 0; c < 3; c++)
                {
                    h[3 * i + c] += h[t + c] + compositeMass[j] * joints.position[t + c];
                }
            }
        }
    }
}
