package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import io.aeron.Aeron;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.deploy.AeronSettings;

/**
 * {@code nectl run} and its embedded media driver's directory (docs/DEPLOYMENT.md, "aeron"): a
 * directory holding anything but a media driver's files is refused with exit status 2 and left as
 * it was; a directory of a live driver is refused and that driver's service keeps serving; a dead
 * driver's directory is cleaned and reused; on SIGTERM the service removes its driver's files. Each
 * case in this test's scratch directory, with the service, the simulator and a killed driver as
 * processes of their own.
 */
class RunCommandTest
{
    private static final String MODEL = "../config/robots/two-link-rr.yaml";
    private static final String SENTINEL = "not nectl's\n";
    /** The shortest driver timeout a deployment accepts, ms: a killed driver is dead this long after its last heartbeat. */
    private static final long DRIVER_TIMEOUT_MS = 2_000L;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(30);

    @TempDir
    Path temp;

    private final List<Process> processes = new ArrayList<>();

    @Test
    void directoryWithAForeignFileAndALinkIsRefusedWithStatus2AndLeftIntact() throws IOException
    {
        final Path directory = Files.createDirectory(temp.resolve("aeron"));
        final Path foreign = Files.writeString(directory.resolve("notes.txt"), SENTINEL);
        final Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        final Path sentinel = Files.writeString(elsewhere.resolve("sentinel.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(directory.resolve("images"), elsewhere);
        final Path deployment = deployment(directory);

        final StringBuilder err = new StringBuilder();
        assertEquals(2, runInProcess(deployment, err), err.toString());

        final String message = err.toString();
        System.out.print(message);
        assertTrue(message.startsWith("nectl run: " + deployment + ": media driver directory " + directory + " refused: it holds "),
            message);
        assertTrue(message.contains("'images' (a symbolic link to " + elsewhere + ")") && message.contains("'notes.txt' (a file)")
            && message.contains("nothing was deleted"), message);
        assertFalse(message.contains("Exception"), "a message, not a stack trace: " + message);
        assertEquals(SENTINEL, Files.readString(foreign));
        assertEquals(SENTINEL, Files.readString(sentinel));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(List.of(link, foreign), entries(directory));
    }

    /**
     * A second {@code nectl run} on the directory of a running one: refused with status 2; the first
     * service keeps serving its simulator (the monitor sees new JointState sequences) and monitors.
     */
    @Test
    void secondRunOnALiveDirectoryIsRefusedAndTheFirstKeepsServing() throws Exception
    {
        final Path directory = temp.resolve("aeron");
        final Path deployment = deployment(directory);
        final Path serviceLog = temp.resolve("service.log");
        final Process service = start(serviceLog, "run", "--config", deployment.toString());
        awaitCondition(() -> read(serviceLog).contains("nectl run: "), service, serviceLog, "the first service up");
        final Path simLog = temp.resolve("sim.log");
        final Process sim = start(simLog, "sim", "--model", MODEL, "--aeron-dir", directory.toString(), "--mode", "realtime",
            "--period-us", "10000", "--idle", "PARKING", "--watchdog-ms", "200",
            "--brake-after-ms", "300");
        final long before = awaitJointStateSequence(directory, 0, sim, simLog);
        final List<Path> driverFiles = entries(directory);

        final StringBuilder err = new StringBuilder();
        assertEquals(2, runInProcess(deployment, err), err.toString());

        System.out.print(err);
        assertTrue(err.toString().contains(directory + " refused: a live media driver uses it (its heartbeat is "), err.toString());
        assertEquals(driverFiles, entries(directory), "nothing of the first service's driver deleted");
        assertTrue(service.isAlive() && sim.isAlive(), "the first service and its simulator run on");
        final long after = awaitJointStateSequence(directory, before, sim, simLog);
        assertTrue(after > before, "JointStates still reach the first service: sequence " + before + " then " + after);

        stop(service, serviceLog);
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS), "the first service removed its driver's directory\n"
            + read(serviceLog));
    }

    /**
     * The directory of a media driver killed with SIGKILL (its CnC file, loss report and a log
     * buffer left behind) is cleaned and reused once the driver's heartbeat is older than the
     * driver timeout; SIGTERM then removes the new driver's files.
     */
    @Test
    void deadDriversDirectoryIsCleanedAndReused() throws Exception
    {
        final Path directory = temp.resolve("aeron");
        final Path driverLog = temp.resolve("driver.log");
        final Process driver = startDriver(directory, driverLog);
        awaitCondition(() -> Files.exists(directory.resolve("cnc.dat"))
            && CommonContext.isDriverActive(directory.toFile(), DRIVER_TIMEOUT_MS, line -> { }), driver, driverLog, "the driver up");
        final List<Path> leftovers;
        try (Aeron client = Aeron.connect(new Aeron.Context().aeronDirectoryName(directory.toString())))
        {
            client.addPublication("aeron:ipc?term-length=64k", 77);
            leftovers = entries(directory.resolve("publications"));
            assertEquals(1, leftovers.size(), "a log buffer for the publication: " + leftovers);
            driver.destroyForcibly();
            assertTrue(driver.waitFor(30, TimeUnit.SECONDS), "the driver killed");
        }
        awaitCondition(() -> !CommonContext.isDriverActive(directory.toFile(), DRIVER_TIMEOUT_MS, line -> { }), null, driverLog,
            "the killed driver's heartbeat older than " + DRIVER_TIMEOUT_MS + " ms");
        assertTrue(Files.exists(leftovers.get(0)), "the killed driver left its files");

        final Path serviceLog = temp.resolve("service.log");
        final Process service = start(serviceLog, "run", "--config", deployment(directory, DRIVER_TIMEOUT_MS).toString());
        awaitCondition(() -> read(serviceLog).contains("nectl run: "), service, serviceLog, "the service up");
        assertFalse(Files.exists(leftovers.get(0)), "the dead driver's log buffer deleted");
        assertTrue(CommonContext.isDriverActive(directory.toFile(), DRIVER_TIMEOUT_MS, line -> { }), "the service's driver there");

        stop(service, serviceLog);
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS), "the service removed its driver's directory\n"
            + read(serviceLog));
    }

    @AfterEach
    void killProcesses()
    {
        processes.forEach(Process::destroyForcibly);
    }

    private Path deployment(final Path aeronDirectory) throws IOException
    {
        return deployment(aeronDirectory, AeronSettings.DEFAULT_DRIVER_TIMEOUT_MS);
    }

    private Path deployment(final Path aeronDirectory, final long driverTimeoutMs) throws IOException
    {
        return Files.writeString(temp.resolve("deploy.yaml"), String.join("\n",
            "model: " + Path.of(MODEL).toAbsolutePath(),
            "mode: realtime",
            "period_us: 10000",
            "aeron:",
            "  embedded_driver: true",
            "  dir: " + aeronDirectory,
            "  driver_timeout_ms: " + driverTimeoutMs,
            "planner:",
            "  bind: 127.0.0.1:0",
            "supervision:",
            "  heartbeat_timeout_ms: 1000",
            "  max_missing_states: 100",
            ""));
    }

    /** {@code nectl run} in this JVM; returns its exit status (it returns at once when refused), its stderr in {@code err}. */
    private static int runInProcess(final Path deployment, final StringBuilder err)
    {
        final PrintStream original = System.err;
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setErr(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try
        {
            return NectlCommand.newCommandLine().execute("run", "--config", deployment.toString());
        }
        finally
        {
            System.setErr(original);
            err.append(bytes.toString(StandardCharsets.UTF_8));
        }
    }

    /** @return the newest JointState sequence the service reports in its telemetry, once above {@code above}. */
    private long awaitJointStateSequence(final Path directory, final long above, final Process sim, final Path simLog)
        throws IOException
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        final Path csv = temp.resolve("telemetry-" + System.nanoTime() + ".csv");
        while (true)
        {
            final StringWriter out = new StringWriter();
            final int status = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(out))
                .execute("monitor", "--aeron-dir", directory.toString(), "--count", "1", "--duration", "10", "--quiet", "--csv",
                    csv.toString());
            assertEquals(0, status, "the monitor receives the service's telemetry\n" + out);
            final List<String> lines = Files.readAllLines(csv);
            final int column = List.of(lines.get(0).split(",")).indexOf("jointStateSequence");
            final long sequence = Long.parseLong(lines.get(1).split(",")[column]);
            Files.delete(csv);
            if (sequence > above)
            {
                return sequence;
            }
            if (!sim.isAlive() || System.nanoTime() - deadlineNs > 0)
            {
                fail("no JointState after sequence " + above + " in the service's telemetry; simulator:\n" + read(simLog));
            }
        }
    }

    private Process start(final Path log, final String... arguments) throws IOException
    {
        final Process process = new ProcessBuilder(NectlProcess.command(arguments)).redirectErrorStream(true)
            .redirectOutput(log.toFile()).start();
        processes.add(process);
        return process;
    }

    private Process startDriver(final Path directory, final Path log) throws IOException
    {
        final List<String> command = new ArrayList<>(NectlProcess.command());
        // java, the JVM options, -cp, the class path, then the main class: the driver's properties go before it.
        final int main = command.size() - 1;
        command.set(main, MediaDriver.class.getName());
        command.addAll(main, List.of("-Daeron.dir=" + directory, "-Daeron.threading.mode=SHARED",
            "-Daeron.shared.idle.strategy=backoff", "-Daeron.term.buffer.sparse.file=true"));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        processes.add(process);
        return process;
    }

    private static void stop(final Process process, final Path log) throws InterruptedException
    {
        process.destroy();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the service ends on SIGTERM\n" + read(log));
    }

    private static void awaitCondition(final BooleanSupplier condition, final Process process, final Path log, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0 || (process != null && !process.isAlive()))
            {
                fail("no " + what + (process == null || process.isAlive() ? " within 30 s" : ", the process exited "
                    + process.exitValue()) + "\n" + read(log));
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static List<Path> entries(final Path directory) throws IOException
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            return entries.sorted().toList();
        }
    }

    private static String read(final Path log)
    {
        try
        {
            return Files.exists(log) ? Files.readString(log) : "";
        }
        catch (final IOException e)
        {
            return "(cannot read " + log + ": " + e + ")";
        }
    }
}
