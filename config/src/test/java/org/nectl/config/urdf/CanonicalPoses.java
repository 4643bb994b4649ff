package org.nectl.config.urdf;

import static org.nectl.config.urdf.UrdfSpecKinematics.add;
import static org.nectl.config.urdf.UrdfSpecKinematics.apply;
import static org.nectl.config.urdf.UrdfSpecKinematics.mul;

import org.nectl.config.urdf.UrdfSpecKinematics.Pose;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * World poses of a canonical model's body frames: compose placement_i * Rot(z, q) or Trans(z, q)
 * down the tree, as the model defines them.
 */
final class CanonicalPoses
{
    private CanonicalPoses()
    {
    }

    /**
     * @param model the model.
     * @param q joint positions by coordinate.
     * @return body world poses, by body index.
     */
    static Pose[] bodyPoses(final RobotModel model, final double[] q)
    {
        final Pose[] poses = new Pose[model.bodyCount()];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final int p = model.parent(i);
            final double[] parentR = p < 0 ? Transforms.identity() : poses[p].rotation();
            final double[] parentT = p < 0 ? new double[3] : poses[p].translation();
            final double[] r = mul(parentR, model.placementRotation(i));
            final double[] t = add(parentT, apply(parentR, model.placementTranslation(i)));
            final int k = model.coordinateOfBody(i);
            if (model.jointType(i) == JointType.REVOLUTE)
            {
                poses[i] = new Pose(mul(r, Transforms.rotZ(q[k])), t);
            }
            else if (model.jointType(i) == JointType.PRISMATIC)
            {
                poses[i] = new Pose(r, add(t, apply(r, new double[] {0, 0, q[k]})));
            }
            else
            {
                poses[i] = new Pose(r, t);
            }
        }
        return poses;
    }
}
