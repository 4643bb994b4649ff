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
    /** The base's pose in the base frame: rotation (row-major) and origin. */
    private static final double[] BASE_ROTATION = {1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0};
    private static final double[] BASE_ORIGIN = new double[3];
    /** sin q, cos q of the joint being updated. */
    private final double[] sineCosine = new double[2];

    /** Not real-time safe: allocates the arrays at q = 0 (the placements, which stay where q moves nothing). */
    JointTransforms(final CompiledModel model)
    {
        this.model = model;
        rotation = model.placementRotation.clone();
        position = model.placementTranslation.clone();
    }

    /** Sets every joint transform to the joint positions q (by coordinate, rad or m). Real-time safe. */
    void update(final double[] q)
    {
        model.jointTransforms(q, rotation, position, sineCosine);
    }

    /**
     * Every body's pose in the base frame from these joint transforms, parents first:
     * 0R_i = 0R_p pR_i (into rot, 9 per body, row-major, columns = body axes in the base frame),
     * 0p_i = 0p_p + 0R_p pp_i (into org, m, 3 per body), on locals, each result stored once. Real-time safe.
     */
    void basePoses(final double[] rot, final double[] org)
    {
        final double[] jr = rotation;
        final double[] jp = position;
        final int[] parent = model.parent;
        for (int i = 0; i < model.bodyCount; i++)
        {
            final int p = parent[i];
            final int r = 9 * i;
            final int t = 3 * i;
            final double j00 = jr[r];
            final double j01 = jr[r + 1];
            final double j02 = jr[r + 2];
            final double j10 = jr[r + 3];
            final double j11 = jr[r + 4];
            final double j12 = jr[r + 5];
            final double j20 = jr[r + 6];
            final double j21 = jr[r + 7];
            final double j22 = jr[r + 8];
            final double lx = jp[t];
            final double ly = jp[t + 1];
            final double lz = jp[t + 2];
            // the base's pose is the identity: products with it are exact
            final double[] from = p < 0 ? BASE_ROTATION : rot;
            final double[] fromOrigin = p < 0 ? BASE_ORIGIN : org;
            final int rp = p < 0 ? 0 : 9 * p;
            final int tp = p < 0 ? 0 : 3 * p;
            final double p00 = from[rp];
            final double p01 = from[rp + 1];
            final double p02 = from[rp + 2];
            final double p10 = from[rp + 3];
            final double p11 = from[rp + 4];
            final double p12 = from[rp + 5];
            final double p20 = from[rp + 6];
            final double p21 = from[rp + 7];
            final double p22 = from[rp + 8];
            final double r00 = p00 * j00 + p01 * j10 + p02 * j20;
            final double r01 = p00 * j01 + p01 * j11 + p02 * j21;
            final double r02 = p00 * j02 + p01 * j12 + p02 * j22;
            final double r10 = p10 * j00 + p11 * j10 + p12 * j20;
            final double r11 = p10 * j01 + p11 * j11 + p12 * j21;
            final double r12 = p10 * j02 + p11 * j12 + p12 * j22;
            final double r20 = p20 * j00 + p21 * j10 + p22 * j20;
            final double r21 = p20 * j01 + p21 * j11 + p22 * j21;
            final double r22 = p20 * j02 + p21 * j12 + p22 * j22;
            final double ox = fromOrigin[tp] + p00 * lx + p01 * ly + p02 * lz;
            final double oy = fromOrigin[tp + 1] + p10 * lx + p11 * ly + p12 * lz;
            final double oz = fromOrigin[tp + 2] + p20 * lx + p21 * ly + p22 * lz;
            rot[r] = r00;
            rot[r + 1] = r01;
            rot[r + 2] = r02;
            rot[r + 3] = r10;
            rot[r + 4] = r11;
            rot[r + 5] = r12;
            rot[r + 6] = r20;
            rot[r + 7] = r21;
            rot[r + 8] = r22;
            org[t] = ox;
            org[t + 1] = oy;
            org[t + 2] = oz;
        }
    }
}
