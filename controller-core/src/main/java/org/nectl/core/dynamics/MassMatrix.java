package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.RobotModel;

/**
 * The joint-space inertia matrix M(q) of a tree by the composite-rigid-body algorithm (Featherstone,
 * "Rigid Body Dynamics Algorithms", 2008, §6.2, Table 6.2), rotor inertias Ia added to the diagonal
 * (Khalil, "Dynamic modeling of robots using recursive Newton-Euler techniques", ICINCO 2010,
 * eq. 31), in Khalil's body frames: one backward pass that, per body i, takes F = Ic_i S_i up the
 * path to the base (M_ij is the z component of F's moment, or of its force for a prismatic joint
 * j, in frame j, because S_j is frame j's unit z) and carries the composite inertia Ic_i into its
 * parent's frame.
 *
 * <p>Why body frames and not the base frame (where composites add without transforms and M_ij is a
 * 6-term dot product, as {@link BaseFrameBodies} would give): the base frame needs every body's pose,
 * axis and inertia about the base origin, about 93 multiplications per body, 0.42 x RNEA on the
 * Panda. Here each step rotates by iR_j = P_j Rot(z, q_j), and where the placement rotation P_j is
 * Rot(x, alpha) with alpha a multiple of pi/2 (modified Denavit-Hartenberg with alpha in {0, +-pi/2,
 * pi} and gamma = 0: every joint of most arms) P_j only permutes and negates components, so a step
 * costs the rotation about z alone: 4 multiplications per vector and about 10 (by double angles)
 * per symmetric inertia. Other placements take the general 3x3 rotation. Measured against nectl's
 * RNEA in one JVM: see docs/PERFORMANCE.md, "Mass matrix against RNEA".
 *
 * <p>Why this method and not n inverse-dynamics calls with unit accelerations (Khalil 2010,
 * §3.3.1, "mass matrix by RNEA columns"): CRBA costs one pass plus a force transform per (joint,
 * ancestor) pair, while the column method costs dof full Newton-Euler passes (5.5x slower on the
 * Panda, 23x on tree-32; docs/PERFORMANCE.md).
 *
 * <p>Not thread safe: use one instance per thread. {@link #compute} is real-time safe.
 */
public final class MassMatrix
{
    /** P = Rot(x, alpha) for alpha = 0, pi/2, -pi/2, pi: a signed permutation of (y, z). */
    private static final int X0 = 0;
    private static final int X90 = 1;
    private static final int X270 = 2;
    private static final int X180 = 3;
    /** Any other placement rotation. */
    private static final int GENERAL = 4;
    /** Entries of P farther than this from 0 or +-1 make it GENERAL (cos(pi/2) rounds to 6.1e-17). */
    private static final double EXACT = 1e-15;

    private final CompiledModel tree;
    /** sin q, cos q per body (0, 1 for a joint that does not rotate). */
    private final double[] sineCosine;
    /** iR_j per body, 9 each, kept up to date only for GENERAL placements. */
    private final double[] rotation;
    /** iP_j per body, 3 each (moves with a prismatic joint). */
    private final double[] position;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    /** Placement kind per body: X0 ... GENERAL. */
    private final int[] twist;
    /** Inertia about the body origin, upper triangle (xx, xy, xz, yy, yz, zz) per body. */
    private final double[] inertiaUpper;
    /** False for a body whose subtree has no mass (a flange): its composite is zero, nothing to carry. */
    private final boolean[] carries;
    /** True if some joints lie on different branches: their entries are zeros no path writes. */
    private final boolean branched;
    /** Composite mass per body, kg. */
    private final double[] compositeMass;
    /** Composite first moment per body, own frame, kg m, 3 per body. */
    private final double[] compositeFirstMoment;
    /** Composite inertia about the own origin, own frame, upper triangle, 6 per body. */
    private final double[] compositeInertia;
    /** A composite's first moment (3) and inertia (6, upper triangle) rotated into the parent's axes (general placements). */
    private final double[] rotated = new double[9];

    /**
     * Compiles the model for this instance alone; share one {@link CompiledModel} between
     * algorithms instead where several run on the same robot. Not real-time safe.
     *
     * @param model the robot.
     */
    public MassMatrix(final RobotModel model)
    {
        this(CompiledModel.of(model));
    }

    /**
     * Not real-time safe: allocates the workspace, sized from the model.
     *
     * @param model the compiled robot.
     */
    public MassMatrix(final CompiledModel model)
    {
        tree = model;
        final int count = tree.bodyCount;
        twist = new int[count];
        inertiaUpper = new double[6 * count];
        final int[] upper = {0, 1, 2, 4, 5, 8};
        for (int i = 0; i < count; i++)
        {
            twist[i] = twistOf(model.robot().placementRotation(i));
            for (int e = 0; e < 6; e++)
            {
                inertiaUpper[6 * i + e] = tree.inertia[9 * i + upper[e]];
            }
        }
        branched = branched(tree);
        carries = new boolean[count];
        for (int i = count - 1; i >= 0; i--)
        {
            carries[i] |= tree.mass[i] != 0.0 || Arrays.stream(inertiaUpper, 6 * i, 6 * i + 6).anyMatch(v -> v != 0.0);
            if (carries[i] && tree.parent[i] >= 0)
            {
                carries[tree.parent[i]] = true;
            }
        }
        placementRotation = model.placementRotation;
        placementTranslation = model.placementTranslation;
        rotation = placementRotation.clone();
        position = placementTranslation.clone();
        sineCosine = new double[2 * count];
        for (int i = 0; i < count; i++)
        {
            sineCosine[2 * i + 1] = 1.0;
        }
        compositeMass = new double[count];
        compositeFirstMoment = new double[3 * count];
        compositeInertia = new double[6 * count];
    }

    /** @return number of generalised coordinates: M is dof x dof. */
    public int dof()
    {
        return tree.dof;
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
        final int count = tree.bodyCount;
        System.arraycopy(tree.mass, 0, compositeMass, 0, count);
        System.arraycopy(tree.firstMoment, 0, compositeFirstMoment, 0, 3 * count);
        System.arraycopy(inertiaUpper, 0, compositeInertia, 0, 6 * count);
        if (branched)
        {
            // no path-to-base loop writes these: one contiguous fill beats scattering zeros by index
            Arrays.fill(massMatrix, 0, tree.dof * tree.dof, 0.0);
        }
        // children come after their parent: each composite is complete when its body is reached
        for (int i = count - 1; i >= 0; i--)
        {
            if (tree.coordinate[i] >= 0)
            {
                row(i, massMatrix);
            }
            if (tree.parent[i] >= 0 && carries[i])
            {
                carryToParent(i);
            }
        }
    }

    /**
     * sin q and cos q of every revolute joint, iR_j = P_j Rot(z, q) only where P_j is GENERAL, iP_j
     * of every prismatic joint: {@link JointTransforms#update} would build every iR_j, which the
     * signed-permutation steps never read (Panda: 0.93 against 1.04 x RNEA with it).
     */
    private void jointTransforms(final double[] q)
    {
        final double[] sc = sineCosine;
        for (int j = 0; j < tree.bodyCount; j++)
        {
            final int sigma = tree.sigma[j];
            if (sigma == CompiledModel.REVOLUTE)
            {
                SineCosine.of(q[tree.coordinate[j]], sc, 2 * j);
                if (twist[j] == GENERAL)
                {
                    rotateAboutZ(j, sc[2 * j], sc[2 * j + 1]);
                }
            }
            else if (sigma == CompiledModel.PRISMATIC)
            {
                final double d = q[tree.coordinate[j]];
                final int r = 9 * j;
                final int t = 3 * j;
                position[t] = placementTranslation[t] + d * placementRotation[r + 2];
                position[t + 1] = placementTranslation[t + 1] + d * placementRotation[r + 5];
                position[t + 2] = placementTranslation[t + 2] + d * placementRotation[r + 8];
            }
        }
    }

    /** rotation_j = P_j Rot(z, q). */
    private void rotateAboutZ(final int j, final double s, final double c)
    {
        CompiledModel.rotateAboutZ(placementRotation, rotation, j, s, c);
    }

    /**
     * Joint i's row: F = Ic_i S_i in frame i, M_ii = S_i . F + Ia, then F carried up and M_ij =
     * M_ji = S_j . F picked in each movable ancestor's frame (Table 6.2). One method of about 90
     * lines because F = (f, n) stays on locals through the whole climb: carried through an array
     * between smaller methods, the pass measured 1.21 x RNEA on the Panda against 1.09.
     */
    private void row(final int i, final double[] massMatrix)
    {
        final int n = tree.dof;
        final int ci = tree.coordinate[i];
        final int[] parent = tree.parent;
        final double[] r = rotation;
        final double[] t = position;
        final double[] sc = sineCosine;
        final double[] h = compositeFirstMoment;
        final double[] j = compositeInertia;
        // S_i = (0, z): f = -h x z, n = J z (J's third column); S_i = (z, 0): f = m z, n = h x z
        final boolean revolute = tree.sigma[i] == CompiledModel.REVOLUTE;
        double fx = revolute ? -h[3 * i + 1] : 0.0;
        double fy = revolute ? h[3 * i] : 0.0;
        double fz = revolute ? 0.0 : compositeMass[i];
        double nx = revolute ? j[6 * i + 2] : h[3 * i + 1];
        double ny = revolute ? j[6 * i + 4] : -h[3 * i];
        double nz = revolute ? j[6 * i + 5] : 0.0;
        massMatrix[ci * n + ci] = (revolute ? nz : fz) + tree.rotorInertia[ci];
        for (int a = i; parent[a] >= 0; a = parent[a])
        {
            // f' = iR_a f, n' = iR_a n + iP_a x f' (Khalil 2010, eqs. 28 and 30)
            final int o = 9 * a;
            final int k = twist[a];
            if (k == GENERAL)
            {
                final double gx = r[o] * fx + r[o + 1] * fy + r[o + 2] * fz;
                final double gy = r[o + 3] * fx + r[o + 4] * fy + r[o + 5] * fz;
                final double gz = r[o + 6] * fx + r[o + 7] * fy + r[o + 8] * fz;
                final double mx = r[o] * nx + r[o + 1] * ny + r[o + 2] * nz;
                final double my = r[o + 3] * nx + r[o + 4] * ny + r[o + 5] * nz;
                final double mz = r[o + 6] * nx + r[o + 7] * ny + r[o + 8] * nz;
                fx = gx;
                fy = gy;
                fz = gz;
                nx = mx;
                ny = my;
                nz = mz;
            }
            else
            {
                // iR_a = Rot(x, alpha) Rot(z, q): Rot(x, alpha) permutes and negates (y, z)
                final double s = sc[2 * a];
                final double c = sc[2 * a + 1];
                final double gx = c * fx - s * fy;
                final double gy = s * fx + c * fy;
                final double mx = c * nx - s * ny;
                final double my = s * nx + c * ny;
                fx = gx;
                nx = mx;
                switch (k)
                {
                    case X0 ->
                    {
                        fy = gy;
                        ny = my;
                    }
                    case X90 ->
                    {
                        fy = -fz;
                        fz = gy;
                        ny = -nz;
                        nz = my;
                    }
                    case X270 ->
                    {
                        fy = fz;
                        fz = -gy;
                        ny = nz;
                        nz = -my;
                    }
                    default ->
                    {
                        fy = -gy;
                        fz = -fz;
                        ny = -my;
                        nz = -nz;
                    }
                }
            }
            final int b = 3 * a;
            nx += t[b + 1] * fz - t[b + 2] * fy;
            ny += t[b + 2] * fx - t[b] * fz;
            nz += t[b] * fy - t[b + 1] * fx;
            final int p = parent[a];
            final int cp = tree.coordinate[p];
            if (cp >= 0)
            {
                // S_p . F in frame p
                final double mij = tree.sigma[p] == CompiledModel.REVOLUTE ? nz : fz;
                massMatrix[ci * n + cp] = mij;
                massMatrix[cp * n + ci] = mij;
            }
        }
    }

    /**
     * Body i's composite rotated into its parent's axes, R h and R J R^T with R = iR_i, then added
     * to the parent's ({@link #addToParent}). On locals, as in {@link #row}.
     */
    private void carryToParent(final int i)
    {
        final int k = twist[i];
        if (k == GENERAL)
        {
            rotateGeneral(i);
            final double[] g = rotated;
            addToParent(i, g[0], g[1], g[2], g[3], g[4], g[5], g[6], g[7], g[8]);
            return;
        }
        final double s = sineCosine[2 * i];
        final double c = sineCosine[2 * i + 1];
        final double[] h = compositeFirstMoment;
        final double[] j = compositeInertia;
        final int b = 6 * i;
        // Rot(z) J Rot(z)^T by double angles: xx, yy = sigma +- (C2 delta - S2 xy), xy = S2 delta + C2 xy
        final double c2 = c * c - s * s;
        final double s2 = 2.0 * c * s;
        final double sigma = 0.5 * (j[b] + j[b + 3]);
        final double delta = 0.5 * (j[b] - j[b + 3]);
        final double xx = sigma + c2 * delta - s2 * j[b + 1];
        final double hx = c * h[3 * i] - s * h[3 * i + 1];
        double hy = s * h[3 * i] + c * h[3 * i + 1];
        double hz = h[3 * i + 2];
        double xy = s2 * delta + c2 * j[b + 1];
        double xz = c * j[b + 2] - s * j[b + 4];
        double yy = sigma - c2 * delta + s2 * j[b + 1];
        double yz = s * j[b + 2] + c * j[b + 4];
        double zz = j[b + 5];
        // then Rot(x, alpha): (y, z) -> (y, z), (-z, y), (z, -y) or (-y, -z)
        switch (k)
        {
            case X0 ->
            {
            }
            case X90 ->
            {
                final double y = hy;
                hy = -hz;
                hz = y;
                final double x = xy;
                xy = -xz;
                xz = x;
                final double d = yy;
                yy = zz;
                zz = d;
                yz = -yz;
            }
            case X270 ->
            {
                final double y = hy;
                hy = hz;
                hz = -y;
                final double x = xy;
                xy = xz;
                xz = -x;
                final double d = yy;
                yy = zz;
                zz = d;
                yz = -yz;
            }
            default ->
            {
                hy = -hy;
                hz = -hz;
                xy = -xy;
                xz = -xz;
            }
        }
        addToParent(i, hx, hy, hz, xx, xy, xz, yy, yz, zz);
    }

    /**
     * Ic_parent += X* Ic_i X given body i's composite already in the parent's axes (first moment h,
     * inertia J about body i's origin): moved to the parent's origin t = iP_i by the parallel-axis
     * theorem (Featherstone 2008, eq. 2.66, in 3D quantities), h_p += h + m t and J_p += J +
     * (m |t|^2 + 2 t.h) 1 - (m t t^T + t h^T + h t^T).
     */
    private void addToParent(final int i, final double hx, final double hy, final double hz, final double xx,
        final double xy, final double xz, final double yy, final double yz, final double zz)
    {
        final double[] t = position;
        final double m = compositeMass[i];
        final double tx = t[3 * i];
        final double ty = t[3 * i + 1];
        final double tz = t[3 * i + 2];
        final double mx = m * tx;
        final double my = m * ty;
        final double mz = m * tz;
        final double d = mx * tx + my * ty + mz * tz + 2.0 * (tx * hx + ty * hy + tz * hz);
        final int p = tree.parent[i];
        final double[] j = compositeInertia;
        final int e = 6 * p;
        j[e] += xx + d - mx * tx - 2.0 * tx * hx;
        j[e + 1] += xy - mx * ty - tx * hy - hx * ty;
        j[e + 2] += xz - mx * tz - tx * hz - hx * tz;
        j[e + 3] += yy + d - my * ty - 2.0 * ty * hy;
        j[e + 4] += yz - my * tz - ty * hz - hy * tz;
        j[e + 5] += zz + d - mz * tz - 2.0 * tz * hz;
        compositeMass[p] += m;
        compositeFirstMoment[3 * p] += hx + mx;
        compositeFirstMoment[3 * p + 1] += hy + my;
        compositeFirstMoment[3 * p + 2] += hz + mz;
    }

    /** rotated = (R h, R J R^T) with R = iR_i any rotation: A = R J, then A R^T's upper triangle. */
    private void rotateGeneral(final int i)
    {
        final double[] r = rotation;
        final int b = 6 * i;
        final int o = 9 * i;
        final double[] j = compositeInertia;
        final double[] g = rotated;
        Vec3.multiply(r, o, compositeFirstMoment, 3 * i, g, 0);
        for (int row = 0; row < 3; row++)
        {
            final double r0 = r[o + 3 * row];
            final double r1 = r[o + 3 * row + 1];
            final double r2 = r[o + 3 * row + 2];
            final double a0 = r0 * j[b] + r1 * j[b + 1] + r2 * j[b + 2];
            final double a1 = r0 * j[b + 1] + r1 * j[b + 3] + r2 * j[b + 4];
            final double a2 = r0 * j[b + 2] + r1 * j[b + 4] + r2 * j[b + 5];
            // upper-triangle slots of this row: (0: 3, 4, 5), (1: 6, 7), (2: 8)
            for (int col = row; col < 3; col++)
            {
                final int slot = 3 + (row == 0 ? col : row == 1 ? 2 + col : 5);
                g[slot] = a0 * r[o + 3 * col] + a1 * r[o + 3 * col + 1] + a2 * r[o + 3 * col + 2];
            }
        }
    }

    /** @return the placement kind of a row-major placement rotation P. */
    private static int twistOf(final double[] p)
    {
        final boolean xFixed = near(p[0], 1.0) && near(p[1], 0.0) && near(p[2], 0.0) && near(p[3], 0.0)
            && near(p[6], 0.0);
        if (!xFixed)
        {
            return GENERAL;
        }
        // Rot(x, alpha) = [[1, 0, 0], [0, c, -s], [0, s, c]]
        final double c = p[8];
        final double s = p[7];
        if (near(c, 1.0) && near(s, 0.0) && near(p[4], 1.0) && near(p[5], 0.0))
        {
            return X0;
        }
        if (near(c, 0.0) && near(s, 1.0) && near(p[4], 0.0) && near(p[5], -1.0))
        {
            return X90;
        }
        if (near(c, 0.0) && near(s, -1.0) && near(p[4], 0.0) && near(p[5], 1.0))
        {
            return X270;
        }
        if (near(c, -1.0) && near(s, 0.0) && near(p[4], -1.0) && near(p[5], 0.0))
        {
            return X180;
        }
        return GENERAL;
    }

    private static boolean near(final double value, final double target)
    {
        return Math.abs(value - target) <= EXACT;
    }

    /** @return true if two coordinates' bodies lie on different branches (neither supports the other). */
    private static boolean branched(final CompiledModel tree)
    {
        for (int a = 0; a < tree.dof; a++)
        {
            for (int b = 0; b < tree.dof; b++)
            {
                if (!supports(tree, tree.bodyOfCoordinate[a], tree.bodyOfCoordinate[b])
                    && !supports(tree, tree.bodyOfCoordinate[b], tree.bodyOfCoordinate[a]))
                {
                    return true;
                }
            }
        }
        return false;
    }

    private static boolean supports(final CompiledModel tree, final int ancestor, final int body)
    {
        int j = body;
        while (j > ancestor)
        {
            j = tree.parent[j];
        }
        return j == ancestor;
    }
}
