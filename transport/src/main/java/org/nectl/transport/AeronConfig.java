package org.nectl.transport;

import java.util.Objects;

import io.aeron.CommonContext;
import io.aeron.driver.ThreadingMode;

/**
 * Where the Aeron media driver runs and how it idles.
 *
 * @param embeddedDriver true: start a media driver inside this process; false: connect to an
 *     external (C or Java) driver already running on {@code aeronDirectory}.
 * @param aeronDirectory the driver's directory (under /dev/shm on Linux); for an embedded driver
 *     it is created on start and deleted on start and on close.
 * @param threadingMode embedded driver threading, not INVOKER; SHARED (one thread for conductor, sender and
 *     receiver) leaves the other core of a 2-core host to the control loop.
 * @param driverIdleStrategy how the embedded driver's thread(s) idle.
 */
public record AeronConfig(
    boolean embeddedDriver, String aeronDirectory, ThreadingMode threadingMode, IdleStrategyKind driverIdleStrategy)
{
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
}
