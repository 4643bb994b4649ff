package org.nectl.service.planner;

/**
 * The built-in demonstration move: every joint goes from a start pose out by its amplitude and
 * back, each half a minimum-jerk rest-to-rest profile s(τ) = 10τ³ − 15τ⁴ + 6τ⁵ (Flash and Hogan,
 * "The coordination of arm movements", 1985, eq. 9), so velocity, acceleration and jerk are known
 * in closed form and the motion starts and ends at rest with zero acceleration. Odd joints move in
 * the opposite direction to even ones.
 *
 * <p>Immutable, thread safe; {@link #sample} is real-time safe.
 */
public final class DemoMove
{
    private final double[] startQ;
    private final double amplitude;
    private final double durationS;

    /**
     * @param startQ start and end pose, rad or m; its length is the joint count.
     * @param amplitude excursion of each joint at mid-move, rad or m.
     * @param durationS duration of the whole move, s, &gt; 0.
     */
    public DemoMove(final double[] startQ, final double amplitude, final double durationS)
    {
        if (!(durationS > 0.0) || !Double.isFinite(durationS))
        {
            throw new IllegalArgumentException("duration must be > 0 s, got " + durationS);
        }
        if (!Double.isFinite(amplitude))
        {
            throw new IllegalArgumentException("amplitude must be finite, got " + amplitude);
        }
        this.startQ = startQ.clone();
        this.amplitude = amplitude;
        this.durationS = durationS;
    }

    /** @return number of joints. */
    public int jointCount()
    {
        return startQ.length;
    }

    /** @return duration of the move, s. */
    public double durationS()
    {
        return durationS;
    }

    /**
     * Writes the move at {@code timeS} (clamped to [0, duration]) into caller-owned arrays.
     * Real-time safe.
     */
    public void sample(final double timeS, final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final double halfS = 0.5 * durationS;
        final double t = Math.min(Math.max(timeS, 0.0), durationS);
        final boolean out = t < halfS;
        final double tau = out ? t / halfS : (t - halfS) / halfS;
        final double sign = out ? 1.0 : -1.0;
        final double tau2 = tau * tau;
        final double s = out ? tau * tau2 * (10.0 - 15.0 * tau + 6.0 * tau2) : 1.0 - tau * tau2 * (10.0 - 15.0 * tau + 6.0 * tau2);
        final double sd = sign * 30.0 * tau2 * (1.0 - 2.0 * tau + tau2) / halfS;
        final double sdd = sign * 60.0 * tau * (1.0 - 3.0 * tau + 2.0 * tau2) / (halfS * halfS);
        final double sddd = sign * 60.0 * (1.0 - 6.0 * tau + 6.0 * tau2) / (halfS * halfS * halfS);
        for (int k = 0; k < startQ.length; k++)
        {
            final double a = (k % 2 == 0) ? amplitude : -amplitude;
            q[k] = startQ[k] + a * s;
            qd[k] = a * sd;
            qdd[k] = a * sdd;
            qddd[k] = a * sddd;
        }
    }

    /**
     * @param waypointPeriodS spacing of the waypoints, s; the last waypoint is at the end of the move.
     * @return the move as timed waypoints with exact velocities and accelerations. Not real-time safe.
     */
    public JointTrajectory toTrajectory(final double waypointPeriodS)
    {
        final int count = (int)Math.ceil(durationS / waypointPeriodS - 1e-9) + 1;
        final int n = startQ.length;
        final double[] timesS = new double[count];
        final double[][] q = new double[count][n];
        final double[][] qd = new double[count][n];
        final double[][] qdd = new double[count][n];
        final double[] jerk = new double[n];
        for (int p = 0; p < count; p++)
        {
            timesS[p] = Math.min(p * waypointPeriodS, durationS);
            sample(timesS[p], q[p], qd[p], qdd[p], jerk);
        }
        return new JointTrajectory(timesS, q, qd, qdd);
    }
}
