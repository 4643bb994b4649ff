package org.nectl.core.dynamics;

import java.util.Arrays;

/**
 * Every body's pose, joint axis, inertia and velocity expressed in the base frame, with spatial
 * quantities taken about the base origin, plus subtree (composite) sums of them. In this frame
 * the screw transforms between a body and its parent are the identity, so composite and
 * articulated inertias add without transformation (the base-coordinate variants of the
 * algorithms in Featherstone, "Rigid Body Dynamics Algorithms", 2008). Poses are composed from
 * the joint transforms ({@link JointTransforms#basePoses}), then each body's axis and inertia;
 * spatial vectors follow {@link SpatialAlgebra}. Not thread safe: one instance per algorithm.
 */
final class BaseFrameBodies
{
    final int bodyCount;
    final int dof;
    /** Parent body per body, -1 for the base. */
    final int[] parent;
    /** Coordinate index per body, -1 for a fixed joint. */
    final int[] coordinate;
    /** Body per coordinate. */
    final int[] bodyOfCoordinate;
    /** Mass per body, kg. */
    final double[] mass;

    /** Base-frame rotation of each body frame: 9 per body, row-major, columns = body axes in the base frame. */
    final double[] rotation;
    /** Body-frame origin in the base frame, m, 3 per body. */
    final double[] position;
    /** Joint motion subspace S (unit twist of the joint), base frame, 6 per body; zero for fixed joints. */
    final double[] axis;
    /** First moment h = m c about the base origin, base frame, kg m, 3 per body. */
    final double[] firstMoment;
    /** Inertia about the base origin, base frame, kg m^2, 9 per body, row-major. */
    final double[] inertia;
    /** Spatial velocity v_i = v_parent + S_i qd_i, base frame, 6 per body. */
    final double[] velocity;
    /** S_i-dot = v_i x S_i, the joint axis's time derivative, base frame, 6 per body (zero for fixed joints). */
    final double[] axisRate;
    /** The base's spatial velocity: at rest, unless a floating base sets its twist ({@link BaseFrameTree}). */
    final double[] baseVelocity = new double[6];

    /** Subtree mass, kg. */
    final double[] compositeMass;
    /** Subtree first moment about the base origin, base frame, kg m, 3 per body. */
    final double[] compositeFirstMoment;
    /** Subtree inertia about the base origin, base frame, kg m^2, 9 per body. */
    final double[] compositeInertia;
    /** Subtree linear momentum, base frame, kg m/s, 3 per body. */
    final double[] compositeMomentum;
    /**
     * Subtree sum of the lower-right block X of the velocity-coupling matrix B(v, I) (Carpentier and
     * Mansard, "Analytical derivatives of rigid body dynamics algorithms", RSS 2018, their B_i) with
     * B psi = I (psi x v) + psi x* (I v) + v x* (I psi) = [[0, -2 p^], [0, X]] psi, p being the
     * linear momentum; 9 per body, row-major.
     */
    final double[] compositeCoupling;

    /** Flat indices (row * dof + column) of the dof x dof entries whose joints lie on different branches. */
    private final int[] uncoupledEntries;
    final CompiledModel model;
    private final JointTransforms joints;

    /** Not real-time safe: allocates every array, sized from the model. */
    BaseFrameBodies(final CompiledModel model)
    {
        this.model = model;
        joints = new JointTransforms(model);
        bodyCount = model.bodyCount;
        dof = model.dof;
        parent = model.parent;
        coordinate = model.coordinate;
        bodyOfCoordinate = model.bodyOfCoordinate;
        mass = model.mass;
        rotation = new double[9 * bodyCount];
        position = new double[3 * bodyCount];
        axis = new double[6 * bodyCount];
        firstMoment = new double[3 * bodyCount];
        inertia = new double[9 * bodyCount];
        velocity = new double[6 * bodyCount];
        axisRate = new double[6 * bodyCount];
        compositeMass = new double[bodyCount];
        compositeFirstMoment = new double[3 * bodyCount];
        compositeInertia = new double[9 * bodyCount];
        compositeMomentum = new double[3 * bodyCount];
        compositeCoupling = new double[9 * bodyCount];
        uncoupledEntries = uncoupledEntries();
    }

    /** Forward pass: poses, joint axes and inertias in the base frame at q (rad or m). Real-time safe. */
    void placements(final double[] q)
    {
        joints.update(q);
        joints.basePoses(rotation, position);
        axesAndInertias();
    }

    /** Every body's joint axis S_i and its inertia about the base origin (h = m c_w, O), from its pose. */
    private void axesAndInertias()
    {
        for (int i = 0; i < bodyCount; i++)
        {
            final int r = 9 * i;
            final int t = 3 * i;
            final double r00 = rotation[r];
            final double r01 = rotation[r + 1];
            final double r02 = rotation[r + 2];
            final double r10 = rotation[r + 3];
            final double r11 = rotation[r + 4];
            final double r12 = rotation[r + 5];
            final double r20 = rotation[r + 6];
            final double r21 = rotation[r + 7];
            final double r22 = rotation[r + 8];
            final double ox = position[t];
            final double oy = position[t + 1];
            final double oz = position[t + 2];
            // S = (p x z, z) for a revolute joint, (z, 0) for a prismatic one, z = third column of 0R_i
            model.motionSubspace(i, r02, r12, r22, ox, oy, oz, axis, 6 * i);
            // h = m c_w and O = R Ic R^T + m (|c_w|^2 1 - c_w c_w^T), c_w = p + R c: the parallel-axis
            // theorem about the base origin, with R Ic R^T = lambda 1 + (R g)(R g)^T + (R k)(R k)^T
            // (two rotated vectors instead of a rotated tensor); O's upper triangle, mirrored
            final double m = mass[i];
            final double cx = model.centreOfMass[t];
            final double cy = model.centreOfMass[t + 1];
            final double cz = model.centreOfMass[t + 2];
            final double wx = r00 * cx + r01 * cy + r02 * cz + ox;
            final double wy = r10 * cx + r11 * cy + r12 * cz + oy;
            final double wz = r20 * cx + r21 * cy + r22 * cz + oz;
            final double hx = m * wx;
            final double hy = m * wy;
            final double hz = m * wz;
            firstMoment[t] = hx;
            firstMoment[t + 1] = hy;
            firstMoment[t + 2] = hz;
            final double[] factors = model.inertiaFactors;
            final int e = 6 * i;
            final double g0 = factors[e];
            final double g1 = factors[e + 1];
            final double g2 = factors[e + 2];
            final double k0 = factors[e + 3];
            final double k1 = factors[e + 4];
            final double k2 = factors[e + 5];
            final double gx = r00 * g0 + r01 * g1 + r02 * g2;
            final double gy = r10 * g0 + r11 * g1 + r12 * g2;
            final double gz = r20 * g0 + r21 * g1 + r22 * g2;
            final double kx = r00 * k0 + r01 * k1 + r02 * k2;
            final double ky = r10 * k0 + r11 * k1 + r12 * k2;
            final double kz = r20 * k0 + r21 * k1 + r22 * k2;
            // lambda + m |c_w|^2 on the diagonal
            final double d = model.isotropicInertia[i] + hx * wx + hy * wy + hz * wz;
            final double oxy = gx * gy + kx * ky - hx * wy;
            final double oxz = gx * gz + kx * kz - hx * wz;
            final double oyz = gy * gz + ky * kz - hy * wz;
            final double[] o = inertia;
            o[r] = d + gx * gx + kx * kx - hx * wx;
            o[r + 1] = oxy;
            o[r + 2] = oxz;
            o[r + 3] = oxy;
            o[r + 4] = d + gy * gy + ky * ky - hy * wy;
            o[r + 5] = oyz;
            o[r + 6] = oxz;
            o[r + 7] = oyz;
            o[r + 8] = d + gz * gz + kz * kz - hz * wz;
        }
    }

    /** Body i's velocity step ({@link #motion} without accelerations). Real-time safe. */
    void velocity(final int i, final double[] qd)
    {
        motion(i, qd, null, null, null, null);
    }

    /**
     * The base-frame motion step of body i, the one copy every base-frame algorithm runs
     * (Featherstone 2008, §5.3, in base coordinates, where a joint axis moves with its body):
     * v_i = v_p + S_i qd_i and S_i-dot = v_i x S_i (a fixed joint's stays 0); given qdd, the base's
     * acceleration (6) and the outputs a and da (6 per body; all four null for the velocity step),
     * also a_i = a_p + S_i qdd_i + S_i-dot qd_i and, for a joint with a coordinate,
     * da_i = -S_i x a_i - S_i-dot x v_i. On locals, each input read once: reading v and S-dot back
     * was slower (docs/PERFORMANCE.md). Requires {@link #placements} and the parent's motion.
     * Real-time safe.
     */
    void motion(final int i, final double[] qd, final double[] qdd, final double[] baseAcceleration,
        final double[] acceleration, final double[] shift)
    {
        final int p = parent[i];
        final int k = coordinate[i];
        final int s = 6 * i;
        final int fp = p < 0 ? 0 : 6 * p;
        final double rate = k >= 0 ? qd[k] : 0.0;
        final double sx = axis[s];
        final double sy = axis[s + 1];
        final double sz = axis[s + 2];
        final double sa = axis[s + 3];
        final double sb = axis[s + 4];
        final double sc = axis[s + 5];
        final double[] from = p < 0 ? baseVelocity : velocity;
        final double vx = from[fp] + sx * rate;
        final double vy = from[fp + 1] + sy * rate;
        final double vz = from[fp + 2] + sz * rate;
        final double wx = from[fp + 3] + sa * rate;
        final double wy = from[fp + 4] + sb * rate;
        final double wz = from[fp + 5] + sc * rate;
        SpatialAlgebra.set(velocity, s, vx, vy, vz, wx, wy, wz);
        if (k < 0 && acceleration == null)
        {
            return;
        }
        // S-dot = v x S = (w x S_v + v x S_w, w x S_w); a fixed joint's is 0
        final double rx = k < 0 ? 0.0 : wy * sz - wz * sy + vy * sc - vz * sb;
        final double ry = k < 0 ? 0.0 : wz * sx - wx * sz + vz * sa - vx * sc;
        final double rz = k < 0 ? 0.0 : wx * sy - wy * sx + vx * sb - vy * sa;
        final double ra = k < 0 ? 0.0 : wy * sc - wz * sb;
        final double rb = k < 0 ? 0.0 : wz * sa - wx * sc;
        final double rc = k < 0 ? 0.0 : wx * sb - wy * sa;
        if (k >= 0)
        {
            SpatialAlgebra.set(axisRate, s, rx, ry, rz, ra, rb, rc);
        }
        if (acceleration == null)
        {
            return;
        }
        final double qddk = k >= 0 ? qdd[k] : 0.0;
        final double[] fromA = p < 0 ? baseAcceleration : acceleration;
        final double ax = fromA[fp] + sx * qddk + rx * rate;
        final double ay = fromA[fp + 1] + sy * qddk + ry * rate;
        final double az = fromA[fp + 2] + sz * qddk + rz * rate;
        final double aa = fromA[fp + 3] + sa * qddk + ra * rate;
        final double ab = fromA[fp + 4] + sb * qddk + rb * rate;
        final double ac = fromA[fp + 5] + sc * qddk + rc * rate;
        SpatialAlgebra.set(acceleration, s, ax, ay, az, aa, ab, ac);
        if (k >= 0)
        {
            // da = -(S x a) - (S-dot x v), motion cross products; only joints with a coordinate are read
            SpatialAlgebra.set(shift, s,
                -(sb * az - sc * ay + sy * ac - sz * ab) - (rb * vz - rc * vy + ry * wz - rz * wy),
                -(sc * ax - sa * az + sz * aa - sx * ac) - (rc * vx - ra * vz + rz * wx - rx * wz),
                -(sa * ay - sb * ax + sx * ab - sy * aa) - (ra * vy - rb * vx + rx * wy - ry * wx),
                -(sb * ac - sc * ab) - (rb * wz - rc * wy),
                -(sc * aa - sa * ac) - (rc * wx - ra * wz),
                -(sa * ab - sb * aa) - (ra * wy - rb * wx));
        }
    }

    /** to[it..it+n-1] += from[jf..jf+n-1]. */
    static void addInto(final double[] from, final int jf, final double[] to, final int it, final int n)
    {
        for (int c = 0; c < n; c++)
        {
            to[it + c] += from[jf + c];
        }
    }

    /** Every body's own inertia as the start of its subtree sums (composite mass, first moment and inertia). */
    void startComposites()
    {
        System.arraycopy(mass, 0, compositeMass, 0, bodyCount);
        System.arraycopy(firstMoment, 0, compositeFirstMoment, 0, 3 * bodyCount);
        System.arraycopy(inertia, 0, compositeInertia, 0, 9 * bodyCount);
    }

    /** Adds body i's complete subtree inertia (mass, first moment, inertia about the base origin) into its parent p's. */
    void addCompositeToParent(final int i, final int p)
    {
        compositeMass[p] += compositeMass[i];
        addInto(compositeFirstMoment, 3 * i, compositeFirstMoment, 3 * p, 3);
        addInto(compositeInertia, 9 * i, compositeInertia, 9 * p, 9);
    }

    /** Adds body i's complete subtree momentum and coupling block into its parent p's. */
    void addCouplingToParent(final int i, final int p)
    {
        addInto(compositeMomentum, 3 * i, compositeMomentum, 3 * p, 3);
        addInto(compositeCoupling, 9 * i, compositeCoupling, 9 * p, 9);
    }

    /** out = Ic_i m: the subtree's composite inertia times a motion vector. Real-time safe. */
    void compositeInertiaTimes(final int body, final double[] m, final int im, final double[] out, final int io)
    {
        SpatialAlgebra.inertiaTimes(
            compositeMass[body], compositeFirstMoment, 3 * body, compositeInertia, 9 * body, m, im, out, io);
    }

    /** out = Bc_i m = (-2 p x m_w, X m_w) for the subtree's coupling. Real-time safe. */
    void compositeCouplingTimes(final int body, final double[] m, final int im, final double[] out, final int io)
    {
        Vec3.cross(m, im + 3, compositeMomentum, 3 * body, out, io);
        Vec3.addCross(m, im + 3, compositeMomentum, 3 * body, out, io);
        Vec3.multiply(compositeCoupling, 9 * body, m, im + 3, out, io + 3);
    }

    /**
     * out = angular part of Bc_i^T m = 2 p x m_v + X^T m_w (the linear part is zero), 3 values.
     * Real-time safe.
     */
    void compositeCouplingTransposedTimes(
        final int body, final double[] m, final int im, final double[] out, final int io)
    {
        Vec3.multiplyTransposed(compositeCoupling, 9 * body, m, im + 3, out, io);
        Vec3.addCross(compositeMomentum, 3 * body, m, im, out, io);
        Vec3.addCross(compositeMomentum, 3 * body, m, im, out, io);
    }

    /** out = I_i m: body i's own inertia times a motion vector. Real-time safe. */
    void inertiaTimes(final int body, final double[] m, final int im, final double[] out, final int io)
    {
        SpatialAlgebra.inertiaTimes(mass[body], firstMoment, 3 * body, inertia, 9 * body, m, im, out, io);
    }

    /** @return true if {@code ancestor} is {@code body} or lies on its path to the base. Real-time safe. */
    boolean supports(final int ancestor, final int body)
    {
        int j = body;
        while (j > ancestor)
        {
            j = parent[j];
        }
        return j == ancestor;
    }

    /**
     * Zeroes the entries of a dof x dof row-major matrix that couple joints on different branches,
     * which no path-to-base loop writes. Real-time safe.
     */
    void zeroUncoupledEntries(final double[] matrix)
    {
        for (final int e : uncoupledEntries)
        {
            matrix[e] = 0.0;
        }
    }

    /** @return true if some joints lie on different branches (the tree is not a chain). Real-time safe. */
    boolean branched()
    {
        return uncoupledEntries.length > 0;
    }

    private int[] uncoupledEntries()
    {
        int count = 0;
        final int[] entries = new int[dof * dof];
        for (int ci = 0; ci < dof; ci++)
        {
            for (int cj = 0; cj < dof; cj++)
            {
                final int bi = bodyOfCoordinate[ci];
                final int bj = bodyOfCoordinate[cj];
                if (!supports(bi, bj) && !supports(bj, bi))
                {
                    entries[count++] = ci * dof + cj;
                }
            }
        }
        return Arrays.copyOf(entries, count);
    }

    /**
     * Body i's own momentum and coupling block X, stored into the composite arrays (before any
     * subtree summation), and, given a (6 per body, else null), its wrench into f:
     * f_i = I_i a_i + v_i x* I_i v_i = (m a - h x a_w + w x p, O a_w + h x a + w x n + v x p)
     * (Featherstone 2008, eq. 5.9, base coordinates) from the same locals. On locals: O is
     * symmetric (stored mirrored), so X's symmetric part needs only its upper triangle. Requires
     * {@link #placements} and the body's motion. Real-time safe.
     */
    void coupling(final int i, final double[] acceleration, final double[] wrench)
    {
        final int v = 6 * i;
        final int t = 3 * i;
        final int b = 9 * i;
        final double m = mass[i];
        final double vx = velocity[v];
        final double vy = velocity[v + 1];
        final double vz = velocity[v + 2];
        final double wx = velocity[v + 3];
        final double wy = velocity[v + 4];
        final double wz = velocity[v + 5];
        final double hx = firstMoment[t];
        final double hy = firstMoment[t + 1];
        final double hz = firstMoment[t + 2];
        final double[] o = inertia;
        final double o00 = o[b];
        final double o01 = o[b + 1];
        final double o02 = o[b + 2];
        final double o11 = o[b + 4];
        final double o12 = o[b + 5];
        final double o22 = o[b + 8];
        // momentum I v = (m v - h x w, O w + h x v)
        compositeMomentum[t] = m * vx + wy * hz - wz * hy;
        compositeMomentum[t + 1] = m * vy + wz * hx - wx * hz;
        compositeMomentum[t + 2] = m * vz + wx * hy - wy * hx;
        final double nx = o00 * wx + o01 * wy + o02 * wz + hy * vz - hz * vy;
        final double ny = o01 * wx + o11 * wy + o12 * wz + hz * vx - hx * vz;
        final double nz = o02 * wx + o12 * wy + o22 * wz + hx * vy - hy * vx;
        // A = w^ O; X = A + A^T - (h v^T + v h^T) + 2 (v.h) 1 - n^
        final double vh2 = 2.0 * (vx * hx + vy * hy + vz * hz);
        final double a00 = wy * o02 - wz * o01;
        final double a01 = wy * o12 - wz * o11;
        final double a02 = wy * o22 - wz * o12;
        final double a10 = wz * o00 - wx * o02;
        final double a11 = wz * o01 - wx * o12;
        final double a12 = wz * o02 - wx * o22;
        final double a20 = wx * o01 - wy * o00;
        final double a21 = wx * o11 - wy * o01;
        final double a22 = wx * o12 - wy * o02;
        final double s01 = a01 + a10 - hx * vy - vx * hy;
        final double s02 = a02 + a20 - hx * vz - vx * hz;
        final double s12 = a12 + a21 - hy * vz - vy * hz;
        final double[] x = compositeCoupling;
        x[b] = 2.0 * a00 - 2.0 * hx * vx + vh2;
        x[b + 1] = s01 + nz;
        x[b + 2] = s02 - ny;
        x[b + 3] = s01 - nz;
        x[b + 4] = 2.0 * a11 - 2.0 * hy * vy + vh2;
        x[b + 5] = s12 + nx;
        x[b + 6] = s02 + ny;
        x[b + 7] = s12 - nx;
        x[b + 8] = 2.0 * a22 - 2.0 * hz * vz + vh2;
        if (acceleration == null)
        {
            return;
        }
        final double ax = acceleration[v];
        final double ay = acceleration[v + 1];
        final double az = acceleration[v + 2];
        final double aa = acceleration[v + 3];
        final double ab = acceleration[v + 4];
        final double ac = acceleration[v + 5];
        final double px = compositeMomentum[t];
        final double py = compositeMomentum[t + 1];
        final double pz = compositeMomentum[t + 2];
        SpatialAlgebra.set(wrench, v,
            m * ax + ab * hz - ac * hy + wy * pz - wz * py,
            m * ay + ac * hx - aa * hz + wz * px - wx * pz,
            m * az + aa * hy - ab * hx + wx * py - wy * px,
            o00 * aa + o01 * ab + o02 * ac + hy * az - hz * ay + wy * nz - wz * ny + vy * pz - vz * py,
            o01 * aa + o11 * ab + o12 * ac + hz * ax - hx * az + wz * nx - wx * nz + vz * px - vx * pz,
            o02 * aa + o12 * ab + o22 * ac + hx * ay - hy * ax + wx * ny - wy * nx + vx * py - vy * px);
    }
}
