package org.nectl.hw;

/**
 * What every adapter is configured with, beyond its device.
 *
 * @param adapterId identity sent in every heartbeat, 0..2^32-1.
 * @param watchdogTimeoutNs longest gap between MotorCommands before the drives go to zero torque, ns.
 * @param heartbeatPeriodNs period of the AdapterHeartbeat, ns.
 * @param syncShiftNs realtime simulated arm: where in the controller's period its own period ends
 *     (after the tick start stamped on each MotorCommand), ns, 0 to period - 1; {@link #FREE_RUNNING}
 *     for a period schedule of its own.
 * @param brakeTimeoutNs longest gap between MotorCommands before the drives are unpowered and the
 *     brakes engaged, ns, at least the watchdog timeout.
 */
public record AdapterSettings(long adapterId, long watchdogTimeoutNs, long heartbeatPeriodNs, long syncShiftNs,
    long brakeTimeoutNs)
{
    /** {@link #syncShiftNs} of an adapter that keeps its own period schedule. */
    public static final long FREE_RUNNING = -1;
    /** Default watchdog timeout: 20 ms, 20 periods at 1 kHz. */
    public static final long DEFAULT_WATCHDOG_TIMEOUT_NS = 20_000_000L;
    /** Default brake timeout: 100 ms, the controller given 80 ms past the watchdog to come back. */
    public static final long DEFAULT_BRAKE_TIMEOUT_NS = 100_000_000L;
    /** Default heartbeat period: 10 ms (100 Hz). */
    public static final long DEFAULT_HEARTBEAT_PERIOD_NS = 10_000_000L;

    /** Validates the settings. */
    public AdapterSettings
    {
        if (adapterId < 0 || adapterId > 0xFFFF_FFFFL)
        {
            throw new IllegalArgumentException("adapter id must fit in 32 unsigned bits, got " + adapterId);
        }
        if (watchdogTimeoutNs <= 0 || heartbeatPeriodNs <= 0)
        {
            throw new IllegalArgumentException("watchdog timeout and heartbeat period must be positive, got "
                + watchdogTimeoutNs + " ns and " + heartbeatPeriodNs + " ns");
        }
        if (syncShiftNs < FREE_RUNNING)
        {
            throw new IllegalArgumentException("sync shift must be 0 or more (or FREE_RUNNING), got " + syncShiftNs + " ns");
        }
        if (brakeTimeoutNs < watchdogTimeoutNs)
        {
            throw new IllegalArgumentException("brake timeout " + brakeTimeoutNs + " ns is shorter than the watchdog timeout "
                + watchdogTimeoutNs + " ns");
        }
    }

    /**
     * Settings whose brakes engage {@link #DEFAULT_BRAKE_TIMEOUT_NS} after the last command, or at the
     * watchdog timeout if that is longer.
     *
     * @param adapterId identity sent in every heartbeat.
     * @param watchdogTimeoutNs longest gap between MotorCommands, ns.
     * @param heartbeatPeriodNs period of the AdapterHeartbeat, ns.
     * @param syncShiftNs see {@link #syncShiftNs}.
     */
    public AdapterSettings(final long adapterId, final long watchdogTimeoutNs, final long heartbeatPeriodNs, final long syncShiftNs)
    {
        this(adapterId, watchdogTimeoutNs, heartbeatPeriodNs, syncShiftNs, Math.max(DEFAULT_BRAKE_TIMEOUT_NS, watchdogTimeoutNs));
    }

    /**
     * A free-running adapter.
     *
     * @param adapterId identity sent in every heartbeat.
     * @param watchdogTimeoutNs longest gap between MotorCommands, ns.
     * @param heartbeatPeriodNs period of the AdapterHeartbeat, ns.
     */
    public AdapterSettings(final long adapterId, final long watchdogTimeoutNs, final long heartbeatPeriodNs)
    {
        this(adapterId, watchdogTimeoutNs, heartbeatPeriodNs, FREE_RUNNING);
    }

    /**
     * @param shiftNs see {@link #syncShiftNs}.
     * @return these settings, synchronised to the controller's ticks with that shift.
     */
    public AdapterSettings synchronisedAt(final long shiftNs)
    {
        return new AdapterSettings(adapterId, watchdogTimeoutNs, heartbeatPeriodNs, shiftNs, brakeTimeoutNs);
    }

    /**
     * @param timeoutNs see {@link #brakeTimeoutNs}.
     * @return these settings with that brake timeout.
     */
    public AdapterSettings withBrakeTimeout(final long timeoutNs)
    {
        return new AdapterSettings(adapterId, watchdogTimeoutNs, heartbeatPeriodNs, syncShiftNs, timeoutNs);
    }

    /** @return adapter 1, 20 ms watchdog, brakes after 100 ms, 100 Hz heartbeat, free running. */
    public static AdapterSettings defaults()
    {
        return new AdapterSettings(1, DEFAULT_WATCHDOG_TIMEOUT_NS, DEFAULT_HEARTBEAT_PERIOD_NS);
    }
}
