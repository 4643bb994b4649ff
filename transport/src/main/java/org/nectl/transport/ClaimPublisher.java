package org.nectl.transport;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.aeron.logbuffer.BufferClaim;
import org.agrona.MutableDirectBuffer;

/**
 * One exclusive publication that writes messages of one fixed length in place with
 * {@code tryClaim}: no copy, no allocation.
 *
 * <p>Not thread safe: one publishing thread.
 */
final class ClaimPublisher implements AutoCloseable
{
    private final ExclusivePublication publication;
    private final BufferClaim claim = new BufferClaim();
    private final int length;

    ClaimPublisher(final Aeron aeron, final String channel, final int streamId, final int length)
    {
        publication = aeron.addExclusivePublication(channel, streamId);
        if (length > publication.maxPayloadLength())
        {
            publication.close();
            throw new IllegalArgumentException("message of " + length + " bytes exceeds the max payload "
                + publication.maxPayloadLength() + " of " + channel + " stream " + streamId + "; raise the MTU");
        }
        this.length = length;
    }

    /**
     * Claims space for one message. A claim that meets the end of a term fills it with padding, rotates
     * to the next term and returns ADMIN_ACTION without a claim. The message would be lost for its
     * tick once every term: at 1 kHz on the default 64 MB IPC term, a MotorCommand (a 352-byte frame,
     * whatever the joint count) every 3 minutes and a JointState (1 088 bytes) every minute. So that one case is claimed
     * again at once, which lands at the start of the new term.
     *
     * @return the new position if the claim succeeded (&gt; 0), else a Publication error code. Real-time safe.
     */
    long claim()
    {
        final long result = publication.tryClaim(length, claim);
        return result == Publication.ADMIN_ACTION ? publication.tryClaim(length, claim) : result;
    }

    MutableDirectBuffer buffer()
    {
        return claim.buffer();
    }

    int offset()
    {
        return claim.offset();
    }

    void commit()
    {
        claim.commit();
    }

    boolean isConnected()
    {
        return publication.isConnected();
    }

    /** @return true once closed, by {@link #close} or by the client losing its media driver. Real-time safe. */
    boolean isClosed()
    {
        return publication.isClosed();
    }

    @Override
    public void close()
    {
        publication.close();
    }
}
