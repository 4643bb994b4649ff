package org.nectl.service.monitor;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;

/**
 * Streams telemetry to PlotJuggler's UDP server with its JSON message protocol (docs/TELEMETRY.md,
 * "PlotJuggler"): one JSON object per sample, every {@link TelemetrySeries} a key (per-joint series
 * as arrays, which PlotJuggler flattens to {@code /q[0]}, {@code /q[1]}, ...) and the sample's
 * controller time in seconds under {@code timestamp}. A sample whose object would exceed the
 * datagram limit is split into several objects, each with the same {@code timestamp}; PlotJuggler
 * appends each key to its own series, so the split is invisible there. With batching, consecutive
 * objects travel as one JSON array per datagram until the limit or {@link #flush}.
 *
 * <p>Datagrams go to an unconnected UDP socket, so a PlotJuggler not (yet) listening costs nothing
 * and raises no error. Not thread safe. Not real-time safe.
 */
public final class PlotJugglerStream implements AutoCloseable
{
    /** Default datagram limit: one Ethernet frame's UDP payload, so no IP fragmentation. */
    public static final int DEFAULT_MAX_DATAGRAM_BYTES = 1472;
    /** Smallest datagram limit: a 32-joint array of doubles with its key and the timestamp fits. */
    public static final int MIN_DATAGRAM_BYTES = 1024;
    /** Largest datagram limit: the largest UDP payload over IPv4. */
    public static final int MAX_DATAGRAM_BYTES = 65_507;
    /** Key of the sample time, s; the name PlotJuggler's JSON parser looks for. */
    public static final String TIMESTAMP_KEY = "timestamp";

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final byte[] TIMESTAMP_PREFIX = ("{\"" + TIMESTAMP_KEY + "\":").getBytes(StandardCharsets.US_ASCII);

    private final DatagramChannel channel;
    private final InetSocketAddress target;
    private final int maxDatagramBytes;
    private final boolean batch;
    private final ByteBuffer datagram;
    private final ByteBuffer object;
    private final List<byte[]> entries = new ArrayList<>();
    private long datagramCount;
    private long sendFailureCount;

    /**
     * @param target PlotJuggler's UDP server.
     * @param maxDatagramBytes largest datagram, {@value #MIN_DATAGRAM_BYTES}..{@value #MAX_DATAGRAM_BYTES} bytes.
     * @param batch pack consecutive objects into one JSON array per datagram.
     */
    public PlotJugglerStream(final InetSocketAddress target, final int maxDatagramBytes, final boolean batch)
    {
        if (maxDatagramBytes < MIN_DATAGRAM_BYTES || maxDatagramBytes > MAX_DATAGRAM_BYTES)
        {
            throw new IllegalArgumentException("datagram limit must be in " + MIN_DATAGRAM_BYTES + ".." + MAX_DATAGRAM_BYTES
                + " bytes, got " + maxDatagramBytes);
        }
        this.target = target;
        this.maxDatagramBytes = maxDatagramBytes;
        this.batch = batch;
        datagram = ByteBuffer.allocate(maxDatagramBytes);
        object = ByteBuffer.allocate(maxDatagramBytes);
        try
        {
            channel = DatagramChannel.open();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Sends the newest sample of {@code telemetry} (in batch mode: queues it, sending the batch
     * when full).
     *
     * @param telemetry with at least one sample.
     */
    public void send(final LiveTelemetry telemetry)
    {
        entries.clear();
        for (final TelemetrySeries series : TelemetrySeries.ALL)
        {
            entries.add(entry(series, telemetry));
        }
        final byte[] timestamp = number(telemetry.sample().timestampNs() * 1e-9);
        object.clear();
        for (final byte[] entry : entries)
        {
            // The object so far, a comma, the entry and the closing brace; one byte more for a batch's bracket.
            if (object.position() > 0 && object.position() + 1 + entry.length + 1 + (batch ? 2 : 0) > maxDatagramBytes)
            {
                endObject();
            }
            if (object.position() == 0)
            {
                object.put(TIMESTAMP_PREFIX).put(timestamp);
            }
            object.put((byte)',').put(entry);
        }
        endObject();
    }

    /** Sends a pending batch now; nothing without batching. */
    public void flush()
    {
        if (datagram.position() > 0)
        {
            datagram.put((byte)']');
            transmit();
        }
    }

    /** @return datagrams sent so far. */
    public long datagramCount()
    {
        return datagramCount;
    }

    /** @return datagrams the host refused to send (no route, buffer full). */
    public long sendFailureCount()
    {
        return sendFailureCount;
    }

    @Override
    public void close()
    {
        flush();
        try
        {
            channel.close();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private void endObject()
    {
        object.put((byte)'}').flip();
        if (!batch)
        {
            datagram.put(object);
            transmit();
        }
        else
        {
            if (datagram.position() > 0 && datagram.position() + 1 + object.remaining() + 1 > maxDatagramBytes)
            {
                flush();
            }
            datagram.put(datagram.position() == 0 ? (byte)'[' : (byte)',').put(object);
        }
        object.clear();
    }

    private void transmit()
    {
        datagram.flip();
        try
        {
            channel.send(datagram, target);
            datagramCount++;
        }
        catch (final IOException e)
        {
            sendFailureCount++;
        }
        datagram.clear();
    }

    private static byte[] entry(final TelemetrySeries series, final LiveTelemetry telemetry)
    {
        try
        {
            final String key = JSON.writeValueAsString(series.key()) + ':';
            if (!series.perJoint())
            {
                return (key + JSON.writeValueAsString(series.value().of(telemetry, 0))).getBytes(StandardCharsets.UTF_8);
            }
            final ArrayNode values = JsonNodeFactory.instance.arrayNode(telemetry.jointCount());
            for (int k = 0; k < telemetry.jointCount(); k++)
            {
                values.add(series.value().of(telemetry, k));
            }
            return (key + JSON.writeValueAsString(values)).getBytes(StandardCharsets.UTF_8);
        }
        catch (final JsonProcessingException e)
        {
            throw new IllegalStateException("cannot write telemetry series " + series.key() + " as JSON", e);
        }
    }

    private static byte[] number(final double value)
    {
        try
        {
            return JSON.writeValueAsBytes(value);
        }
        catch (final JsonProcessingException e)
        {
            throw new IllegalStateException("cannot write " + value + " as JSON", e);
        }
    }
}
