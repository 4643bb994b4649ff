package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.ShutdownSignalBarrier;
import org.junit.jupiter.api.Test;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.loop.FailingService;

/** {@code nectl run}'s reaction to a failed control loop: a clear message and exit status 4. */
class RunCommandLoopErrorTest
{
    @Test
    void aFailedLoopEndsTheServiceWithStatusFourAndTheFailureOnStderr()
    {
        final ControllerService service = FailingService.start(FailingService.settings(), 200);
        final PrintStream stderr = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            status = RunCommand.serve(service, barrier);
        }
        finally
        {
            System.setErr(stderr);
            service.close();
        }
        final String text = captured.toString(StandardCharsets.UTF_8);
        assertEquals(RunCommand.LOOP_ERROR_EXIT_STATUS, status, text);
        assertEquals(4, status, "the documented status");
        assertTrue(text.contains("nectl run: the control loop failed: java.lang.IllegalStateException: injected failure in tick 200"),
            text);
        assertTrue(text.contains("exiting with status 4 (control loop error)"), text);
        assertEquals(ControllerMode.FAULT, service.loop().mode());
        assertEquals(Faults.LOOP_ERROR, service.loop().faults(), Faults.describe(service.loop().faults()));
    }
}
