package org.nectl.service.dashboard;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.core.runtime.Faults;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.service.monitor.LiveTelemetry;
import org.nectl.service.monitor.TelemetryCsv;
import org.nectl.service.monitor.TelemetrySeries;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * The dashboard's one working thread: polls the Telemetry publication, keeps the bytes of the two
 * newest samples (a copy per sample, nothing decoded), and at the display rate decodes them into a
 * {@link LiveTelemetry} (so the effort rate is differenced between consecutive samples) and sends
 * the newest to the browsers as one JSON frame with every {@link TelemetrySeries}. Controller
 * events are never decimated: each is sent at once.
 *
 * <p>Frames (docs/TELEMETRY.md, "Web dashboard"): {@code layout} once the joint count is known
 * (charts and series, so the page draws whatever the table holds), {@code sample} at the display
 * rate, {@code event} per ControllerEvent.
 *
 * <p>Not thread safe: run by one {@link org.agrona.concurrent.AgentRunner}. Not real-time safe.
 */
public final class DashboardFeed implements Agent
{
    /** Name of the feed's thread. */
    public static final String ROLE_NAME = "nectl-dashboard-feed";
    /** Dashboard charts by id, in page order, with their titles; a series names its chart by id. */
    static final Map<String, String> CHARTS = charts();
    /**
     * Sleep of the feed's thread when a poll found nothing, ms: well below the 16.7 ms frame period
     * of 60 Hz, and at 1 kHz telemetry five samples per wake-up instead of one.
     */
    public static final long IDLE_SLEEP_MS = 5;
    private static final int FRAGMENT_LIMIT = 64;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonFactory FRAMES = JsonFactory.builder().enable(StreamWriteFeature.USE_FAST_DOUBLE_WRITER).build();
    private static final int MESSAGE_CAPACITY = 4096;

    private final Subscription subscription;
    private final DashboardServer server;
    private final long framePeriodNs;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final TelemetryDecoder decoder = new TelemetryDecoder();
    private final ControllerEventDecoder eventDecoder = new ControllerEventDecoder();
    private final LiveTelemetry live = new LiveTelemetry();
    /** A version 3 Telemetry message spans two frames of the default MTU: reassembled here. */
    private final FragmentHandler handler = new FragmentAssembler(this::onFragment);
    private final StringWriter frameText = new StringWriter(4096);
    private UnsafeBuffer newest = new UnsafeBuffer(new byte[MESSAGE_CAPACITY]);
    private UnsafeBuffer previous = new UnsafeBuffer(new byte[MESSAGE_CAPACITY]);
    private int newestLength;
    private int previousLength;
    private long sampleCount;
    private long nextFrameNs;
    private long framedCount;
    private long frameCount;
    private long eventCount;
    private long skippedCount;
    private boolean layoutSent;

    /**
     * @param subscription Telemetry and ControllerEvent stream.
     * @param server where frames go.
     * @param frameRateHz sample frames per second, 1..60.
     */
    public DashboardFeed(final Subscription subscription, final DashboardServer server, final int frameRateHz)
    {
        if (frameRateHz < 1 || frameRateHz > 60)
        {
            throw new IllegalArgumentException("--rate-hz must be in 1..60, got " + frameRateHz);
        }
        this.subscription = subscription;
        this.server = server;
        framePeriodNs = TimeUnit.SECONDS.toNanos(1) / frameRateHz;
    }

    @Override
    public int doWork()
    {
        final int fragments = subscription.poll(handler, FRAGMENT_LIMIT);
        final long nowNs = System.nanoTime();
        if (sampleCount > framedCount && nowNs - nextFrameNs >= 0)
        {
            framedCount = sampleCount;
            if (previousLength > 0)
            {
                live.update(decoder.wrapAndApplyHeader(previous, 0, headerDecoder));
            }
            if (!live.update(decoder.wrapAndApplyHeader(newest, 0, headerDecoder)))
            {
                skippedCount++;
                return fragments;
            }
            if (!layoutSent)
            {
                server.publishLayout(layoutFrame(live.jointCount()));
                layoutSent = true;
            }
            server.broadcastSample(sampleFrame());
            frameCount++;
            nextFrameNs = nowNs + framePeriodNs;
            return fragments + 1;
        }
        return fragments;
    }

    @Override
    public String roleName()
    {
        return ROLE_NAME;
    }

    /** @return samples received. */
    public long sampleCount()
    {
        return sampleCount;
    }

    /** @return sample frames sent. */
    public long frameCount()
    {
        return frameCount;
    }

    /** @return events received. */
    public long eventCount()
    {
        return eventCount;
    }

    /** @return messages skipped: another joint count, an unknown schema version or template, invalid. */
    public long skippedCount()
    {
        return skippedCount;
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, ControllerEventDecoder.TEMPLATE_ID,
            ControllerEventDecoder.BLOCK_LENGTH))
        {
            eventCount++;
            server.broadcastEvent(eventFrame(eventDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder)));
            return;
        }
        if (!Wire.isWholeMessage(headerDecoder, buffer, offset, length, TelemetryDecoder.TEMPLATE_ID, TelemetryCsv.blockLength(1))
            || headerDecoder.blockLength() < TelemetryCsv.blockLength(headerDecoder.version()) || length > MESSAGE_CAPACITY)
        {
            skippedCount++;
            return;
        }
        final UnsafeBuffer older = previous;
        previous = newest;
        previousLength = newestLength;
        newest = older;
        newest.putBytes(0, buffer, offset, length);
        newestLength = length;
        sampleCount++;
    }

    private String sampleFrame()
    {
        final TelemetrySample sample = live.sample();
        frameText.getBuffer().setLength(0);
        try (JsonGenerator frame = FRAMES.createGenerator(frameText))
        {
            frame.writeStartObject();
            frame.writeStringField("type", "sample");
            frame.writeNumberField("t", sample.timestampNs() * 1e-9);
            frame.writeNumberField("sequence", sample.sequence());
            frame.writeStringField("state", sample.state().name());
            frame.writeStringField("controller", sample.controller().name());
            frame.writeStringField("faults", sample.faults() == 0 ? "none" : Faults.describe(sample.faults()));
            frame.writeObjectFieldStart("values");
            for (final TelemetrySeries series : TelemetrySeries.ALL)
            {
                frame.writeFieldName(series.key());
                if (series.perJoint())
                {
                    frame.writeStartArray();
                    for (int k = 0; k < live.jointCount(); k++)
                    {
                        frame.writeNumber(series.value().of(live, k));
                    }
                    frame.writeEndArray();
                }
                else
                {
                    frame.writeNumber(series.value().of(live, 0));
                }
            }
            frame.writeEndObject();
            frame.writeEndObject();
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
        return frameText.toString();
    }

    private static String layoutFrame(final int jointCount)
    {
        final ObjectNode frame = JSON.createObjectNode().put("type", "layout").put("jointCount", jointCount);
        final ArrayNode charts = frame.putArray("charts");
        CHARTS.forEach((id, title) -> charts.addObject().put("id", id).put("title", title));
        final ArrayNode states = frame.putArray("states");
        for (final ControllerState state : ControllerState.values())
        {
            if (state != ControllerState.NULL_VAL)
            {
                states.add(state.name());
            }
        }
        final ArrayNode series = frame.putArray("series");
        for (final TelemetrySeries row : TelemetrySeries.ALL)
        {
            series.addObject().put("key", row.key()).put("label", row.label()).put("unit", row.unit()).put("chart", row.chart())
                .put("perJoint", row.perJoint());
        }
        return write(frame);
    }

    private static String eventFrame(final ControllerEventDecoder event)
    {
        return write(JSON.createObjectNode().put("type", "event").put("sequence", event.sequence())
            .put("t", event.timestampNs() * 1e-9).put("kind", event.kind().name()).put("text", ControllerEventText.line(event)));
    }

    private static String write(final ObjectNode frame)
    {
        try
        {
            return JSON.writeValueAsString(frame);
        }
        catch (final JsonProcessingException e)
        {
            throw new IllegalStateException("cannot write a dashboard frame", e);
        }
    }

    private static Map<String, String> charts()
    {
        final Map<String, String> charts = new LinkedHashMap<>();
        charts.put("position", "q and reference, rad");
        charts.put("trackingError", "tracking error (reference \u2212 q), rad");
        charts.put("velocity", "q\u0307, rad/s");
        charts.put("torque", "\u03c4 commanded, N\u00b7m");
        charts.put("torqueRate", "\u03c4\u0307 commanded, N\u00b7m/s (between samples)");
        charts.put("feedforward", "\u03c4 feedforward along the reference, N\u00b7m");
        charts.put("feedforwardRate", "\u03c4\u0307 feedforward along the reference, N\u00b7m/s");
        charts.put("externalTorque", "\u03c4 ext (momentum observer), N\u00b7m");
        charts.put("tickTime", "tick compute time and start lateness, \u00b5s");
        charts.put("referenceClockRate", "reference clock rate s'");
        charts.put("state", "controller state");
        return Collections.unmodifiableMap(charts);
    }
}
