package org.nectl.service.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetSocketAddress;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.aeron.CommonContext;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nectl.config.DescriptionException;
import org.nectl.config.OutputFiles;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.service.monitor.LiveTelemetry;
import org.nectl.service.monitor.PlatformPoses;
import org.nectl.service.monitor.PlotJugglerStream;
import org.nectl.service.monitor.TelemetryCsv;
import org.nectl.service.monitor.TelemetryView;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nectl monitor}: subscribes to the service's Telemetry publication, shows a live text view
 * with the latest controller events and optionally records every sample and every event to CSV. Runs until SIGINT/SIGTERM, {@code --count} samples
 * or {@code --duration} seconds, or until its Aeron client loses the media driver. The sample CSV is
 * flushed at least every {@value #FLUSH_INTERVAL_MS} ms, the event CSV as events arrive. With
 * {@code --plotjuggler} every sample is also sent to PlotJuggler's UDP server as JSON
 * ({@link PlotJugglerStream}). Not real-time safe.
 */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    description = {
        "Shows the service's telemetry live: state, tick counters, misses, rejected datagrams by reason,",
        "per-joint position, tracking error and torque, and the latest controller events (transitions, faults,",
        "stops, refused commands); --csv records every sample, --events-csv every event, --plotjuggler streams every",
        "sample to PlotJuggler's UDP server (JSON message protocol, docs/TELEMETRY.md); --model with a Gough-Stewart",
        "description adds the measured platform pose, by forward kinematics of the leg lengths, to every --csv row.",
        "Exit status: 0 done, 1 no media driver, 2 bad option or --model not the telemetry's robot, 3 --count not reached within --duration,",
        "4 media driver lost (the CSVs hold everything received until then)."
    })
final class MonitorCommand implements Callable<Integer>
{
    /** Exit status when fewer than --count samples arrived within --duration. */
    static final int INCOMPLETE_EXIT_STATUS = 3;
    /** Exit status when the Aeron client lost the media driver while monitoring. */
    static final int DRIVER_LOST_EXIT_STATUS = 4;
    /** Longest time a received sample stays in the sample CSV's buffer, ms. */
    static final long FLUSH_INTERVAL_MS = 500L;
    private static final String CLEAR_SCREEN = "\033[H\033[2J";
    /** Controller events shown under the live view. */
    private static final int EVENTS_SHOWN = 10;

    @Spec
    private CommandSpec spec;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running service; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--channel", paramLabel = "CHANNEL", defaultValue = TelemetryConfig.IPC_CHANNEL,
        description = "Telemetry channel, e.g. aeron:ipc or aeron:udp?endpoint=HOST:PORT; default ${DEFAULT-VALUE}.")
    private String channel;

    @Option(names = "--stream", paramLabel = "ID", defaultValue = "" + TelemetryConfig.STREAM_ID,
        description = "Telemetry stream id; default ${DEFAULT-VALUE}.")
    private int streamId;

    @Option(names = "--csv", paramLabel = "FILE", description = "Record every sample to this new CSV file (an existing one is refused unless --force).")
    private Path csvFile;

    @Option(names = "--events-csv", paramLabel = "FILE",
        description = "Record every controller event to this new CSV file (an existing one is refused unless --force).")
    private Path eventsCsvFile;

    @Option(names = "--model", paramLabel = "FILE",
        description = "A Gough-Stewart description (format: gough-stewart): every --csv row gets the measured platform pose "
            + "platform_x,platform_y,platform_z (m),platform_roll,platform_pitch,platform_yaw (rad) by forward kinematics of its "
            + "leg lengths; empty where Newton does not converge (counted on stderr).")
    private Path modelFile;

    @Option(names = "--force", description = "Replace existing --csv and --events-csv files (regular files only, never through a symbolic link).")
    private boolean force;

    @Option(names = "--plotjuggler", paramLabel = "HOST:PORT",
        description = "Also send every sample as JSON to PlotJuggler's UDP server at HOST:PORT (Streaming: UDP Server, protocol JSON, "
            + "use the timestamp field).")
    private String plotJugglerTarget;

    @Option(names = "--plotjuggler-batch",
        description = "Pack consecutive samples into one JSON array per datagram (for PlotJuggler versions that parse arrays as messages).")
    private boolean plotJugglerBatch;

    @Option(names = "--plotjuggler-max-bytes", paramLabel = "N", defaultValue = "" + PlotJugglerStream.DEFAULT_MAX_DATAGRAM_BYTES,
        description = "Largest PlotJuggler datagram, " + PlotJugglerStream.MIN_DATAGRAM_BYTES + ".." + PlotJugglerStream.MAX_DATAGRAM_BYTES
            + " bytes; a larger sample is split; default ${DEFAULT-VALUE} (one Ethernet frame).")
    private int plotJugglerMaxBytes;

    @Option(names = "--count", paramLabel = "N", defaultValue = "0", description = "Stop after N samples; 0 for no limit.")
    private long count;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "0", description = "Stop after S seconds; 0 for no limit.")
    private double durationS;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "500",
        description = "Refresh period of the live view; default ${DEFAULT-VALUE}.")
    private long intervalMs;

    @Option(names = "--quiet", description = "No live view; print only the summary.")
    private boolean quiet;

    @Option(names = "--driver-timeout-ms", paramLabel = "MS", defaultValue = "" + AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS,
        description = "Aeron client driver timeout: a media driver silent for this long is lost and the monitor exits with status 4 "
            + "(2000..60000); default ${DEFAULT-VALUE}.")
    private long driverTimeoutMs;

    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final TelemetryDecoder decoder = new TelemetryDecoder();
    private final ControllerEventDecoder eventDecoder = new ControllerEventDecoder();
    private final ArrayDeque<String> latestEvents = new ArrayDeque<>();
    private Writer eventsCsv;
    private long eventCount;
    private final TelemetryView view = new TelemetryView();
    private TelemetrySample sample;
    private TelemetryCsv csv;
    private PlatformPoses platformPoses;
    /** Set when the first sample shows the telemetry is not of the --model platform: ends the watch. */
    private PlatformPoses.ModelMismatchException modelMismatch;
    private long receivedCount;
    private long skippedCount;
    /** A version 3 Telemetry message is longer than one frame of the default MTU: reassembled here. */
    private final FragmentHandler handler = new FragmentAssembler(this::onFragment);
    private volatile boolean running = true;
    private volatile boolean pollingStopped;
    private boolean eventsToFlush;
    private AeronTransport transport;
    private PlotJugglerStream plotJuggler;
    private final LiveTelemetry live = new LiveTelemetry();

    @Override
    public Integer call()
    {
        final PrintWriter err = spec.commandLine().getErr();
        if (count < 0 || !(durationS >= 0.0) || intervalMs <= 0)
        {
            err.println("nectl monitor: --count and --duration must be >= 0 and --interval-ms > 0");
            return 2;
        }
        if (plotJugglerMaxBytes < PlotJugglerStream.MIN_DATAGRAM_BYTES || plotJugglerMaxBytes > PlotJugglerStream.MAX_DATAGRAM_BYTES)
        {
            err.println("nectl monitor: --plotjuggler-max-bytes must be in " + PlotJugglerStream.MIN_DATAGRAM_BYTES + ".."
                + PlotJugglerStream.MAX_DATAGRAM_BYTES + ", got " + plotJugglerMaxBytes);
            return 2;
        }
        if (modelFile != null)
        {
            if (csvFile == null)
            {
                err.println("nectl monitor: --model adds the platform pose to the --csv rows; it needs --csv");
                return 2;
            }
            try
            {
                platformPoses = PlatformPoses.load(modelFile);
            }
            catch (final PlatformPoses.ModelMismatchException | DescriptionException e)
            {
                err.println("nectl monitor: " + e.getMessage());
                return 2;
            }
        }
        if (plotJugglerTarget != null)
        {
            try
            {
                final InetSocketAddress target = PlanCommand.parseAddress("--plotjuggler", plotJugglerTarget);
                plotJuggler = new PlotJugglerStream(target, plotJugglerMaxBytes, plotJugglerBatch);
            }
            catch (final IllegalArgumentException e)
            {
                err.println("nectl monitor: " + e.getMessage());
                return 2;
            }
        }
        try
        {
            return monitor(err);
        }
        finally
        {
            if (plotJuggler != null)
            {
                plotJuggler.close();
            }
        }
    }

    private int monitor(final PrintWriter err)
    {
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final AeronConfig config;
        try
        {
            config = AeronConfig.external(directory).withDriverTimeoutMs(driverTimeoutMs);
        }
        catch (final IllegalArgumentException e)
        {
            err.println("nectl monitor: --driver-timeout-ms: " + e.getMessage());
            return 2;
        }
        final AeronTransport launched;
        try
        {
            launched = AeronTransport.launch(config);
        }
        catch (final RuntimeException e)
        {
            err.println("nectl monitor: no media driver at " + directory + " (start the service first, or pass --aeron-dir): " + e);
            return 1;
        }
        final CountDownLatch stopped = new CountDownLatch(1);
        final Thread stopOnSignal = new Thread(() -> stopAndAwait(stopped), "nectl-monitor-stop");
        transport = launched;
        Runtime.getRuntime().addShutdownHook(stopOnSignal);
        // The client unmaps the subscription's buffers when it closes after a loss: not while this thread polls them.
        launched.registerBufferUser(() -> pollingStopped);
        try (launched; Subscription subscription = transport.aeron().addSubscription(channel, streamId))
        {
            try
            {
                return eventsCsvFile != null ? recordEventsTo(subscription) : recordSamplesOrWatch(subscription);
            }
            finally
            {
                // Before the resources close: the closing client waits for this thread to let go of its buffers.
                pollingStopped = true;
            }
        }
        catch (final IOException | UncheckedIOException e)
        {
            final IOException cause = e instanceof UncheckedIOException ? ((UncheckedIOException)e).getCause() : (IOException)e;
            // A refused open names its own file (the events CSV is opened first); a failed write does not.
            err.println("nectl monitor: cannot write " + (cause instanceof FileSystemException ? cause.getMessage()
                : (csvFile != null ? csvFile : eventsCsvFile) + ": " + cause.getMessage()));
            return 2;
        }
        finally
        {
            pollingStopped = true;
            stopped.countDown();
            removeHook(stopOnSignal);
        }
    }

    private int recordEventsTo(final Subscription subscription) throws IOException
    {
        try (BufferedWriter writer = OutputFiles.newWriter(eventsCsvFile, force))
        {
            eventsCsv = writer;
            eventsCsv.append(ControllerEventText.CSV_HEADER).append('\n');
            return recordSamplesOrWatch(subscription);
        }
    }

    private int recordSamplesOrWatch(final Subscription subscription) throws IOException
    {
        return csvFile != null ? recordTo(subscription) : watch(subscription);
    }

    private int recordTo(final Subscription subscription) throws IOException
    {
        try (BufferedWriter writer = OutputFiles.newWriter(csvFile, force))
        {
            csv = new TelemetryCsv(writer, platformPoses);
            return watch(subscription);
        }
    }

    private int watch(final Subscription subscription) throws IOException
    {
        final PrintWriter out = spec.commandLine().getOut();
        final boolean terminal = System.console() != null;
        final IdleStrategy idle = new BackoffIdleStrategy();
        final long startNs = System.nanoTime();
        final long durationNs = Math.round(durationS * 1e9);
        final long intervalNs = TimeUnit.MILLISECONDS.toNanos(intervalMs);
        long nextViewNs = startNs;
        final long flushIntervalNs = TimeUnit.MILLISECONDS.toNanos(FLUSH_INTERVAL_MS);
        long nextFlushNs = startNs + flushIntervalNs;
        long shownCount = 0;
        long shownEvents = 0;
        while (running && (count == 0 || receivedCount < count) && (durationNs == 0 || System.nanoTime() - startNs < durationNs)
            && transport.loss() == null && modelMismatch == null)
        {
            final int fragments = subscription.poll(handler, 16);
            if (plotJuggler != null && fragments < 16)
            {
                // Caught up: a batch waits no longer than one poll.
                plotJuggler.flush();
            }
            idle.idle(fragments);
            if (eventsToFlush)
            {
                eventsCsv.flush();
                eventsToFlush = false;
            }
            if (csv != null && System.nanoTime() - nextFlushNs >= 0)
            {
                csv.flush();
                nextFlushNs = System.nanoTime() + flushIntervalNs;
            }
            if (!quiet && sample != null && (receivedCount > shownCount || eventCount > shownEvents)
                && System.nanoTime() - nextViewNs >= 0)
            {
                out.print((terminal ? CLEAR_SCREEN : "") + view.render(sample, receivedCount) + events());
                out.flush();
                shownCount = receivedCount;
                shownEvents = eventCount;
                nextViewNs = System.nanoTime() + intervalNs;
            }
        }
        pollingStopped = true;
        if (modelMismatch != null)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("nectl monitor: " + modelMismatch.getMessage() + "; " + csvFile + " holds no sample");
            err.flush();
            return 2;
        }
        if (!quiet && sample != null && (receivedCount > shownCount || eventCount > shownEvents))
        {
            out.print(view.render(sample, receivedCount) + events());
        }
        out.printf(Locale.ROOT, "nectl monitor: %d samples and %d events received, %d skipped (other joint count or schema version, "
            + "or invalid) on %s stream %d%s%s%n", receivedCount, eventCount, skippedCount, channel, streamId,
            csvFile != null ? ", samples recorded to " + csvFile : "", eventsCsvFile != null ? ", events recorded to " + eventsCsvFile : "");
        if (plotJuggler != null)
        {
            plotJuggler.flush();
            out.printf(Locale.ROOT, "nectl monitor: %d datagrams sent to PlotJuggler at %s, %d refused by the host%n",
                plotJuggler.datagramCount(), plotJugglerTarget, plotJuggler.sendFailureCount());
        }
        out.flush();
        if (platformPoses != null && platformPoses.failureCount() > 0)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.printf(Locale.ROOT, "nectl monitor: %d samples without a platform pose (forward kinematics did not converge or the "
                + "platform was at a singularity): their pose fields are empty%n", platformPoses.failureCount());
            err.flush();
        }
        final AeronTransport.Loss loss = transport.loss();
        if (loss != null)
        {
            final PrintWriter err = spec.commandLine().getErr();
            err.println("nectl monitor: " + loss.describe() + "; stopped" + (csvFile != null || eventsCsvFile != null
                ? ", the CSVs hold everything received until then" : ""));
            err.flush();
            return DRIVER_LOST_EXIT_STATUS;
        }
        return count != 0 && receivedCount < count ? INCOMPLETE_EXIT_STATUS : 0;
    }

    private String events()
    {
        final StringBuilder text = new StringBuilder("latest events:").append(latestEvents.isEmpty() ? " none\n" : "\n");
        latestEvents.forEach(line -> text.append("  ").append(line).append('\n'));
        return text.toString();
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, ControllerEventDecoder.TEMPLATE_ID,
            ControllerEventDecoder.BLOCK_LENGTH))
        {
            onEvent(eventDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder));
            return;
        }
        // Any version from 1 on, its block long enough for the fields of its version.
        if (!Wire.isWholeMessage(headerDecoder, buffer, offset, length, TelemetryDecoder.TEMPLATE_ID, TelemetryCsv.blockLength(1))
            || headerDecoder.blockLength() < TelemetryCsv.blockLength(headerDecoder.version()))
        {
            skippedCount++;
            return;
        }
        decoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
        if (sample == null && decoder.jointCount() >= 1 && decoder.jointCount() <= Wire.MAX_JOINTS)
        {
            sample = new TelemetrySample(decoder.jointCount());
            writeHeader();
        }
        if (count != 0 && receivedCount >= count)
        {
            // Polled in the same batch as the last one counted: neither shown nor recorded, and not skipped either.
            return;
        }
        if (sample == null || !sample.decode(decoder))
        {
            skippedCount++;
            return;
        }
        if (csv != null)
        {
            try
            {
                if (!csv.write(decoder))
                {
                    // Another schema version than the CSV's columns: recorded by neither the view nor the file.
                    skippedCount++;
                    return;
                }
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
        receivedCount++;
        if (plotJuggler != null && live.update(decoder))
        {
            plotJuggler.send(live);
        }
    }

    private void onEvent(final ControllerEventDecoder event)
    {
        eventCount++;
        if (latestEvents.size() == EVENTS_SHOWN)
        {
            latestEvents.removeFirst();
        }
        latestEvents.addLast(ControllerEventText.line(event));
        if (eventsCsv != null)
        {
            try
            {
                eventsCsv.append(ControllerEventText.csvRow(event)).append('\n');
                eventsToFlush = true;
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
    }

    private void writeHeader()
    {
        if (csv != null)
        {
            try
            {
                csv.writeHeader(decoder);
            }
            catch (final PlatformPoses.ModelMismatchException e)
            {
                modelMismatch = e;
            }
            catch (final IOException e)
            {
                throw new UncheckedIOException(e);
            }
        }
    }

    /** On SIGINT/SIGTERM: ends the watch loop and waits until the CSV is flushed and Aeron closed. */
    private void stopAndAwait(final CountDownLatch stopped)
    {
        running = false;
        try
        {
            stopped.await(5, TimeUnit.SECONDS);
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    private void removeHook(final Thread hook)
    {
        try
        {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        catch (final IllegalStateException e)
        {
            // The JVM is already shutting down on a signal and the hook is running: nothing to remove.
            running = false;
        }
    }
}
