package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;

/**
 * Test oracle: body poses in the base frame by plain composition of the model's placements and
 * joint motions, and body-frame Jacobian columns and velocities from finite differences of them.
 * Shares nothing with the algorithms under test.
 */
final class CompositionKinematics
{
    /** Step of the fourth-order central differences: truncation ~h^4, rounding ~1e-16/h. */
    static final double STEP = 1e-4;

    private CompositionKinematics()
    {
    }

    /**
     * @return per body, 12 doubles: rotation base->body (row-major), then the body origin, base frame.
     */
    static double[][] poses(final RobotModel model, final double[] q)
    {
        final double[][] pose = new double[model.bodyCount()][];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final int k = model.coordinateOfBody(i);
            final double qi = k < 0 ? 0.0 : q[k];
            double[] rotation = model.placementRotation(i);
            double[] origin = model.placementTranslation(i);
            if (model.jointType(i) == JointType.REVOLUTE)
            {
                rotation = Transforms.multiply(rotation, Transforms.rotZ(qi));
            }
            else if (model.jointType(i) == JointType.PRISMATIC)
            {
                for (int c = 0; c < 3; c++)
                {
                    origin[c] += rotation[3 * c + 2] * qi;
                }
            }
            final int p = model.parent(i);
            if (p >= 0)
            {
                final double[] parentRotation = Arrays.copyOfRange(pose[p], 0, 9);
                final double[] moved = Transforms.apply(parentRotation, origin);
                origin = new double[] {moved[0] + pose[p][9], moved[1] + pose[p][10], moved[2] + pose[p][11]};
                rotation = Transforms.multiply(parentRotation, rotation);
            }
            pose[i] = new double[12];
            System.arraycopy(rotation, 0, pose[i], 0, 9);
            System.arraycopy(origin, 0, pose[i], 9, 3);
        }
        return pose;
    }

    /**
     * Body twists (omega, v) of every body, body frame, for q moving along direction qd, by a
     * fourth-order central difference of the poses: [V] = T^-1 dT/dt.
     *
     * @return per body, 6 doubles.
     */
    static double[][] bodyTwists(final RobotModel model, final double[] q, final double[] qd)
    {
        final double[][][] sampled = new double[PolynomialMotion.STEPS.length][][];
        for (int j = 0; j < sampled.length; j++)
        {
            sampled[j] = poses(model, step(q, qd, PolynomialMotion.STEPS[j] * STEP));
        }
        final double[][] at = poses(model, q);
        final double[][] twists = new double[model.bodyCount()][6];
        final double[] samples = new double[sampled.length];
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final double[] rate = new double[12];
            for (int c = 0; c < 12; c++)
            {
                for (int j = 0; j < sampled.length; j++)
                {
                    samples[j] = sampled[j][i][c];
                }
                rate[c] = PolynomialMotion.centralDifference(samples, STEP);
            }
            final double[] rt = Transforms.transpose(Arrays.copyOfRange(at[i], 0, 9));
            final double[] omegaHat = Transforms.multiply(rt, Arrays.copyOfRange(rate, 0, 9));
            final double[] v = Transforms.apply(rt, Arrays.copyOfRange(rate, 9, 12));
            twists[i] = new double[] {
                0.5 * (omegaHat[7] - omegaHat[5]), 0.5 * (omegaHat[2] - omegaHat[6]), 0.5 * (omegaHat[3] - omegaHat[1]),
                v[0], v[1], v[2]};
        }
        return twists;
    }

    private static double[] step(final double[] q, final double[] direction, final double h)
    {
        final double[] r = q.clone();
        for (int k = 0; k < r.length; k++)
        {
            r[k] += h * direction[k];
        }
        return r;
    }
}
