package org.nectl.transport;

import io.aeron.Aeron;
import io.aeron.ExclusivePublication;
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

    /** @return the new position if the claim succeeded (&gt; 0), else a Publication error code. Real-time safe. */
    long claim()
    {
        return publication.tryClaim(length, claim);
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
