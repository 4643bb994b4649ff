package org.nectl.core.dynamics.screw;

/**
 * Elements of SE(3) and their adjoint action, on flat arrays with offsets so that callers can keep
 * whole trees of transforms in one array.
 *
 * <p>A transform T_ab (the pose of frame b expressed in frame a) is 12 doubles: the rotation R_ab,
 * 9 doubles row-major, then the origin of b in a, p_ab, 3 doubles. A twist is 6 doubles (omega, v);
 * a wrench 6 doubles (moment, force), both about the origin of the frame they are expressed in
 * (Lynch and Park, "Modern Robotics: Mechanics, Planning, and Control", 2017, Secs. 3.3 and 8.2).
 *
 * <p>This package keeps its own 3-vector arithmetic on purpose: the screw-theory inverse dynamics
 * cross-checks the modified-DH one and must share none of its kernels.
 *
 * <p>Output arrays must not alias the inputs. Real-time safe: nothing allocates. Thread safe
 * (stateless).
 */
public final class RigidTransforms
{
    /** Doubles per transform. */
    public static final int SIZE = 12;

    /** Below this |omega| a screw is taken as a pure translation. */
    private static final double PURE_TRANSLATION = 1e-300;

    private RigidTransforms()
    {
    }

    /**
     * Writes the identity transform.
     *
     * @param out destination.
     * @param outOffset first index written.
     */
    public static void identity(final double[] out, final int outOffset)
    {
        for (int k = 0; k < SIZE; k++)
        {
            out[outOffset + k] = 0.0;
        }
        out[outOffset] = 1.0;
        out[outOffset + 4] = 1.0;
        out[outOffset + 8] = 1.0;
    }

    /**
     * Writes T from a rotation and a translation.
     *
     * @param rotation 9 doubles row-major.
     * @param translation 3 doubles.
     * @param out destination.
     * @param outOffset first index written.
     */
    public static void set(final double[] rotation, final double[] translation, final double[] out, final int outOffset)
    {
        System.arraycopy(rotation, 0, out, outOffset, 9);
        System.arraycopy(translation, 0, out, outOffset + 9, 3);
    }

    /**
     * out = T_ab T_bc = T_ac.
     *
     * @param a T_ab.
     * @param aOffset offset of T_ab.
     * @param b T_bc.
     * @param bOffset offset of T_bc.
     * @param out destination of T_ac.
     * @param outOffset first index written.
     */
    public static void compose(
        final double[] a, final int aOffset, final double[] b, final int bOffset, final double[] out, final int outOffset)
    {
        for (int r = 0; r < 3; r++)
        {
            final int ar = aOffset + 3 * r;
            for (int c = 0; c < 3; c++)
            {
                out[outOffset + 3 * r + c] =
                    a[ar] * b[bOffset + c] + a[ar + 1] * b[bOffset + 3 + c] + a[ar + 2] * b[bOffset + 6 + c];
            }
            out[outOffset + 9 + r] = a[ar] * b[bOffset + 9] + a[ar + 1] * b[bOffset + 10] + a[ar + 2] * b[bOffset + 11]
                + a[aOffset + 9 + r];
        }
    }

    /**
     * out = T^-1 = (R^T, -R^T p).
     *
     * @param t T_ab.
     * @param tOffset offset of T_ab.
     * @param out destination of T_ba.
     * @param outOffset first index written.
     */
    public static void invert(final double[] t, final int tOffset, final double[] out, final int outOffset)
    {
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                out[outOffset + 3 * r + c] = t[tOffset + 3 * c + r];
            }
        }
        for (int r = 0; r < 3; r++)
        {
            out[outOffset + 9 + r] = -(t[tOffset + r] * t[tOffset + 9] + t[tOffset + 3 + r] * t[tOffset + 10]
                + t[tOffset + 6 + r] * t[tOffset + 11]);
        }
    }

    /**
     * The exponential of a screw motion, exp([S] theta), in closed form: Rodrigues' formula for the
     * rotation and G(theta) v for the translation (Lynch and Park 2017, Sec. 3.3.3.2). S need not be
     * normalised: a screw with omega != 0 is rescaled to |omega| = 1 first, one with omega = 0 is a
     * translation by v theta.
     *
     * @param screw S = (omega, v).
     * @param screwOffset offset of S.
     * @param theta the motion along the screw (rad for unit omega, m for a pure translation).
     * @param out destination of the transform.
     * @param outOffset first index written.
     */
    public static void exp(
        final double[] screw, final int screwOffset, final double theta, final double[] out, final int outOffset)
    {
        final double wx = screw[screwOffset];
        final double wy = screw[screwOffset + 1];
        final double wz = screw[screwOffset + 2];
        final double norm = Math.sqrt(wx * wx + wy * wy + wz * wz);
        if (norm < PURE_TRANSLATION)
        {
            identity(out, outOffset);
            out[outOffset + 9] = screw[screwOffset + 3] * theta;
            out[outOffset + 10] = screw[screwOffset + 4] * theta;
            out[outOffset + 11] = screw[screwOffset + 5] * theta;
            return;
        }
        final double x = wx / norm;
        final double y = wy / norm;
        final double z = wz / norm;
        final double angle = theta * norm;
        final double s = Math.sin(angle);
        final double c1 = 1.0 - Math.cos(angle);
        // R = I + sin [w] + (1 - cos) [w]^2, with [w]^2 = w w^T - I for a unit w.
        out[outOffset] = 1.0 + c1 * (x * x - 1.0);
        out[outOffset + 1] = -s * z + c1 * x * y;
        out[outOffset + 2] = s * y + c1 * x * z;
        out[outOffset + 3] = s * z + c1 * x * y;
        out[outOffset + 4] = 1.0 + c1 * (y * y - 1.0);
        out[outOffset + 5] = -s * x + c1 * y * z;
        out[outOffset + 6] = -s * y + c1 * x * z;
        out[outOffset + 7] = s * x + c1 * y * z;
        out[outOffset + 8] = 1.0 + c1 * (z * z - 1.0);
        // p = (I angle + (1 - cos) [w] + (angle - sin) [w]^2) v, with v rescaled like w.
        final double vx = screw[screwOffset + 3] / norm;
        final double vy = screw[screwOffset + 4] / norm;
        final double vz = screw[screwOffset + 5] / norm;
        final double wxv = y * vz - z * vy;
        final double wyv = z * vx - x * vz;
        final double wzv = x * vy - y * vx;
        final double wv = x * vx + y * vy + z * vz;
        final double a3 = angle - s;
        out[outOffset + 9] = angle * vx + c1 * wxv + a3 * (x * wv - vx);
        out[outOffset + 10] = angle * vy + c1 * wyv + a3 * (y * wv - vy);
        out[outOffset + 11] = angle * vz + c1 * wzv + a3 * (z * wv - vz);
    }

    /**
     * out = [Ad_T] V = (R omega, p x (R omega) + R v): re-expresses a twist given in frame b in frame a.
     *
     * @param t T_ab.
     * @param tOffset offset of T_ab.
     * @param twist V_b = (omega, v), expressed in b.
     * @param twistOffset offset of V_b.
     * @param out destination of V_a, expressed in a.
     * @param outOffset first index written.
     */
    public static void adjoint(
        final double[] t, final int tOffset, final double[] twist, final int twistOffset, final double[] out,
        final int outOffset)
    {
        rotate(t, tOffset, twist, twistOffset, out, outOffset);
        rotate(t, tOffset, twist, twistOffset + 3, out, outOffset + 3);
        final double px = t[tOffset + 9];
        final double py = t[tOffset + 10];
        final double pz = t[tOffset + 11];
        final double wx = out[outOffset];
        final double wy = out[outOffset + 1];
        final double wz = out[outOffset + 2];
        out[outOffset + 3] += py * wz - pz * wy;
        out[outOffset + 4] += pz * wx - px * wz;
        out[outOffset + 5] += px * wy - py * wx;
    }

    /**
     * out = [Ad_T]^T F = (R^T (m - p x f), R^T f): re-expresses a wrench given in frame a in frame b.
     *
     * @param t T_ab.
     * @param tOffset offset of T_ab.
     * @param wrench F_a = (m, f), expressed in a, moment about a's origin.
     * @param wrenchOffset offset of F_a.
     * @param out destination of F_b, expressed in b, moment about b's origin.
     * @param outOffset first index written.
     */
    public static void adjointTranspose(
        final double[] t, final int tOffset, final double[] wrench, final int wrenchOffset, final double[] out,
        final int outOffset)
    {
        final double px = t[tOffset + 9];
        final double py = t[tOffset + 10];
        final double pz = t[tOffset + 11];
        final double fx = wrench[wrenchOffset + 3];
        final double fy = wrench[wrenchOffset + 4];
        final double fz = wrench[wrenchOffset + 5];
        final double mx = wrench[wrenchOffset] - (py * fz - pz * fy);
        final double my = wrench[wrenchOffset + 1] - (pz * fx - px * fz);
        final double mz = wrench[wrenchOffset + 2] - (px * fy - py * fx);
        for (int r = 0; r < 3; r++)
        {
            out[outOffset + r] = t[tOffset + r] * mx + t[tOffset + 3 + r] * my + t[tOffset + 6 + r] * mz;
            out[outOffset + 3 + r] = t[tOffset + r] * fx + t[tOffset + 3 + r] * fy + t[tOffset + 6 + r] * fz;
        }
    }

    /**
     * Writes the 6x6 matrix [Ad_T] = [[R, 0], [[p] R, R]], row-major. Not for per-tick use.
     *
     * @param t T_ab.
     * @param tOffset offset of T_ab.
     * @param out 36 doubles.
     */
    public static void adjointMatrix(final double[] t, final int tOffset, final double[] out)
    {
        final double[] column = new double[6];
        final double[] image = new double[6];
        for (int c = 0; c < 6; c++)
        {
            column[c] = 1.0;
            adjoint(t, tOffset, column, 0, image, 0);
            column[c] = 0.0;
            for (int r = 0; r < 6; r++)
            {
                out[6 * r + c] = image[r];
            }
        }
    }

    private static void rotate(
        final double[] t, final int tOffset, final double[] v, final int vOffset, final double[] out, final int outOffset)
    {
        final double x = v[vOffset];
        final double y = v[vOffset + 1];
        final double z = v[vOffset + 2];
        out[outOffset] = t[tOffset] * x + t[tOffset + 1] * y + t[tOffset + 2] * z;
        out[outOffset + 1] = t[tOffset + 3] * x + t[tOffset + 4] * y + t[tOffset + 5] * z;
        out[outOffset + 2] = t[tOffset + 6] * x + t[tOffset + 7] * y + t[tOffset + 8] * z;
    }
}
