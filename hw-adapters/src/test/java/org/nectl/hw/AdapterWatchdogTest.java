package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AdapterWatchdogTest
{
    private static final long TIMEOUT_NS = 20_000_000L;

    @Test
    void tripsOnlyWhenTheGapSinceTheLastCommandExceedsTheTimeout()
    {
        final AdapterWatchdog watchdog = new AdapterWatchdog(TIMEOUT_NS);
        watchdog.commandReceived(1_000L);
        assertFalse(watchdog.check(1_000L + TIMEOUT_NS), "a gap of exactly the timeout is allowed");
        assertTrue(watchdog.check(1_001L + TIMEOUT_NS));
        assertTrue(watchdog.tripped());
        assertEquals(1, watchdog.tripCount());
    }

    @Test
    void staysQuietBeforeTheFirstCommand()
    {
        final AdapterWatchdog watchdog = new AdapterWatchdog(TIMEOUT_NS);
        assertFalse(watchdog.check(Long.MAX_VALUE / 2));
        assertEquals(0, watchdog.tripCount());
    }

    @Test
    void aNewCommandReArmsAndEachTripIsCountedOnce()
    {
        final AdapterWatchdog watchdog = new AdapterWatchdog(TIMEOUT_NS);
        watchdog.commandReceived(0L);
        assertTrue(watchdog.check(TIMEOUT_NS + 1));
        assertTrue(watchdog.check(3 * TIMEOUT_NS));
        watchdog.commandReceived(3 * TIMEOUT_NS);
        assertFalse(watchdog.tripped());
        assertTrue(watchdog.check(5 * TIMEOUT_NS));
        assertEquals(2, watchdog.tripCount());
    }

    @Test
    void engagesTheBrakesOnlyAfterTheBrakeTimeoutAndANewCommandReleasesThem()
    {
        final AdapterWatchdog watchdog = new AdapterWatchdog(TIMEOUT_NS, 5 * TIMEOUT_NS);
        assertFalse(watchdog.checkBrake(Long.MAX_VALUE / 2), "quiet before the first command");
        watchdog.commandReceived(0L);
        assertTrue(watchdog.check(2 * TIMEOUT_NS));
        assertFalse(watchdog.checkBrake(5 * TIMEOUT_NS), "a gap of exactly the brake timeout is allowed");
        assertTrue(watchdog.checkBrake(5 * TIMEOUT_NS + 1));
        assertTrue(watchdog.checkBrake(9 * TIMEOUT_NS));
        assertEquals(1, watchdog.brakeCount());
        watchdog.commandReceived(9 * TIMEOUT_NS);
        assertFalse(watchdog.checkBrake(9 * TIMEOUT_NS + 1));
        assertThrows(IllegalArgumentException.class, () -> new AdapterWatchdog(TIMEOUT_NS, TIMEOUT_NS - 1));
    }

    @Test
    void rejectsANonPositiveTimeout()
    {
        assertThrows(IllegalArgumentException.class, () -> new AdapterWatchdog(0));
    }
}
