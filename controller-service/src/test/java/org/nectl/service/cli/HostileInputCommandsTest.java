package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile robot and deployment files through the command line: exit status 2 and one line naming
 * file, line and column and the limit, never a stack trace. The nested URDF runs in a JVM of 64 MB
 * heap, which the reader that stored every element's full path (6.4 GB for this file) cannot pass.
 */
class HostileInputCommandsTest
{
    private static final long PROCESS_DEADLINE_SECONDS = 120;

    @TempDir
    Path dir;

    @Test
    void modelShowRefusesTheNestedUrdfInA64MegabyteHeap() throws Exception
    {
        final Path urdf = dir.resolve("nested.urdf");
        Files.writeString(urdf, "<robot name=\"r\">\n<link name=\"a\"/>\n" + "<x>".repeat(200_000)
            + "</x>".repeat(200_000) + "</robot>\n");
        final List<String> command = new ArrayList<>(NectlProcess.command("model", "show", urdf.toString()));
        command.add(1, "-Xmx64m");
        final Process process = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        final byte[] err = process.getErrorStream().readAllBytes();
        assertTrue(process.waitFor(PROCESS_DEADLINE_SECONDS, TimeUnit.SECONDS), "nectl model show did not end");
        final String stderr = new String(err, StandardCharsets.UTF_8);
        assertEquals(2, process.exitValue(), stderr);
        assertTrue(stderr.startsWith("nectl model show: " + urdf + ":3:190: /robot/x/x/"), stderr);
        assertTrue(stderr.strip().endsWith("elements are nested more than 64 levels deep here; the limit is 64"), stderr);
        assertEquals(1, stderr.strip().lines().count(), stderr);
    }

    @Test
    void dynamicsRefusesYamlNested3000Deep() throws IOException
    {
        final Path yaml = dir.resolve("nested.yaml");
        Files.writeString(yaml, "name: " + "[".repeat(3000) + "]".repeat(3000) + "\n");
        assertRefused(yaml + ":1:70: lists and mappings are nested more than 64 levels deep here; the limit is 64",
            "dynamics", "--model", yaml.toString());
    }

    @Test
    void runRefusesADeploymentNested3000Deep() throws IOException
    {
        final Path yaml = dir.resolve("deploy.yaml");
        Files.writeString(yaml, "model: " + "{a: ".repeat(3000) + "1" + "}".repeat(3000) + "\n");
        assertRefused(yaml + ":1:", "run", "--config", yaml.toString());
    }

    @Test
    void modelShowRefusesInvalidUtf8AtItsLine() throws IOException
    {
        final Path yaml = dir.resolve("latin1.yaml");
        Files.write(yaml, "name: arm\nformat: modified-dh\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertRefused(yaml + ":3:6: byte 0xE9 at byte offset 35 is not valid UTF-8", "model", "show", yaml.toString());
    }

    @Test
    void aDirectoryAndADeviceAreNotRegularFiles() throws IOException
    {
        final Path directory = Files.createDirectory(dir.resolve("arm.yaml"));
        assertRefused(directory + ": not a regular file (a directory)", "model", "show", directory.toString());
        final Path zero = Files.createSymbolicLink(dir.resolve("zero.urdf"), Path.of("/dev/zero"));
        assertRefused(zero + ": not a regular file (a device, pipe or socket)", "dynamics", "--model", zero.toString());
        assertRefused(directory + ": not a regular file (a directory)", "run", "--config", directory.toString());
    }

    @Test
    void modelCheckBlamesAnAstronomicalMassOnItsLine() throws IOException
    {
        final Path urdf = dir.resolve("heavy.urdf");
        Files.writeString(urdf, "<robot name=\"r\">\n  <link name=\"a\"/>\n  <link name=\"b\">\n    <inertial>\n"
            + "      <origin xyz=\"0.2 0 0\"/>\n      <mass value=\"1e308\"/>\n"
            + "      <inertia ixx=\"0.05\" ixy=\"0\" ixz=\"0\" iyy=\"0.05\" iyz=\"0\" izz=\"0.1\"/>\n    </inertial>\n"
            + "  </link>\n  <joint name=\"j\" type=\"continuous\"><parent link=\"a\"/><child link=\"b\"/></joint>\n"
            + "</robot>\n");
        assertRefused(urdf + ":6:7: /robot/link[@name='b']/inertial/mass: mass 1.0E308 kg is more than the limit",
            "model", "check", urdf.toString());
    }

    /** Runs the command in this JVM and checks exit status 2 and one line on standard error. */
    private static void assertRefused(final String expectedInMessage, final String... arguments)
    {
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream original = System.err;
        final int status;
        try
        {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            status = NectlCommand.newCommandLine().execute(arguments);
        }
        finally
        {
            System.setErr(original);
        }
        final String stderr = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, stderr);
        assertTrue(stderr.contains(expectedInMessage), stderr);
        assertEquals(1, stderr.strip().lines().count(), stderr);
        assertFalse(stderr.contains("Exception"), stderr);
    }
}
