package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import io.aeron.exceptions.DriverTimeoutException;

import org.junit.jupiter.api.Test;
import org.nectl.config.DescriptionException;
import org.nectl.transport.SetupException;

/** How the top level of {@code nectl} ends a subcommand that an exception escapes. */
final class NectlCommandTest
{
    private final StringWriter err = new StringWriter();

    @Test
    void badInputIsOneLineWithExitStatus2()
    {
        assertEquals(2, report(new SetupException("planner key file k: not found")));
        assertEquals(2, report(new DescriptionException("arm.yaml", 3, 5, "links.l1.mass", "value -1 is below 0")));
        assertEquals("nectl test: planner key file k: not found\nnectl test: arm.yaml:3:5: links.l1.mass: value -1 is below 0\n",
            err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void anythingElseIsOneLineNamingTheExceptionWithExitStatus1()
    {
        assertEquals(1, report(new IllegalStateException("the loop is gone")));
        assertEquals(1, report(new UncheckedIOException("fuzzing failed", new IOException("port unreachable"))));
        assertEquals("nectl test: unexpected java.lang.IllegalStateException: the loop is gone; NECTL_DEBUG=1 prints the stack trace\n"
            + "nectl test: unexpected java.io.UncheckedIOException: fuzzing failed (caused by java.io.IOException: port unreachable);"
            + " NECTL_DEBUG=1 prints the stack trace\n", err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void noMediaDriverIsOneLineWithExitStatus1()
    {
        assertEquals(1, report(new DriverTimeoutException("CnC file not created: /dev/shm/none/cnc.dat")));
        assertEquals("nectl test: no media driver answered (FATAL - CnC file not created: /dev/shm/none/cnc.dat): start the media"
            + " driver first, or check the Aeron directory\n", err.toString().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void demoOptionsAreCheckedBeforeAnythingStarts() throws IOException
    {
        final String hint = "\n(nectl demo --help lists the options)\n";
        assertDemoRefused("nectl demo: --period-us must be in 100..10000 (as a deployment's period_us), got 0" + hint, "--period-us", "0");
        assertDemoRefused("nectl demo: --duration must be in (0, 3600] s, got 1.0E9" + hint, "--duration", "1e9");
        assertDemoRefused("nectl demo: --priority must be in 0..99 (0: time-sharing), got 100" + hint, "--priority", "100");
        assertDemoRefused("nectl demo: --core must be a CPU number (-1: none), got -2" + hint, "--core", "-2");
        assertDemoRefused("nectl demo: --max-missing-states must be in 1..1000, got 0" + hint, "--max-missing-states", "0");
        assertDemoRefused("nectl demo: --core: CPU 1023 is not one this process may run on (allowed CPUs: " + allowedCpus() + ")\n",
            "--core", "1023");
    }

    /** @return the CPUs this process may run on, as /proc/self/status lists them. */
    static String allowedCpus() throws IOException
    {
        return Files.readAllLines(Path.of("/proc/self/status")).stream()
            .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow().substring(18).strip();
    }

    private void assertDemoRefused(final String expectedStderr, final String... options)
    {
        err.getBuffer().setLength(0);
        final String[] args = new String[options.length + 1];
        args[0] = "demo";
        System.arraycopy(options, 0, args, 1, options.length);
        assertEquals(2, NectlCommand.newCommandLine().setErr(new PrintWriter(err, true)).execute(args));
        assertEquals(expectedStderr, err.toString().replace(System.lineSeparator(), "\n"));
    }

    private int report(final RuntimeException failure)
    {
        final PrintWriter writer = new PrintWriter(err);
        final int status = NectlCommand.report(failure, "nectl test", writer);
        writer.flush();
        return status;
    }
}
