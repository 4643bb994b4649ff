package org.nectl.hw;

/**
 * What every adapter is configured with, beyond its device.
 *
 * @param adapterId identity sent in every heartbeat, 0..2^32-1.
 * @param watchdogTimeoutNs longest gap between MotorCommands before the drives go to zero torque, ns.
 * @param heartbeatPeriodNs period of the AdapterHeartbeat, ns.
 */
public record AdapterSettings(long adapterId, long watchdogTimeoutNs, long heartbeatPeriodNs)
{
    /** Default watchdog timeout: 20 ms, 20 periods at 1 kHz. */
    public static final long DEFAULT_WATCHDOG_TIMEOUT_NS = 20_000_000L;
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
    }

    /** @return adapter 1, 20 ms watchdog, 100 Hz heartbeat. */
    public static AdapterSettings defaults()
    {
        return new AdapterSettings(1, DEFAULT_WATCHDOG_TIMEOUT_NS, DEFAULT_HEARTBEAT_PERIOD_NS);
    }
}
