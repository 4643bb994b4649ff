package org.nectl.planning;

/**
 * The independent check of the two-link minimum time: torques held at their bounds with the
 * switching structure Barman's thesis describes (2020, §4.1.3: tau1 at +limit then -limit; tau2 at
 * -limit, +limit, then -limit), the arm simulated by forward dynamics (Cholesky of the mass
 * matrix, fourth-order Runge-Kutta, each constant-torque piece integrated on its own so the
 * switches fall on step boundaries), and the switching times and T solved by Newton's method for
 * q(T) = end, qd(T) = 0. Nothing here uses the spline, the sensitivities or the SQP.
 */
final class BangBangShooting
{
    private final PlanningDynamics dynamics;
    private final double limit;
    private final double[] start;
    private final double[] end;
    private final int stepsPerPiece;

    BangBangShooting(final PlanningDynamics dynamics, final double limit, final double[] start, final double[] end,
        final int stepsPerPiece)
    {
        this.dynamics = dynamics;
        this.limit = limit;
        this.start = start.clone();
        this.end = end.clone();
        this.stepsPerPiece = stepsPerPiece;
    }

    /**
     * @param guess t1 (tau1 switch), t2a, t2b (tau2 switches), T.
     * @return the solved times, or null if Newton's method did not converge to 1e-10.
     */
    double[] solve(final double[] guess)
    {
        final double[] z = guess.clone();
        for (int iteration = 0; iteration < 50; iteration++)
        {
            final double[] r = residual(z);
            if (norm(r) < 1e-10)
            {
                return z;
            }
            final double[][] jacobian = new double[4][4];
            final double h = 1e-7;
            for (int k = 0; k < 4; k++)
            {
                final double[] plus = z.clone();
                final double[] minus = z.clone();
                plus[k] += h;
                minus[k] -= h;
                final double[] rp = residual(plus);
                final double[] rm = residual(minus);
                for (int i = 0; i < 4; i++)
                {
                    jacobian[i][k] = (rp[i] - rm[i]) / (2.0 * h);
                }
            }
            final double[] step = solveLinear(jacobian, r);
            for (int k = 0; k < 4; k++)
            {
                z[k] -= step[k];
            }
        }
        return null;
    }

    /** q(T) - end and qd(T) for the switching times z. */
    double[] residual(final double[] z)
    {
        final double t1 = z[0];
        final double t2a = z[1];
        final double t2b = z[2];
        final double duration = z[3];
        final double[] times = sortedUnique(new double[] {0.0, t1, t2a, t2b, duration});
        final double[] state = {start[0], start[1], 0.0, 0.0};
        for (int piece = 0; piece + 1 < times.length; piece++)
        {
            final double from = times[piece];
            final double to = times[piece + 1];
            final double middle = 0.5 * (from + to);
            final double[] tau = {middle < t1 ? limit : -limit, middle < t2a || middle >= t2b ? -limit : limit};
            final double dt = (to - from) / stepsPerPiece;
            for (int s = 0; s < stepsPerPiece; s++)
            {
                rungeKutta(state, tau, dt);
            }
        }
        return new double[] {state[0] - end[0], state[1] - end[1], state[2], state[3]};
    }

    private void rungeKutta(final double[] state, final double[] tau, final double dt)
    {
        final double[] k1 = derivative(state, tau);
        final double[] k2 = derivative(add(state, k1, dt / 2), tau);
        final double[] k3 = derivative(add(state, k2, dt / 2), tau);
        final double[] k4 = derivative(add(state, k3, dt), tau);
        for (int i = 0; i < 4; i++)
        {
            state[i] += dt / 6.0 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
        }
    }

    private double[] derivative(final double[] state, final double[] tau)
    {
        final double[] qdd = new double[2];
        dynamics.acceleration(new double[] {state[0], state[1]}, new double[] {state[2], state[3]}, tau, qdd);
        return new double[] {state[2], state[3], qdd[0], qdd[1]};
    }

    private static double[] add(final double[] a, final double[] b, final double s)
    {
        final double[] out = new double[a.length];
        for (int i = 0; i < a.length; i++)
        {
            out[i] = a[i] + s * b[i];
        }
        return out;
    }

    private static double[] sortedUnique(final double[] values)
    {
        final double[] sorted = values.clone();
        java.util.Arrays.sort(sorted);
        return java.util.Arrays.stream(sorted).distinct().toArray();
    }

    private static double norm(final double[] v)
    {
        double sum = 0.0;
        for (final double e : v)
        {
            sum += e * e;
        }
        return Math.sqrt(sum);
    }

    /** Gaussian elimination with partial pivoting on a 4 x 4 system. */
    private static double[] solveLinear(final double[][] a, final double[] b)
    {
        final int n = b.length;
        final double[][] m = new double[n][n + 1];
        for (int i = 0; i < n; i++)
        {
            System.arraycopy(a[i], 0, m[i], 0, n);
            m[i][n] = b[i];
        }
        for (int col = 0; col < n; col++)
        {
            int pivot = col;
            for (int row = col + 1; row < n; row++)
            {
                if (Math.abs(m[row][col]) > Math.abs(m[pivot][col]))
                {
                    pivot = row;
                }
            }
            final double[] swap = m[col];
            m[col] = m[pivot];
            m[pivot] = swap;
            for (int row = col + 1; row < n; row++)
            {
                final double f = m[row][col] / m[col][col];
                for (int k = col; k <= n; k++)
                {
                    m[row][k] -= f * m[col][k];
                }
            }
        }
        final double[] x = new double[n];
        for (int i = n - 1; i >= 0; i--)
        {
            double sum = m[i][n];
            for (int k = i + 1; k < n; k++)
            {
                sum -= m[i][k] * x[k];
            }
            x[i] = sum / m[i][i];
        }
        return x;
    }
}
