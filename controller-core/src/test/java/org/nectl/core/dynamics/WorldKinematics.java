package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * Poses and velocities of every body expressed in the base frame, by composing joint transforms
 * from the base outwards. Deliberately a different formulation from the body-frame recursion of
 * {@link NewtonEulerPasses}, so the two can check each other (test code: the oracles'
 * {@link MechanicalEnergy} and the momentum and world-fixed-load tests). Not thread safe.
 */
final class WorldKinematics
{
    final CompiledModel model;
    final JointTransforms joints;
    /** 0R_j: body j's axes in the base frame, 9 per body, row-major. */
    final double[] rotation;
    /** Body j's origin in the base frame, m, 3 per body. */
    final double[] origin;
    /** Body j's angular velocity in the base frame, rad/s, 3 per body. */
    final double[] angularVelocity;
    /** Velocity of body j's origin in the base frame, m/s, 3 per body. */
    final double[] originVelocity;

    /** Not real-time safe: allocates the workspace. */
    WorldKinematics(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        rotation = new double[9 * model.bodyCount];
        origin = new double[3 * model.bodyCount];
        angularVelocity = new double[3 * model.bodyCount];
        originVelocity = new double[3 * model.bodyCount];
    }

    /** Poses at q: 0T_j = 0T_i iT_j. Real-time safe. */
    void positions(final double[] q)
    {
        joints.update(q);
        joints.basePoses(rotation, origin);
    }

    /**
     * Velocities at the positions of the last {@link #positions} call: omega_j = omega_i + qd z_j
     * (revolute), v_j = v_i + omega_i x (p_j - p_i) + qd z_j (prismatic). Real-time safe.
     */
    void velocities(final double[] qd)
    {
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int i = model.parent[j];
            final int o = 3 * j;
            if (i < 0)
            {
                Arrays.fill(angularVelocity, o, o + 3, 0.0);
                Arrays.fill(originVelocity, o, o + 3, 0.0);
            }
            else
            {
                Vec3.copy(angularVelocity, 3 * i, angularVelocity, o);
                Vec3.copy(origin, o, originVelocity, o);
                Vec3.subtract(origin, 3 * i, originVelocity, o);
                Vec3.cross(angularVelocity, 3 * i, originVelocity, o, originVelocity, o);
                Vec3.add(originVelocity, 3 * i, originVelocity, o);
            }
            final int k = model.coordinate[j];
            if (k >= 0)
            {
                // z_j in the base frame is the third column of 0R_j.
                Vec3.addScaledAxisZ(qd[k], rotation, 9 * j,
                    model.sigma[j] == CompiledModel.REVOLUTE ? angularVelocity : originVelocity, o);
            }
        }
    }
}
