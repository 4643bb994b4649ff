package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code nectl dashboard}'s refusals: one line naming the option and the value, exit status 2; no driver, status 1. */
final class DashboardCommandTest
{
    @TempDir
    Path temp;

    @Test
    void badOptionsAreRefusedWithExitStatus2AndNoDriverWith1()
    {
        assertRefused(2, "nectl dashboard: --port must be in 0..65535, got 99999", "--port", "99999");
        assertRefused(2, "nectl dashboard: --rate-hz must be in 1..60, got 500", "--rate-hz", "500");
        assertRefused(2, "nectl dashboard: --duration must be >= 0, got -1.0", "--duration", "-1");
        assertRefused(1, "nectl dashboard: no media driver at " + temp, "--port", "0", "--driver-timeout-ms", "2000");
    }

    private void assertRefused(final int status, final String message, final String... options)
    {
        final StringWriter err = new StringWriter();
        final String[] args = new String[options.length + 3];
        args[0] = "dashboard";
        args[1] = "--aeron-dir";
        args[2] = temp.toString();
        System.arraycopy(options, 0, args, 3, options.length);
        assertEquals(status, NectlCommand.newCommandLine().setOut(new PrintWriter(new StringWriter())).setErr(new PrintWriter(err))
            .execute(args), err.toString());
        assertEquals(message, err.toString().strip().substring(0, Math.min(message.length(), err.toString().strip().length())),
            err.toString());
    }
}
