package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Waits for a condition with a deadline, spinning politely; tests never sleep to synchronise. */
final class Await
{
    static final long DEFAULT_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(10);

    private Await()
    {
    }

    /** Evaluates {@code condition} until it holds; fails with {@code what} after the default timeout. */
    static void until(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + DEFAULT_TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("timed out after " + TimeUnit.NANOSECONDS.toMillis(DEFAULT_TIMEOUT_NS) + " ms waiting for " + what);
            }
            Thread.yield();
        }
    }
}
