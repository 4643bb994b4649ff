package org.nectl.config;

import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * World (base-frame) poses of every body of a model at a joint position, composed directly from the
 * model's placements: {@code 0T_i = 0T_parent * [R_place, p_place] * Motion(q)}.
 */
final class BodyPoses
{
    private final double[][] rotation;
    private final double[][] position;

    private BodyPoses(final double[][] rotation, final double[][] position)
    {
        this.rotation = rotation;
        this.position = position;
    }

    static BodyPoses of(final RobotModel model, final double[] q)
    {
        final int n = model.bodyCount();
        final double[][] rotation = new double[n][];
        final double[][] position = new double[n][];
        for (int i = 0; i < n; i++)
        {
            final int parent = model.parent(i);
            final double[] parentR = parent < 0 ? Transforms.identity() : rotation[parent];
            final double[] parentP = parent < 0 ? new double[3] : position[parent];
            final int k = model.coordinateOfBody(i);
            final double qi = k < 0 ? 0.0 : q[k];
            final JointType type = model.jointType(i);
            final double[] motion = type == JointType.REVOLUTE ? Transforms.rotZ(qi) : Transforms.identity();
            final double[] jointR = Transforms.multiply(parentR, model.placementRotation(i));
            rotation[i] = Transforms.multiply(jointR, motion);
            position[i] = add(parentP, Transforms.apply(parentR, model.placementTranslation(i)));
            if (type == JointType.PRISMATIC)
            {
                position[i] = add(position[i], Transforms.apply(jointR, new double[] {0.0, 0.0, qi}));
            }
        }
        return new BodyPoses(rotation, position);
    }

    double[] rotation(final int body)
    {
        return rotation[body].clone();
    }

    double[] position(final int body)
    {
        return position[body].clone();
    }

    static double[] add(final double[] a, final double[] b)
    {
        return new double[] {a[0] + b[0], a[1] + b[1], a[2] + b[2]};
    }
}
