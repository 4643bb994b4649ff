package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nectl.service.dashboard.DashboardFeed;
import org.nectl.service.dashboard.DashboardServer;
import org.nectl.transport.TelemetryPublisher;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * The CPU time of {@code nectl dashboard} at 1 kHz: the service's telemetry path (TelemetryQueue
 * and TelemetryPublisher on an agent thread, as in the service) carries a 7-joint sample every
 * millisecond of wall time, a browser-like WebSocket client (the JDK's) takes the frames, and
 * ThreadMXBean measures the CPU time of the dashboard's threads (its feed and its HTTP server) over
 * the run. A synthetic publisher rather than the simulator, so the rate holds at 1 kHz even on a
 * loaded host; the page itself is tested in a browser by {@code DashboardBrowserTest}.
 */
final class DashboardCpuTest
{
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final int DOF = 7;
    private static final long PERIOD_NS = 1_000_000L;
    private static final double WARM_UP_S = 2.0;
    private static final double MEASURED_S = 5.0;
    private static final double CPU_LIMIT = 0.05;
    private static final Pattern URL = Pattern.compile("http://(127\\.0\\.0\\.1:\\d+)/");

    private TelemetryPublisherRig rig;

    @BeforeEach
    void start()
    {
        rig = new TelemetryPublisherRig(1 << 20);
    }

    @AfterEach
    void stop()
    {
        rig.close();
        assertTrue(rig.agentErrors.isEmpty(), "agent errors: " + rig.agentErrors);
    }

    @Test
    void dashboardThreadsUseUnderFivePercentOfACpuAtOneKilohertz() throws Exception
    {
        final StringWriter out = new StringWriter();
        final CompletableFuture<Integer> dashboard = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(out, true)).execute("dashboard", "--aeron-dir", rig.aeronDirectory(), "--port", "0"));
        await(() -> URL.matcher(out.toString()).find() || dashboard.isDone(), "the dashboard's address");
        final Matcher url = URL.matcher(out.toString());
        assertTrue(url.find(), out.toString());
        final AtomicLong frames = new AtomicLong();
        final WebSocket browser = HttpClient.newHttpClient().newWebSocketBuilder()
            .buildAsync(URI.create("ws://" + url.group(1) + DashboardServer.STREAM_PATH), new WebSocket.Listener()
            {
                @Override
                public CompletionStage<?> onText(final WebSocket socket, final CharSequence data, final boolean last)
                {
                    if (last && data.toString().contains("\"type\":\"sample\""))
                    {
                        frames.incrementAndGet();
                    }
                    socket.request(1);
                    return null;
                }
            }).get(30, TimeUnit.SECONDS);
        await(rig.publisher::isConnected, "the dashboard's subscription");

        final TelemetrySample sample = new TelemetrySample(DOF).state(ControllerState.TRACKING).controller(ControllerKind.COMPUTED_TORQUE);
        long tick = publishFor(sample, 0, WARM_UP_S);
        final Map<String, Long> before = cpuNs();
        final long framesBefore = frames.get();
        final long startNs = System.nanoTime();
        final long ticks = publishFor(sample, tick, MEASURED_S) - tick;
        final long wallNs = System.nanoTime() - startNs;
        final Map<String, Long> after = cpuNs();
        await(() -> frames.get() > framesBefore, "frames in the browser");
        final long measuredFrames = frames.get() - framesBefore;
        browser.sendClose(WebSocket.NORMAL_CLOSURE, "done").get(30, TimeUnit.SECONDS);

        long feedNs = 0;
        long httpNs = 0;
        for (final Map.Entry<String, Long> thread : after.entrySet())
        {
            final long usedNs = thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
            if (thread.getKey().startsWith(DashboardFeed.ROLE_NAME))
            {
                feedNs += usedNs;
            }
            else
            {
                httpNs += usedNs;
            }
        }
        final double rateHz = ticks / (wallNs * 1e-9);
        final double share = (double)(feedNs + httpNs) / wallNs;
        System.out.printf(Locale.ROOT, "dashboard at %.0f Hz telemetry (%d samples in %.2f s), %d frames to the browser (%.0f Hz): "
            + "feed thread %.2f %%, HTTP threads %.2f %%, together %.2f %% of a CPU%n", rateHz, ticks, wallNs * 1e-9, measuredFrames,
            measuredFrames / (wallNs * 1e-9), 100.0 * feedNs / wallNs, 100.0 * httpNs / wallNs, 100 * share);
        assertTrue(rateHz >= 950, "telemetry at " + rateHz + " Hz, not 1 kHz");
        assertTrue(measuredFrames >= 30 * MEASURED_S * 0.8, measuredFrames + " frames in " + MEASURED_S + " s");
        assertTrue(feedNs > 0, "the feed thread ran");
        assertTrue(share < CPU_LIMIT, String.format(Locale.ROOT, "dashboard threads used %.2f %% of a CPU", 100 * share));
        rig.close();
        assertEquals(4, dashboard.get(30, TimeUnit.SECONDS), "the dashboard ends when the driver is gone: " + out);
    }

    /** Offers one sample per millisecond of wall time for {@code seconds}, catching up after a delay; returns the last tick. */
    private long publishFor(final TelemetrySample sample, final long fromTick, final double seconds)
    {
        final long startNs = System.nanoTime();
        final long endTick = fromTick + Math.round(seconds * 1000);
        long tick = fromTick;
        while (tick < endTick)
        {
            final long due = Math.min(endTick, fromTick + (System.nanoTime() - startNs) / PERIOD_NS);
            if (tick == due)
            {
                Thread.yield();
                continue;
            }
            while (tick < due)
            {
                tick++;
                sample.tickCount(tick).timestampNs(tick * PERIOD_NS).tickComputeNs(20_000 + tick % 1000);
                for (int k = 0; k < DOF; k++)
                {
                    sample.q()[k] = Math.sin(tick * 1e-3 + k);
                    sample.tauCommand()[k] = 10 * Math.cos(tick * 1e-3 + k);
                    sample.trackingError()[k] = 1e-4 * Math.sin(tick * 1e-2 + k);
                }
                assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(sample), "tick " + tick);
            }
        }
        return tick;
    }

    /** CPU time of every thread of the dashboard (its feed and its HTTP server), by thread name. */
    private static Map<String, Long> cpuNs()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        final Map<String, Long> cpu = new HashMap<>();
        for (final Thread thread : Thread.getAllStackTraces().keySet())
        {
            if (thread.getName().startsWith(DashboardFeed.ROLE_NAME) || thread.getName().startsWith(DashboardServer.THREAD_NAME_PREFIX))
            {
                cpu.put(thread.getName(), threads.getThreadCpuTime(thread.getId()));
            }
        }
        return cpu;
    }

    private static void await(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("timed out waiting for " + what);
            }
            Thread.yield();
        }
    }
}
