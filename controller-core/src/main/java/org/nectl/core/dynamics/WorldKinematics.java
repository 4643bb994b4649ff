package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * Poses and velocities of every body expressed in the base frame, by composing joint transforms
 * from the base outwards. Deliberately a different formulation from the body-frame recursion of
 * {@link NewtonEulerPasses}, so the two can check each other. Not thread safe.
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
        for (int j = 0; j < model.bodyCount; j++)
        {
            final int i = model.parent[j];
            if (i < 0)
            {
                System.arraycopy(joints.rotation, 9 * j, rotation, 9 * j, 9);
                Vec3.copy(joints.position, 3 * j, origin, 3 * j);
            }
            else
            {
                multiplyRotations(9 * i, 9 * j);
                Vec3.multiply(rotation, 9 * i, joints.position, 3 * j, origin, 3 * j);
                Vec3.add(origin, 3 * i, origin, 3 * j);
            }
        }
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

    /** rotation_j = rotation_i tree.rotation_j, the joint rotation read once into locals. */
    private void multiplyRotations(final int ri, final int rj)
    {
        compose(rotation, ri, joints.rotation, rj);
    }

    /**
     * a_j = a_i b_j for 3x3 row-major rotations, 9 per body: a body's base-frame rotation from its
     * parent's and its joint rotation, the joint rotation read once into locals. Real-time safe.
     */
    static void compose(final double[] a, final int ri, final double[] b, final int rj)
    {
        final double b00 = b[rj];
        final double b01 = b[rj + 1];
        final double b02 = b[rj + 2];
        final double b10 = b[rj + 3];
        final double b11 = b[rj + 4];
        final double b12 = b[rj + 5];
        final double b20 = b[rj + 6];
        final double b21 = b[rj + 7];
        final double b22 = b[rj + 8];
        for (int row = 0; row < 9; row += 3)
        {
            final double x = a[ri + row];
            final double y = a[ri + row + 1];
            final double z = a[ri + row + 2];
            a[rj + row] = x * b00 + y * b10 + z * b20;
            a[rj + row + 1] = x * b01 + y * b11 + z * b21;
            a[rj + row + 2] = x * b02 + y * b12 + z * b22;
        }
    }
}
