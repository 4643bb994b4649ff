package org.nectl.core.mobile;

import org.nectl.core.dynamics.BaseFrameTree;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.SpatialAlgebra;

/**
 * The total spatial momentum and the kinetic energy of a floating-base robot, summed body by body
 * in base coordinates ({@link BaseFrameTree}), independently of the dynamics recursions: the
 * quantities a free-floating robot without gravity conserves. Base state in the convention of
 * {@link BasePose}. Not thread safe. Every method is real-time safe except the constructor.
 */
public final class FloatingBaseMomentum
{
    private final BaseFrameTree tree;
    private final double[] rotation = new double[9];
    private final double[] sum = new double[6];
    private final double[] scratch = new double[6];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the compiled robot, with a floating base.
     * @throws IllegalArgumentException for a fixed base.
     */
    public FloatingBaseMomentum(final CompiledModel model)
    {
        tree = new BaseFrameTree(model);
    }

    /**
     * The total spatial momentum in the world frame.
     *
     * @param pose base position and quaternion.
     * @param twist base twist, base coordinates.
     * @param q joint positions by coordinate.
     * @param qd joint velocities by coordinate.
     * @param momentum receives the linear momentum (kg m/s) then the angular momentum about the
     *     world origin (kg m^2/s), world frame.
     */
    public void worldMomentum(final double[] pose, final double[] twist, final double[] q, final double[] qd,
        final double[] momentum)
    {
        baseMomentum(twist, q, qd);
        BasePose.rotation(pose, rotation);
        for (int r = 0; r < 3; r++)
        {
            momentum[r] = rotation[3 * r] * sum[0] + rotation[3 * r + 1] * sum[1] + rotation[3 * r + 2] * sum[2];
            momentum[3 + r] = rotation[3 * r] * sum[3] + rotation[3 * r + 1] * sum[4] + rotation[3 * r + 2] * sum[5];
        }
        // about the world origin: N_w = R N_0 + p x L
        momentum[3] += pose[1] * momentum[2] - pose[2] * momentum[1];
        momentum[4] += pose[2] * momentum[0] - pose[0] * momentum[2];
        momentum[5] += pose[0] * momentum[1] - pose[1] * momentum[0];
    }

    /**
     * @param twist base twist, base coordinates.
     * @param q joint positions by coordinate.
     * @param qd joint velocities by coordinate.
     * @return the kinetic energy, sum of v_i . (J_i v_i) / 2 over the base and every body, J.
     */
    public double kineticEnergyJoules(final double[] twist, final double[] q, final double[] qd)
    {
        tree.place(q);
        tree.velocities(twist, qd);
        tree.inertiaTimes(-1, twist, 0, scratch, 0);
        double twice = SpatialAlgebra.dot6(twist, 0, scratch, 0);
        for (int j = 0; j < tree.bodyCount(); j++)
        {
            tree.inertiaTimes(j, tree.velocity(), 6 * j, scratch, 0);
            twice += SpatialAlgebra.dot6(tree.velocity(), 6 * j, scratch, 0);
        }
        return 0.5 * twice;
    }

    /** sum = J_b v_0 + sum of J_i v_i, base coordinates about the base origin. */
    private void baseMomentum(final double[] twist, final double[] q, final double[] qd)
    {
        tree.place(q);
        tree.velocities(twist, qd);
        tree.inertiaTimes(-1, twist, 0, sum, 0);
        for (int j = 0; j < tree.bodyCount(); j++)
        {
            tree.inertiaTimes(j, tree.velocity(), 6 * j, scratch, 0);
            for (int c = 0; c < 6; c++)
            {
                sum[c] += scratch[c];
            }
        }
    }
}
