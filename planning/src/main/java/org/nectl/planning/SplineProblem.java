package org.nectl.planning;

import java.util.Arrays;

import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;

/**
 * The discretised trajectory problem of Barman's thesis (2020, §4.1.2-4.2.1): a clamped B-spline
 * from rest at the start to rest at the end, its free control points and duration T the variables,
 * torque (and optionally velocity, acceleration and torque-rate) limits enforced on a grid of
 * normalised times, objective T (eq. 4.16) or the weighted form (eq. 4.18)
 * (1 - w) T + w integral of |tau|^2 dt.
 *
 * <p>Variables x: control points 2 .. m - 3 (point-major, dof each), then T. Points 0, 1 are the
 * start and m - 2, m - 1 the end, which makes q(0), q(T) the given positions and qd(0) = qd(T) = 0
 * exactly (the thesis's equality constraints 4.17, eliminated). Constraints c(x) &gt;= 0, each a
 * limit ratio 1 -+ value / limit, so all are of order one; the last is T &gt;= a small floor.
 * Values and Jacobians are computed together and cached for the last x, since the solver asks for
 * them separately.
 *
 * <p>Not thread safe.
 */
public final class SplineProblem implements SqpSolver.Program
{
    /** Shortest duration the solver may try, s: keeps 1 / T finite. */
    public static final double MIN_DURATION_S = 1e-3;

    private final PlanningDynamics dynamics;
    private final PlanningSettings settings;
    private final int dof;
    private final ClampedBSpline spline;
    private final SplineTrajectory trajectory;
    private final SplineTorqueSensitivities torques;
    private final SplineTorqueRateSensitivities rates;
    private final double[] start;
    private final double[] end;
    private final double[] samples;
    private final double[] quadratureWeights;
    private final double[] effortLimit;
    private final double[] velocityLimit;
    private final double[] accelerationLimit;
    private final double[] rateLimit;
    private final int constraintCount;
    private final int variableCount;

    private double[] cachedX;
    private double[] constraints;
    private double[][] jacobian;
    private double objective;
    private double[] objectiveGradient;

    /**
     * @param dynamics the robot's dynamics.
     * @param start start positions.
     * @param end end positions.
     * @param settings discretisation, limits and objective.
     */
    public SplineProblem(final PlanningDynamics dynamics, final double[] start, final double[] end, final PlanningSettings settings)
    {
        this.dynamics = dynamics;
        this.settings = settings;
        dof = dynamics.dof();
        spline = new ClampedBSpline(settings.degree(), settings.controlPoints());
        this.start = start.clone();
        this.end = end.clone();
        trajectory = new SplineTrajectory(spline, dof, initialPoints(), 1.0);
        torques = new SplineTorqueSensitivities(dynamics);
        final RobotModel model = dynamics.model();
        effortLimit = new double[dof];
        velocityLimit = new double[dof];
        rateLimit = new double[dof];
        accelerationLimit = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            final JointLimits limits = model.limits(j);
            effortLimit[j] = limits.effortMax();
            velocityLimit[j] = settings.velocityLimits() ? limits.velocityMax() : Double.POSITIVE_INFINITY;
            rateLimit[j] = settings.torqueRateLimits() ? limits.effortRateMax() : Double.POSITIVE_INFINITY;
            accelerationLimit[j] = settings.accelerationLimit().length == 0 ? Double.POSITIVE_INFINITY
                : settings.accelerationLimit()[Math.min(j, settings.accelerationLimit().length - 1)];
        }
        rates = anyFinite(rateLimit) ? new SplineTorqueRateSensitivities(new TorqueRatePartials(model, settings.gravity()), dof) : null;
        final int count = settings.samplesPerSpan() * spline.spanCount();
        samples = new double[count + 1];
        quadratureWeights = new double[count + 1];
        for (int k = 0; k <= count; k++)
        {
            samples[k] = (double)k / count;
            quadratureWeights[k] = (k == 0 || k == count ? 0.5 : 1.0) / count;
        }
        final int perSample = 2 * (finiteCount(effortLimit) + finiteCount(velocityLimit)
            + finiteCount(accelerationLimit) + finiteCount(rateLimit));
        constraintCount = perSample * samples.length + 1;
        variableCount = (spline.controlPointCount() - 4) * dof + 1;
    }

    /** @return number of variables. */
    @Override
    public int variableCount()
    {
        return variableCount;
    }

    /** @return number of inequality constraints. */
    @Override
    public int constraintCount()
    {
        return constraintCount;
    }

    /** @return the constraint grid, normalised times. */
    public double[] samples()
    {
        return samples.clone();
    }

    /** @return the spline basis. */
    public ClampedBSpline spline()
    {
        return spline;
    }

    /** @return the effort limits by coordinate. */
    public double[] effortLimits()
    {
        return effortLimit.clone();
    }

    /** @return the velocity limits in use by coordinate (infinite when not constrained). */
    public double[] velocityLimits()
    {
        return velocityLimit.clone();
    }

    /** @return the acceleration limits in use by coordinate (infinite when not constrained). */
    public double[] accelerationLimits()
    {
        return accelerationLimit.clone();
    }

    /** @return the torque-rate limits in use by coordinate (infinite when not constrained). */
    public double[] torqueRateLimits()
    {
        return rateLimit.clone();
    }

    /**
     * Control points on the straight line from start to end, eased in and out (smoothstep of the
     * Greville abscissae), with the two rest points at each end.
     */
    private double[] initialPoints()
    {
        final int m = spline.controlPointCount();
        final double[] points = new double[m * dof];
        for (int i = 0; i < m; i++)
        {
            final double g = i <= 1 ? 0.0 : i >= m - 2 ? 1.0 : spline.greville(i);
            final double s = g * g * (3.0 - 2.0 * g);
            for (int j = 0; j < dof; j++)
            {
                points[i * dof + j] = start[j] + s * (end[j] - start[j]);
            }
        }
        return points;
    }

    /**
     * The initial guess: the eased straight line, slowed until no limit is exceeded on the grid.
     *
     * @return x0, or null if no duration up to maxDuration satisfies the limits.
     * @param maxDurationS longest duration tried, s.
     */
    public double[] feasibleStart(final double maxDurationS)
    {
        final double[] points = initialPoints();
        double duration = 0.01;
        while (duration <= maxDurationS)
        {
            final double[] x = pack(points, duration);
            values(x);
            double worst = Double.POSITIVE_INFINITY;
            for (int c = 0; c < constraintCount - 1; c++)
            {
                worst = Math.min(worst, constraints[c]);
            }
            if (worst >= 0.05)
            {
                return x;
            }
            duration *= 1.25;
        }
        return null;
    }

    /**
     * @param x variables.
     * @return the full control points (start and end rest points included), point-major.
     */
    public double[] controlPoints(final double[] x)
    {
        final int m = spline.controlPointCount();
        final double[] points = new double[m * dof];
        System.arraycopy(start, 0, points, 0, dof);
        System.arraycopy(start, 0, points, dof, dof);
        System.arraycopy(x, 0, points, 2 * dof, (m - 4) * dof);
        System.arraycopy(end, 0, points, (m - 2) * dof, dof);
        System.arraycopy(end, 0, points, (m - 1) * dof, dof);
        return points;
    }

    /**
     * @param points full control points.
     * @param durationS T.
     * @return the variables.
     */
    public double[] pack(final double[] points, final double durationS)
    {
        final double[] x = new double[variableCount];
        System.arraycopy(points, 2 * dof, x, 0, variableCount - 1);
        x[variableCount - 1] = durationS;
        return x;
    }

    /**
     * @param x variables.
     * @return the trajectory they describe (a new object).
     */
    public SplineTrajectory trajectory(final double[] x)
    {
        return new SplineTrajectory(spline, dof, controlPoints(x), x[variableCount - 1]);
    }

    /** @return objective at x. */
    @Override
    public double objective(final double[] x)
    {
        values(x);
        return objective;
    }

    /** @return objective gradient at x (shared, do not modify). */
    @Override
    public double[] objectiveGradient(final double[] x)
    {
        values(x);
        return objectiveGradient;
    }

    /** @return constraint values c(x) &gt;= 0 (shared, do not modify). */
    @Override
    public double[] constraints(final double[] x)
    {
        values(x);
        return constraints;
    }

    /** @return constraint Jacobian, constraintCount x variableCount (shared, do not modify). */
    @Override
    public double[][] constraintJacobian(final double[] x)
    {
        values(x);
        return jacobian;
    }

    private void values(final double[] x)
    {
        if (cachedX != null && Arrays.equals(cachedX, x))
        {
            return;
        }
        final double duration = x[variableCount - 1];
        trajectory.set(controlPoints(x), duration);
        final int columns = spline.controlPointCount() * dof;
        final double[] tau = new double[dof];
        final double[] dTauDp = new double[dof * columns];
        final double[] dTauDT = new double[dof];
        final double[] tauDot = new double[dof];
        final double[] dRateDp = rates == null ? null : new double[dof * columns];
        final double[] dRateDT = new double[dof];
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] qddd = new double[dof];
        final double[] energyGradient = new double[variableCount];
        constraints = new double[constraintCount];
        jacobian = new double[constraintCount][variableCount];
        double energy = 0.0;
        int row = 0;
        for (int k = 0; k < samples.length; k++)
        {
            final double u = samples[k];
            torques.compute(trajectory, u, tau, dTauDp, dTauDT);
            if (rates != null)
            {
                rates.compute(trajectory, u, tauDot, dRateDp, dRateDT);
            }
            final int first = trajectory.evaluate(u, q, qd, qdd, qddd);
            final double[] basis = trajectory.basis();
            final int width = spline.degree() + 1;
            for (int j = 0; j < dof; j++)
            {
                energy += quadratureWeights[k] * tau[j] * tau[j];
                for (int v = 0; v < variableCount - 1; v++)
                {
                    energyGradient[v] += quadratureWeights[k] * 2.0 * tau[j] * dTauDp[j * columns + 2 * dof + v];
                }
                energyGradient[variableCount - 1] += quadratureWeights[k] * 2.0 * tau[j] * dTauDT[j];
            }
            for (int j = 0; j < dof; j++)
            {
                row = limitRows(row, tau[j], effortLimit[j], dTauDp, j * columns, dTauDT[j]);
                row = rates == null ? row : limitRows(row, tauDot[j], rateLimit[j], dRateDp, j * columns, dRateDT[j]);
                if (Double.isFinite(velocityLimit[j]))
                {
                    row = kinematicRows(row, qd[j], velocityLimit[j], 1, basis, width, first, j, duration);
                }
                if (Double.isFinite(accelerationLimit[j]))
                {
                    row = kinematicRows(row, qdd[j], accelerationLimit[j], 2, basis, width, first, j, duration);
                }
            }
        }
        constraints[row] = duration - MIN_DURATION_S;
        jacobian[row][variableCount - 1] = 1.0;
        final double w = settings.weight();
        objective = (1.0 - w) * duration + w * duration * energy;
        objectiveGradient = new double[variableCount];
        for (int v = 0; v < variableCount; v++)
        {
            objectiveGradient[v] = w * duration * energyGradient[v];
        }
        objectiveGradient[variableCount - 1] += (1.0 - w) + w * energy;
        cachedX = x.clone();
    }

    /** Rows 1 - value / limit and 1 + value / limit with their gradients; none for an infinite limit. */
    private int limitRows(
        final int row, final double value, final double limit, final double[] dValueDp, final int offset, final double dValueDT)
    {
        if (!Double.isFinite(limit))
        {
            return row;
        }
        constraints[row] = 1.0 - value / limit;
        constraints[row + 1] = 1.0 + value / limit;
        final int free = variableCount - 1;
        for (int v = 0; v < free; v++)
        {
            final double g = dValueDp[offset + 2 * dof + v] / limit;
            jacobian[row][v] = -g;
            jacobian[row + 1][v] = g;
        }
        jacobian[row][free] = -dValueDT / limit;
        jacobian[row + 1][free] = dValueDT / limit;
        return row + 2;
    }

    /** Limit rows of the order-th derivative of coordinate j, linear in the control points. */
    private int kinematicRows(
        final int row, final double value, final double limit, final int order, final double[] basis, final int width,
        final int first, final int j, final double duration)
    {
        constraints[row] = 1.0 - value / limit;
        constraints[row + 1] = 1.0 + value / limit;
        final double scale = Math.pow(duration, -order) / limit;
        final int m = spline.controlPointCount();
        for (int k = 0; k < width; k++)
        {
            final int point = first + k;
            if (point >= 2 && point <= m - 3)
            {
                final int v = (point - 2) * dof + j;
                jacobian[row][v] = -basis[order * width + k] * scale;
                jacobian[row + 1][v] = basis[order * width + k] * scale;
            }
        }
        final double dT = -order * value / duration / limit;
        jacobian[row][variableCount - 1] = -dT;
        jacobian[row + 1][variableCount - 1] = dT;
        return row + 2;
    }

    private static boolean anyFinite(final double[] values)
    {
        return finiteCount(values) > 0;
    }

    private static int finiteCount(final double[] values)
    {
        int count = 0;
        for (final double v : values)
        {
            count += Double.isFinite(v) ? 1 : 0;
        }
        return count;
    }
}
