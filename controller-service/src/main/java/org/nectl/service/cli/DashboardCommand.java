package org.nectl.service.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.aeron.CommonContext;
import io.aeron.Subscription;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.nectl.service.dashboard.DashboardFeed;
import org.nectl.service.dashboard.DashboardServer;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.TelemetryConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nectl dashboard}: a read-only web page with live charts of a running service's telemetry
 * and its controller events ({@link DashboardServer}, {@link DashboardFeed}). Runs until
 * SIGINT/SIGTERM, {@code --duration} seconds, or until its Aeron client loses the media driver.
 * Not real-time safe; it never touches the control loop, only the telemetry publication.
 */
@Command(
    name = "dashboard",
    mixinStandardHelpOptions = true,
    description = {
        "Serves a read-only web page with live charts of the service's telemetry (q and reference, tracking error, q\u0307,",
        "\u03c4, \u03c4\u0307, tick time, state, counters) and its controller events, decimated to --rate-hz. Listens on",
        "127.0.0.1 only unless --host says otherwise; see docs/TELEMETRY.md before exposing it.",
        "Exit status: 0 done, 1 no media driver, 2 bad option or address, 4 media driver lost."
    })
final class DashboardCommand implements Callable<Integer>
{
    /** Default HTTP port. */
    static final int DEFAULT_PORT = 8090;
    /** Longest wait between checks of --duration and the driver, ms. */
    private static final long CHECK_INTERVAL_MS = 100L;

    @Spec
    private CommandSpec spec;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running service; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--channel", paramLabel = "CHANNEL", defaultValue = TelemetryConfig.IPC_CHANNEL,
        description = "Telemetry channel; default ${DEFAULT-VALUE}.")
    private String channel;

    @Option(names = "--stream", paramLabel = "ID", defaultValue = "" + TelemetryConfig.STREAM_ID,
        description = "Telemetry stream id; default ${DEFAULT-VALUE}.")
    private int streamId;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = "127.0.0.1",
        description = "Address to listen on; default ${DEFAULT-VALUE} (this host only).")
    private String host;

    @Option(names = "--port", paramLabel = "PORT", defaultValue = "" + DEFAULT_PORT,
        description = "HTTP port, 0 for any free one; default ${DEFAULT-VALUE}.")
    private int port;

    @Option(names = "--rate-hz", paramLabel = "HZ", defaultValue = "50",
        description = "Sample frames per second sent to each browser, 1..60; default ${DEFAULT-VALUE}.")
    private int rateHz;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "0", description = "Stop after S seconds; 0 for no limit.")
    private double durationS;

    @Option(names = "--driver-timeout-ms", paramLabel = "MS", defaultValue = "" + AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS,
        description = "Aeron client driver timeout (2000..60000); default ${DEFAULT-VALUE}.")
    private long driverTimeoutMs;

    private final CountDownLatch stopRequested = new CountDownLatch(1);

    @Override
    public Integer call()
    {
        final PrintWriter err = spec.commandLine().getErr();
        final String refused = !(durationS >= 0.0) ? "--duration must be >= 0, got " + durationS
            : port < 0 || port > 65_535 ? "--port must be in 0..65535, got " + port
            : rateHz < 1 || rateHz > 60 ? "--rate-hz must be in 1..60, got " + rateHz : null;
        if (refused != null)
        {
            err.println("nectl dashboard: " + refused);
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved())
        {
            err.println("nectl dashboard: --host '" + host + "' does not resolve");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final AeronConfig config;
        try
        {
            config = AeronConfig.external(directory).withDriverTimeoutMs(driverTimeoutMs);
        }
        catch (final IllegalArgumentException e)
        {
            err.println("nectl dashboard: --driver-timeout-ms: " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final AeronTransport transport;
        try
        {
            transport = AeronTransport.launch(config);
        }
        catch (final RuntimeException e)
        {
            err.println("nectl dashboard: no media driver at " + directory + " (start the service first, or pass --aeron-dir): " + e);
            return NectlCommand.NO_DRIVER_EXIT_STATUS;
        }
        try (transport)
        {
            return serve(transport, address, err);
        }
    }

    private int serve(final AeronTransport transport, final InetSocketAddress address, final PrintWriter err)
    {
        final DashboardServer server;
        try
        {
            server = new DashboardServer(address);
        }
        catch (final IOException e)
        {
            err.println("nectl dashboard: cannot listen on " + host + ":" + port + ": " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread stopOnSignal = new Thread(() -> stopAndAwait(stopped), "nectl-dashboard-stop");
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        try (server; Subscription subscription = transport.aeron().addSubscription(channel, streamId))
        {
            final DashboardFeed feed = new DashboardFeed(subscription, server, rateHz);
            // Sleeping when idle, the feed takes a few samples per wake-up at 1 kHz instead of waking for each.
            final AgentRunner runner = new AgentRunner(new SleepingMillisIdleStrategy(DashboardFeed.IDLE_SLEEP_MS), e -> err.println("nectl dashboard: " + e),
                null, feed);
            // The client unmaps the subscription's buffers on a loss: only once the feed's thread has stopped polling them.
            transport.registerBufferUser(runner::isClosed);
            AgentRunner.startOnThread(runner);
            final PrintWriter out = spec.commandLine().getOut();
            out.println("nectl dashboard: " + server.uri() + " (read-only) showing " + channel + " stream " + streamId);
            out.flush();
            try (runner)
            {
                awaitEnd(transport);
            }
            out.printf(Locale.ROOT, "nectl dashboard: %d samples, %d events received, %d sample frames sent, %d skipped%n",
                feed.sampleCount(), feed.eventCount(), feed.frameCount(), feed.skippedCount());
            out.flush();
            if (transport.loss() != null)
            {
                err.println("nectl dashboard: " + transport.loss().describe() + "; stopped");
                return MonitorCommand.DRIVER_LOST_EXIT_STATUS;
            }
            return 0;
        }
        finally
        {
            stopped.countDown();
            try
            {
                Runtime.getRuntime().removeShutdownHook(stopOnSignal);
            }
            catch (final IllegalStateException e)
            {
                // The JVM is already shutting down on a signal and the hook is running: nothing to remove.
                stopRequested.countDown();
            }
        }
    }

    /** Returns on a signal, after --duration, or once the media driver is lost. */
    private void awaitEnd(final AeronTransport transport)
    {
        final long endNs = System.nanoTime() + Math.round(durationS * 1e9);
        try
        {
            while (transport.loss() == null && (durationS == 0 || System.nanoTime() - endNs < 0))
            {
                if (stopRequested.await(CHECK_INTERVAL_MS, TimeUnit.MILLISECONDS))
                {
                    return;
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** On SIGINT/SIGTERM: ends the wait and lets the server and Aeron close. */
    private void stopAndAwait(final CountDownLatch stopped)
    {
        stopRequested.countDown();
        try
        {
            stopped.await(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }
}
