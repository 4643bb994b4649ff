package org.nectl.core.runtime;

/**
 * The life-cycle state machine of a {@link ControlCycle} ({@link ControllerMode}): latches faults,
 * reacts to each with its {@link StopCategory}, runs controlled stops along a {@link StopProfile}
 * and lets only an operator reset clear a latched fault. Counts faults, resets and transitions.
 *
 * <p>Category 0 goes to FAULT (ESTOP once an emergency stop is latched) at once; category 1 and 2
 * go to STOPPING and, at standstill, to FAULT/ESTOP or STANDSTILL. During a stop a more severe
 * category takes over (category 0 at once; category 1 turns a category 2 stop into one that ends
 * with the drives disabled); a stop that misses the stop time escalates to category 0.
 *
 * <p>Real-time safe after construction. Not thread safe: owned by the control-loop thread.
 */
final class Supervisor
{
    /** {@link #followStop}: the stop goes on. */
    static final int STOP_RUNNING = 0;
    /** {@link #followStop}: standstill reached in a category 2 stop, now STANDSTILL; the caller holds the stop reference. */
    static final int STOP_HOLDING = 1;
    /** {@link #followStop}: the stop ended with the drives disabled (standstill in category 1, or a stop timeout). */
    static final int STOP_DISABLED = 2;

    private final int dof;
    private final SafetySettings safety;
    private final double[] deceleration;
    private final double minimumStopS;
    private final StopProfile stopProfile;
    private final long[] faultCounts = new long[Faults.COUNT];

    private ControllerMode mode = ControllerMode.IDLE;
    private int faults;
    private StopCategory stopCategory = StopCategory.CATEGORY_0;
    private long stopStartNs;
    private long lastStopDurationNs = -1;
    private long resetCount;
    private long transitionCount;
    private long lastTransitionNs;

    /**
     * Not real-time safe.
     *
     * @param positionMin lower position limit per joint, rad or m: controlled stops end before it.
     * @param positionMax upper position limit per joint, rad or m.
     * @param periodNs control period, ns.
     * @param safety stop categories and stop limits.
     */
    Supervisor(final double[] positionMin, final double[] positionMax, final long periodNs, final SafetySettings safety)
    {
        dof = positionMin.length;
        this.safety = safety;
        deceleration = safety.decelerationMax();
        if (deceleration.length != dof)
        {
            throw new IllegalArgumentException("need " + dof + " decelerations, got " + deceleration.length);
        }
        // Two periods: a joint already at rest still gets a reference that settles over a tick.
        minimumStopS = 2.0 * periodNs * 1e-9;
        stopProfile = new StopProfile(positionMin, positionMax);
    }

    ControllerMode mode()
    {
        return mode;
    }

    /** @return ENABLED, TRACKING or HOLD: powered and no fault latched, so planner commands apply. */
    boolean operational()
    {
        return mode == ControllerMode.ENABLED || mode == ControllerMode.TRACKING || mode == ControllerMode.HOLD;
    }

    void transition(final ControllerMode next, final long nowNs)
    {
        if (next != mode)
        {
            mode = next;
            transitionCount++;
            lastTransitionNs = nowNs;
        }
    }

    /**
     * Latches the fault bits, counts the new ones and reacts with the most severe category among them.
     *
     * @param q measured positions, the start of a controlled stop.
     * @param qd measured velocities, the start of a controlled stop (the reference may be what failed).
     */
    void fault(final int detected, final long nowNs, final double[] q, final double[] qd)
    {
        for (int bit = 0; bit < Faults.COUNT; bit++)
        {
            if ((detected & ~faults & (1 << bit)) != 0)
            {
                faultCounts[bit]++;
            }
        }
        faults |= detected;
        final StopCategory category = safety.category(detected);
        if (category == StopCategory.CATEGORY_0 || !mode.drivesPowered())
        {
            transition(latchedState(), nowNs);
        }
        else if (mode == ControllerMode.STOPPING)
        {
            stopCategory = category.ordinal() < stopCategory.ordinal() ? category : stopCategory;
        }
        else if (mode != ControllerMode.STANDSTILL || category == StopCategory.CATEGORY_1)
        {
            stopCategory = category;
            stopStartNs = nowNs;
            stopProfile.start(nowNs, q, qd, deceleration, minimumStopS, safety.stopTimeNs() * 1e-9);
            transition(ControllerMode.STOPPING, nowNs);
        }
    }

    /** FAULT, or ESTOP once an emergency stop is latched. */
    private ControllerMode latchedState()
    {
        return (faults & Faults.EMERGENCY_STOP) != 0 ? ControllerMode.ESTOP : ControllerMode.FAULT;
    }

    /**
     * One STOPPING tick: writes the stop reference and ends the stop at standstill of the measured
     * velocities, or escalates it once the stop time has passed.
     *
     * @param qd measured velocities.
     * @return {@link #STOP_RUNNING}, {@link #STOP_HOLDING} or {@link #STOP_DISABLED}.
     */
    int followStop(
        final long nowNs, final double[] qd,
        final double[] qRef, final double[] qdRef, final double[] qddRef, final double[] qdddRef, final double[] qddddRef)
    {
        final boolean referenceStopped = stopProfile.sample(nowNs, qRef, qdRef, qddRef, qdddRef, qddddRef);
        final long elapsedNs = nowNs - stopStartNs;
        if (referenceStopped && standstill(qd))
        {
            lastStopDurationNs = elapsedNs;
            final boolean hold = stopCategory == StopCategory.CATEGORY_2;
            transition(hold ? ControllerMode.STANDSTILL : latchedState(), nowNs);
            return hold ? STOP_HOLDING : STOP_DISABLED;
        }
        if (elapsedNs > safety.stopTimeNs())
        {
            fault(Faults.STOP_TIMEOUT, nowNs, qRef, qd);
            return STOP_DISABLED;
        }
        return STOP_RUNNING;
    }

    private boolean standstill(final double[] qd)
    {
        for (int j = 0; j < dof; j++)
        {
            if (!(Math.abs(qd[j]) <= safety.standstillVelocity()))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * Operator reset: FAULT or ESTOP to IDLE, STANDSTILL to ENABLED (the stop pose stays the reference).
     *
     * @return false, changing nothing, in any other state.
     */
    boolean reset(final long nowNs)
    {
        if (mode == ControllerMode.FAULT || mode == ControllerMode.ESTOP)
        {
            transition(ControllerMode.IDLE, nowNs);
        }
        else if (mode == ControllerMode.STANDSTILL)
        {
            transition(ControllerMode.ENABLED, nowNs);
        }
        else
        {
            return false;
        }
        faults = 0;
        resetCount++;
        return true;
    }

    /**
     * DISABLE: STANDSTILL to FAULT (the fault stays latched), IDLE, ENABLED, TRACKING, HOLD to IDLE.
     *
     * @return false, changing nothing, in STOPPING, FAULT or ESTOP.
     */
    boolean disable(final long nowNs)
    {
        if (mode == ControllerMode.STANDSTILL)
        {
            transition(ControllerMode.FAULT, nowNs);
            return true;
        }
        if (mode.latched())
        {
            return false;
        }
        transition(ControllerMode.IDLE, nowNs);
        return true;
    }

    int faults()
    {
        return faults;
    }

    long faultCount(final int bit)
    {
        return faultCounts[bit];
    }

    long resetCount()
    {
        return resetCount;
    }

    StopCategory stopCategory()
    {
        return stopCategory;
    }

    long lastStopDurationNs()
    {
        return lastStopDurationNs;
    }

    long transitionCount()
    {
        return transitionCount;
    }

    long lastTransitionNs()
    {
        return lastTransitionNs;
    }
}
