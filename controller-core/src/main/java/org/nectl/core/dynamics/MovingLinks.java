package org.nectl.core.dynamics;

import org.nectl.core.model.RobotModel;

/**
 * The moving bodies of a {@link RobotModel} with every fixed joint folded away, for algorithms that
 * need only the joint-space structure (the composite-rigid-body mass matrix): a fixed body's mass,
 * first moment and inertia are added to its nearest moving ancestor, constant-placed, and a moving
 * body's placement is composed through the fixed bodies between it and its nearest moving
 * ancestor. Mounts and flanges then cost nothing per call. A fixed body with no moving ancestor
 * (a mount on the base) and everything it carries that is not itself moving drop out: no joint
 * force depends on them.
 *
 * <p>Link k is the k-th moving body in body order, so {@code parent[k] < k}; -1 is a link whose
 * parent has no moving ancestor. Link frames are the bodies' frames; the joint axis is z.
 * Construction only: not real-time code; the arrays are read, never written, afterwards.
 */
final class MovingLinks
{
    /** Number of links: the degrees of freedom. */
    final int count;
    /** Parent link per link, -1 if none. */
    final int[] parent;
    /** Generalised coordinate per link. */
    final int[] coordinate;
    /** True for a revolute joint, false for a prismatic one. */
    final boolean[] revolute;
    /** Placement rotation per link in the parent link's frame, 9 each, row-major (see {@link RobotModel}). */
    final double[] placementRotation;
    /** Placement translation per link in the parent link's frame at q = 0, m, 3 each. */
    final double[] placementTranslation;
    /** Mass per link, the folded fixed bodies included, kg. */
    final double[] mass;
    /** First moment about the link origin, link axes, kg m, 3 each. */
    final double[] firstMoment;
    /** Inertia about the link origin, link axes, kg m^2, upper triangle (xx, xy, xz, yy, yz, zz), 6 each. */
    final double[] inertia;

    /** Not real-time safe: allocates. */
    MovingLinks(final CompiledModel tree)
    {
        count = tree.dof;
        parent = new int[count];
        coordinate = new int[count];
        revolute = new boolean[count];
        placementRotation = new double[9 * count];
        placementTranslation = new double[3 * count];
        mass = new double[count];
        firstMoment = new double[3 * count];
        inertia = new double[6 * count];
        final double[] rotations = tree.placementRotation;
        final double[] translations = tree.placementTranslation;
        final int bodies = tree.bodyCount;
        // per body: its nearest moving ancestor-or-self and the body's constant pose in that link's frame
        final int[] linkOf = new int[bodies];
        final double[] toLinkRotation = new double[9 * bodies];
        final double[] toLinkTranslation = new double[3 * bodies];
        int next = 0;
        for (int b = 0; b < bodies; b++)
        {
            final int p = tree.parent[b];
            final int above = p < 0 ? -1 : linkOf[p];
            // the joint's placement in the frame of the link above: pose of p in it, then the placement
            final double[] r = new double[9];
            final double[] t = new double[3];
            compose(toLinkRotation, toLinkTranslation, p < 0 || above < 0 ? -1 : p, rotations, translations, b, r, t);
            if (tree.coordinate[b] >= 0)
            {
                final int k = next++;
                linkOf[b] = k;
                parent[k] = above;
                coordinate[k] = tree.coordinate[b];
                revolute[k] = tree.sigma[b] == CompiledModel.REVOLUTE;
                System.arraycopy(r, 0, placementRotation, 9 * k, 9);
                System.arraycopy(t, 0, placementTranslation, 3 * k, 3);
                toLinkRotation[9 * b] = 1.0;
                toLinkRotation[9 * b + 4] = 1.0;
                toLinkRotation[9 * b + 8] = 1.0;
            }
            else
            {
                linkOf[b] = above;
                System.arraycopy(r, 0, toLinkRotation, 9 * b, 9);
                System.arraycopy(t, 0, toLinkTranslation, 3 * b, 3);
            }
            if (linkOf[b] >= 0)
            {
                addMoved(tree, b, toLinkRotation, toLinkTranslation, linkOf[b]);
            }
        }
    }

    /**
     * (r, t) = pose of body p in its link's frame (identity if p is -1, i.e. the link frame is the
     * parent's own) times body b's placement.
     */
    private static void compose(final double[] toLinkRotation, final double[] toLinkTranslation, final int p,
        final double[] rotations, final double[] translations, final int b, final double[] r, final double[] t)
    {
        if (p < 0)
        {
            System.arraycopy(rotations, 9 * b, r, 0, 9);
            System.arraycopy(translations, 3 * b, t, 0, 3);
            return;
        }
        for (int row = 0; row < 3; row++)
        {
            // row of A B = B^T (row of A)
            Vec3.multiplyTransposed(rotations, 9 * b, toLinkRotation, 9 * p + 3 * row, r, 3 * row);
        }
        Vec3.multiply(toLinkRotation, 9 * p, translations, 3 * b, t, 0);
        Vec3.add(toLinkTranslation, 3 * p, t, 0);
    }

    /**
     * Adds body b's inertial parameters, moved into link k's frame by the pose (R, p) of b in it:
     * h' = R h, then about the link origin h_k += h' + m p and J_k += R J R^T + (m |p|^2 + 2 p.h') 1
     * - (m p p^T + p h'^T + h' p^T) (Featherstone 2008, eq. 2.66, in 3D quantities).
     */
    private void addMoved(final CompiledModel tree, final int b, final double[] rotations, final double[] translations,
        final int k)
    {
        final double m = tree.mass[b];
        final int t = 3 * b;
        final double[] rotated = new double[3];
        Vec3.multiply(rotations, 9 * b, tree.firstMoment, t, rotated, 0);
        final double diagonal = m * Vec3.dot(translations, t, translations, t) + 2.0 * Vec3.dot(translations, t, rotated, 0);
        mass[k] += m;
        for (int row = 0; row < 3; row++)
        {
            final double pr = translations[t + row];
            firstMoment[3 * k + row] += rotated[row] + m * pr;
            for (int col = row; col < 3; col++)
            {
                double turned = 0.0;
                for (int e = 0; e < 3; e++)
                {
                    for (int f = 0; f < 3; f++)
                    {
                        turned += rotations[9 * b + 3 * row + e] * tree.inertia[9 * b + 3 * e + f]
                            * rotations[9 * b + 3 * col + f];
                    }
                }
                final double pc = translations[t + col];
                inertia[6 * k + (row == 0 ? col : row == 1 ? 2 + col : 5)] += turned + (row == col ? diagonal : 0.0)
                    - (m * pr * pc + pr * rotated[col] + rotated[row] * pc);
            }
        }
    }
}
