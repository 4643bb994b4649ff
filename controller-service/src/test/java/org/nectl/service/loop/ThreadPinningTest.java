package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

class ThreadPinningTest
{
    /** Places a fresh thread, so the test runner's own thread keeps its scheduling. */
    private static String placeOnFreshThread(final ThreadPlacement placement) throws InterruptedException
    {
        final AtomicReference<String> result = new AtomicReference<>();
        final Thread thread = new Thread(() -> result.set(ThreadPinning.placeCurrentThread(placement, "test thread")));
        thread.start();
        thread.join();
        return result.get();
    }

    @Test
    void noPlacementLeavesTheThreadAlone() throws InterruptedException
    {
        assertEquals("test thread not pinned (no core configured); default scheduling", placeOnFreshThread(ThreadPlacement.NONE));
    }

    @Test
    void pinningToCpuZeroSucceeds() throws InterruptedException
    {
        assertEquals(0, placeOnFreshThread(new ThreadPlacement(0, 0)).indexOf("test thread pinned to CPU 0 (thread "));
    }

    @Test
    void aCpuTheHostDoesNotHaveIsReportedNotThrown() throws InterruptedException
    {
        final String sentence = placeOnFreshThread(new ThreadPlacement(1023, 0));
        assertTrue(sentence.startsWith("test thread not pinned to CPU 1023: "), sentence);
    }

    @Test
    void aFifoPriorityIsSetOrItsFailureExplained() throws InterruptedException
    {
        final String sentence = placeOnFreshThread(new ThreadPlacement(-1, 1));
        assertTrue(sentence.contains("; SCHED_FIFO priority 1 set")
            || sentence.contains("; SCHED_FIFO priority 1 not set (needs CAP_SYS_NICE or root)"), sentence);
    }

    @Test
    void aPlacementIsCheckedOnAProbeThreadBeforeStart()
    {
        assertEquals(Optional.empty(), ThreadPinning.refusal(ThreadPlacement.NONE, "core", "realtime_priority"));
        assertEquals(Optional.empty(), ThreadPinning.refusal(new ThreadPlacement(0, 0), "core", "realtime_priority"));
        final String refusal = ThreadPinning.refusal(new ThreadPlacement(1023, 0), "core", "realtime_priority").orElseThrow();
        assertTrue(refusal.startsWith("core: CPU 1023 is not one this process may run on (allowed CPUs: 0"), refusal);
        final Optional<String> priority = ThreadPinning.refusal(new ThreadPlacement(-1, 1), "core", "realtime_priority");
        assertTrue(priority.isEmpty() || priority.get().startsWith("realtime_priority: SCHED_FIFO priority 1 refused: "), priority.toString());
    }

    @Test
    void outOfRangeSettingsAreRejected()
    {
        assertThrows(IllegalArgumentException.class, () -> new ThreadPlacement(-2, 0));
        assertThrows(IllegalArgumentException.class, () -> new ThreadPlacement(0, 100));
        assertThrows(IllegalArgumentException.class, () -> new ThreadPlacement(0, -1));
    }
}
