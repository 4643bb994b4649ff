package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.Faults;

/** The summary's result line names what failed: the latched faults, the tracking error, or both. */
final class ServiceSummaryTest
{
    @Test
    void resultLineNamesTheFaultsAndTheRmsLimitOnlyWhenTheyFailed()
    {
        assertEquals("  result: OK", ServiceSummary.result(true, 0, 0.01));
        assertEquals("  result: OK", ServiceSummary.result(true, Faults.SHUTDOWN, Double.POSITIVE_INFINITY),
            "a shutdown stop is how a run ends");
        assertEquals("  result: FAILED (fault: state missing)",
            ServiceSummary.result(true, Faults.STATE_MISSING | Faults.SHUTDOWN, Double.POSITIVE_INFINITY),
            "nectl run has no RMS limit: the line does not print one");
        assertEquals("  result: FAILED (RMS tracking error above 1.000e-02 rad)", ServiceSummary.result(false, 0, 0.01));
        assertEquals("  result: FAILED (fault: state missing; RMS tracking error above 1.000e-02 rad)",
            ServiceSummary.result(false, Faults.STATE_MISSING, 0.01));
    }

    @Test
    void aFixedDeploymentFedBaseBlocksSaysItIgnoredThem()
    {
        assertEquals("  base motion blocks (carried arm): taken 5, missing 2, refused 1", ServiceSummary.baseLine(true, 5, 2, 1, 0));
        assertNull(ServiceSummary.baseLine(false, 0, 0, 0, 0), "a fixed base fed no base block: no line");
        assertEquals("  base motion blocks: 7 received and ignored: the adapter reports a moving base, but base.carried is false,"
            + " so its motion is not compensated (docs/DEPLOYMENT.md, \"base\")", ServiceSummary.baseLine(false, 0, 0, 0, 7));
    }
}
