package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nectl.service.monitor.PlotJugglerStream;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;

/**
 * {@code nectl monitor --plotjuggler} on a real Telemetry publication, its datagrams received on a
 * real UDP socket and decoded the way PlotJuggler's JSON message parser does: a message is an
 * object whose numeric {@code timestamp} is the sample time, its keys flattened to series names
 * ({@code /key}, arrays as {@code /key[i]}), numbers and booleans kept, everything else ignored; a
 * datagram holding a JSON array is a batch of such messages.
 */
final class MonitorPlotJugglerTest
{
    private static final long SEED = 21;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    private DatagramSocket plotJuggler;

    private TelemetryPublisherRig rig;

    @BeforeEach
    void start() throws Exception
    {
        rig = new TelemetryPublisherRig(256 * 1024);
        plotJuggler = new DatagramSocket(0, InetAddress.getLoopbackAddress());
        plotJuggler.setReceiveBufferSize(1 << 20);
        plotJuggler.setSoTimeout((int)TimeUnit.NANOSECONDS.toMillis(TIMEOUT_NS));
    }

    @AfterEach
    void stop()
    {
        plotJuggler.close();
        rig.close();
        assertTrue(rig.agentErrors.isEmpty(), "agent errors: " + rig.agentErrors);
    }

    /** 7 joints: one object per sample and datagram, under 1472 bytes, every series equal to what was published. */
    @Test
    void everySampleArrivesAsOnePlotJugglerMessageWithItsTimestampAndValues() throws Exception
    {
        final List<TelemetrySample> published = publish(7, 25, false);
        final List<byte[]> datagrams = receive(published.size());
        final Map<Double, Map<String, Double>> series = new TreeMap<>();
        System.out.printf("7 joints: datagrams of %d..%d bytes%n", datagrams.stream().mapToInt(d -> d.length).min().orElse(0),
            datagrams.stream().mapToInt(d -> d.length).max().orElse(0));
        for (final byte[] datagram : datagrams)
        {
            assertTrue(datagram.length <= PlotJugglerStream.DEFAULT_MAX_DATAGRAM_BYTES, datagram.length + " bytes");
            final JsonNode message = JSON.readTree(datagram);
            assertTrue(message.isObject(), "one object per datagram without batching");
            parse(message, series);
        }
        assertMatches(published, series);
    }

    /**
     * 32 joints: a sample no longer fits one datagram, so it is split into objects with the same
     * timestamp; batched, whole objects travel as JSON arrays, never above the limit, and together
     * carry every series of every sample.
     */
    @Test
    void aThirtyTwoJointSampleIsSplitUnderTheLimitAndBatchesCarryWholeMessages() throws Exception
    {
        final List<TelemetrySample> published = publish(32, 10, true);
        final Map<Double, Map<String, Double>> series = new TreeMap<>();
        int messages = 0;
        int datagrams = 0;
        while (series.size() < published.size() || !complete(series, 32))
        {
            final byte[] datagram = receiveOne();
            datagrams++;
            assertTrue(datagram.length <= PlotJugglerStream.DEFAULT_MAX_DATAGRAM_BYTES, datagram.length + " bytes");
            final JsonNode batch = JSON.readTree(datagram);
            assertTrue(batch.isArray() && batch.size() >= 1, "a batch is a JSON array of messages");
            batch.forEach(message -> parse(message, series));
            messages += batch.size();
        }
        assertTrue(messages >= 2 * published.size(), messages + " messages: every 32-joint sample split at least in two");
        System.out.printf("32 joints: %d samples in %d messages and %d datagrams%n", published.size(), messages, datagrams);
        assertMatches(published, series);
    }

    @Test
    void aMalformedTargetOrLimitIsRefusedWithExitStatus2()
    {
        assertRefused("--plotjuggler must be HOST:PORT, got 'localhost'", "--plotjuggler", "localhost");
        assertRefused("--plotjuggler port must be in 1..65535, got 70000", "--plotjuggler", "127.0.0.1:70000");
        assertRefused("--plotjuggler-max-bytes must be in 1024..65507, got 512", "--plotjuggler", "127.0.0.1:9870",
            "--plotjuggler-max-bytes", "512");
    }

    private void assertRefused(final String message, final String... options)
    {
        final StringWriter err = new StringWriter();
        final List<String> args = new ArrayList<>(List.of("monitor", "--aeron-dir", rig.aeronDirectory()));
        args.addAll(List.of(options));
        final int status = NectlCommand.newCommandLine().setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
            .execute(args.toArray(String[]::new));
        assertEquals(2, status, err.toString());
        assertEquals("nectl monitor: " + message, err.toString().strip());
    }

    /** Starts the monitor, publishes seeded random samples and waits for the monitor to count them. */
    private List<TelemetrySample> publish(final int dof, final int count, final boolean batch) throws Exception
    {
        final List<String> args = new ArrayList<>(List.of("monitor", "--aeron-dir", rig.aeronDirectory(), "--count", "" + count,
            "--quiet", "--plotjuggler", "127.0.0.1:" + plotJuggler.getLocalPort()));
        if (batch)
        {
            args.add("--plotjuggler-batch");
        }
        final StringWriter out = new StringWriter();
        final CompletableFuture<Integer> monitor = CompletableFuture.supplyAsync(() -> NectlCommand.newCommandLine()
            .setOut(new PrintWriter(out)).execute(args.toArray(String[]::new)));
        await(rig.publisher::isConnected, "the monitor's subscription");
        final SplittableRandom random = new SplittableRandom(SEED);
        final List<TelemetrySample> published = new ArrayList<>();
        for (int i = 1; i <= count; i++)
        {
            final TelemetrySample sample = new TelemetrySample(dof);
            sample.tickCount(i).timestampNs(1_000_000L * i).tickComputeNs(random.nextLong(1_000, 90_000))
                .state(i > count / 2 ? ControllerState.TRACKING : ControllerState.ENABLED).controller(ControllerKind.COMPUTED_TORQUE)
                .deadlineMissCount(i / 3).faults(i == count ? 1 << 6 : 0).referenceClockRate(random.nextDouble(0.5, 1.0));
            sample.rejectCounts()[2] = i;
            for (int k = 0; k < dof; k++)
            {
                sample.q()[k] = random.nextDouble(-3.0, 3.0);
                sample.qd()[k] = random.nextDouble(-1.0, 1.0);
                sample.tauCommand()[k] = random.nextDouble(-87.0, 87.0);
                sample.trackingError()[k] = random.nextDouble(-1e-3, 1e-3);
            }
            assertEquals(TelemetryQueue.QUEUED, rig.queue.offer(sample), "sample " + i + ", seed " + SEED);
            published.add(sample);
        }
        assertEquals(0, monitor.get(30, TimeUnit.SECONDS), out.toString());
        assertTrue(out.toString().contains("datagrams sent to PlotJuggler at 127.0.0.1:" + plotJuggler.getLocalPort()
            + ", 0 refused by the host"), out.toString());
        return published;
    }

    private List<byte[]> receive(final int count) throws Exception
    {
        final List<byte[]> datagrams = new ArrayList<>();
        while (datagrams.size() < count)
        {
            datagrams.add(receiveOne());
        }
        return datagrams;
    }

    private byte[] receiveOne() throws Exception
    {
        // Larger than any limit, so a datagram over the limit would show its true length.
        final DatagramPacket packet = new DatagramPacket(new byte[65_536], 65_536);
        plotJuggler.receive(packet);
        final byte[] datagram = new byte[packet.getLength()];
        System.arraycopy(packet.getData(), 0, datagram, 0, datagram.length);
        return datagram;
    }

    /** One message as PlotJuggler's JSON parser reads it: numeric timestamp, flattened keys. */
    private static void parse(final JsonNode message, final Map<Double, Map<String, Double>> series)
    {
        final JsonNode timestamp = message.get(PlotJugglerStream.TIMESTAMP_KEY);
        assertTrue(timestamp != null && timestamp.isNumber(), "numeric timestamp in " + message);
        flatten("", message, series.computeIfAbsent(timestamp.asDouble(), t -> new TreeMap<>()));
    }

    private static void flatten(final String prefix, final JsonNode value, final Map<String, Double> values)
    {
        if (value.isArray())
        {
            for (int i = 0; i < value.size(); i++)
            {
                flatten(prefix + "[" + i + "]", value.get(i), values);
            }
        }
        else if (value.isObject())
        {
            for (final Map.Entry<String, JsonNode> field : value.properties())
            {
                flatten(prefix + "/" + field.getKey(), field.getValue(), values);
            }
        }
        else if (value.isNumber() || value.isBoolean())
        {
            values.put(prefix, value.isBoolean() ? (value.asBoolean() ? 1.0 : 0.0) : value.asDouble());
        }
    }

    private static boolean complete(final Map<Double, Map<String, Double>> series, final int dof)
    {
        return series.values().stream().allMatch(values -> values.containsKey("/faults") && values.containsKey("/q[" + (dof - 1) + "]")
            && values.containsKey("/tau[" + (dof - 1) + "]") && values.containsKey("/tauRate[" + (dof - 1) + "]"));
    }

    private static void assertMatches(final List<TelemetrySample> published, final Map<Double, Map<String, Double>> series)
    {
        assertEquals(published.size(), series.size(), "one timestamp per sample: " + series.keySet());
        TelemetrySample previous = null;
        for (final TelemetrySample sample : published)
        {
            final double timestampS = sample.timestampNs() * 1e-9;
            final Map<String, Double> values = series.get(timestampS);
            assertTrue(values != null, "no message at " + timestampS + " s, seed " + SEED);
            final String at = " at tick " + sample.tickCount() + ", seed " + SEED;
            assertEquals(timestampS, values.get("/timestamp"), 0.0, at);
            assertEquals(sample.tickCount(), values.get("/tickCount"), 0.0, at);
            assertEquals(sample.tickComputeNs() * 1e-3, values.get("/tickComputeUs"), 0.0, at);
            assertEquals(sample.state().value(), values.get("/state"), 0.0, at);
            assertEquals(sample.faults(), values.get("/faults"), 0.0, at);
            assertEquals(sample.deadlineMissCount(), values.get("/deadlineMissCount"), 0.0, at);
            assertEquals(sample.referenceClockRate(), values.get("/referenceClockRate"), 0.0, at);
            assertEquals(sample.rejectCounts()[2], values.get("/rejectedDatagrams"), 0.0, at);
            for (int k = 0; k < sample.jointCount(); k++)
            {
                final String joint = "[" + k + "]";
                assertEquals(sample.q()[k], values.get("/q" + joint), 0.0, "q" + joint + at);
                assertEquals(sample.qd()[k], values.get("/qd" + joint), 0.0, "qd" + joint + at);
                assertEquals(sample.q()[k] + sample.trackingError()[k], values.get("/qRef" + joint), 0.0, "qRef" + joint + at);
                assertEquals(sample.trackingError()[k], values.get("/trackingError" + joint), 0.0, at);
                assertEquals(sample.tauCommand()[k], values.get("/tau" + joint), 0.0, "tau" + joint + at);
                final double rate = previous == null ? 0.0
                    : (sample.tauCommand()[k] - previous.tauCommand()[k]) * 1e9 / (sample.timestampNs() - previous.timestampNs());
                assertEquals(rate, values.get("/tauRate" + joint), 1e-9 * Math.abs(rate), "tauRate" + joint + at);
            }
            previous = sample;
        }
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
