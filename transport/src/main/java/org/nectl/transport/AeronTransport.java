package org.nectl.transport;

import io.aeron.Aeron;
import io.aeron.driver.MediaDriver;
import org.agrona.CloseHelper;

/**
 * An Aeron client, and the embedded media driver it talks to when configured so. Closing closes
 * the client, then the driver, which deletes its directory.
 *
 * <p>Not real-time safe (start and close only). Thread safe: {@link #aeron()} may be shared.
 */
public final class AeronTransport implements AutoCloseable
{
    private final MediaDriver driver;
    private final Aeron aeron;
    private final String aeronDirectory;

    private AeronTransport(final MediaDriver driver, final Aeron aeron, final String aeronDirectory)
    {
        this.driver = driver;
        this.aeron = aeron;
        this.aeronDirectory = aeronDirectory;
    }

    /**
     * Starts the embedded driver if configured, then connects a client to the driver.
     *
     * @param config where the driver runs.
     * @return the connected transport.
     */
    public static AeronTransport launch(final AeronConfig config)
    {
        final MediaDriver driver = config.embeddedDriver() ? launchDriver(config) : null;
        try
        {
            final Aeron aeron = Aeron.connect(new Aeron.Context().aeronDirectoryName(config.aeronDirectory()));
            return new AeronTransport(driver, aeron, config.aeronDirectory());
        }
        catch (final RuntimeException ex)
        {
            CloseHelper.quietClose(driver);
            throw ex;
        }
    }

    private static MediaDriver launchDriver(final AeronConfig config)
    {
        final MediaDriver.Context context = new MediaDriver.Context()
            .aeronDirectoryName(config.aeronDirectory())
            .dirDeleteOnStart(true)
            .dirDeleteOnShutdown(true)
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
        return MediaDriver.launch(context);
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

    /** Closes the client, then the embedded driver (deleting its directory). */
    @Override
    public void close()
    {
        CloseHelper.closeAll(aeron, driver);
    }
}
