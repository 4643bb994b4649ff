package org.nectl.core.closedloop;

import java.util.List;

import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * Loop-closure equations of a closed-loop robot in terms of its equivalent tree (Khalil, "Dynamic
 * modeling of robots using recursive Newton-Euler techniques", ICINCO 2010, eqs. 3-4), in the
 * candidate form used by {@link ClosedLoopModel}: per cut joint, the origin of frame k+B expressed in
 * frame k, {@code e_p = kR_0 (0p_{k+B} - 0p_k)} (3 rows; a prismatic cut keeps x and y), for a
 * revolute or prismatic cut the x and y components of z_{k+B} in frame k, {@code e_z = kR_0 0z_{k+B}}
 * (2 rows; both vanish when the axes are parallel), and for a prismatic cut the y component of
 * x_{k+B} in frame k, {@code e_x = kR_0 0x_{k+B}} (1 row; zero when the frames are not turned about z). Computes the residual e(q), its exact Jacobian de/dq (the time derivative of e is
 * {@code J qd}) and the velocity-product term {@code Jdot qd}, all from base-frame poses, velocities
 * and accelerations composed joint by joint. Not thread safe; every method is real-time safe after
 * construction.
 */
final class LoopKinematics
{
    final int dof;
    final int bodyCount;
    /** Number of candidate constraint rows, the sum of the cut joints' {@link CutJoint.Type#rows()}. */
    final int rows;

    private final int[] parent;
    private final int[] coordinate;
    private final int[] bodyOfCoordinate;
    private final boolean[] revolute;
    private final boolean[] movable;
    /** supports[c * bodyCount + b]: coordinate c's joint lies on the path from the base to body b. */
    private final boolean[] supports;
    private final double[] placementRotation;
    private final double[] placementTranslation;
    private final CutJoint[] cuts;
    private final int[] firstRow;

    /** 0R_j, 9 per body, row-major. */
    private final double[] rotation;
    /** Body origins in the base frame, m, 3 per body. */
    private final double[] origin;
    /** Angular velocity, base frame, 3 per body. */
    private final double[] omega;
    /** Angular acceleration, base frame, 3 per body. */
    private final double[] omegaDot;
    /** Velocity of the body origin, base frame, 3 per body. */
    private final double[] velocity;
    /** Acceleration of the body origin, base frame, 3 per body. */
    private final double[] acceleration;

    /** Per cut joint: 0R_k (9), 0p_k (3), 0R_{k+B} (9), 0p_{k+B} (3). */
    private final double[] framePose;
    private final double[] scratch = new double[27];
    private final double[] relative = new double[24];

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the equivalent tree.
     * @param cutJoints the loop-closure joints.
     */
    LoopKinematics(final RobotModel model, final List<CutJoint> cutJoints)
    {
        dof = model.dof();
        bodyCount = model.bodyCount();
        parent = model.parents();
        coordinate = model.coordinatesOfBodies();
        bodyOfCoordinate = new int[dof];
        for (int c = 0; c < dof; c++)
        {
            bodyOfCoordinate[c] = model.bodyOfCoordinate(c);
        }
        revolute = new boolean[bodyCount];
        movable = new boolean[bodyCount];
        for (int b = 0; b < bodyCount; b++)
        {
            revolute[b] = model.jointType(b) == JointType.REVOLUTE;
            movable[b] = model.jointType(b).isMovable();
        }
        supports = new boolean[dof * bodyCount];
        for (int b = 0; b < bodyCount; b++)
        {
            for (int a = b; a >= 0; a = parent[a])
            {
                if (coordinate[a] >= 0)
                {
                    supports[coordinate[a] * bodyCount + b] = true;
                }
            }
        }
        placementRotation = model.placementRotations();
        placementTranslation = model.placementTranslations();
        cuts = cutJoints.toArray(new CutJoint[0]);
        firstRow = new int[cuts.length];
        int count = 0;
        for (int i = 0; i < cuts.length; i++)
        {
            firstRow[i] = count;
            count += cuts[i].type().rows();
        }
        rows = count;
        rotation = new double[9 * bodyCount];
        origin = new double[3 * bodyCount];
        omega = new double[3 * bodyCount];
        omegaDot = new double[3 * bodyCount];
        velocity = new double[3 * bodyCount];
        acceleration = new double[3 * bodyCount];
        framePose = new double[24 * cuts.length];
    }

    /** @return the cut joints, in row order. */
    CutJoint cut(final int index)
    {
        return cuts[index];
    }

    /** @return the number of cut joints. */
    int cutCount()
    {
        return cuts.length;
    }

    /** @return the first candidate row of a cut joint. */
    int firstRow(final int cut)
    {
        return firstRow[cut];
    }

    /**
     * Poses of every body and cut frame at q. Real-time safe.
     *
     * @param q tree joint positions by coordinate.
     */
    void positions(final double[] q)
    {
        for (int j = 0; j < bodyCount; j++)
        {
            final int i = parent[j];
            final int k = coordinate[j];
            // joint transform iT_j = placement Rot(z, q) or placement Trans(z, q).
            final double angle = k >= 0 && revolute[j] ? q[k] : 0.0;
            final double shift = k >= 0 && !revolute[j] ? q[k] : 0.0;
            final double c = Math.cos(angle);
            final double s = Math.sin(angle);
            final double[] local = scratch;
            for (int row = 0; row < 3; row++)
            {
                final double x = placementRotation[9 * j + 3 * row];
                final double y = placementRotation[9 * j + 3 * row + 1];
                local[3 * row] = c * x + s * y;
                local[3 * row + 1] = c * y - s * x;
                local[3 * row + 2] = placementRotation[9 * j + 3 * row + 2];
                local[9 + row] = placementTranslation[3 * j + row] + shift * placementRotation[9 * j + 3 * row + 2];
            }
            compose(i, local, 0, local, 9, rotation, 9 * j, origin, 3 * j);
        }
        for (int n = 0; n < cuts.length; n++)
        {
            final CutJoint cut = cuts[n];
            compose(cut.bodyK(), cut.rotationK(), 0, cut.translationK(), 0, framePose, 24 * n, framePose, 24 * n + 9);
            compose(cut.bodyKPlusB(), cut.rotationKPlusB(), 0, cut.translationKPlusB(), 0,
                framePose, 24 * n + 12, framePose, 24 * n + 21);
        }
    }

    /**
     * Base-frame velocities and accelerations of every body at the positions of the last
     * {@link #positions} call. Real-time safe.
     *
     * @param qd tree joint velocities.
     * @param qdd tree joint accelerations, or null for zero (the velocity-product terms alone).
     */
    void motion(final double[] qd, final double[] qdd)
    {
        final double[] t = scratch;
        for (int j = 0; j < bodyCount; j++)
        {
            final int i = parent[j];
            final int o = 3 * j;
            if (i < 0)
            {
                for (int e = 0; e < 3; e++)
                {
                    omega[o + e] = 0.0;
                    omegaDot[o + e] = 0.0;
                    velocity[o + e] = 0.0;
                    acceleration[o + e] = 0.0;
                }
            }
            else
            {
                // r = p_j - p_i is fixed in body i apart from a prismatic joint's own motion.
                for (int e = 0; e < 3; e++)
                {
                    t[e] = origin[o + e] - origin[3 * i + e];
                }
                FlatVectors.cross(omega, 3 * i, t, 0, t, 3);
                FlatVectors.cross(omega, 3 * i, t, 3, t, 6);
                FlatVectors.cross(omegaDot, 3 * i, t, 0, t, 9);
                for (int e = 0; e < 3; e++)
                {
                    omega[o + e] = omega[3 * i + e];
                    omegaDot[o + e] = omegaDot[3 * i + e];
                    velocity[o + e] = velocity[3 * i + e] + t[3 + e];
                    acceleration[o + e] = acceleration[3 * i + e] + t[9 + e] + t[6 + e];
                }
            }
            final int k = coordinate[j];
            if (k < 0)
            {
                continue;
            }
            final double rate = qd[k];
            final double accel = qdd == null ? 0.0 : qdd[k];
            // a_j = z_j in the base frame: third column of 0R_j.
            t[12] = rotation[9 * j + 2];
            t[13] = rotation[9 * j + 5];
            t[14] = rotation[9 * j + 8];
            final boolean hasParent = i >= 0;
            if (hasParent)
            {
                FlatVectors.cross(omega, 3 * i, t, 12, t, 15);
            }
            else
            {
                t[15] = 0.0;
                t[16] = 0.0;
                t[17] = 0.0;
            }
            if (revolute[j])
            {
                for (int e = 0; e < 3; e++)
                {
                    omega[o + e] += rate * t[12 + e];
                    omegaDot[o + e] += accel * t[12 + e] + rate * t[15 + e];
                }
            }
            else
            {
                for (int e = 0; e < 3; e++)
                {
                    velocity[o + e] += rate * t[12 + e];
                    acceleration[o + e] += accel * t[12 + e] + 2.0 * rate * t[15 + e];
                }
            }
        }
    }

    /**
     * Candidate residual e(q) at the last {@link #positions} call. Real-time safe.
     *
     * @param residual output, {@link #rows} values.
     */
    void residual(final double[] residual)
    {
        final double[] t = scratch;
        for (int n = 0; n < cuts.length; n++)
        {
            final int f = 24 * n;
            final int row = firstRow[n];
            for (int e = 0; e < 3; e++)
            {
                t[e] = framePose[f + 21 + e] - framePose[f + 9 + e];
            }
            transposeTimes(framePose, f, t, 0, t, 3);
            final CutJoint.Type type = cuts[n].type();
            final int axisRow = row + type.originRows();
            System.arraycopy(t, 3, residual, row, type.originRows());
            if (type.alignsAxes())
            {
                column(framePose, f + 12, 2, t, 6);
                transposeTimes(framePose, f, t, 6, t, 9);
                residual[axisRow] = t[9];
                residual[axisRow + 1] = t[10];
            }
            if (type.locksRotation())
            {
                column(framePose, f + 12, 0, t, 6);
                transposeTimes(framePose, f, t, 6, t, 9);
                residual[axisRow + 2] = t[10];
            }
        }
    }

    /**
     * Jacobian de/dq at the last {@link #positions} call. Real-time safe.
     *
     * @param jacobian output, row-major {@link #rows} x {@link #dof}.
     */
    void jacobian(final double[] jacobian)
    {
        final double[] t = scratch;
        for (int c = 0; c < dof; c++)
        {
            final int b = bodyOfCoordinate[c];
            // axis a (t[0..2]) and joint origin o of coordinate c, base frame.
            column(rotation, 9 * b, 2, t, 0);
            for (int n = 0; n < cuts.length; n++)
            {
                final CutJoint cut = cuts[n];
                final int f = 24 * n;
                // omega_k, v(x_k) (t[3..8]) and omega_{k+B}, v(x_{k+B}) (t[9..14]) from qd_c = 1.
                unitMotion(c, b, cut.bodyK(), f + 9, 3);
                unitMotion(c, b, cut.bodyKPlusB(), f + 21, 9);
                // e_p rate: kR_0 (dv - omega_k x d), d = x_{k+B} - x_k.
                for (int e = 0; e < 3; e++)
                {
                    t[15 + e] = framePose[f + 21 + e] - framePose[f + 9 + e];
                }
                FlatVectors.cross(t, 3, t, 15, t, 18);
                for (int e = 0; e < 3; e++)
                {
                    t[15 + e] = t[12 + e] - t[6 + e] - t[18 + e];
                }
                final int row = firstRow[n];
                transposeTimes(framePose, f, t, 15, t, 18);
                final int originRows = cut.type().originRows();
                for (int e = 0; e < originRows; e++)
                {
                    jacobian[(row + e) * dof + c] = t[18 + e];
                }
                final int axisRow = row + originRows;
                for (int e = 0; e < 3; e++)
                {
                    t[15 + e] = t[9 + e] - t[3 + e];
                }
                if (cut.type().alignsAxes())
                {
                    relativeAxisRate(f, 2);
                    jacobian[axisRow * dof + c] = t[24];
                    jacobian[(axisRow + 1) * dof + c] = t[25];
                }
                if (cut.type().locksRotation())
                {
                    relativeAxisRate(f, 0);
                    jacobian[(axisRow + 2) * dof + c] = t[25];
                }
            }
        }
    }

    /**
     * The velocity-product term {@code Jdot qd}: the second time derivative of e with the
     * accelerations of the last {@link #motion} call. With qdd = 0 there, it is the term that makes
     * {@code J qdd + Jdot qd = 0} on the loop. Real-time safe.
     *
     * @param out output, {@link #rows} values.
     */
    void secondDerivative(final double[] out)
    {
        final double[] t = scratch;
        for (int n = 0; n < cuts.length; n++)
        {
            final CutJoint cut = cuts[n];
            final int f = 24 * n;
            final int row = firstRow[n];
            // w_k, wdot_k at t[0..5]; xdot_k, xddot_k at t[6..11]; same for k+B at t[12..23].
            pointMotion(cut.bodyK(), f + 9, 0);
            pointMotion(cut.bodyKPlusB(), f + 21, 12);
            final double[] u = relative;
            for (int e = 0; e < 3; e++)
            {
                u[e] = framePose[f + 21 + e] - framePose[f + 9 + e];
                u[3 + e] = t[18 + e] - t[6 + e];
                u[6 + e] = t[21 + e] - t[9 + e];
            }
            // kR_0 [dddot - wdot_k x d - 2 w_k x ddot + w_k x (w_k x d)].
            FlatVectors.cross(t, 3, u, 0, u, 9);
            FlatVectors.cross(t, 0, u, 3, u, 12);
            FlatVectors.cross(t, 0, u, 0, u, 15);
            FlatVectors.cross(t, 0, u, 15, u, 18);
            for (int e = 0; e < 3; e++)
            {
                u[21 + e] = u[6 + e] - u[9 + e] - 2.0 * u[12 + e] + u[18 + e];
            }
            transposeTimes(framePose, f, u, 21, u, 9);
            final int originRows = cut.type().originRows();
            System.arraycopy(u, 9, out, row, originRows);
            if (cut.type().alignsAxes())
            {
                relativeAxisAcceleration(f, 2);
                out[row + originRows] = u[12];
                out[row + originRows + 1] = u[13];
            }
            if (cut.type().locksRotation())
            {
                relativeAxisAcceleration(f, 0);
                out[row + originRows + 2] = u[13];
            }
        }
    }

    /**
     * Rate of axis col of frame k+B seen in frame k, {@code kR_0 (dw x a)}, with dw = w_{k+B} - w_k at
     * scratch[15..17]; written to scratch[24..26].
     */
    private void relativeAxisRate(final int f, final int col)
    {
        final double[] t = scratch;
        column(framePose, f + 12, col, t, 18);
        FlatVectors.cross(t, 15, t, 18, t, 21);
        transposeTimes(framePose, f, t, 21, t, 24);
    }

    /**
     * Second derivative of axis col of frame k+B seen in frame k,
     * {@code kR_0 [-w_k x (dw x a) + dwdot x a + dw x (w_{k+B} x a)]}, from the angular motions that
     * {@link #secondDerivative} put in scratch; written to relative[12..14].
     */
    private void relativeAxisAcceleration(final int f, final int col)
    {
        final double[] t = scratch;
        final double[] u = relative;
        column(framePose, f + 12, col, u, 0);
        for (int e = 0; e < 3; e++)
        {
            u[3 + e] = t[12 + e] - t[e];
            u[6 + e] = t[15 + e] - t[3 + e];
        }
        FlatVectors.cross(u, 3, u, 0, u, 9);
        FlatVectors.cross(t, 0, u, 9, u, 12);
        FlatVectors.cross(u, 6, u, 0, u, 15);
        FlatVectors.cross(t, 12, u, 0, u, 18);
        FlatVectors.cross(u, 3, u, 18, u, 21);
        for (int e = 0; e < 3; e++)
        {
            u[9 + e] = -u[12 + e] + u[15 + e] + u[21 + e];
        }
        transposeTimes(framePose, f, u, 9, u, 12);
    }

    /** Angular velocity (at t[at]) and velocity of point x (at t[at + 3]) of body for qd_c = 1. */
    private void unitMotion(final int c, final int jointBody, final int body, final int point, final int at)
    {
        final double[] t = scratch;
        for (int e = 0; e < 6; e++)
        {
            t[at + e] = 0.0;
        }
        if (body < 0 || !supports[c * bodyCount + body])
        {
            return;
        }
        if (revolute[jointBody])
        {
            t[at] = t[0];
            t[at + 1] = t[1];
            t[at + 2] = t[2];
            final double rx = framePose[point] - origin[3 * jointBody];
            final double ry = framePose[point + 1] - origin[3 * jointBody + 1];
            final double rz = framePose[point + 2] - origin[3 * jointBody + 2];
            t[at + 3] = t[1] * rz - t[2] * ry;
            t[at + 4] = t[2] * rx - t[0] * rz;
            t[at + 5] = t[0] * ry - t[1] * rx;
        }
        else
        {
            t[at + 3] = t[0];
            t[at + 4] = t[1];
            t[at + 5] = t[2];
        }
    }

    /**
     * w, wdot, xdot, xddot of the point at framePose[point] on body (base: all zero), written to
     * scratch[at .. at + 11].
     */
    private void pointMotion(final int body, final int point, final int at)
    {
        final double[] t = scratch;
        if (body < 0)
        {
            for (int e = 0; e < 12; e++)
            {
                t[at + e] = 0.0;
            }
            return;
        }
        final int o = 3 * body;
        final double[] r = relative;
        for (int e = 0; e < 3; e++)
        {
            t[at + e] = omega[o + e];
            t[at + 3 + e] = omegaDot[o + e];
            r[e] = framePose[point + e] - origin[o + e];
        }
        FlatVectors.cross(omega, o, r, 0, r, 3);
        FlatVectors.cross(omega, o, r, 3, r, 6);
        FlatVectors.cross(omegaDot, o, r, 0, r, 9);
        for (int e = 0; e < 3; e++)
        {
            t[at + 6 + e] = velocity[o + e] + r[3 + e];
            t[at + 9 + e] = acceleration[o + e] + r[9 + e] + r[6 + e];
        }
    }

    /** 0R = (parent's 0R) local, 0p = (parent's 0p) + (parent's 0R) localP; the base is the identity. */
    private void compose(
        final int body, final double[] localR, final int lr, final double[] localP, final int lp,
        final double[] outR, final int or, final double[] outP, final int op)
    {
        if (body < 0)
        {
            System.arraycopy(localR, lr, outR, or, 9);
            System.arraycopy(localP, lp, outP, op, 3);
            return;
        }
        final int pr = 9 * body;
        final double lx = localP[lp];
        final double ly = localP[lp + 1];
        final double lz = localP[lp + 2];
        for (int row = 0; row < 3; row++)
        {
            final double a = rotation[pr + 3 * row];
            final double b = rotation[pr + 3 * row + 1];
            final double c = rotation[pr + 3 * row + 2];
            final double r0 = a * localR[lr] + b * localR[lr + 3] + c * localR[lr + 6];
            final double r1 = a * localR[lr + 1] + b * localR[lr + 4] + c * localR[lr + 7];
            final double r2 = a * localR[lr + 2] + b * localR[lr + 5] + c * localR[lr + 8];
            outP[op + row] = origin[3 * body + row] + a * lx + b * ly + c * lz;
            outR[or + 3 * row] = r0;
            outR[or + 3 * row + 1] = r1;
            outR[or + 3 * row + 2] = r2;
        }
    }

    /** out = R^T v for R at r (row-major). out may not alias v. */
    private static void transposeTimes(
        final double[] rot, final int r, final double[] v, final int vi, final double[] out, final int oi)
    {
        final double x = v[vi];
        final double y = v[vi + 1];
        final double z = v[vi + 2];
        out[oi] = rot[r] * x + rot[r + 3] * y + rot[r + 6] * z;
        out[oi + 1] = rot[r + 1] * x + rot[r + 4] * y + rot[r + 7] * z;
        out[oi + 2] = rot[r + 2] * x + rot[r + 5] * y + rot[r + 8] * z;
    }

    /** out = column col of the row-major rotation at r. */
    private static void column(final double[] rot, final int r, final int col, final double[] out, final int oi)
    {
        out[oi] = rot[r + col];
        out[oi + 1] = rot[r + 3 + col];
        out[oi + 2] = rot[r + 6 + col];
    }
}
