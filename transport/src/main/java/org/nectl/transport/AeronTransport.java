package org.nectl.transport;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.exceptions.ActiveDriverException;
import io.aeron.exceptions.ClientTimeoutException;
import io.aeron.exceptions.ConductorServiceTimeoutException;
import io.aeron.exceptions.DriverTimeoutException;
import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentTerminationException;

/**
 * An Aeron client, and the embedded media driver it talks to when configured so. Closing closes
 * the client, then the driver, then removes the driver's directory.
 *
 * <p>The embedded driver's directory: Aeron's own {@code dirDeleteOnStart} and
 * {@code dirDeleteOnShutdown} delete it recursively, following symbolic links, whatever it holds,
 * and so would a second service's driver started on the directory of a running one. They stay
 * off; before the driver starts, {@link DriverDirectory#prepare} refuses a directory that holds
 * anything but a media driver's own files or that a live driver uses, and otherwise deletes the
 * stale files of a dead driver; after it stops, {@link DriverDirectory#removeAfterShutdown}
 * deletes, under the same proof, only the files the driver made.
 *
 * <p>Loss of the driver: the client notices when the driver's heartbeat is older than the
 * configured driver timeout (or the driver has timed the client out, or the client's own conductor
 * was not scheduled for the driver's client liveness timeout); it then closes every publication and
 * subscription (offers and claims return CLOSED, polls return 0) and terminates. This class records
 * the first such loss with its time ({@link #loss()}), prints it on stderr, and tells the
 * {@link #onLoss listeners}. Because the closing client unmaps its log buffers and counters, which
 * a thread still inside a claim or poll would touch, the unmapping waits until every registered
 * {@link #registerBufferUser buffer user} has let go (at most {@value #RELEASE_WAIT_MS} ms).
 * Other client errors are printed on stderr with their time.
 *
 * <p>Not real-time safe (start, close and the error path). Thread safe: {@link #aeron()} may be shared.
 */
public final class AeronTransport implements AutoCloseable
{
    /** Longest wait of a closing client for its buffer users, ms. */
    public static final long RELEASE_WAIT_MS = 2_000L;

    /**
     * How the client lost its media driver.
     *
     * @param nanoTime {@link System#nanoTime()} when the client reported it.
     * @param time the wall-clock time when the client reported it.
     * @param reason the client's error message.
     */
    public record Loss(long nanoTime, Instant time, String reason)
    {
        /** @return one line for logs: time and reason. */
        public String describe()
        {
            return String.format(Locale.ROOT, "media driver lost at %s (nanoTime %d): %s", time, nanoTime, reason);
        }
    }

    private final MediaDriver driver;
    private final Aeron aeron;
    private final String aeronDirectory;
    private final long driverTimeoutMs;
    private final ClientErrors errors;

    private AeronTransport(final MediaDriver driver, final Aeron aeron, final AeronConfig config, final ClientErrors errors)
    {
        this.driver = driver;
        this.aeron = aeron;
        this.aeronDirectory = config.aeronDirectory();
        this.driverTimeoutMs = config.driverTimeoutMs();
        this.errors = errors;
    }

    /**
     * Starts the embedded driver if configured, then connects a client to the driver.
     *
     * @param config where the driver runs and the client's driver timeout.
     * @return the connected transport.
     * @throws DriverDirectoryException if the embedded driver's directory exists and cannot be proved
     *     to be an unused media driver directory (nothing in it is then deleted).
     */
    public static AeronTransport launch(final AeronConfig config)
    {
        final MediaDriver driver = config.embeddedDriver() ? launchDriver(config) : null;
        final ClientErrors errors = new ClientErrors(config.aeronDirectory());
        try
        {
            final Aeron aeron = Aeron.connect(new Aeron.Context()
                .aeronDirectoryName(config.aeronDirectory())
                .driverTimeoutMs(config.driverTimeoutMs())
                .errorHandler(errors::onError)
                .closeHandler(errors::awaitBufferUsers));
            return new AeronTransport(driver, aeron, config, errors);
        }
        catch (final RuntimeException ex)
        {
            try
            {
                closeDriver(driver, config.aeronDirectory(), config.driverTimeoutMs());
            }
            catch (final RuntimeException closeFailure)
            {
                ex.addSuppressed(closeFailure);
            }
            throw ex;
        }
    }

    private static MediaDriver launchDriver(final AeronConfig config)
    {
        DriverDirectory.prepare(config.aeronDirectory(), config.driverTimeoutMs());
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(config.aeronDirectory())
            .dirDeleteOnStart(false)
            .dirDeleteOnShutdown(false)
            .termBufferSparseFile(true)
            .threadingMode(config.threadingMode());
        switch (config.threadingMode())
        {
            case SHARED:
                context.sharedIdleStrategy(config.driverIdleStrategy().create());
                break;
            case SHARED_NETWORK:
                context.sharedNetworkIdleStrategy(config.driverIdleStrategy().create())
                    .conductorIdleStrategy(config.driverIdleStrategy().create());
                break;
            case DEDICATED:
                context.conductorIdleStrategy(config.driverIdleStrategy().create())
                    .senderIdleStrategy(config.driverIdleStrategy().create())
                    .receiverIdleStrategy(config.driverIdleStrategy().create());
                break;
            default:
                throw new IllegalArgumentException("unsupported threading mode " + config.threadingMode());
        }
        try
        {
            return MediaDriver.launch(context);
        }
        catch (final ActiveDriverException e)
        {
            // Another driver took the directory between the check and the launch.
            throw new DriverDirectoryException("media driver directory " + config.aeronDirectory() + " refused: a live "
                + "media driver started there while this one was starting; nothing was deleted", e);
        }
    }

    /** @return the connected client. */
    public Aeron aeron()
    {
        return aeron;
    }

    /** @return the media driver directory in use. */
    public String aeronDirectory()
    {
        return aeronDirectory;
    }

    /** @return true when the driver runs inside this process. */
    public boolean embeddedDriver()
    {
        return driver != null;
    }

    /** @return the loss of the media driver, or null while the client is connected. Any thread. */
    public Loss loss()
    {
        return errors.loss;
    }

    /**
     * Registers what to do when the driver is lost: runs once, on the client's conductor thread (so
     * it must be quick, e.g. signal a waiting thread), or at once if the driver is already lost.
     *
     * @param listener called with the loss.
     */
    public void onLoss(final Runnable listener)
    {
        errors.listeners.add(listener);
        if (errors.loss != null && errors.listeners.remove(listener))
        {
            listener.run();
        }
    }

    /**
     * Registers a thread's hold on the client's buffers: when the client closes (on {@link #close}
     * or after losing the driver) it unmaps its log buffers and counters only once
     * {@code released} is true, or after {@value #RELEASE_WAIT_MS} ms. A thread that polls or
     * publishes registers here and reports release once it has stopped for good, or once it has seen
     * its publications or subscriptions closed.
     *
     * @param released true once the thread no longer touches the client's publications and subscriptions.
     */
    public void registerBufferUser(final BooleanSupplier released)
    {
        errors.bufferUsers.add(released);
    }

    /**
     * Closes the client, then the embedded driver, then removes the driver's directory if it holds
     * only the files the driver made (otherwise it stays, and why is printed on stderr).
     */
    @Override
    public void close()
    {
        try
        {
            CloseHelper.close(aeron);
        }
        finally
        {
            closeDriver(driver, aeronDirectory, driverTimeoutMs);
        }
    }

    private static void closeDriver(final MediaDriver driver, final String aeronDirectory, final long driverTimeoutMs)
    {
        if (driver == null)
        {
            return;
        }
        driver.close();
        try
        {
            DriverDirectory.removeAfterShutdown(aeronDirectory, driverTimeoutMs);
        }
        catch (final DriverDirectoryException e)
        {
            System.err.println("nectl: " + e.getMessage());
        }
    }

    /** The client's error handler and close handler; runs on the client's conductor thread. */
    private static final class ClientErrors
    {
        private final String aeronDirectory;
        private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
        private final List<BooleanSupplier> bufferUsers = new CopyOnWriteArrayList<>();
        private volatile Loss loss;
        private String lastError;

        ClientErrors(final String aeronDirectory)
        {
            this.aeronDirectory = aeronDirectory;
        }

        void onError(final Throwable error)
        {
            final long nanoTime = System.nanoTime();
            final Instant time = Instant.now();
            final boolean timeout = error instanceof DriverTimeoutException || error instanceof ClientTimeoutException
                || error instanceof ConductorServiceTimeoutException;
            // The conductor thread ends with an AgentTerminationException once the client has closed
            // itself: after a timeout (already reported) or after another fatal client error.
            if (timeout || error instanceof AgentTerminationException)
            {
                if (loss == null)
                {
                    lost(new Loss(nanoTime, time, timeout ? error.getMessage()
                        : "the Aeron client terminated" + (lastError == null ? "" : " after: " + lastError)));
                }
                return;
            }
            lastError = error.toString();
            System.err.printf(Locale.ROOT, "nectl: aeron %s: client error at %s (nanoTime %d): %s%n", aeronDirectory, time,
                nanoTime, error);
            error.printStackTrace();
        }

        private void lost(final Loss what)
        {
            loss = what;
            System.err.println("nectl: aeron " + aeronDirectory + ": " + what.describe()
                + "; every publication and subscription of this client is closed");
            for (final Runnable listener : listeners)
            {
                if (listeners.remove(listener))
                {
                    listener.run();
                }
            }
        }

        void awaitBufferUsers()
        {
            final long deadlineNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RELEASE_WAIT_MS);
            for (final BooleanSupplier user : bufferUsers)
            {
                while (!user.getAsBoolean())
                {
                    if (System.nanoTime() - deadlineNs > 0)
                    {
                        System.err.println("nectl: aeron " + aeronDirectory + ": a thread still held the client's buffers after "
                            + RELEASE_WAIT_MS + " ms; unmapping them");
                        return;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }
        }
    }
}
