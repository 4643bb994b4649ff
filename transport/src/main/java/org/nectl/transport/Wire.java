package org.nectl.transport;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.nectl.transport.sbe.JointStateEncoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;

/** Constants of the wire format shared by every endpoint (docs/PROTOCOL.md). */
public final class Wire
{
    /** Capacity of the per-joint arrays of the fixed-size messages. */
    public static final int MAX_JOINTS = JointStateEncoder.qLength();
    /** Byte order of every message. */
    public static final ByteOrder BYTE_ORDER = JointStateEncoder.BYTE_ORDER;
    /** Length of the SBE message header preceding every message, bytes. */
    public static final int HEADER_LENGTH = MessageHeaderDecoder.ENCODED_LENGTH;
    /** Schema id of every nectl message. */
    public static final int SCHEMA_ID = JointStateEncoder.SCHEMA_ID;
    /** Schema version this build encodes with and the newest it decodes. */
    public static final int SCHEMA_VERSION = JointStateEncoder.SCHEMA_VERSION;
    /** Bytes of the authentication trailer that ends every planner datagram (docs/PROTOCOL.md). */
    public static final int AUTH_TRAILER_LENGTH = 32;

    private Wire()
    {
    }

    static void checkJointCount(final int jointCount)
    {
        if (jointCount < 1 || jointCount > MAX_JOINTS)
        {
            throw new IllegalArgumentException("joint count " + jointCount + " outside 1.." + MAX_JOINTS);
        }
    }

    /**
     * Checks the header of a fixed-size message received from a trusted peer on the hardware link or
     * the telemetry stream. A newer peer may append fields, so a longer block is accepted.
     * Real-time safe.
     *
     * @return true if {@code length} bytes at {@code offset} hold a whole message of the template.
     */
    public static boolean isWholeMessage(
        final MessageHeaderDecoder header,
        final DirectBuffer buffer,
        final int offset,
        final int length,
        final int templateId,
        final int blockLength)
    {
        if (length < HEADER_LENGTH)
        {
            return false;
        }
        header.wrap(buffer, offset);
        return header.schemaId() == SCHEMA_ID
            && header.templateId() == templateId
            && header.version() >= 1
            && header.blockLength() >= blockLength
            && length >= HEADER_LENGTH + header.blockLength();
    }
}
