package org.nectl.planning;

import java.util.Optional;
import java.util.function.Supplier;

import org.ojalgo.matrix.store.R064Store;
import org.ojalgo.optimisation.Optimisation;
import org.ojalgo.optimisation.convex.ConvexSolver;
import org.ojalgo.structure.Access1D;

/**
 * Sequential quadratic programming for min f(x) subject to c(x) &gt;= 0 with analytic gradients
 * (Nocedal and Wright, "Numerical Optimization", 2nd ed., 2006, Algorithm 18.3): each step solves
 * the quadratic subproblem min g.d + d.B d / 2 subject to c + A d &gt;= -s, |d_i| &lt;= radius,
 * s &gt;= 0 with ojAlgo's convex (active-set) QP solver, where the elastic slack s, penalised
 * heavily, keeps the subproblem feasible after an infeasible iterate; B is a damped BFGS
 * approximation of the Lagrangian's Hessian (Powell's damping, eq. 18.15); steps are accepted by
 * backtracking on the l1 merit function f + mu sum max(0, -c_i).
 *
 * <p>Why not Hipparchus: hipparchus-optim 4.0.3's SQPOptimizerS and SQPOptimizerGM were tried
 * first. On the two-link minimum-time problem both stop in their first BFGS update with
 * "non symmetric matrix" (their update forms H s s^T H in floating point, not exactly symmetric,
 * then an EigenDecompositionSymmetric with a 1e-12 relative symmetry check refuses it), at every
 * size tried: 5 variables and 53 constraints, 9 and 85, 21 and 181. The update is private, so it
 * cannot be worked around from outside; the maintainers discuss the same failure on their pull
 * request #404. Hence this solver, with the QP (the part worth a library) from ojAlgo.
 *
 * <p>Not thread safe; not real-time code.
 */
public final class SqpSolver
{
    /** A smooth problem: min f(x) subject to c(x) &gt;= 0. */
    public interface Program
    {
        /** @return number of variables. */
        int variableCount();

        /** @return number of constraints. */
        int constraintCount();

        /** @param x point. @return f(x). */
        double objective(double[] x);

        /** @param x point. @return grad f(x). */
        double[] objectiveGradient(double[] x);

        /** @param x point. @return c(x). */
        double[] constraints(double[] x);

        /** @param x point. @return dc/dx, constraintCount x variableCount. */
        double[][] constraintJacobian(double[] x);
    }

    /**
     * @param x the last iterate.
     * @param iterations SQP iterations done.
     * @param converged true if the step and the constraint violation fell below the tolerances.
     * @param maxViolation largest max(0, -c_i) at x.
     * @param failure null, or why the solve stopped early.
     */
    public record Result(double[] x, int iterations, boolean converged, double maxViolation, String failure)
    {
    }

    private static final double ELASTIC_PENALTY = 1e4;
    private static final double ARMIJO = 1e-4;
    private static final boolean TRACE = Boolean.getBoolean("nectl.sqp.trace");

    private final double stepTolerance;
    private final double feasibilityTolerance;
    private final int maxIterations;

    /**
     * @param stepTolerance converged when max |d_i| (scaled variables) is below this.
     * @param feasibilityTolerance and every c_i &gt;= -this.
     * @param maxIterations iteration limit.
     */
    public SqpSolver(final double stepTolerance, final double feasibilityTolerance, final int maxIterations)
    {
        this.stepTolerance = stepTolerance;
        this.feasibilityTolerance = feasibilityTolerance;
        this.maxIterations = maxIterations;
    }

    /**
     * Solves from x0.
     *
     * @param program the problem.
     * @param x0 starting point.
     * @param scale typical magnitude of each variable: steps and the trust box are measured in x / scale.
     * @return the result.
     */
    public Result solve(final Program program, final double[] x0, final double[] scale)
    {
        final int n = program.variableCount();
        final int m = program.constraintCount();
        double[] x = x0.clone();
        final double[][] hessian = new double[n][n];
        for (int i = 0; i < n; i++)
        {
            hessian[i][i] = 1.0;
        }
        double radius = 0.25;
        double penalty = 1.0;
        double[] multipliers = new double[m];
        for (int iteration = 1; iteration <= maxIterations; iteration++)
        {
            final double f = program.objective(x);
            final double[] g = scaled(program.objectiveGradient(x), scale);
            final double[] c = program.constraints(x).clone();
            final double[][] a = scaledRows(program.constraintJacobian(x), scale);
            final Subproblem qp = subproblem(hessian, g, c, a, radius);
            if (qp == null)
            {
                return new Result(x, iteration, false, violation(c), "the quadratic subproblem could not be solved");
            }
            final double[] d = qp.step;
            double largest = 0.0;
            for (final double v : qp.multipliers)
            {
                largest = Math.max(largest, Math.abs(v));
            }
            penalty = Math.max(penalty, 1.1 * largest);
            final double step = maxAbs(d);
            if (TRACE)
            {
                System.err.printf("sqp %d f %.6f step %.3e viol %.3e radius %.3e%n", iteration, f, step, violation(c), radius);
            }
            if (step < stepTolerance && violation(c) <= feasibilityTolerance)
            {
                return new Result(x, iteration, true, violation(c), null);
            }
            // directional derivative of the l1 merit function along d (Nocedal and Wright, eq. 18.29)
            final double slope = dot(g, d) - penalty * sumViolation(c);
            final double merit = f + penalty * sumViolation(c);
            double alpha = 1.0;
            double[] trial = null;
            for (int backtrack = 0; backtrack < 30; backtrack++)
            {
                trial = move(x, d, alpha, scale);
                final double trialMerit = program.objective(trial) + penalty * sumViolation(program.constraints(trial));
                if (trialMerit <= merit + ARMIJO * alpha * Math.min(slope, 0.0))
                {
                    break;
                }
                alpha *= 0.5;
            }
            radius = alpha == 1.0 ? Math.min(1.0, 2.0 * radius) : Math.max(1e-6, Math.min(radius, 2.0 * alpha * step));
            multipliers = qp.multipliers;
            final double[] gradientNew = scaled(program.objectiveGradient(trial), scale);
            final double[][] aNew = scaledRows(program.constraintJacobian(trial), scale);
            final double[] s = new double[n];
            final double[] y = new double[n];
            for (int i = 0; i < n; i++)
            {
                s[i] = alpha * d[i];
                y[i] = gradientNew[i] - g[i];
            }
            for (int r = 0; r < m; r++)
            {
                if (multipliers[r] != 0.0)
                {
                    for (int i = 0; i < n; i++)
                    {
                        y[i] -= multipliers[r] * (aNew[r][i] - a[r][i]);
                    }
                }
            }
            dampedBfgs(hessian, s, y);
            x = trial;
        }
        return new Result(x, maxIterations, false, violation(program.constraints(x)), "iteration limit reached");
    }

    /** The QP step (scaled variables) and the multipliers of c + A d &gt;= 0 (non-negative). */
    private record Subproblem(double[] step, double[] multipliers)
    {
    }

    private static Subproblem subproblem(
        final double[][] hessian, final double[] g, final double[] c, final double[][] a, final double radius)
    {
        final int n = g.length;
        final int m = c.length;
        // A constraint that no step in the box can reach (c_i - |A_i|_1 radius > 0) cannot be
        // active: left out, the QP shrinks (on a minimum-time problem, about half the rows are the
        // far side of a torque limit).
        final int[] kept = new int[m];
        int rowCount = 0;
        for (int r = 0; r < m; r++)
        {
            double reach = 0.0;
            for (int i = 0; i < n; i++)
            {
                reach += Math.abs(a[r][i]);
            }
            if (c[r] - reach * radius <= 0.0)
            {
                kept[rowCount++] = r;
            }
        }
        // variables d (n) and the elastic slack s; constraints -A d - s <= c, +-d <= radius, -s <= 0
        final R064Store q = R064Store.FACTORY.make(n + 1, n + 1);
        final R064Store linear = R064Store.FACTORY.make(n + 1, 1);
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < n; j++)
            {
                q.set(i, j, hessian[i][j]);
            }
            linear.set(i, 0, -g[i]);
        }
        q.set(n, n, 1.0);
        linear.set(n, 0, -ELASTIC_PENALTY);
        final int rows = rowCount + 2 * n + 1;
        final R064Store ai = R064Store.FACTORY.make(rows, n + 1);
        final R064Store bi = R064Store.FACTORY.make(rows, 1);
        for (int k = 0; k < rowCount; k++)
        {
            final int r = kept[k];
            for (int i = 0; i < n; i++)
            {
                ai.set(k, i, -a[r][i]);
            }
            ai.set(k, n, -1.0);
            bi.set(k, 0, c[r]);
        }
        for (int i = 0; i < n; i++)
        {
            ai.set(rowCount + 2 * i, i, 1.0);
            bi.set(rowCount + 2 * i, 0, radius);
            ai.set(rowCount + 2 * i + 1, i, -1.0);
            bi.set(rowCount + 2 * i + 1, 0, radius);
        }
        ai.set(rows - 1, n, -1.0);
        final Optimisation.Result result = ConvexSolver.newBuilder().objective(q, linear).inequalities(ai, bi).build().solve();
        if (!result.getState().isFeasible())
        {
            return null;
        }
        final double[] step = new double[n];
        for (int i = 0; i < n; i++)
        {
            step[i] = result.doubleValue(i);
        }
        final double[] multipliers = new double[m];
        final Optional<Supplier<Access1D<?>>> duals = result.getDualSolution();
        if (duals.isPresent())
        {
            final Access1D<?> values = duals.get().get();
            for (int k = 0; k < rowCount && k < values.count(); k++)
            {
                // multipliers of inequalities share one sign; the magnitude is what the BFGS update needs
                multipliers[kept[k]] = Math.abs(values.doubleValue(k));
            }
        }
        return new Subproblem(step, multipliers);
    }

    /** B += y y^T / s.y - B s s^T B / s.B s with Powell's damping of y; kept exactly symmetric. */
    private static void dampedBfgs(final double[][] b, final double[] s, final double[] y)
    {
        final int n = s.length;
        final double[] bs = new double[n];
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j < n; j++)
            {
                bs[i] += b[i][j] * s[j];
            }
        }
        final double sBs = dot(s, bs);
        if (!(sBs > 1e-14))
        {
            return;
        }
        double sy = dot(s, y);
        final double[] r = y.clone();
        if (sy < 0.2 * sBs)
        {
            final double theta = 0.8 * sBs / (sBs - sy);
            for (int i = 0; i < n; i++)
            {
                r[i] = theta * y[i] + (1.0 - theta) * bs[i];
            }
            sy = dot(s, r);
        }
        for (int i = 0; i < n; i++)
        {
            for (int j = 0; j <= i; j++)
            {
                final double v = b[i][j] + r[i] * r[j] / sy - bs[i] * bs[j] / sBs;
                b[i][j] = v;
                b[j][i] = v;
            }
        }
    }

    private static double[] move(final double[] x, final double[] d, final double alpha, final double[] scale)
    {
        final double[] out = new double[x.length];
        for (int i = 0; i < x.length; i++)
        {
            out[i] = x[i] + alpha * d[i] * scale[i];
        }
        return out;
    }

    private static double[] scaled(final double[] gradient, final double[] scale)
    {
        final double[] out = new double[gradient.length];
        for (int i = 0; i < gradient.length; i++)
        {
            out[i] = gradient[i] * scale[i];
        }
        return out;
    }

    private static double[][] scaledRows(final double[][] jacobian, final double[] scale)
    {
        final double[][] out = new double[jacobian.length][];
        for (int r = 0; r < jacobian.length; r++)
        {
            out[r] = scaled(jacobian[r], scale);
        }
        return out;
    }

    private static double violation(final double[] c)
    {
        double worst = 0.0;
        for (final double v : c)
        {
            worst = Math.max(worst, -v);
        }
        return worst;
    }

    private static double sumViolation(final double[] c)
    {
        double sum = 0.0;
        for (final double v : c)
        {
            sum += Math.max(0.0, -v);
        }
        return sum;
    }

    private static double maxAbs(final double[] v)
    {
        double max = 0.0;
        for (final double e : v)
        {
            max = Math.max(max, Math.abs(e));
        }
        return max;
    }

    private static double dot(final double[] a, final double[] b)
    {
        double sum = 0.0;
        for (int i = 0; i < a.length; i++)
        {
            sum += a[i] * b[i];
        }
        return sum;
    }
}
