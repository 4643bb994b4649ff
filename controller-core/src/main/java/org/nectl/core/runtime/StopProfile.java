package org.nectl.core.runtime;

/**
 * The reference of a controlled (category 1 or 2) stop: every joint, independently, takes its
 * velocity at the start of the stop down to zero along the quintic smooth step
 * qd(t) = v0 (1 - 10u^3 + 15u^4 - 6u^5), u = t / T, so acceleration and jerk are zero at both ends
 * and the torque changes gradually. The peak deceleration is 15/8 v0 / T; T is chosen per joint
 * so that it equals the joint's allowed deceleration, and the joint travels v0 T / 2 before it stands.
 * A joint nearer to the position limit it is moving towards than that stops in the room it has
 * (T = 2 room / |v0|, harder than its allowed deceleration), so that the reference never runs past
 * the limit: overrunning the allowed deceleration for a moment is the lesser harm than meeting the
 * end stop at speed. The soft-limit reflex normally faults early enough that this never applies; it
 * does when a stop begins from a state the reflex did not see coming (a stalled host, a fault at
 * speed near a limit).
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
public final class StopProfile
{
    /** Peak of |d/du| of the smooth step: 30 u^2 (1 - u)^2 at u = 1/2. */
    private static final double PEAK_SLOPE = 15.0 / 8.0;

    private final int dof;
    private final double[] positionMin;
    private final double[] positionMax;
    private final double[] startQ;
    private final double[] startQd;
    private final double[] durationS;
    private long startNs;
    private double longestS;

    /**
     * Not real-time safe.
     *
     * @param positionMin lower position limit per joint, rad or m (copied; -infinity for none).
     * @param positionMax upper position limit per joint, rad or m (copied; +infinity for none).
     */
    public StopProfile(final double[] positionMin, final double[] positionMax)
    {
        if (positionMin.length != positionMax.length)
        {
            throw new IllegalArgumentException(
                "need as many upper as lower limits, got " + positionMin.length + " and " + positionMax.length);
        }
        dof = positionMin.length;
        this.positionMin = positionMin.clone();
        this.positionMax = positionMax.clone();
        startQ = new double[dof];
        startQd = new double[dof];
        durationS = new double[dof];
    }

    /**
     * Real-time safe.
     *
     * @param velocity joint velocity, rad/s or m/s.
     * @param deceleration allowed deceleration, rad/s^2 or m/s^2, positive.
     * @param minimumS shortest duration, s.
     * @return how long the smooth step takes to stop the joint at that peak deceleration, s.
     */
    public static double durationS(final double velocity, final double deceleration, final double minimumS)
    {
        return Math.max(PEAK_SLOPE * Math.abs(velocity) / deceleration, minimumS);
    }

    /**
     * Real-time safe.
     *
     * @param velocity joint velocity, rad/s or m/s.
     * @param deceleration allowed deceleration, rad/s^2 or m/s^2, positive.
     * @return the distance the joint travels while the profile stops it, rad or m (15/16 v^2 / a).
     */
    public static double brakingDistance(final double velocity, final double deceleration)
    {
        return 0.5 * Math.abs(velocity) * durationS(velocity, deceleration, 0.0);
    }

    /**
     * Starts a stop from the given state. Real-time safe.
     *
     * @param timeNs controller time at the start, ns.
     * @param q positions at the start, rad or m.
     * @param qd velocities at the start.
     * @param deceleration per-joint allowed deceleration.
     * @param minimumS shortest per-joint duration, s (a few control periods).
     * @param maximumS longest per-joint duration, s (the stop time): a joint too fast to stop
     *     within it at its deceleration decelerates harder.
     */
    public void start(
        final long timeNs, final double[] q, final double[] qd, final double[] deceleration,
        final double minimumS, final double maximumS)
    {
        startNs = timeNs;
        longestS = 0.0;
        for (int j = 0; j < dof; j++)
        {
            startQ[j] = q[j];
            startQd[j] = qd[j];
            durationS[j] = Math.min(Math.min(durationS(qd[j], deceleration[j], minimumS), maximumS),
                withinRoomS(q[j], qd[j], j, minimumS));
            longestS = Math.max(longestS, durationS[j]);
        }
    }

    /**
     * Samples the stop reference. Real-time safe.
     *
     * @param timeNs controller time, ns, not before the start.
     * @return true once every joint's reference stands still.
     */
    public boolean sample(
        final long timeNs, final double[] q, final double[] qd, final double[] qdd, final double[] qddd, final double[] qdddd)
    {
        final double t = (timeNs - startNs) * 1e-9;
        for (int j = 0; j < dof; j++)
        {
            final double period = durationS[j];
            final double v0 = startQd[j];
            final double u = Math.min(t / period, 1.0);
            final double u2 = u * u;
            final double u3 = u2 * u;
            q[j] = startQ[j] + v0 * period * (u - 2.5 * u2 * u2 + 3.0 * u3 * u2 - u3 * u3);
            qd[j] = v0 * (1.0 - 10.0 * u3 + 15.0 * u2 * u2 - 6.0 * u3 * u2);
            if (u < 1.0)
            {
                qdd[j] = v0 / period * (-30.0 * u2 + 60.0 * u3 - 30.0 * u2 * u2);
                qddd[j] = v0 / (period * period) * (-60.0 * u + 180.0 * u2 - 120.0 * u3);
                qdddd[j] = v0 / (period * period * period) * (-60.0 + 360.0 * u - 360.0 * u2);
            }
            else
            {
                qdd[j] = 0.0;
                qddd[j] = 0.0;
                qdddd[j] = 0.0;
            }
        }
        return t >= longestS;
    }

    /**
     * @return the longest duration whose travel, |v0| T / 2, ends at or before the position limit the
     *     joint moves towards (at least minimumS); infinite when it moves away from its limits or stands.
     */
    private double withinRoomS(final double position, final double velocity, final int j, final double minimumS)
    {
        if (velocity == 0.0)
        {
            return Double.POSITIVE_INFINITY;
        }
        final double room = velocity > 0.0 ? positionMax[j] - position : position - positionMin[j];
        return Math.max(2.0 * Math.max(room, 0.0) / Math.abs(velocity), minimumS);
    }

    /** @return the duration of the slowest joint's stop, s. Real-time safe. */
    public double longestS()
    {
        return longestS;
    }
}
