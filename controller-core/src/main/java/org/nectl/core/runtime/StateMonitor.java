package org.nectl.core.runtime;

import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;

/**
 * Supervision of the measured state and the adapter while the drives are powered: heartbeat age,
 * missing states, adapter faults, non-finite values, jumps, hard and soft position limits and
 * velocity limits. The soft limit is the braking reflex: a joint moving towards a position limit
 * faults once the limit is no farther than its braking distance at the allowed deceleration
 * ({@link StopProfile#brakingDistance}), one period of travel and the margin, so the controlled
 * stop ends before the limit.
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
final class StateMonitor
{
    private final int dof;
    private final CycleSettings settings;
    private final SafetySettings safety;
    private final double periodS;
    private final double[] positionMin;
    private final double[] positionMax;
    private final double[] velocityMax;
    private final double[] deceleration;
    private final double[] previousQ;
    private final double[] previousQd;
    private boolean hasPrevious;
    private long previousNs;
    private long nowNs;

    StateMonitor(final RobotModel model, final CycleSettings settings, final SafetySettings safety)
    {
        dof = model.dof();
        this.settings = settings;
        this.safety = safety;
        periodS = settings.periodNs() * 1e-9;
        positionMin = new double[dof];
        positionMax = new double[dof];
        velocityMax = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            final JointLimits limits = model.limits(j);
            positionMin[j] = limits.positionMin();
            positionMax[j] = limits.positionMax();
            velocityMax[j] = limits.velocityMax();
        }
        deceleration = safety.decelerationMax();
        previousQ = new double[dof];
        previousQd = new double[dof];
    }

    /**
     * Checks one tick's inputs.
     *
     * @param timeNs sampling time of the measured state, ns (the tick time when the source gives none).
     * @param newState true if q and qd are a state not seen before.
     * @param missingStates consecutive ticks without a new state.
     * @param heartbeatAgeNs time since the last adapter heartbeat, ns.
     * @param adapterFault the adapter reports a fault.
     * @param q measured positions.
     * @param qd measured velocities.
     * @return the detected fault bits, 0 if none.
     */
    int check(
        final long timeNs, final boolean newState, final int missingStates, final long heartbeatAgeNs,
        final boolean adapterFault, final double[] q, final double[] qd)
    {
        nowNs = timeNs;
        int detected = 0;
        if (heartbeatAgeNs > settings.heartbeatTimeoutNs())
        {
            detected |= Faults.HEARTBEAT_TIMEOUT;
        }
        if (missingStates >= settings.maxMissingStates())
        {
            detected |= Faults.STATE_MISSING;
        }
        if (adapterFault)
        {
            detected |= Faults.ADAPTER_FAULT;
        }
        for (int j = 0; j < dof; j++)
        {
            if (!Double.isFinite(q[j]) || !Double.isFinite(qd[j]))
            {
                detected |= Faults.NON_FINITE_STATE;
            }
            else
            {
                detected |= limits(j, q[j], qd[j]);
                if (newState && jumped(j, q[j], qd[j]))
                {
                    detected |= Faults.STATE_JUMP;
                }
            }
        }
        return detected;
    }

    private int limits(final int j, final double position, final double velocity)
    {
        int detected = 0;
        final double margin = settings.positionMargin();
        if (position < positionMin[j] - margin || position > positionMax[j] + margin)
        {
            detected |= Faults.POSITION_LIMIT;
        }
        if (Math.abs(velocity) > velocityMax[j])
        {
            detected |= Faults.VELOCITY_LIMIT;
        }
        final double reach = StopProfile.brakingDistance(velocity, deceleration[j])
            + Math.abs(velocity) * periodS + safety.softLimitMargin();
        if (velocity > 0.0 && position + reach >= positionMax[j] || velocity < 0.0 && position - reach <= positionMin[j])
        {
            detected |= Faults.SOFT_POSITION_LIMIT;
        }
        return detected;
    }

    /**
     * Trapezoidal prediction from the previous state over the interval between the two states'
     * sampling times: a late tick, a late delivery or skipped states lengthen the step rather than
     * look like a jump.
     */
    private boolean jumped(final int j, final double position, final double velocity)
    {
        if (!hasPrevious)
        {
            return false;
        }
        final double dt = (nowNs - previousNs) * 1e-9;
        final double predicted = previousQ[j] + 0.5 * (previousQd[j] + velocity) * dt;
        return !(Math.abs(position - predicted) <= safety.stateJumpTolerance());
    }

    /**
     * Remembers this tick's state as the base of the next jump check, on every tick whether powered or not.
     *
     * @param timeNs sampling time of the measured state, ns (the tick time when the source gives none).
     * @param newState true if q and qd are a state not seen before.
     */
    void advance(final long timeNs, final boolean newState, final double[] q, final double[] qd)
    {
        if (!newState)
        {
            return;
        }
        previousNs = timeNs;
        hasPrevious = finite(q) && finite(qd);
        System.arraycopy(q, 0, previousQ, 0, dof);
        System.arraycopy(qd, 0, previousQd, 0, dof);
    }

    static boolean finite(final double[] v)
    {
        for (final double x : v)
        {
            if (!Double.isFinite(x))
            {
                return false;
            }
        }
        return true;
    }
}
