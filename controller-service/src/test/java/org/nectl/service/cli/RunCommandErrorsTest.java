package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.service.planner.GatewayRig;

/**
 * {@code nectl run} as a user starts it, in its own process, with a deployment the host cannot
 * honour: each is refused before the service starts, with one line {@code nectl run: <message>} on
 * stderr, nothing else (no stack trace), and exit status 2.
 */
final class RunCommandErrorsTest
{
    private static final Path SHIPPED_DEPLOYMENT = Path.of("../config/deploy/sim-panda.yaml");
    private static final Path PANDA = Path.of("../config/robots/panda.yaml");
    private static final long TIMEOUT_S = 60;

    @TempDir
    Path temp;

    private Path keyFile;

    @BeforeEach
    void privateKeys() throws IOException
    {
        final Path keys = Files.createDirectory(temp.resolve("keys"));
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rwx------"));
        keyFile = GatewayRig.developmentKeys(keys);
    }

    @Test
    void aPlannerHostThatDoesNotResolveIsRefused() throws Exception
    {
        final Path deployment = deployment("bind: no-such-host.invalid:47600", "");
        assertRefused("nectl run: " + deployment + ": planner.bind: host 'no-such-host.invalid' does not resolve to an address", deployment);
    }

    @Test
    void aPlannerPortInUseIsRefused() throws Exception
    {
        try (DatagramSocket holder = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)))
        {
            final Path deployment = deployment("bind: 127.0.0.1:" + holder.getLocalPort(), "");
            assertRefused("nectl run: planner gateway: UDP 127.0.0.1:" + holder.getLocalPort() + ": cannot bind: Address already in use",
                deployment);
        }
    }

    @Test
    void aKeyFileOthersCanReadIsRefusedWithItsMode() throws Exception
    {
        Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-r--r--"));
        final Path deployment = deployment("bind: 127.0.0.1:0", "");
        assertRefused("nectl run: planner key file " + keyFile + ": mode 0644 lets group or others read or change it; a key file"
            + " must be accessible by its owner only (chmod 600 " + keyFile.toRealPath() + ")", deployment);
    }

    @Test
    void aKeyFileInADirectoryOthersCanWriteIsRefused() throws Exception
    {
        Files.setPosixFilePermissions(keyFile.getParent(), PosixFilePermissions.fromString("rwxrwxrwx"));
        final Path deployment = deployment("bind: 127.0.0.1:0", "");
        final Path directory = keyFile.getParent().toRealPath();
        assertRefused("nectl run: planner key file " + keyFile + ": its directory " + directory + " has mode 0777, writable by group"
            + " or others, who could replace the file; keep it in a directory only its owner can write (chmod go-w " + directory + ")",
            deployment);
    }

    @Test
    void aMalformedKeyFileIsRefusedWithItsLine() throws Exception
    {
        Files.writeString(keyFile, "# a planner\n1 0123\n");
        final Path deployment = deployment("bind: 127.0.0.1:0", "");
        assertRefused("nectl run: " + keyFile + ":2: not '<plannerId> <key>' with a key of exactly 64 hex digits (line not shown)",
            deployment);
    }

    @Test
    void aCoreThisProcessMayNotRunOnIsRefusedAtStart() throws Exception
    {
        final Path deployment = deployment("bind: 127.0.0.1:0", "core: 1023\n");
        assertRefused("nectl run: " + deployment + ": core: CPU 1023 is not one this process may run on (allowed CPUs: "
            + NectlCommandTest.allowedCpus() + ")", deployment);
    }

    /**
     * Without CAP_SYS_NICE (dropped from a root process with setpriv, or an unprivileged user
     * with RLIMIT_RTPRIO 0) the kernel refuses SCHED_FIFO: refused at start, not reported at exit.
     */
    @Test
    void aRealtimePriorityTheKernelRefusesIsRefusedAtStart() throws Exception
    {
        final boolean root = "root".equals(System.getProperty("user.name"));
        final Path tool = Path.of(root ? "/usr/bin/setpriv" : "/usr/bin/prlimit");
        assumeTrue(Files.isExecutable(tool), tool + " drops the privilege to set SCHED_FIFO");
        final List<String> prefix = root
            ? List.of(tool.toString(), "--bounding-set", "-sys_nice", "--inh-caps", "-sys_nice")
            : List.of(tool.toString(), "--rtprio=0:0");
        final Path deployment = deployment("bind: 127.0.0.1:0", "realtime_priority: 80\n");
        final Result result = run(prefix, deployment);
        assertEquals(NectlCommand.USAGE_EXIT_STATUS, result.status, result.stderr);
        assertTrue(result.stderr.startsWith("nectl run: " + deployment + ": realtime_priority: SCHED_FIFO priority 80 refused: chrt: ")
            && result.stderr.endsWith(" (needs root, CAP_SYS_NICE or an RLIMIT_RTPRIO of at least 80)\n")
            && result.stderr.lines().count() == 1, result.stderr);
    }

    private void assertRefused(final String expectedStderrLine, final Path deployment) throws Exception
    {
        final Result result = run(List.of(), deployment);
        assertEquals(expectedStderrLine + "\n", result.stderr);
        assertEquals(NectlCommand.USAGE_EXIT_STATUS, result.status, result.stderr);
        assertEquals("", result.stdout, "nothing started");
    }

    /** The shipped Panda deployment with its own key file and Aeron directory, a planner address and extra top-level keys. */
    private Path deployment(final String bind, final String topLevel) throws IOException
    {
        final String shipped = Files.readString(SHIPPED_DEPLOYMENT);
        final String text = shipped
            .replace("model: ../robots/panda.yaml\n", "model: " + PANDA.toAbsolutePath().normalize() + "\n" + topLevel)
            .replace("  embedded_driver: true\n", "  embedded_driver: true\n  dir: " + temp.resolve("aeron") + "\n")
            .replace("bind: 127.0.0.1:47600", bind)
            .replace("keys: keys/development.keys", "keys: " + keyFile);
        assertTrue(!text.equals(shipped) && text.contains(bind) && text.contains(keyFile.toString()), text);
        final Path file = temp.resolve("deployment.yaml");
        Files.writeString(file, text);
        return file;
    }

    private record Result(int status, String stdout, String stderr)
    {
    }

    private Result run(final List<String> prefix, final Path deployment) throws IOException, InterruptedException
    {
        final List<String> command = new ArrayList<>(prefix);
        command.addAll(NectlProcess.command("run", "--config", deployment.toString()));
        final Path out = temp.resolve("run.out");
        final Path err = temp.resolve("run.err");
        final Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!process.waitFor(TIMEOUT_S, TimeUnit.SECONDS))
        {
            process.destroyForcibly().waitFor();
            throw new AssertionError("nectl run did not exit within " + TIMEOUT_S + " s: " + Files.readString(err));
        }
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }
}
