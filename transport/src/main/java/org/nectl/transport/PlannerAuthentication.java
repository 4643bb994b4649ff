package org.nectl.transport;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Objects;

/**
 * How the planner gateway authenticates commands (docs/PROTOCOL.md, "Authentication"): the
 * planners' keys, the source addresses datagrams may come from, and how far a command's
 * {@code timestampNs} may lie from the gateway's wall clock. Immutable; {@link #toString()} never
 * shows keys.
 *
 * @param keys the planners' HMAC-SHA256 keys.
 * @param allowedSources source addresses accepted; datagrams from any other are counted as
 *     DISALLOWED_SOURCE and not answered.
 * @param timeWindowNs largest accepted |timestampNs - gateway UTC time|, ns.
 */
public record PlannerAuthentication(PlannerKeys keys, List<InetAddress> allowedSources, long timeWindowNs)
{
    /** Default time window: 2 s, generous for NTP-synchronised hosts and short against replay after a restart. */
    public static final long DEFAULT_TIME_WINDOW_NS = 2_000_000_000L;
    /** Longest time window accepted, ns (60 s). */
    public static final long MAX_TIME_WINDOW_NS = 60_000_000_000L;

    private static final byte[] IPV6_LOOPBACK = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

    /** Validates and copies. */
    public PlannerAuthentication
    {
        Objects.requireNonNull(keys, "keys");
        allowedSources = List.copyOf(allowedSources);
        if (allowedSources.isEmpty())
        {
            throw new IllegalArgumentException("at least one allowed source address is required");
        }
        if (timeWindowNs <= 0 || timeWindowNs > MAX_TIME_WINDOW_NS)
        {
            throw new IllegalArgumentException("timeWindowNs " + timeWindowNs + " outside 1.." + MAX_TIME_WINDOW_NS);
        }
    }

    /**
     * @param keys the planners' keys.
     * @return authentication for planners on this host: sources 127.0.0.1 and ::1, the default window.
     */
    public static PlannerAuthentication loopback(final PlannerKeys keys)
    {
        return new PlannerAuthentication(keys, List.of(address(new byte[] {127, 0, 0, 1}), address(IPV6_LOOPBACK)),
            DEFAULT_TIME_WINDOW_NS);
    }

    /** @return true if {@code address} is in the allow-list. Allocation free. */
    boolean allows(final InetAddress address)
    {
        for (int i = 0; i < allowedSources.size(); i++)
        {
            if (allowedSources.get(i).equals(address))
            {
                return true;
            }
        }
        return false;
    }

    private static InetAddress address(final byte[] bytes)
    {
        try
        {
            return InetAddress.getByAddress(bytes);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("a 4- or 16-byte address is always valid", ex);
        }
    }
}
