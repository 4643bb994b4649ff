package org.nectl.transport;

import java.util.Objects;

import io.aeron.CommonContext;
import io.aeron.driver.ThreadingMode;

/**
 * Where the Aeron media driver runs, how it idles and how long the client waits for it.
 *
 * @param embeddedDriver true: start a media driver inside this process; false: connect to an
 *     external (C or Java) driver already running on {@code aeronDirectory}.
 * @param aeronDirectory the driver's directory (under /dev/shm on Linux); for an embedded driver it
 *     must be absent, empty or a dead media driver's ({@link DriverDirectory}): a dead driver's files
 *     are deleted on start, the driver's own files on close, nothing else ever.
 * @param threadingMode embedded driver threading, not INVOKER; SHARED (one thread for conductor, sender and
 *     receiver) leaves the other core of a 2-core host to the control loop.
 * @param driverIdleStrategy how the embedded driver's thread(s) idle.
 * @param driverTimeoutMs the client's driver timeout, ms, {@value #MIN_DRIVER_TIMEOUT_MS} to
 *     {@value #MAX_DRIVER_TIMEOUT_MS}: a driver whose heartbeat is older than this is lost, and the
 *     client closes itself and every publication and subscription (docs/SAFETY.md, "media driver loss").
 */
public record AeronConfig(
    boolean embeddedDriver, String aeronDirectory, ThreadingMode threadingMode, IdleStrategyKind driverIdleStrategy,
    long driverTimeoutMs)
{
    /** Default driver timeout, ms: Aeron's own, equal to the driver's default client liveness timeout. */
    public static final long DEFAULT_DRIVER_TIMEOUT_MS = 10_000L;
    /**
     * Shortest driver timeout, ms: the driver refreshes its heartbeat once per timer interval (1 s by
     * default) and the client checks it every 0.5 s, so a shorter timeout would declare a live but
     * briefly descheduled driver lost.
     */
    public static final long MIN_DRIVER_TIMEOUT_MS = 2_000L;
    /** Longest driver timeout, ms: beyond a minute a dead driver would go unnoticed for too long. */
    public static final long MAX_DRIVER_TIMEOUT_MS = 60_000L;

    /** Validates the configuration. */
    public AeronConfig
    {
        Objects.requireNonNull(aeronDirectory, "aeronDirectory");
        Objects.requireNonNull(threadingMode, "threadingMode");
        Objects.requireNonNull(driverIdleStrategy, "driverIdleStrategy");
        if (aeronDirectory.isBlank())
        {
            throw new IllegalArgumentException("aeronDirectory must not be blank");
        }
        if (threadingMode == ThreadingMode.INVOKER)
        {
            throw new IllegalArgumentException("INVOKER threading needs a caller-driven duty cycle; use SHARED, SHARED_NETWORK or DEDICATED");
        }
        if (driverTimeoutMs < MIN_DRIVER_TIMEOUT_MS || driverTimeoutMs > MAX_DRIVER_TIMEOUT_MS)
        {
            throw new IllegalArgumentException("driver timeout must be " + MIN_DRIVER_TIMEOUT_MS + ".." + MAX_DRIVER_TIMEOUT_MS
                + " ms, got " + driverTimeoutMs);
        }
    }

    /** With the {@link #DEFAULT_DRIVER_TIMEOUT_MS default driver timeout}. */
    public AeronConfig(
        final boolean embeddedDriver, final String aeronDirectory, final ThreadingMode threadingMode,
        final IdleStrategyKind driverIdleStrategy)
    {
        this(embeddedDriver, aeronDirectory, threadingMode, driverIdleStrategy, DEFAULT_DRIVER_TIMEOUT_MS);
    }

    /**
     * @return an embedded SHARED driver with back-off idling in a fresh, unique directory, so that
     *     concurrent processes and tests never share a driver by accident.
     */
    public static AeronConfig embeddedDefaults()
    {
        return new AeronConfig(true, CommonContext.generateRandomDirName(), ThreadingMode.SHARED, IdleStrategyKind.BACKOFF);
    }

    /** @return a configuration that connects to an external driver on {@code aeronDirectory}. */
    public static AeronConfig external(final String aeronDirectory)
    {
        return new AeronConfig(false, aeronDirectory, ThreadingMode.SHARED, IdleStrategyKind.BACKOFF);
    }

    /** @return a copy with another driver timeout, ms. */
    public AeronConfig withDriverTimeoutMs(final long timeoutMs)
    {
        return new AeronConfig(embeddedDriver, aeronDirectory, threadingMode, driverIdleStrategy, timeoutMs);
    }
}
