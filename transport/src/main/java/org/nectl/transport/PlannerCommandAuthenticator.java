package org.nectl.transport;

import java.net.InetAddress;

import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.EpochClock;
import org.nectl.transport.sbe.RejectReason;

/**
 * Decides whether a planner datagram comes from an allowed source, carries a valid HMAC-SHA256
 * trailer under its planner's key, is recent, and is new (docs/PROTOCOL.md, "Authentication").
 * Remembers the last authenticated sequence of each planner.
 *
 * <p>Real-time safe (allocation free, constant-time tag comparison) after construction; meant for
 * the gateway thread. Not thread safe.
 */
final class PlannerCommandAuthenticator
{
    private static final long NS_PER_MS = 1_000_000L;

    private final PlannerAuthentication authentication;
    private final EpochClock clock;
    private final Long2ObjectHashMap<Planner> planners = new Long2ObjectHashMap<>();
    private final byte[] expectedTag = new byte[HmacSha256.TAG_LENGTH];

    /**
     * Not real-time safe.
     *
     * @param authentication keys, allowed sources and time window.
     * @param maxDatagramLength longest datagram, bytes.
     * @param clock UTC wall clock, ms since the Unix epoch.
     */
    PlannerCommandAuthenticator(final PlannerAuthentication authentication, final int maxDatagramLength, final EpochClock clock)
    {
        this.authentication = authentication;
        this.clock = clock;
        for (final long id : authentication.keys().plannerIds())
        {
            planners.put(id, new Planner(new HmacSha256(authentication.keys().key(id), maxDatagramLength)));
        }
    }

    /** @return true if datagrams from {@code source} may be processed. Real-time safe. */
    boolean sourceAllowed(final InetAddress source)
    {
        return authentication.allows(source);
    }

    /**
     * Checks the trailer, then the time window, then the sequence; records the sequence of a
     * command that passes all three. Real-time safe.
     *
     * @param buffer datagram from offset 0.
     * @param messageLength length of the SBE message, the trailer starting there.
     * @param plannerId header.plannerId.
     * @param sequence header.sequence (uint64).
     * @param timestampNs header.timestampNs, UTC ns.
     * @return {@link PlannerCommandValidator#ACCEPTED} or AUTHENTICATION_FAILED, STALE, REPLAYED.
     */
    int authenticate(final DirectBuffer buffer, final int messageLength, final long plannerId, final long sequence,
        final long timestampNs)
    {
        final Planner planner = planners.get(plannerId);
        if (planner == null)
        {
            return RejectReason.AUTHENTICATION_FAILED.value();
        }
        planner.hmac.compute(buffer, messageLength, expectedTag);
        if (!HmacSha256.tagsEqual(expectedTag, buffer, messageLength))
        {
            return RejectReason.AUTHENTICATION_FAILED.value();
        }
        final long nowNs = clock.time() * NS_PER_MS;
        final long windowNs = authentication.timeWindowNs();
        if (timestampNs < nowNs - windowNs || timestampNs > nowNs + windowNs)
        {
            return RejectReason.STALE.value();
        }
        if (planner.hasSequence && Long.compareUnsigned(sequence, planner.lastSequence) <= 0)
        {
            return RejectReason.REPLAYED.value();
        }
        planner.hasSequence = true;
        planner.lastSequence = sequence;
        return PlannerCommandValidator.ACCEPTED;
    }

    private static final class Planner
    {
        private final HmacSha256 hmac;
        private boolean hasSequence;
        private long lastSequence;

        private Planner(final HmacSha256 hmac)
        {
            this.hmac = hmac;
        }
    }
}
