package org.nectl.transport;

import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;

/**
 * Drains a subscription in bounded rounds and counts the messages its handler accepted, so that
 * a caller that keeps only the last one ends up with the newest. Real-time safe. Not thread safe.
 */
final class NewestMessagePoller
{
    private static final int FRAGMENTS_PER_ROUND = 64;
    private static final int MAX_ROUNDS = 8;

    private int acceptedCount;

    int poll(final Subscription subscription, final FragmentHandler handler)
    {
        acceptedCount = 0;
        for (int round = 0; round < MAX_ROUNDS; round++)
        {
            if (subscription.poll(handler, FRAGMENTS_PER_ROUND) < FRAGMENTS_PER_ROUND)
            {
                break;
            }
        }
        return acceptedCount;
    }

    void accepted()
    {
        acceptedCount++;
    }
}
