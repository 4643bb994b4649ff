package org.nectl.core.control;

import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;

/**
 * A jerk-continuous joint trajectory through timed waypoints, sampled for q, qd, qdd, qddd and the
 * fourth derivative (snap) at any time.
 *
 * <p>Each segment and joint is the degree-7 polynomial that meets position, velocity, acceleration
 * and jerk at both of its waypoints, so q, qd, qdd and qddd are continuous across waypoints (snap
 * is piecewise continuous). A quintic cannot also meet the jerk at both ends; the septic is the
 * lowest degree that can. Velocities, accelerations and jerks at the waypoints come from
 * {@link KnotDerivatives}: zero at the first and last waypoint (the arm starts and ends at rest,
 * with zero acceleration and jerk, so the feedforward torque and its rate start and end
 * continuous), zero where a joint reverses, and a three-point estimate elsewhere. That choice is
 * local and does not overshoot at reversals; a globally smoothest (minimum-snap) spline would
 * need a linear solve and rings past the waypoints.
 *
 * <p>Before the first waypoint the sampler holds the first position, after the last one the last
 * position, with every derivative zero.
 *
 * <p>Construction checks the whole curve against the model's position and velocity limits (the
 * extrema of each polynomial, not only the waypoints). Immutable and thread safe: build it off the
 * real-time path and hand it to the control loop.
 */
public final class TrajectorySampler
{
    /** {@link #sample} result: the time is before the first waypoint; the first point is held. */
    public static final int BEFORE_START = 0;
    /** {@link #sample} result: the time is within the trajectory. */
    public static final int IN_PROGRESS = 1;
    /** {@link #sample} result: the time is at or after the last waypoint; the last point is held. */
    public static final int FINISHED = 2;
    /** {@link #sample} result: the time was NaN; nothing was written. */
    public static final int INVALID_TIME = -1;

    /** Relative slack on the limit checks so that a curve touching a limit is not rejected by rounding. */
    private static final double LIMIT_SLACK = 1e-12;

    private final int dof;
    private final int segments;
    private final double[] knotTimesS;
    private final double[] inverseDurations;
    private final double[] coefficients;
    private final double[] firstPosition;
    private final double[] lastPosition;

    /**
     * Fits the segments and checks them against the model's limits. Not real-time safe.
     *
     * @param model the robot: its coordinate count, joint names and position/velocity limits.
     * @param waypoints timed positions, one value per coordinate of the model.
     * @throws IllegalArgumentException on a wrong joint count, or naming the waypoint(s), joint,
     *     value and limit of the first limit violation.
     */
    public TrajectorySampler(final RobotModel model, final JointWaypoints waypoints)
    {
        if (waypoints.dof() != model.dof())
        {
            throw new IllegalArgumentException("waypoints have " + waypoints.dof() + " joint values but robot '"
                + model.name() + "' has " + model.dof() + " coordinates");
        }
        dof = model.dof();
        final int n = waypoints.count();
        segments = n - 1;
        knotTimesS = new double[n];
        final double[] q = new double[n * dof];
        for (int k = 0; k < n; k++)
        {
            knotTimesS[k] = waypoints.timeS(k);
            for (int j = 0; j < dof; j++)
            {
                q[k * dof + j] = waypoints.position(k, j);
            }
        }
        checkWaypointPositions(model, q);
        inverseDurations = new double[segments];
        for (int i = 0; i < segments; i++)
        {
            inverseDurations[i] = 1.0 / (knotTimesS[i + 1] - knotTimesS[i]);
        }
        coefficients = new double[segments * dof * SepticHermite.COEFFICIENTS];
        fitSegments(q);
        firstPosition = new double[dof];
        lastPosition = new double[dof];
        System.arraycopy(q, 0, firstPosition, 0, dof);
        System.arraycopy(q, segments * dof, lastPosition, 0, dof);
        checkCurve(model);
    }

    private void fitSegments(final double[] q)
    {
        final double[] v = new double[q.length];
        final double[] a = new double[q.length];
        final double[] jerk = new double[q.length];
        for (int j = 0; j < dof; j++)
        {
            KnotDerivatives.choose(knotTimesS, q, dof, j, v);
            KnotDerivatives.choose(knotTimesS, v, dof, j, a);
            KnotDerivatives.choose(knotTimesS, a, dof, j, jerk);
        }
        for (int i = 0; i < segments; i++)
        {
            final double h = knotTimesS[i + 1] - knotTimesS[i];
            for (int j = 0; j < dof; j++)
            {
                final int l = i * dof + j;
                final int r = l + dof;
                SepticHermite.fit(h, q[l], v[l], a[l], jerk[l], q[r], v[r], a[r], jerk[r],
                    coefficients, l * SepticHermite.COEFFICIENTS);
            }
        }
    }

    private void checkWaypointPositions(final RobotModel model, final double[] q)
    {
        for (int k = 0; k < knotTimesS.length; k++)
        {
            for (int j = 0; j < dof; j++)
            {
                final String problem = positionProblem(model, j, q[k * dof + j]);
                if (problem != null)
                {
                    throw new IllegalArgumentException(
                        "waypoint " + k + " (t = " + knotTimesS[k] + " s), " + joint(model, j) + ": " + problem);
                }
            }
        }
    }

    private void checkCurve(final RobotModel model)
    {
        final double[] range = new double[4];
        for (int i = 0; i < segments; i++)
        {
            for (int j = 0; j < dof; j++)
            {
                final int at = (i * dof + j) * SepticHermite.COEFFICIENTS;
                SepticHermite.range(coefficients, at, 0, range);
                rejectIf(model, i, j, range[1], positionProblem(model, j, range[0]));
                rejectIf(model, i, j, range[3], positionProblem(model, j, range[2]));
                SepticHermite.range(coefficients, at, 1, range);
                rejectIf(model, i, j, range[1], velocityProblem(model, j, range[0] * inverseDurations[i]));
                rejectIf(model, i, j, range[3], velocityProblem(model, j, range[2] * inverseDurations[i]));
            }
        }
    }

    private void rejectIf(final RobotModel model, final int segment, final int j, final double s, final String problem)
    {
        if (problem != null)
        {
            final double timeS = knotTimesS[segment] + s * (knotTimesS[segment + 1] - knotTimesS[segment]);
            throw new IllegalArgumentException("between waypoints " + segment + " and " + (segment + 1) + " (at t = "
                + timeS + " s), " + joint(model, j) + ": " + problem);
        }
    }

    private static String positionProblem(final RobotModel model, final int j, final double value)
    {
        final JointLimits limits = model.limits(j);
        if (value < limits.positionMin() - LIMIT_SLACK * Math.max(1.0, Math.abs(limits.positionMin())))
        {
            return "position " + value + " " + unit(model, j) + " is below the lower limit "
                + limits.positionMin() + " " + unit(model, j);
        }
        if (value > limits.positionMax() + LIMIT_SLACK * Math.max(1.0, Math.abs(limits.positionMax())))
        {
            return "position " + value + " " + unit(model, j) + " is above the upper limit "
                + limits.positionMax() + " " + unit(model, j);
        }
        return null;
    }

    private static String velocityProblem(final RobotModel model, final int j, final double value)
    {
        final double limit = model.limits(j).velocityMax();
        if (Math.abs(value) > limit * (1.0 + LIMIT_SLACK))
        {
            return "velocity " + value + " " + unit(model, j) + "/s exceeds the limit +/-" + limit + " "
                + unit(model, j) + "/s";
        }
        return null;
    }

    private static String joint(final RobotModel model, final int j)
    {
        return "joint '" + model.coordinateName(j) + "' (coordinate " + j + ")";
    }

    private static String unit(final RobotModel model, final int j)
    {
        return model.jointType(model.bodyOfCoordinate(j)) == JointType.PRISMATIC ? "m" : "rad";
    }

    /**
     * Samples the trajectory into caller-owned arrays of length {@link #dof()}. Real-time safe:
     * no allocation, no locks, no exceptions (for correctly sized arrays).
     *
     * @param timeS time on the trajectory's clock, s.
     * @param q position, rad or m.
     * @param qd velocity, rad/s or m/s.
     * @param qdd acceleration.
     * @param qddd jerk.
     * @param qdddd snap (fourth derivative); piecewise continuous.
     * @return {@link #BEFORE_START}, {@link #IN_PROGRESS}, {@link #FINISHED} or {@link #INVALID_TIME}.
     */
    public int sample(
        final double timeS, final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double[] qdddd)
    {
        if (Double.isNaN(timeS))
        {
            return INVALID_TIME;
        }
        if (timeS < knotTimesS[0])
        {
            hold(firstPosition, q, qd, qdd, qddd, qdddd);
            return BEFORE_START;
        }
        if (timeS >= knotTimesS[segments])
        {
            hold(lastPosition, q, qd, qdd, qddd, qdddd);
            return FINISHED;
        }
        final int i = segmentAt(timeS);
        final double inverseH = inverseDurations[i];
        final double s = (timeS - knotTimesS[i]) * inverseH;
        final double inverseH2 = inverseH * inverseH;
        final double inverseH3 = inverseH2 * inverseH;
        final double inverseH4 = inverseH2 * inverseH2;
        for (int j = 0; j < dof; j++)
        {
            final int at = (i * dof + j) * SepticHermite.COEFFICIENTS;
            q[j] = SepticHermite.derivative(coefficients, at, 0, s);
            qd[j] = SepticHermite.derivative(coefficients, at, 1, s) * inverseH;
            qdd[j] = SepticHermite.derivative(coefficients, at, 2, s) * inverseH2;
            qddd[j] = SepticHermite.derivative(coefficients, at, 3, s) * inverseH3;
            qdddd[j] = SepticHermite.derivative(coefficients, at, 4, s) * inverseH4;
        }
        return IN_PROGRESS;
    }

    /** Largest i with knotTimesS[i] <= timeS, for timeS inside [first, last). */
    private int segmentAt(final double timeS)
    {
        int low = 0;
        int high = segments - 1;
        while (low < high)
        {
            final int mid = (low + high + 1) >>> 1;
            if (knotTimesS[mid] <= timeS)
            {
                low = mid;
            }
            else
            {
                high = mid - 1;
            }
        }
        return low;
    }

    private void hold(
        final double[] position, final double[] q, final double[] qd, final double[] qdd, final double[] qddd,
        final double[] qdddd)
    {
        for (int j = 0; j < dof; j++)
        {
            q[j] = position[j];
            qd[j] = 0.0;
            qdd[j] = 0.0;
            qddd[j] = 0.0;
            qdddd[j] = 0.0;
        }
    }

    /** @return number of joints sampled. Real-time safe. */
    public int dof()
    {
        return dof;
    }

    /** @return time of the first waypoint, s. Real-time safe. */
    public double startTimeS()
    {
        return knotTimesS[0];
    }

    /** @return time of the last waypoint, s. Real-time safe. */
    public double endTimeS()
    {
        return knotTimesS[segments];
    }
}
