package org.nectl.core.dynamics;

/**
 * The pose of every body in the base frame at given joint positions, for callers outside the
 * dynamics package (e.g. a simulator turning a base-frame load into a body-frame wrench).
 * Not thread safe: one instance per thread. Every method is real-time safe.
 */
public final class BaseFramePoses
{
    private final JointTransforms joints;
    /** 0R_j at the last {@link #compute}: body j's axes in the base frame, 9 per body, row-major. */
    private final double[] rotation;
    /** Body origins in the base frame, m, 3 per body: written with the rotations, not read. */
    private final double[] origin;

    /**
     * Not real-time safe: allocates the workspace.
     */
    public BaseFramePoses(final CompiledModel model)
    {
        joints = new JointTransforms(model);
        rotation = new double[9 * model.bodyCount];
        origin = new double[3 * model.bodyCount];
    }

    /** Computes every body's pose at q (rad or m). */
    public void compute(final double[] q)
    {
        joints.update(q);
        joints.basePoses(rotation, origin);
    }

    /** Expresses a base-frame 3-vector v in the body's frame at the last {@link #compute}: out = 0R^T v, may be v. */
    public void toBody(final int body, final double[] v, final double[] out)
    {
        Vec3.multiplyTransposed(rotation, 9 * body, v, 0, out, 0);
    }
}
