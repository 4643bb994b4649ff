package org.nectl.service.recording;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;

import org.agrona.DirectBuffer;
import org.nectl.config.OutputFiles;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.service.monitor.TelemetryCsv;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * Writes a recording as CSV (the columns and values of {@code nectl monitor --csv} and
 * {@code --events-csv}) or as one MCAP file with a JSON channel per message type:
 * {@value #TELEMETRY_TOPIC} (schema {@code nectl.Telemetry}, one object per sample with the CSV's
 * columns as keys) and {@value #EVENTS_TOPIC} (schema {@code nectl.ControllerEvent}). A message's
 * MCAP log time is the recording's wall-clock start plus its controller time since the first
 * message. Not thread safe. Not real-time safe.
 */
public final class RecordingExport
{
    /** MCAP topic of the telemetry samples. */
    public static final String TELEMETRY_TOPIC = "/nectl/telemetry";
    /** MCAP topic of the controller events. */
    public static final String EVENTS_TOPIC = "/nectl/events";

    private static final int TELEMETRY_ID = 1;
    private static final int EVENTS_ID = 2;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final TelemetryDecoder telemetry = new TelemetryDecoder();
    private final ControllerEventDecoder event = new ControllerEventDecoder();
    private long samples;
    private long events;

    /**
     * Counts of what was written.
     *
     * @param samples telemetry samples.
     * @param events controller events.
     */
    public record Counts(long samples, long events)
    {
    }

    /**
     * @param archive the open recordings.
     * @param recordingId the recording.
     * @param csv the samples' CSV file.
     * @param eventsCsv the events' CSV file, or null for none.
     * @param replace whether existing regular files may be replaced.
     * @return what was written.
     */
    public static Counts csv(final RecordingArchive archive, final long recordingId, final Path csv, final Path eventsCsv,
        final boolean replace) throws IOException
    {
        final RecordingExport export = new RecordingExport();
        try (BufferedWriter samplesOut = OutputFiles.newWriter(csv, replace);
            BufferedWriter eventsOut = eventsCsv != null ? OutputFiles.newWriter(eventsCsv, replace) : null)
        {
            final TelemetryCsv rows = new TelemetryCsv(samplesOut);
            if (eventsOut != null)
            {
                eventsOut.append(ControllerEventText.CSV_HEADER).append('\n');
            }
            export.replay(archive, recordingId, new Sink()
            {
                @Override
                public void telemetry(final TelemetryDecoder decoder) throws IOException
                {
                    if (export.samples == 1)
                    {
                        rows.writeHeader(decoder);
                    }
                    rows.write(decoder);
                }

                @Override
                public void event(final ControllerEventDecoder decoder) throws IOException
                {
                    if (eventsOut != null)
                    {
                        eventsOut.append(ControllerEventText.csvRow(decoder)).append('\n');
                    }
                }
            });
        }
        return new Counts(export.samples, export.events);
    }

    /**
     * @param archive the open recordings.
     * @param recordingId the recording.
     * @param startEpochMs the recording's wall-clock start, ms since the epoch.
     * @param mcap the MCAP file.
     * @param replace whether an existing regular file may be replaced.
     * @return what was written.
     */
    public static Counts mcap(final RecordingArchive archive, final long recordingId, final long startEpochMs, final Path mcap,
        final boolean replace) throws IOException
    {
        final RecordingExport export = new RecordingExport();
        try (OutputStream file = OutputFiles.newOutputStream(mcap, replace);
            McapWriter writer = new McapWriter(file, "", "nectl"))
        {
            writer.schema(EVENTS_ID, "nectl.ControllerEvent", JsonRows.schema("nectl.ControllerEvent",
                ControllerEventText.CSV_HEADER, "1,0,0,FAULT,IDLE,IDLE,NONE,0,0,0,0,0,0.0"));
            writer.channel(EVENTS_ID, EVENTS_ID, EVENTS_TOPIC, Map.of());
            final StringWriter line = new StringWriter();
            final TelemetryCsv rows = new TelemetryCsv(line);
            final String[] columns = new String[1];
            final long[] firstNs = {Long.MIN_VALUE};
            final long startNs = startEpochMs * 1_000_000L;
            export.replay(archive, recordingId, new Sink()
            {
                @Override
                public void telemetry(final TelemetryDecoder decoder) throws IOException
                {
                    firstNs[0] = firstNs[0] == Long.MIN_VALUE ? decoder.timestampNs() : firstNs[0];
                    if (export.samples == 1)
                    {
                        rows.writeHeader(decoder);
                        columns[0] = take(line);
                        rows.write(decoder);
                        final String first = take(line);
                        writer.schema(TELEMETRY_ID, "nectl.Telemetry", JsonRows.schema("nectl.Telemetry", columns[0], first));
                        writer.channel(TELEMETRY_ID, TELEMETRY_ID, TELEMETRY_TOPIC, Map.of());
                        writer.message(TELEMETRY_ID, export.samples, startNs + decoder.timestampNs() - firstNs[0],
                            JsonRows.object(columns[0], first));
                        return;
                    }
                    rows.write(decoder);
                    writer.message(TELEMETRY_ID, export.samples, startNs + decoder.timestampNs() - firstNs[0],
                        JsonRows.object(columns[0], take(line)));
                }

                @Override
                public void event(final ControllerEventDecoder decoder) throws IOException
                {
                    firstNs[0] = firstNs[0] == Long.MIN_VALUE ? decoder.timestampNs() : firstNs[0];
                    writer.message(EVENTS_ID, export.events, startNs + decoder.timestampNs() - firstNs[0],
                        JsonRows.object(ControllerEventText.CSV_HEADER, ControllerEventText.csvRow(decoder)));
                }
            });
        }
        return new Counts(export.samples, export.events);
    }

    private static String take(final StringWriter line)
    {
        final StringBuffer buffer = line.getBuffer();
        final String text = buffer.substring(0, buffer.length() - 1);
        buffer.setLength(0);
        return text;
    }

    private void replay(final RecordingArchive archive, final long recordingId, final Sink sink) throws IOException
    {
        try
        {
            archive.replay(recordingId, (buffer, offset, length, position) -> dispatch(buffer, offset, sink));
        }
        catch (final UncheckedIOException e)
        {
            throw e.getCause();
        }
    }

    private void dispatch(final DirectBuffer buffer, final int offset, final Sink sink)
    {
        header.wrap(buffer, offset);
        try
        {
            if (header.templateId() == TelemetryDecoder.TEMPLATE_ID)
            {
                samples++;
                sink.telemetry(telemetry.wrapAndApplyHeader(buffer, offset, header));
            }
            else if (header.templateId() == ControllerEventDecoder.TEMPLATE_ID)
            {
                events++;
                sink.event(event.wrapAndApplyHeader(buffer, offset, header));
            }
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    /** Receives the recording's messages in order. */
    private interface Sink
    {
        void telemetry(TelemetryDecoder decoder) throws IOException;

        void event(ControllerEventDecoder decoder) throws IOException;
    }
}
