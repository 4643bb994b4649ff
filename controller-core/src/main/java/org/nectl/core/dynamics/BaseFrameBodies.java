package org.nectl.core.dynamics;

import java.util.Arrays;

import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Every body's pose, joint axis, inertia and velocity expressed in the base frame, with spatial
 * quantities taken about the base origin, plus subtree (composite) sums of them. In this frame
 * the screw transforms between a body and its parent are the identity, so composite and
 * articulated inertias add without transformation (Featherstone, "Rigid Body Dynamics
 * Algorithms", 2008, §4.4 and §7.2: algorithms in base coordinates). Spatial vectors follow
 * {@link SpatialAlgebra}. Not thread safe: one instance per algorithm instance.
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
    /** Rotor inertia Ia per coordinate, kg m^2 or kg. */
    final double[] rotorInertia;
    /** Coulomb friction Fs per coordinate, N m or N. */
    final double[] coulombFriction;
    /** Viscous friction Fv per coordinate, N m s/rad or N s/m. */
    final double[] viscousFriction;
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
    /** Joint rate of each body's joint (0 for fixed joints), rad/s or m/s. */
    final double[] jointRate;

    /** Subtree mass, kg. */
    final double[] compositeMass;
    /** Subtree first moment about the base origin, base frame, kg m, 3 per body. */
    final double[] compositeFirstMoment;
    /** Subtree inertia about the base origin, base frame, kg m^2, 9 per body. */
    final double[] compositeInertia;
    /** Subtree linear momentum, base frame, kg m/s, 3 per body. */
    final double[] compositeMomentum;
    /**
     * Subtree sum of the lower-right block X of the velocity-coupling matrix B(v, I) with
     * B psi = I (psi x v) + psi x* (I v) + v x* (I psi) = [[0, -2 p^], [0, X]] psi, p being the
     * linear momentum; 9 per body, row-major.
     */
    final double[] compositeCoupling;

    /** Flat indices (row * dof + column) of the dof x dof entries whose joints lie on different branches. */
    private final int[] uncoupledEntries;
    private final boolean[] revolute;
    private final boolean[] prismatic;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    private final double[] centreOfMass;
    private final double[] inertiaAtCentre;
    private final double[] local = new double[12];
    private final double[] momentum = new double[6];
    private final double[] pair = new double[3];
    private final double[] otherPair = new double[3];

    /** Not real-time safe: allocates every array, sized from the model. */
    BaseFrameBodies(final RobotModel model)
    {
        bodyCount = model.bodyCount();
        dof = model.dof();
        parent = model.parents();
        coordinate = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[dof];
        rotorInertia = new double[dof];
        coulombFriction = new double[dof];
        viscousFriction = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            bodyOfCoordinate[k] = model.bodyOfCoordinate(k);
            final JointActuation a = model.actuation(k);
            rotorInertia[k] = a.rotorInertia();
            coulombFriction[k] = a.coulombFriction();
            viscousFriction[k] = a.viscousFriction();
        }
        revolute = new boolean[bodyCount];
        prismatic = new boolean[bodyCount];
        mass = model.masses();
        centreOfMass = new double[3 * bodyCount];
        inertiaAtCentre = new double[9 * bodyCount];
        for (int i = 0; i < bodyCount; i++)
        {
            revolute[i] = model.jointType(i) == JointType.REVOLUTE;
            prismatic[i] = model.jointType(i) == JointType.PRISMATIC;
            System.arraycopy(model.inertialParameters(i).centreOfMass(), 0, centreOfMass, 3 * i, 3);
            System.arraycopy(model.inertialParameters(i).inertiaAtCentreOfMass(), 0, inertiaAtCentre, 9 * i, 9);
        }
        placementRotation = model.placementRotations();
        placementTranslation = model.placementTranslations();
        rotation = new double[9 * bodyCount];
        position = new double[3 * bodyCount];
        axis = new double[6 * bodyCount];
        firstMoment = new double[3 * bodyCount];
        inertia = new double[9 * bodyCount];
        velocity = new double[6 * bodyCount];
        axisRate = new double[6 * bodyCount];
        jointRate = new double[bodyCount];
        compositeMass = new double[bodyCount];
        compositeFirstMoment = new double[3 * bodyCount];
        compositeInertia = new double[9 * bodyCount];
        compositeMomentum = new double[3 * bodyCount];
        compositeCoupling = new double[9 * bodyCount];
        uncoupledEntries = uncoupledEntries();
    }

    /** @return true if the body's joint has a coordinate. */
    boolean movable(final int body)
    {
        return coordinate[body] >= 0;
    }

    /**
     * Forward pass: poses, joint axes and inertias in the base frame at positions q. Real-time safe.
     *
     * @param q joint positions by coordinate, rad or m.
     */
    void placements(final double[] q)
    {
        for (int i = 0; i < bodyCount; i++)
        {
            localTransform(i, q);
            pose(i);
            jointAxis(i);
            baseFrameInertia(i);
        }
    }

    /**
     * Forward pass: v_i = v_parent + S_i qd_i and S_i-dot = v_i x S_i (Featherstone 2008, §5.3,
     * in base coordinates, where a joint axis moves with its body). Requires {@link #placements}. Real-time safe.
     *
     * @param qd joint velocities by coordinate, rad/s or m/s.
     */
    void velocities(final double[] qd)
    {
        for (int i = 0; i < bodyCount; i++)
        {
            final int v = 6 * i;
            final int p = parent[i];
            final double rate = movable(i) ? qd[coordinate[i]] : 0.0;
            jointRate[i] = rate;
            for (int c = 0; c < 6; c++)
            {
                velocity[v + c] = (p < 0 ? 0.0 : velocity[6 * p + c]) + axis[v + c] * rate;
            }
            SpatialAlgebra.crossMotion(velocity, v, axis, v, axisRate, v);
        }
    }

    /**
     * Backward pass: composite rigid-body inertias, each body's inertia plus its children's
     * composites (Featherstone 2008, §6.2); no transform is needed in base coordinates.
     * Requires {@link #placements}. Real-time safe.
     */
    void compositeInertias()
    {
        System.arraycopy(mass, 0, compositeMass, 0, bodyCount);
        System.arraycopy(firstMoment, 0, compositeFirstMoment, 0, 3 * bodyCount);
        System.arraycopy(inertia, 0, compositeInertia, 0, 9 * bodyCount);
        for (int i = bodyCount - 1; i >= 0; i--)
        {
            final int p = parent[i];
            if (p >= 0)
            {
                compositeMass[p] += compositeMass[i];
                for (int c = 0; c < 3; c++)
                {
                    compositeFirstMoment[3 * p + c] += compositeFirstMoment[3 * i + c];
                }
                for (int c = 0; c < 9; c++)
                {
                    compositeInertia[9 * p + c] += compositeInertia[9 * i + c];
                }
            }
        }
    }

    /**
     * Backward pass: subtree sums of the velocity-coupling matrices B(v_k, I_k) of Carpentier and
     * Mansard, "Analytical derivatives of rigid body dynamics algorithms", RSS 2018 (their B_i, here
     * reduced to its nonzero blocks). Requires {@link #placements} and {@link #velocities}.
     * Real-time safe.
     */
    void compositeCouplings()
    {
        for (int i = 0; i < bodyCount; i++)
        {
            coupling(i);
        }
        for (int i = bodyCount - 1; i >= 0; i--)
        {
            final int p = parent[i];
            if (p >= 0)
            {
                for (int c = 0; c < 3; c++)
                {
                    compositeMomentum[3 * p + c] += compositeMomentum[3 * i + c];
                }
                for (int c = 0; c < 9; c++)
                {
                    compositeCoupling[9 * p + c] += compositeCoupling[9 * i + c];
                }
            }
        }
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
        final double[] x = compositeCoupling;
        final int b = 9 * body;
        final int p = 3 * body;
        final double wx = m[im + 3];
        final double wy = m[im + 4];
        final double wz = m[im + 5];
        final double px = compositeMomentum[p];
        final double py = compositeMomentum[p + 1];
        final double pz = compositeMomentum[p + 2];
        out[io] = -2.0 * (py * wz - pz * wy);
        out[io + 1] = -2.0 * (pz * wx - px * wz);
        out[io + 2] = -2.0 * (px * wy - py * wx);
        out[io + 3] = x[b] * wx + x[b + 1] * wy + x[b + 2] * wz;
        out[io + 4] = x[b + 3] * wx + x[b + 4] * wy + x[b + 5] * wz;
        out[io + 5] = x[b + 6] * wx + x[b + 7] * wy + x[b + 8] * wz;
    }

    /**
     * out = angular part of Bc_i^T m = 2 p x m_v + X^T m_w (the linear part is zero), 3 values.
     * Real-time safe.
     */
    void compositeCouplingTransposedTimes(
        final int body, final double[] m, final int im, final double[] out, final int io)
    {
        final double[] x = compositeCoupling;
        final int b = 9 * body;
        final int p = 3 * body;
        final double vx = m[im];
        final double vy = m[im + 1];
        final double vz = m[im + 2];
        final double wx = m[im + 3];
        final double wy = m[im + 4];
        final double wz = m[im + 5];
        final double px = compositeMomentum[p];
        final double py = compositeMomentum[p + 1];
        final double pz = compositeMomentum[p + 2];
        out[io] = 2.0 * (py * vz - pz * vy) + x[b] * wx + x[b + 3] * wy + x[b + 6] * wz;
        out[io + 1] = 2.0 * (pz * vx - px * vz) + x[b + 1] * wx + x[b + 4] * wy + x[b + 7] * wz;
        out[io + 2] = 2.0 * (px * vy - py * vx) + x[b + 2] * wx + x[b + 5] * wy + x[b + 8] * wz;
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

    /** local[0..8] = parentR_i, local[9..11] = parentP_i at the joint position. */
    private void localTransform(final int i, final double[] q)
    {
        final int r = 9 * i;
        final int t = 3 * i;
        System.arraycopy(placementRotation, r, local, 0, 9);
        System.arraycopy(placementTranslation, t, local, 9, 3);
        if (revolute[i])
        {
            // placement * Rot(z, q): only the first two columns change.
            final double c = Math.cos(q[coordinate[i]]);
            final double s = Math.sin(q[coordinate[i]]);
            for (int row = 0; row < 9; row += 3)
            {
                final double x = placementRotation[r + row];
                final double y = placementRotation[r + row + 1];
                local[row] = c * x + s * y;
                local[row + 1] = c * y - s * x;
            }
        }
        else if (prismatic[i])
        {
            final double d = q[coordinate[i]];
            local[9] += d * local[2];
            local[10] += d * local[5];
            local[11] += d * local[8];
        }
    }

    /** Composes the parent's base-frame pose with the local transform. */
    private void pose(final int i)
    {
        final int p = parent[i];
        final int r = 9 * i;
        final int t = 3 * i;
        if (p < 0)
        {
            System.arraycopy(local, 0, rotation, r, 9);
            System.arraycopy(local, 9, position, t, 3);
            return;
        }
        final int rp = 9 * p;
        for (int row = 0; row < 3; row++)
        {
            final double a0 = rotation[rp + 3 * row];
            final double a1 = rotation[rp + 3 * row + 1];
            final double a2 = rotation[rp + 3 * row + 2];
            rotation[r + 3 * row] = a0 * local[0] + a1 * local[3] + a2 * local[6];
            rotation[r + 3 * row + 1] = a0 * local[1] + a1 * local[4] + a2 * local[7];
            rotation[r + 3 * row + 2] = a0 * local[2] + a1 * local[5] + a2 * local[8];
            position[t + row] = position[3 * p + row] + a0 * local[9] + a1 * local[10] + a2 * local[11];
        }
    }

    /** S = (p x z, z) for a revolute joint about the body z axis, (z, 0) for a prismatic one. */
    private void jointAxis(final int i)
    {
        final int r = 9 * i;
        final int t = 3 * i;
        final int s = 6 * i;
        final double zx = rotation[r + 2];
        final double zy = rotation[r + 5];
        final double zz = rotation[r + 8];
        if (revolute[i])
        {
            final double px = position[t];
            final double py = position[t + 1];
            final double pz = position[t + 2];
            axis[s] = py * zz - pz * zy;
            axis[s + 1] = pz * zx - px * zz;
            axis[s + 2] = px * zy - py * zx;
            axis[s + 3] = zx;
            axis[s + 4] = zy;
            axis[s + 5] = zz;
        }
        else if (prismatic[i])
        {
            axis[s] = zx;
            axis[s + 1] = zy;
            axis[s + 2] = zz;
            axis[s + 3] = 0.0;
            axis[s + 4] = 0.0;
            axis[s + 5] = 0.0;
        }
    }

    /**
     * h = m c_w and O = R Ic R^T + m (|c_w|^2 1 - c_w c_w^T) with c_w = p + R c: the parallel-axis
     * theorem about the base origin.
     */
    private void baseFrameInertia(final int i)
    {
        final int r = 9 * i;
        final int t = 3 * i;
        final double m = mass[i];
        final double[] c = centreOfMass;
        final double cx = position[t] + rotation[r] * c[t] + rotation[r + 1] * c[t + 1] + rotation[r + 2] * c[t + 2];
        final double cy = position[t + 1] + rotation[r + 3] * c[t] + rotation[r + 4] * c[t + 1] + rotation[r + 5] * c[t + 2];
        final double cz = position[t + 2] + rotation[r + 6] * c[t] + rotation[r + 7] * c[t + 1] + rotation[r + 8] * c[t + 2];
        firstMoment[t] = m * cx;
        firstMoment[t + 1] = m * cy;
        firstMoment[t + 2] = m * cz;
        final double c2 = cx * cx + cy * cy + cz * cz;
        final double[] w = pair;
        w[0] = cx;
        w[1] = cy;
        w[2] = cz;
        for (int row = 0; row < 3; row++)
        {
            for (int col = row; col < 3; col++)
            {
                double sum = 0.0;
                for (int k = 0; k < 3; k++)
                {
                    final double rowTimesIc = rotation[r + 3 * row] * inertiaAtCentre[r + k]
                        + rotation[r + 3 * row + 1] * inertiaAtCentre[r + 3 + k]
                        + rotation[r + 3 * row + 2] * inertiaAtCentre[r + 6 + k];
                    sum += rowTimesIc * rotation[r + 3 * col + k];
                }
                final double value = sum + m * ((row == col ? c2 : 0.0) - w[row] * w[col]);
                inertia[r + 3 * row + col] = value;
                inertia[r + 3 * col + row] = value;
            }
        }
    }

    /** Body i's own momentum and coupling block X, stored into the composite arrays before summation. */
    private void coupling(final int i)
    {
        final int v = 6 * i;
        final int t = 3 * i;
        final int b = 9 * i;
        inertiaTimes(i, velocity, v, momentum, 0);
        compositeMomentum[t] = momentum[0];
        compositeMomentum[t + 1] = momentum[1];
        compositeMomentum[t + 2] = momentum[2];
        final double vx = velocity[v];
        final double vy = velocity[v + 1];
        final double vz = velocity[v + 2];
        final double wx = velocity[v + 3];
        final double wy = velocity[v + 4];
        final double wz = velocity[v + 5];
        final double hx = firstMoment[t];
        final double hy = firstMoment[t + 1];
        final double hz = firstMoment[t + 2];
        final double vh2 = 2.0 * (vx * hx + vy * hy + vz * hz);
        final double[] o = inertia;
        // A = w^ O, column by column: w x O[:, col].
        for (int col = 0; col < 3; col++)
        {
            final double ox = o[b + col];
            final double oy = o[b + 3 + col];
            final double oz = o[b + 6 + col];
            local[col] = wy * oz - wz * oy;
            local[3 + col] = wz * ox - wx * oz;
            local[6 + col] = wx * oy - wy * ox;
        }
        final double[] vv = pair;
        final double[] hh = otherPair;
        vv[0] = vx;
        vv[1] = vy;
        vv[2] = vz;
        hh[0] = hx;
        hh[1] = hy;
        hh[2] = hz;
        final double nx = momentum[3];
        final double ny = momentum[4];
        final double nz = momentum[5];
        // X = A + A^T - (h v^T + v h^T) + 2 (v.h) 1 - n^
        for (int row = 0; row < 3; row++)
        {
            for (int col = 0; col < 3; col++)
            {
                compositeCoupling[b + 3 * row + col] = local[3 * row + col] + local[3 * col + row]
                    - hh[row] * vv[col] - vv[row] * hh[col] + (row == col ? vh2 : 0.0);
            }
        }
        compositeCoupling[b + 1] += nz;
        compositeCoupling[b + 2] -= ny;
        compositeCoupling[b + 3] -= nz;
        compositeCoupling[b + 5] += nx;
        compositeCoupling[b + 6] += ny;
        compositeCoupling[b + 7] -= nx;
    }
}
