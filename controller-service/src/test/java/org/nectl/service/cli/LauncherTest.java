package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.transport.PlannerKeys;

/**
 * The launcher {@code scripts/nectl} in a scratch checkout whose files have the modes a clone
 * gives them: it restricts the shipped development keys and their directory so that nectl accepts
 * them, and never changes anything through a symbolic link. The scratch checkout's jar is a
 * placeholder (the launcher's java then fails): only the launcher's own work is checked.
 */
final class LauncherTest
{
    private static final Path LAUNCHER = Path.of("../scripts/nectl");
    private static final Path SHIPPED_KEYS = Path.of("../config/deploy/keys/development.keys");

    @TempDir
    Path temp;

    private Path checkout;
    private Path keysDirectory;

    @BeforeEach
    void checkout() throws IOException
    {
        checkout = Files.createDirectory(temp.resolve("checkout"));
        Files.createDirectories(checkout.resolve("scripts"));
        Files.copy(LAUNCHER, checkout.resolve("scripts/nectl"));
        Files.createDirectories(checkout.resolve("controller-service/target"));
        Files.writeString(checkout.resolve("controller-service/target/nectl.jar"), "placeholder");
        Files.createDirectories(checkout.resolve("config/deploy"));
        keysDirectory = checkout.resolve("config/deploy/keys");
    }

    @Test
    void aClonesDevelopmentKeysAreRestrictedOnceAndThenAccepted() throws Exception
    {
        Files.createDirectory(keysDirectory);
        final Path keys = keysDirectory.resolve("development.keys");
        Files.copy(SHIPPED_KEYS, keys);
        Files.setPosixFilePermissions(keys, PosixFilePermissions.fromString("rw-rw-r--"));
        Files.setPosixFilePermissions(keysDirectory, PosixFilePermissions.fromString("rwxrwxr-x"));

        final String first = launch();

        final Path real = keysDirectory.toRealPath();
        assertTrue(first.startsWith("nectl: " + real + ": write permission for group and others removed (the development keys'"
            + " directory)\nnectl: " + real.resolve("development.keys") + ": mode set to 600 (the published development keys, never"
            + " for a real robot)\n"), first);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(keys)));
        assertEquals("rwxr-xr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(keysDirectory)));
        assertEquals(2L, PlannerKeys.read(keys).plannerIds().size(), "nectl now accepts them");
        assertFalse(launch().contains("development keys"), "nothing left to restrict");
    }

    @Test
    void aKeyFileThatIsALinkIsLeftAlone() throws Exception
    {
        Files.createDirectory(keysDirectory);
        final Path elsewhere = elsewhere();
        Files.createSymbolicLink(keysDirectory.resolve("development.keys"), elsewhere);

        assertFalse(launch().contains("development keys"));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(elsewhere)));
    }

    @Test
    void aKeysDirectoryThatIsALinkIsLeftAlone() throws Exception
    {
        final Path elsewhere = elsewhere();
        Files.setPosixFilePermissions(elsewhere.getParent(), PosixFilePermissions.fromString("rwxrwxr-x"));
        Files.createSymbolicLink(keysDirectory, elsewhere.getParent());

        assertFalse(launch().contains("development keys"));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(elsewhere)));
        assertEquals("rwxrwxr-x", PosixFilePermissions.toString(Files.getPosixFilePermissions(elsewhere.getParent())));
    }

    @Test
    void linesPipedIntoACommandThatNeedsABuildFirstReachTheCommand() throws Exception
    {
        // a source newer than the jar makes the launcher build; this build reads all it is given
        final Path source = checkout.resolve("controller-service/src/main/java/Example.java");
        Files.createDirectories(source.getParent());
        Files.writeString(source, "class Example {}");
        Files.setLastModifiedTime(checkout.resolve("controller-service/target/nectl.jar"),
            FileTime.fromMillis(Files.getLastModifiedTime(source).toMillis() - 60_000));
        final Path mvnw = checkout.resolve("mvnw");
        Files.writeString(mvnw, "#!/usr/bin/env bash\ncat > /dev/null\ntouch controller-service/target/nectl.jar\n");
        // the command: a java that writes back what it reads
        final Path bin = Files.createDirectory(temp.resolve("bin"));
        final Path java = bin.resolve("java");
        Files.writeString(java, "#!/usr/bin/env bash\ncat\n");
        for (final Path script : new Path[] {mvnw, java})
        {
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        final Path in = Files.writeString(temp.resolve("states.jsonl"), "{\"q\":[0.1]}\n{\"q\":[0.2]}\n");
        final Path out = temp.resolve("out");
        final Path err = temp.resolve("err");
        final ProcessBuilder builder = new ProcessBuilder("bash", checkout.resolve("scripts/nectl").toString(), "dynamics")
            .redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        builder.environment().put("PATH", bin + ":" + System.getenv("PATH"));
        final Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher ends");

        assertTrue(Files.readString(err).contains("nectl: building"), "the launcher built first: " + Files.readString(err));
        assertEquals(Files.readString(in), Files.readString(out), "every piped line reached the command");
    }

    /** A 0644 copy of the keys outside the checkout, the target of a link. */
    private Path elsewhere() throws IOException
    {
        final Path outside = Files.createDirectory(temp.resolve("outside"));
        final Path file = outside.resolve("development.keys");
        Files.copy(SHIPPED_KEYS, file);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));
        assertTrue(Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS));
        return file;
    }

    /** @return the launcher's stderr; java on the PATH is this JVM's. */
    private String launch() throws IOException, InterruptedException
    {
        final Path err = temp.resolve("launcher.err");
        final ProcessBuilder builder = new ProcessBuilder("bash", checkout.resolve("scripts/nectl").toString(), "--version")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        final Path javaBin = Path.of(ProcessHandle.current().info().command().orElseThrow()).getParent();
        builder.environment().put("PATH", javaBin + ":" + System.getenv("PATH"));
        final Process process = builder.start();
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the launcher ends (its java refuses the placeholder jar)");
        return Files.readString(err, StandardCharsets.UTF_8);
    }
}
