package org.nectl.transport;

import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.SleepingIdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;

/**
 * How a non-real-time agent thread waits when it has no work. On a 2-core host the control loop
 * owns one core, so agents sharing the other should back off or sleep rather than spin.
 */
public enum IdleStrategyKind
{
    /** Spin without yielding: lowest latency, burns a whole core. */
    BUSY_SPIN,
    /** {@link Thread#yield()} between duty cycles. */
    YIELDING,
    /** Spin, then yield, then park with exponential back-off up to 1 ms. */
    BACKOFF,
    /** Park 1 ms between idle duty cycles: cheapest, adds up to 1 ms of latency. */
    SLEEPING,
    /**
     * Park 20 us between idle duty cycles: a periodic thread keeps a 1 kHz schedule (wake-ups come
     * within the kernel's timer slack, 50 us by default) while using a few percent of a core.
     */
    PARKING;

    private static final long MAX_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MIN_PARK_NS = TimeUnit.MICROSECONDS.toNanos(1);
    private static final long SHORT_PARK_NS = TimeUnit.MICROSECONDS.toNanos(20);

    /** @return a new idle strategy of this kind; one per agent thread, they are stateful. Not real-time safe. */
    public IdleStrategy create()
    {
        switch (this)
        {
            case BUSY_SPIN:
                return new BusySpinIdleStrategy();
            case YIELDING:
                return new YieldingIdleStrategy();
            case BACKOFF:
                return new BackoffIdleStrategy(10, 20, MIN_PARK_NS, MAX_PARK_NS);
            case SLEEPING:
                return new SleepingIdleStrategy(MAX_PARK_NS);
            case PARKING:
                return new SleepingIdleStrategy(SHORT_PARK_NS);
            default:
                throw new IllegalStateException("unhandled idle strategy " + this);
        }
    }
}
