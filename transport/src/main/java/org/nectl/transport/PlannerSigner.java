package org.nectl.transport;

import org.agrona.MutableDirectBuffer;

/**
 * Writes the authentication trailer of one planner's datagrams: HMAC-SHA256 with the planner's
 * key over every byte of the SBE message, i.e. the datagram less its last 32 bytes
 * (docs/PROTOCOL.md, "Authentication"). The caller sets header.plannerId to {@link #plannerId()},
 * a strictly increasing header.sequence and header.timestampNs = UTC time in ns before signing.
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
public final class PlannerSigner
{
    private final long plannerId;
    private final HmacSha256 hmac;
    private final byte[] tag = new byte[HmacSha256.TAG_LENGTH];

    /**
     * Not real-time safe.
     *
     * @param keys keys including the one of {@code plannerId}.
     * @param plannerId the planner that signs.
     * @param maxDatagramLength longest datagram to sign, bytes, trailer included.
     */
    public PlannerSigner(final PlannerKeys keys, final long plannerId, final int maxDatagramLength)
    {
        this.plannerId = plannerId;
        this.hmac = new HmacSha256(keys.key(plannerId), maxDatagramLength);
    }

    /** @return the planner whose key signs. */
    public long plannerId()
    {
        return plannerId;
    }

    /**
     * Writes the 32-byte trailer at {@code messageLength}. Real-time safe.
     *
     * @param datagram the message from offset 0, with room for the trailer after it.
     * @param messageLength length of the SBE message (header, block and groups), bytes.
     * @return the datagram length, {@code messageLength + 32}.
     */
    public int sign(final MutableDirectBuffer datagram, final int messageLength)
    {
        hmac.compute(datagram, messageLength, tag);
        datagram.putBytes(messageLength, tag);
        return messageLength + Wire.AUTH_TRAILER_LENGTH;
    }
}
