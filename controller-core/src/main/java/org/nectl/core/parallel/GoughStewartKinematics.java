package org.nectl.core.parallel;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.decomposition.lu.LUDecompositionAlt_DDRM;
import org.ejml.dense.row.linsol.lu.LinearSolverLu_DDRM;
import org.nectl.core.closedloop.ClosedLoopModel;

/**
 * Inverse and forward kinematics of a {@link GoughStewartModel} (Khalil, "Dynamic modeling of robots
 * using recursive Newton-Euler techniques", ICINCO 2010, §5). Inverse: leg i's length
 * {@code L_i = |p + R b_i - a_i|}, its rate {@code u_i . v_Bi} and its acceleration
 * {@code u_i . a_Bi + (|v_Bi|^2 - Ldot_i^2) / L_i}, with {@code v_Bi = v + omega x P_i},
 * {@code a_Bi = vdot + omegadot x P_i + omega x (omega x P_i)} and {@code P_i = R b_i}. Forward: the
 * pose whose leg lengths are given, by Newton's method on {@code L(x) = L*} with the leg-rate
 * Jacobian J_p^-1 (rows {@code [u_i^T, (P_i x u_i)^T]}, the leg rates per platform twist), each step a
 * twist applied as {@code p += dp}, {@code R = exp(dphi) R}, with a report: converged, singular
 * (J_p^-1's LU pivot ratio below {@link #SINGULAR_PIVOT_RATIO}: a parallel singularity) or not
 * converged, the iteration count, the residual and the pivot ratio.
 *
 * <p>Poses are in the base frame: platform origin p (m), axes R (9 row-major), twist
 * {@code (v, omega)} and its rate {@code (vdot, omegadot)}, linear part first. Not thread safe; every
 * method but the constructor is real-time safe (allocates nothing).
 */
public final class GoughStewartKinematics
{
    /** Newton converged: every leg length is within {@link #TOLERANCE} of the one asked for. */
    public static final int CONVERGED = 0;
    /** J_p^-1's pivot ratio fell below {@link #SINGULAR_PIVOT_RATIO}. */
    public static final int SINGULAR = 1;
    /** {@link #MAX_ITERATIONS} Newton steps did not reach {@link #TOLERANCE}. */
    public static final int NOT_CONVERGED = 2;
    /** Convergence tolerance on the leg lengths, m. */
    public static final double TOLERANCE = 1e-12;
    /** Newton iterations at most. */
    public static final int MAX_ITERATIONS = 30;
    /**
     * Smallest ratio of the smallest to the largest pivot of the LU factors of J_p^-1 below which the
     * pose is reported singular (the closed-loop models' threshold).
     */
    public static final double SINGULAR_PIVOT_RATIO = ClosedLoopModel.SINGULAR_PIVOT_RATIO;

    private static final int N = GoughStewartModel.LEGS;

    private final double[] base;
    private final double[] attach;
    /** P_i = R b_i, base frame, 3 per leg, of the last pose evaluated. */
    private final double[] lever = new double[3 * N];
    /** u_i, unit leg vectors from A_i to B_i, base frame, 3 per leg. */
    private final double[] unit = new double[3 * N];
    private final double[] length = new double[N];
    private final DMatrixRMaj inverseJacobian = new DMatrixRMaj(N, 6);
    private final DMatrixRMaj rhs = new DMatrixRMaj(N, 1);
    private final DMatrixRMaj step = new DMatrixRMaj(6, 1);
    private final LUDecompositionAlt_DDRM decomposition = new LUDecompositionAlt_DDRM();
    private final LinearSolverLu_DDRM solver = new LinearSolverLu_DDRM(decomposition);
    private final double[] rotated = new double[9];

    private int iterations;
    private double residualNorm;
    private double pivotRatio;

    /**
     * Not real-time safe: allocates the workspace.
     *
     * @param model the platform.
     */
    public GoughStewartKinematics(final GoughStewartModel model)
    {
        base = model.basePoints();
        attach = model.platformPoints();
        decomposition.setExpectedMaxSize(N, 6);
    }

    /**
     * Leg lengths of a pose. Real-time safe.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @param lengths output: the six leg lengths, m.
     */
    public void inverse(final double[] position, final double[] rotation, final double[] lengths)
    {
        legs(position, rotation);
        System.arraycopy(length, 0, lengths, 0, N);
    }

    /**
     * Leg lengths, rates and accelerations of a platform motion. Real-time safe.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @param twist (v, omega), m/s and rad/s.
     * @param twistRate (vdot, omegadot), m/s^2 and rad/s^2.
     * @param lengths output: leg lengths, m.
     * @param rates output: leg length rates, m/s.
     * @param accelerations output: leg length accelerations, m/s^2.
     */
    public void inverse(
        final double[] position, final double[] rotation, final double[] twist, final double[] twistRate,
        final double[] lengths, final double[] rates, final double[] accelerations)
    {
        legs(position, rotation);
        final double wx = twist[3];
        final double wy = twist[4];
        final double wz = twist[5];
        for (int i = 0; i < N; i++)
        {
            final int o = 3 * i;
            final double px = lever[o];
            final double py = lever[o + 1];
            final double pz = lever[o + 2];
            // omega x P_i, then v_B and a_B.
            final double cx = wy * pz - wz * py;
            final double cy = wz * px - wx * pz;
            final double cz = wx * py - wy * px;
            final double vx = twist[0] + cx;
            final double vy = twist[1] + cy;
            final double vz = twist[2] + cz;
            final double ax = twistRate[0] + twistRate[4] * pz - twistRate[5] * py + wy * cz - wz * cy;
            final double ay = twistRate[1] + twistRate[5] * px - twistRate[3] * pz + wz * cx - wx * cz;
            final double az = twistRate[2] + twistRate[3] * py - twistRate[4] * px + wx * cy - wy * cx;
            final double rate = unit[o] * vx + unit[o + 1] * vy + unit[o + 2] * vz;
            lengths[i] = length[i];
            rates[i] = rate;
            // d/dt (u . v_B) with du/dt = (v_B - Ldot u) / L.
            accelerations[i] = unit[o] * ax + unit[o + 1] * ay + unit[o + 2] * az
                + (vx * vx + vy * vy + vz * vz - rate * rate) / length[i];
        }
    }

    /**
     * The leg-rate Jacobian J_p^-1 at a pose: {@code Ldot = J_p^-1 (v, omega)}. Real-time safe.
     *
     * @param position platform origin, m.
     * @param rotation platform axes, 9 row-major.
     * @param jacobian output, row-major 6 x 6, row i {@code [u_i^T, (P_i x u_i)^T]}.
     */
    public void inverseJacobian(final double[] position, final double[] rotation, final double[] jacobian)
    {
        legs(position, rotation);
        fillInverseJacobian();
        System.arraycopy(inverseJacobian.data, 0, jacobian, 0, 6 * N);
    }

    /**
     * The pose with the given leg lengths, by Newton's method from the pose passed in. Real-time safe.
     *
     * @param lengths the six leg lengths, m.
     * @param position platform origin, m: the initial guess on entry, the solution on return (the last
     *     iterate if not converged).
     * @param rotation platform axes, 9 row-major: as position.
     * @return {@link #CONVERGED}, {@link #SINGULAR} or {@link #NOT_CONVERGED}; {@link #iterations()},
     *     {@link #residualNorm()} and {@link #pivotRatio()} tell more.
     */
    public int forward(final double[] lengths, final double[] position, final double[] rotation)
    {
        pivotRatio = Double.NaN;
        for (iterations = 0; ; iterations++)
        {
            legs(position, rotation);
            residualNorm = 0.0;
            for (int i = 0; i < N; i++)
            {
                rhs.data[i] = lengths[i] - length[i];
                // Math.max keeps a NaN (a non-finite guess or length), which then never passes for convergence.
                residualNorm = Math.max(residualNorm, Math.abs(rhs.data[i]));
            }
            if (residualNorm <= TOLERANCE)
            {
                return factorise() ? CONVERGED : SINGULAR;
            }
            if (iterations == MAX_ITERATIONS || Double.isNaN(residualNorm))
            {
                return NOT_CONVERGED;
            }
            if (!factorise())
            {
                return SINGULAR;
            }
            solver.solve(rhs, step);
            applyTwist(step.data, position, rotation);
        }
    }

    /**
     * Solves {@code J_p^-1 x = b} with the LU factors of J_p^-1 at the pose of the last
     * {@link #forward} that returned {@link #CONVERGED}: the platform twist (v, omega) whose leg rates
     * are b, say. Real-time safe.
     *
     * @param b six leg values.
     * @param x output: the twist-like solution, linear part first.
     */
    public void solveAtSolution(final double[] b, final double[] x)
    {
        System.arraycopy(b, 0, rhs.data, 0, N);
        solver.solve(rhs, step);
        System.arraycopy(step.data, 0, x, 0, 6);
    }

    /** @return Newton iterations of the last {@link #forward}. */
    public int iterations()
    {
        return iterations;
    }

    /** @return largest |L_i - L*_i| at the end of the last {@link #forward}, m (NaN if not finite). */
    public double residualNorm()
    {
        return residualNorm;
    }

    /**
     * @return min |u_ii| / max |u_ii| of the LU factors of J_p^-1 at the last factorisation of
     *     {@link #forward}, NaN before the first.
     */
    public double pivotRatio()
    {
        return pivotRatio;
    }

    /** P_i, u_i and L_i of every leg at a pose. */
    private void legs(final double[] position, final double[] rotation)
    {
        for (int i = 0; i < N; i++)
        {
            final int o = 3 * i;
            double sum = 0.0;
            for (int e = 0; e < 3; e++)
            {
                lever[o + e] = rotation[3 * e] * attach[o] + rotation[3 * e + 1] * attach[o + 1]
                    + rotation[3 * e + 2] * attach[o + 2];
                final double d = position[e] + lever[o + e] - base[o + e];
                unit[o + e] = d;
                sum += d * d;
            }
            final double l = Math.sqrt(sum);
            length[i] = l;
            unit[o] /= l;
            unit[o + 1] /= l;
            unit[o + 2] /= l;
        }
    }

    private void fillInverseJacobian()
    {
        final double[] j = inverseJacobian.data;
        for (int i = 0; i < N; i++)
        {
            final int o = 3 * i;
            final int r = 6 * i;
            j[r] = unit[o];
            j[r + 1] = unit[o + 1];
            j[r + 2] = unit[o + 2];
            j[r + 3] = lever[o + 1] * unit[o + 2] - lever[o + 2] * unit[o + 1];
            j[r + 4] = lever[o + 2] * unit[o] - lever[o] * unit[o + 2];
            j[r + 5] = lever[o] * unit[o + 1] - lever[o + 1] * unit[o];
        }
    }

    /** J_p^-1 at the last pose evaluated, its LU factors and pivot ratio; false if singular. */
    private boolean factorise()
    {
        fillInverseJacobian();
        if (!solver.setA(inverseJacobian))
        {
            pivotRatio = 0.0;
            return false;
        }
        final double[] lu = decomposition.getLU().data;
        double smallest = Double.POSITIVE_INFINITY;
        double largest = 0.0;
        for (int i = 0; i < N; i++)
        {
            final double u = Math.abs(lu[7 * i]);
            smallest = Math.min(smallest, u);
            largest = Math.max(largest, u);
        }
        pivotRatio = largest == 0.0 ? 0.0 : smallest / largest;
        return pivotRatio >= SINGULAR_PIVOT_RATIO;
    }

    /** p += dp, R = exp(hat(dphi)) R (Rodrigues), dphi in the base frame. */
    void applyTwist(final double[] twist, final double[] position, final double[] rotation)
    {
        position[0] += twist[0];
        position[1] += twist[1];
        position[2] += twist[2];
        final double x = twist[3];
        final double y = twist[4];
        final double z = twist[5];
        final double angle = Math.sqrt(x * x + y * y + z * z);
        // sin(a)/a and (1 - cos a)/a^2, by their series near 0 where the quotients lose digits.
        final double a = angle < 1e-4 ? 1.0 - angle * angle / 6.0 : Math.sin(angle) / angle;
        final double b = angle < 1e-4 ? 0.5 - angle * angle / 24.0 : (1.0 - Math.cos(angle)) / (angle * angle);
        final double[] e = rotated;
        e[0] = 1.0 - b * (y * y + z * z);
        e[1] = -a * z + b * x * y;
        e[2] = a * y + b * x * z;
        e[3] = a * z + b * x * y;
        e[4] = 1.0 - b * (x * x + z * z);
        e[5] = -a * x + b * y * z;
        e[6] = -a * y + b * x * z;
        e[7] = a * x + b * y * z;
        e[8] = 1.0 - b * (x * x + y * y);
        for (int c = 0; c < 3; c++)
        {
            final double r0 = rotation[c];
            final double r1 = rotation[3 + c];
            final double r2 = rotation[6 + c];
            rotation[c] = e[0] * r0 + e[1] * r1 + e[2] * r2;
            rotation[3 + c] = e[3] * r0 + e[4] * r1 + e[5] * r2;
            rotation[6 + c] = e[6] * r0 + e[7] * r1 + e[8] * r2;
        }
    }
}
