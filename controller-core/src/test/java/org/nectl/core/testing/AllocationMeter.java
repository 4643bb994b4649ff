package org.nectl.core.testing;

import java.lang.management.ManagementFactory;

/**
 * Measures the bytes the current thread allocates while running an action many times, with the
 * JVM's per-thread allocation counter ({@code com.sun.management.ThreadMXBean}). Used to prove that
 * real-time code allocates nothing per call.
 */
public final class AllocationMeter
{
    private static final com.sun.management.ThreadMXBean THREADS =
        (com.sun.management.ThreadMXBean)ManagementFactory.getThreadMXBean();

    /**
     * Measured rounds at most. On a loaded 2-core host the JIT may still be compiling (or
     * deoptimising) for several rounds, each time allocating a little once; an allocation that recurs
     * per call shows in every round whatever their number, so more rounds only absorb one-offs.
     */
    public static final int ROUNDS = 10;

    private AllocationMeter()
    {
    }

    /**
     * Runs the action {@code warmUpCalls} times (so the JIT has compiled it), then measures rounds of
     * {@code measuredCalls} runs and returns the smallest round. One-off allocations of the JVM
     * itself (e.g. on the first pass through freshly compiled code) show in one round only, while an
     * allocation per call shows in every round. The counter's own cost, measured around an empty
     * interval, is subtracted.
     *
     * @param action the code under test; build everything it needs before calling this.
     * @param warmUpCalls unmeasured runs.
     * @param measuredCalls runs per measured round.
     * @return bytes allocated by this thread during the least-allocating of {@value #ROUNDS} rounds.
     * @throws IllegalStateException if the JVM does not support per-thread allocation counting.
     */
    public static long bytesAllocated(final Runnable action, final int warmUpCalls, final int measuredCalls)
    {
        if (!THREADS.isThreadAllocatedMemorySupported() || !THREADS.isThreadAllocatedMemoryEnabled())
        {
            throw new IllegalStateException("per-thread allocation counting is not available in this JVM");
        }
        for (int i = 0; i < warmUpCalls; i++)
        {
            action.run();
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < ROUNDS && least > 0; round++)
        {
            least = Math.min(least, measureRound(action, measuredCalls));
        }
        return least;
    }

    private static long measureRound(final Runnable action, final int calls)
    {
        final long emptyStart = THREADS.getCurrentThreadAllocatedBytes();
        final long emptyEnd = THREADS.getCurrentThreadAllocatedBytes();
        final long start = THREADS.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < calls; i++)
        {
            action.run();
        }
        final long end = THREADS.getCurrentThreadAllocatedBytes();
        return (end - start) - (emptyEnd - emptyStart);
    }
}
