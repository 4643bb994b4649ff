package org.nectl.core.dynamics;

/**
 * The per-q half of a {@link CompiledModel}: every joint transform iR_j, iP_j at the last
 * {@link #update}. Not thread safe: one instance per algorithm instance.
 */
final class JointTransforms
{
    final CompiledModel model;
    /** iR_j at the last {@link #update}: 9 per body, row-major; columns are body j's axes in the parent frame. */
    final double[] rotation;
    /** iP_j at the last {@link #update}: body j's origin in the parent frame, m, 3 per body. */
    final double[] position;
    /** sin q, cos q of the joint being updated. */
    private final double[] sineCosine = new double[2];

    /** Not real-time safe: allocates the arrays. */
    JointTransforms(final CompiledModel model)
    {
        this.model = model;
        rotation = model.newJointRotations();
        position = model.newJointPositions();
    }

    /**
     * Sets every joint transform to the given positions. Real-time safe.
     *
     * @param q joint positions by coordinate, rad or m.
     */
    void update(final double[] q)
    {
        model.jointTransforms(q, rotation, position, sineCosine);
    }
}
