package org.nectl.hw;

/**
 * The adapter's command watchdog: once the first MotorCommand has arrived, a gap of more than the
 * timeout without another trips it, and the adapter must then drive the motors to zero torque; a
 * gap of more than the brake timeout engages the brakes too. A new command re-arms it; each trip
 * and each brake engagement is counted.
 *
 * <p>Real-time safe. Not thread safe: owned by the adapter thread.
 */
public final class AdapterWatchdog
{
    private final long timeoutNs;
    private final long brakeTimeoutNs;
    private boolean armed;
    private boolean tripped;
    private boolean braked;
    private long brakeCount;
    private long lastCommandNs;
    private long lastTripNs;
    private long tripCount;

    /** @param timeoutNs longest gap between MotorCommands before the watchdog trips, ns, positive; never brakes. */
    public AdapterWatchdog(final long timeoutNs)
    {
        this(timeoutNs, Long.MAX_VALUE);
    }

    /**
     * @param timeoutNs longest gap between MotorCommands before the watchdog trips, ns, positive.
     * @param brakeTimeoutNs longest gap before the brakes engage, ns, at least {@code timeoutNs}.
     */
    public AdapterWatchdog(final long timeoutNs, final long brakeTimeoutNs)
    {
        if (timeoutNs <= 0)
        {
            throw new IllegalArgumentException("watchdog timeout must be positive, got " + timeoutNs + " ns");
        }
        if (brakeTimeoutNs < timeoutNs)
        {
            throw new IllegalArgumentException("brake timeout " + brakeTimeoutNs + " ns is shorter than the watchdog timeout "
                + timeoutNs + " ns");
        }
        this.timeoutNs = timeoutNs;
        this.brakeTimeoutNs = brakeTimeoutNs;
    }

    /** Records a MotorCommand arrival: arms the watchdog and clears a trip. @param nowNs monotonic time, ns. */
    public void commandReceived(final long nowNs)
    {
        armed = true;
        tripped = false;
        braked = false;
        lastCommandNs = nowNs;
    }

    /**
     * Checks the gap since the last command.
     *
     * @param nowNs monotonic time, ns.
     * @return true if the watchdog is tripped (now or earlier, and not re-armed since).
     */
    public boolean check(final long nowNs)
    {
        if (armed && !tripped && nowNs - lastCommandNs > timeoutNs)
        {
            tripped = true;
            tripCount++;
            lastTripNs = nowNs;
        }
        return tripped;
    }

    /**
     * Checks the gap since the last command against the brake timeout.
     *
     * @param nowNs monotonic time, ns.
     * @return true if the brakes are to be engaged (now or earlier, and not re-armed since).
     */
    public boolean checkBrake(final long nowNs)
    {
        if (armed && !braked && nowNs - lastCommandNs > brakeTimeoutNs)
        {
            braked = true;
            brakeCount++;
        }
        return braked;
    }

    /** @return brake engagements since start. */
    public long brakeCount()
    {
        return brakeCount;
    }

    /** @return the brake timeout, ns ({@link Long#MAX_VALUE}: never). */
    public long brakeTimeoutNs()
    {
        return brakeTimeoutNs;
    }

    /** @return true while tripped. */
    public boolean tripped()
    {
        return tripped;
    }

    /** @return the time of the last command received, ns (0 before the first). */
    public long lastCommandNs()
    {
        return lastCommandNs;
    }

    /** @return the time of the last check that tripped the watchdog, ns (0 before the first trip). */
    public long lastTripNs()
    {
        return lastTripNs;
    }

    /** @return trips since start. */
    public long tripCount()
    {
        return tripCount;
    }

    /** @return the timeout, ns. */
    public long timeoutNs()
    {
        return timeoutNs;
    }
}
