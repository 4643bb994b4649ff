package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * The joint-space inertia matrix M(q) of a tree by the composite-rigid-body algorithm (Featherstone,
 * "Rigid Body Dynamics Algorithms", 2008, §6.2, Table 6.2), rotor inertias Ia added to the diagonal
 * (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010,
 * eq. 31), in Khalil's body frames, over the moving bodies only ({@link MovingLinks}: fixed joints
 * such as mounts and flanges folded into their moving ancestor at construction), as two
 * passes over flat arrays:
 * <ol>
 * <li>{@link #composites}, leaves first: Ic_parent += X* Ic_i X, each composite (first moment and
 * inertia about the body origin, 3 + 6 numbers; the composite mass does not depend on q and is
 * computed once) turned by Rot(z, q_i), moved to the parent's origin and turned by the placement;</li>
 * <li>{@link #rows}: per joint i, F = Ic_i S_i (a pick of components, S_i being frame i's unit z),
 * carried up the path to the base, F' = X* F, and M_ij = M_ji = S_j . F read in each movable
 * ancestor j's frame (the z component of F's moment, or of its force for a prismatic joint).</li>
 * </ol>
 *
 * <p>Body frames, not Pinocchio's world frame: about 40 multiplications per body and 14 per
 * (joint, ancestor) pair against about 90 per body (docs/PERFORMANCE.md). Each step turns by iR_j = P_j Rot(z, q_j);
 * P_j = Rot(x, alpha) (modified Denavit-Hartenberg) with alpha a multiple of pi/2 only permutes and
 * negates y and z, other placements take a general 3x3 rotation. iP_j = P_j t_j is used as t_j,
 * constant for a revolute joint (so are m t and m t t^T), moving along z for a prismatic one.
 *
 * <p>Two passes of one loop each, no per-body methods (too large to inline), only sin and cos per
 * joint (docs/PERFORMANCE.md, "Mass matrix against RNEA"). CRBA, not dof RNEA columns (Khalil 2010,
 * §3.3.1): 5.5x faster on the Panda, 23x on tree-32 (docs/PERFORMANCE.md).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MassMatrix
{
    /** Placement Rot(x, alpha) with alpha = 0, pi/2, -pi/2, pi: a signed permutation of (y, z). */
    private static final int X0 = 0;
    private static final int X90 = 1;
    private static final int X270 = 2;
    private static final int X180 = 3;
    /** Placement Rot(x, alpha), any other alpha (x kept, y and z turned). */
    private static final int TWIST = 4;
    /** Any other placement rotation. */
    private static final int GENERAL = 5;
    /** Entries of P farther than this from 0 or +-1 make it not a signed permutation (cos(pi/2) rounds to 6.1e-17). */
    private static final double EXACT = 1e-15;

    /** The moving bodies, fixed joints folded in; arrays below are per link. */
    private final MovingLinks links;
    /** Rotor inertia Ia per coordinate. */
    private final double[] rotorInertia;
    /** Placement kind per link: X0 ... GENERAL. */
    private final int[] kind;
    /** Placement rotation P_k per link, 9 each, row-major (link k's axes at q = 0 in the parent link's frame). */
    private final double[] placement;
    /** For a signed-permutation placement, where y before it lands in the parent frame (1: y, 2: z; z lands in the other). */
    private final int[] yTarget;
    /** The signs y and z take there. */
    private final double[] ySign;
    private final double[] zSign;
    /** Link origin in the parent link's frame, in the axes before the placement rotation (P_k^T t_k), m, 3 per link. */
    private final double[] offset;
    /** The same at q = 0 (a prismatic joint moves it along z). */
    private final double[] offsetAtZero;
    /** sin q, cos q per link (0, 1 for a prismatic joint). */
    private final double[] sineCosine;
    /** Composite mass per link, kg: constant, since a subtree's mass does not move. */
    private final double[] compositeMass;
    /** Composite first moment per link, own frame, kg m, 3 per link. */
    private final double[] compositeFirstMoment;
    /** Composite inertia about the own origin, own frame, upper triangle, 6 per link. */
    private final double[] compositeInertia;
    /** m t per link (m the composite mass, t = {@link #offset}): the first-moment shift to the parent's origin. */
    private final double[] shiftFirstMoment;
    /** m (|t|^2 1 - t t^T) per link, upper triangle: the part of the inertia shift that q moves only through t. */
    private final double[] shiftInertia;
    /** True if some joints lie on different branches: their entries are zeros no path writes. */
    private final boolean branched;

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     */
    public MassMatrix(final CompiledModel tree)
    {
        links = new MovingLinks(tree);
        rotorInertia = tree.rotorInertia;
        final int count = links.count;
        placement = links.placementRotation;
        kind = new int[count];
        yTarget = new int[count];
        ySign = new double[count];
        zSign = new double[count];
        offsetAtZero = new double[3 * count];
        for (int k = 0; k < count; k++)
        {
            // Rot(x, alpha) (y, z) = (c y - s z, s y + c z), c and s in {0, +-1}
            final double c = Math.rint(placement[9 * k + 8]);
            final double s = Math.rint(placement[9 * k + 7]);
            kind[k] = kindOf(placement, 9 * k, c, s);
            final boolean kept = c != 0.0;
            yTarget[k] = kept ? 1 : 2;
            ySign[k] = kept ? c : s;
            zSign[k] = kept ? c : -s;
            Vec3.multiplyTransposed(placement, 9 * k, links.placementTranslation, 3 * k, offsetAtZero, 3 * k);
        }
        offset = offsetAtZero.clone();
        compositeMass = links.mass.clone();
        for (int k = count - 1; k >= 0; k--)
        {
            if (links.parent[k] >= 0)
            {
                compositeMass[links.parent[k]] += compositeMass[k];
            }
        }
        sineCosine = new double[2 * count];
        compositeFirstMoment = new double[3 * count];
        compositeInertia = new double[6 * count];
        shiftFirstMoment = new double[3 * count];
        shiftInertia = new double[6 * count];
        boolean offChain = false;
        for (int k = 0; k < count; k++)
        {
            sineCosine[2 * k + 1] = 1.0;
            shiftTerms(k);
            // in a chain every link's parent is the link before it
            offChain |= links.parent[k] != k - 1;
        }
        branched = offChain;
    }

    /**
     * Computes M(q). Real-time safe: allocates nothing.
     *
     * @param q joint positions by coordinate, rad or m.
     * @param massMatrix output, dof x dof row-major, kg m^2 / kg / kg m by joint kinds.
     */
    public void compute(final double[] q, final double[] massMatrix)
    {
        jointTransforms(q);
        composites();
        rows(massMatrix);
    }

    /**
     * sin q and cos q of every revolute joint and the offset of every prismatic one, which moves
     * along z of the axes before the placement rotation: no rotation matrices, which no step reads.
     */
    private void jointTransforms(final double[] q)
    {
        final double[] sc = sineCosine;
        for (int k = 0; k < links.count; k++)
        {
            if (links.revolute[k])
            {
                SineCosine.of(q[links.coordinate[k]], sc, 2 * k);
            }
            else
            {
                offset[3 * k + 2] = offsetAtZero[3 * k + 2] + q[links.coordinate[k]];
                shiftTerms(k);
            }
        }
    }

    /** m t and m (|t|^2 1 - t t^T) of body i from its composite mass and {@link #offset}. */
    private void shiftTerms(final int i)
    {
        final double m = compositeMass[i];
        final double tx = offset[3 * i];
        final double ty = offset[3 * i + 1];
        final double tz = offset[3 * i + 2];
        final double mx = m * tx;
        final double my = m * ty;
        final double mz = m * tz;
        shiftFirstMoment[3 * i] = mx;
        shiftFirstMoment[3 * i + 1] = my;
        shiftFirstMoment[3 * i + 2] = mz;
        final int e = 6 * i;
        shiftInertia[e] = my * ty + mz * tz;
        shiftInertia[e + 1] = -mx * ty;
        shiftInertia[e + 2] = -mx * tz;
        shiftInertia[e + 3] = mx * tx + mz * tz;
        shiftInertia[e + 4] = -my * tz;
        shiftInertia[e + 5] = mx * tx + my * ty;
    }

    /**
     * Composite inertias, leaves first (Table 6.2): Ic_parent += X* Ic_i X. Link i's composite
     * (first moment h, inertia J about its origin) turned by Rot(z, q_i) (J by double angles), moved
     * to the parent's origin by the parallel-axis theorem (Featherstone 2008, eq. 2.66, in 3D
     * quantities: h += m t, J += (m |t|^2 + 2 t.h) 1 - (m t t^T + t h^T + h t^T)) in the axes before
     * the placement rotation (t = P^T iP_i), then added to the parent's through P: a signed
     * permutation of y and z (table look-ups) or any rotation ({@link #addRotated}).
     */
    private void composites()
    {
        final int[] parent = links.parent;
        final double[] h = compositeFirstMoment;
        final double[] j = compositeInertia;
        final double[] sc = sineCosine;
        final double[] t = offset;
        System.arraycopy(links.firstMoment, 0, h, 0, h.length);
        System.arraycopy(links.inertia, 0, j, 0, j.length);
        for (int i = links.count - 1; i >= 0; i--)
        {
            if (parent[i] < 0)
            {
                continue;
            }
            final double s = sc[2 * i];
            final double c = sc[2 * i + 1];
            final int b = 6 * i;
            final int a = 3 * i;
            final double c2 = c * c - s * s;
            final double s2 = 2.0 * c * s;
            final double sigma = 0.5 * (j[b] + j[b + 3]);
            final double delta = c2 * 0.5 * (j[b] - j[b + 3]) - s2 * j[b + 1];
            final double hx = c * h[a] - s * h[a + 1];
            final double hy = s * h[a] + c * h[a + 1];
            final double hz = h[a + 2];
            final double tx = t[a];
            final double ty = t[a + 1];
            final double tz = t[a + 2];
            final double[] k = shiftInertia;
            final double d = 2.0 * (tx * hx + ty * hy + tz * hz);
            final double xx = sigma + delta + k[b] + d - 2.0 * tx * hx;
            final double xy = s2 * 0.5 * (j[b] - j[b + 3]) + c2 * j[b + 1] + k[b + 1] - (tx * hy + hx * ty);
            final double xz = c * j[b + 2] - s * j[b + 4] + k[b + 2] - (tx * hz + hx * tz);
            final double yy = sigma - delta + k[b + 3] + d - 2.0 * ty * hy;
            final double yz = s * j[b + 2] + c * j[b + 4] + k[b + 4] - (ty * hz + hy * tz);
            final double zz = j[b + 5] + k[b + 5] + d - 2.0 * tz * hz;
            final double mx = hx + shiftFirstMoment[a];
            final double my = hy + shiftFirstMoment[a + 1];
            final double mz = hz + shiftFirstMoment[a + 2];
            final int p = parent[i];
            if (kind[i] >= TWIST)
            {
                addRotated(i, mx, my, mz, xx, xy, xz, yy, yz, zz);
                continue;
            }
            // a signed permutation of y and z: each component added where it lands, with its sign
            final int y = yTarget[i];
            final int z = 3 - y;
            final double sy = ySign[i];
            final double sz = zSign[i];
            h[3 * p] += mx;
            h[3 * p + y] += sy * my;
            h[3 * p + z] += sz * mz;
            final int e = 6 * p;
            j[e] += xx;
            j[e + y] += sy * xy;
            j[e + z] += sz * xz;
            j[e + 2 * y + 1] += yy;
            j[e + 2 * z + 1] += zz;
            j[e + 4] += sy * sz * yz;
        }
    }

    /** Adds (P h, P J P^T) to body i's parent, P = P_i any rotation: A = P J, then A P^T's upper triangle. */
    private void addRotated(final int i, final double hx, final double hy, final double hz, final double xx,
        final double xy, final double xz, final double yy, final double yz, final double zz)
    {
        final double[] r = placement;
        final int o = 9 * i;
        final int p = links.parent[i];
        final double[] jp = compositeInertia;
        for (int row = 0; row < 3; row++)
        {
            final double r0 = r[o + 3 * row];
            final double r1 = r[o + 3 * row + 1];
            final double r2 = r[o + 3 * row + 2];
            compositeFirstMoment[3 * p + row] += r0 * hx + r1 * hy + r2 * hz;
            final double a0 = r0 * xx + r1 * xy + r2 * xz;
            final double a1 = r0 * xy + r1 * yy + r2 * yz;
            final double a2 = r0 * xz + r1 * yz + r2 * zz;
            // upper-triangle slots of this row: (0: 0, 1, 2), (1: 3, 4), (2: 5)
            for (int col = row; col < 3; col++)
            {
                final int slot = row == 0 ? col : row == 1 ? 2 + col : 5;
                jp[6 * p + slot] += a0 * r[o + 3 * col] + a1 * r[o + 3 * col + 1] + a2 * r[o + 3 * col + 2];
            }
        }
    }

    /**
     * Every joint i's row: F = Ic_i S_i in frame i, M_ii = S_i . F + Ia, then F carried up and
     * M_ij = M_ji = S_j . F picked in each ancestor's frame (Table 6.2); with fixed joints folded
     * away every ancestor moves. F stays on locals in one loop: through an array or a non-inlined
     * step method it was slower (docs/PERFORMANCE.md).
     */
    private void rows(final double[] massMatrix)
    {
        final int n = links.count;
        final int[] parent = links.parent;
        final int[] coordinate = links.coordinate;
        final boolean[] revolute = links.revolute;
        final double[] h = compositeFirstMoment;
        final double[] j = compositeInertia;
        final double[] t = offset;
        final double[] sc = sineCosine;
        final double[] r = placement;
        if (branched)
        {
            // no climb writes these: one contiguous fill beats scattering zeros by index
            Arrays.fill(massMatrix, 0, n * n, 0.0);
        }
        for (int i = 0; i < n; i++)
        {
            final int ci = coordinate[i];
            // S_i = (0, z): f = -h x z, n = J z (J's third column); S_i = (z, 0): f = m z, n = h x z
            final boolean turns = revolute[i];
            double fx = turns ? -h[3 * i + 1] : 0.0;
            double fy = turns ? h[3 * i] : 0.0;
            double fz = turns ? 0.0 : compositeMass[i];
            double nx = turns ? j[6 * i + 2] : h[3 * i + 1];
            double ny = turns ? j[6 * i + 4] : -h[3 * i];
            double nz = turns ? j[6 * i + 5] : 0.0;
            massMatrix[ci * n + ci] = (turns ? nz : fz) + rotorInertia[ci];
            for (int a = i; parent[a] >= 0; a = parent[a])
            {
                // f' = iR_a f, n' = iR_a n + iP_a x f' (Khalil 2010, eqs. 28 and 30), iR_a = P_a Rot(z, q):
                // Rot(z, q) and the cross product in the axes before P_a, then P_a
                final double s = sc[2 * a];
                final double c = sc[2 * a + 1];
                final int b = 3 * a;
                final double gx = c * fx - s * fy;
                final double gy = s * fx + c * fy;
                final double mx = c * nx - s * ny + (t[b + 1] * fz - t[b + 2] * gy);
                final double my = s * nx + c * ny + (t[b + 2] * gx - t[b] * fz);
                final double mz = nz + (t[b] * gy - t[b + 1] * gx);
                switch (kind[a])
                {
                    case X0 -> { fx = gx; fy = gy; nx = mx; ny = my; nz = mz; }
                    case X90 -> { fx = gx; fy = -fz; fz = gy; nx = mx; ny = -mz; nz = my; }
                    case X270 -> { fx = gx; fy = fz; fz = -gy; nx = mx; ny = mz; nz = -my; }
                    case X180 -> { fx = gx; fy = -gy; fz = -fz; nx = mx; ny = -my; nz = -mz; }
                    default ->
                    {
                        final int o = 9 * a;
                        final double gz = fz;
                        fx = r[o] * gx + r[o + 1] * gy + r[o + 2] * gz;
                        fy = r[o + 3] * gx + r[o + 4] * gy + r[o + 5] * gz;
                        fz = r[o + 6] * gx + r[o + 7] * gy + r[o + 8] * gz;
                        nx = r[o] * mx + r[o + 1] * my + r[o + 2] * mz;
                        ny = r[o + 3] * mx + r[o + 4] * my + r[o + 5] * mz;
                        nz = r[o + 6] * mx + r[o + 7] * my + r[o + 8] * mz;
                    }
                }
                final int p = parent[a];
                final int cp = coordinate[p];
                final double mij = revolute[p] ? nz : fz;
                massMatrix[ci * n + cp] = mij;
                massMatrix[cp * n + ci] = mij;
            }
        }
    }

    /**
     * @return the placement kind of the row-major placement rotation P at p[o]; c and s are its
     * entries (2, 2) and (2, 1) rounded, Rot(x, alpha) being [[1, 0, 0], [0, c, -s], [0, s, c]].
     */
    private static int kindOf(final double[] p, final int o, final double c, final double s)
    {
        if (!(near(p[o], 1.0) && near(p[o + 1], 0.0) && near(p[o + 2], 0.0) && near(p[o + 3], 0.0) && near(p[o + 6], 0.0)))
        {
            return GENERAL;
        }
        if (Math.abs(c) + Math.abs(s) != 1.0 || !near(p[o + 4], c) || !near(p[o + 5], -s) || !near(p[o + 7], s)
            || !near(p[o + 8], c))
        {
            return TWIST;
        }
        return c == 1.0 ? X0 : c == -1.0 ? X180 : s == 1.0 ? X90 : X270;
    }

    private static boolean near(final double value, final double target)
    {
        return Math.abs(value - target) <= EXACT;
    }
}
