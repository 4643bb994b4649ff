package org.nectl.service.recording;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A small MCAP writer (https://mcap.dev/spec, version 0): the magic, a Header, then Schema,
 * Channel and Message records as they come, a DataEnd and a Footer without a summary section,
 * the magic again; no chunks, no compression, no indexes, so a reader streams the file from the
 * start (Foxglove, PlotJuggler and the {@code @mcap/core} stream reader do). Messages are JSON,
 * their schemas JSON Schema. No Java MCAP library is published on Maven Central (the MCAP project
 * ships C++, Go, Python, Rust, Swift and TypeScript ones), hence this one.
 *
 * <p>Not thread safe. Not real-time safe.
 */
public final class McapWriter implements AutoCloseable
{
    private static final byte[] MAGIC = {(byte)0x89, 'M', 'C', 'A', 'P', '0', '\r', '\n'};
    private static final byte OP_HEADER = 0x01;
    private static final byte OP_FOOTER = 0x02;
    private static final byte OP_SCHEMA = 0x03;
    private static final byte OP_CHANNEL = 0x04;
    private static final byte OP_MESSAGE = 0x05;
    private static final byte OP_DATA_END = 0x0F;

    private final OutputStream out;
    private ByteBuffer record = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);

    /**
     * Writes the magic and the Header record.
     *
     * @param out where the file goes; closed by {@link #close}.
     * @param profile the MCAP profile, "" for none.
     * @param library the writing library's name.
     */
    public McapWriter(final OutputStream out, final String profile, final String library) throws IOException
    {
        this.out = out;
        out.write(MAGIC);
        begin();
        putString(profile);
        putString(library);
        end(OP_HEADER);
    }

    /**
     * @param id schema id, 1..65535.
     * @param name schema name.
     * @param jsonSchema the JSON Schema text.
     */
    public void schema(final int id, final String name, final String jsonSchema) throws IOException
    {
        begin();
        record.putShort((short)id);
        putString(name);
        putString("jsonschema");
        putBytes(jsonSchema.getBytes(StandardCharsets.UTF_8));
        end(OP_SCHEMA);
    }

    /**
     * @param id channel id.
     * @param schemaId its schema.
     * @param topic topic name.
     * @param metadata channel metadata.
     */
    public void channel(final int id, final int schemaId, final String topic, final Map<String, String> metadata)
        throws IOException
    {
        begin();
        record.putShort((short)id).putShort((short)schemaId);
        putString(topic);
        putString("json");
        final int lengthAt = record.position();
        record.putInt(0);
        for (final Map.Entry<String, String> entry : metadata.entrySet())
        {
            putString(entry.getKey());
            putString(entry.getValue());
        }
        record.putInt(lengthAt, record.position() - lengthAt - Integer.BYTES);
        end(OP_CHANNEL);
    }

    /**
     * @param channelId the channel.
     * @param sequence per-channel message number.
     * @param logTimeNs time of the message, ns since the epoch.
     * @param json the message.
     */
    public void message(final int channelId, final long sequence, final long logTimeNs, final String json) throws IOException
    {
        begin();
        record.putShort((short)channelId).putInt((int)sequence).putLong(logTimeNs).putLong(logTimeNs);
        final byte[] data = json.getBytes(StandardCharsets.UTF_8);
        ensure(data.length);
        record.put(data);
        end(OP_MESSAGE);
    }

    /** Writes DataEnd, Footer and the closing magic, and closes the stream. */
    @Override
    public void close() throws IOException
    {
        try (OutputStream closing = out)
        {
            begin();
            record.putInt(0);
            end(OP_DATA_END);
            begin();
            record.putLong(0L).putLong(0L).putInt(0);
            end(OP_FOOTER);
            closing.write(MAGIC);
        }
    }

    private void begin()
    {
        record.clear();
        record.put((byte)0).putLong(0L);
    }

    private void end(final byte opcode) throws IOException
    {
        record.put(0, opcode);
        record.putLong(1, record.position() - 1 - Long.BYTES);
        out.write(record.array(), 0, record.position());
    }

    private void putString(final String text)
    {
        putBytes(text.getBytes(StandardCharsets.UTF_8));
    }

    private void putBytes(final byte[] bytes)
    {
        ensure(Integer.BYTES + bytes.length);
        record.putInt(bytes.length).put(bytes);
    }

    private void ensure(final int more)
    {
        if (record.remaining() < more)
        {
            final ByteBuffer larger = ByteBuffer.allocate(Math.max(2 * record.capacity(), record.position() + more))
                .order(ByteOrder.LITTLE_ENDIAN);
            record.flip();
            larger.put(record);
            record = larger;
        }
    }
}
