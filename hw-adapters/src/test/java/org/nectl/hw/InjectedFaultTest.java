package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InjectedFaultTest
{
    @Test
    void parsesEveryKind()
    {
        assertEquals(new InjectedFault(FaultKind.STALL, 2_000_000_000L, -1, 0.0), InjectedFault.parse("stall@2"));
        assertEquals(new InjectedFault(FaultKind.CRASH, 1_500_000_000L, -1, 0.0), InjectedFault.parse("CRASH@1.5"));
        assertEquals(new InjectedFault(FaultKind.NAN, 500_000_000L, 3, 0.0), InjectedFault.parse("nan@0.5:3"));
        assertEquals(new InjectedFault(FaultKind.JUMP, 1_000_000L, 2, -0.1), InjectedFault.parse("jump@0.001:2:-0.1"));
        assertEquals(new InjectedFault(FaultKind.IMU_LOSS, 300_000_000L, -1, 0.0), InjectedFault.parse("imu_loss@0.3"));
    }

    @Test
    void rejectsMalformedSpecificationsSayingWhy()
    {
        assertMessage("stall", "is not KIND@SECONDS");
        assertMessage("melt@1", "unknown kind 'melt'");
        assertMessage("nan@1", "takes 2 field(s)");
        assertMessage("crash@1:2", "takes 1 field(s)");
        assertMessage("jump@x:1:0.1", "x");
        assertMessage("stall@-1", "not a time >= 0");
        assertMessage("nan@1:-2", "needs a joint index");
        assertMessage("jump@1:0:NaN", "must be finite");
    }

    private static void assertMessage(final String text, final String expected)
    {
        final IllegalArgumentException ex = assertThrows(IllegalArgumentException.class, () -> InjectedFault.parse(text));
        assertTrue(ex.getMessage().contains(expected), text + ": " + ex.getMessage());
    }
}
