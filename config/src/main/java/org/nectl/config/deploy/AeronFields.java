package org.nectl.config.deploy;

import org.nectl.config.YamlField;

/** Reads Aeron channels and stream ids of a deployment file. Not real-time safe; thread safe. */
final class AeronFields
{
    /** The shared-memory channel of one host. */
    static final String IPC = "aeron:ipc";

    private static final String UDP = "aeron:udp";

    private AeronFields()
    {
    }

    /**
     * @param field a scalar channel.
     * @return {@code aeron:ipc...} or {@code aeron:udp...}; the URI's parameters are Aeron's to check.
     */
    static String channel(final YamlField field)
    {
        final String text = field.text();
        if (!isMedia(text, IPC) && !isMedia(text, UDP))
        {
            throw field.error("value '" + text
                + "' is not an Aeron channel (expected aeron:ipc or aeron:udp?endpoint=host:port)");
        }
        return text;
    }

    /**
     * @param field a scalar stream id.
     * @return the id, 1..2^31-1.
     */
    static int streamId(final YamlField field)
    {
        return (int)field.integer(1, Integer.MAX_VALUE);
    }

    private static boolean isMedia(final String channel, final String media)
    {
        return channel.equals(media) || channel.startsWith(media + "?");
    }
}
