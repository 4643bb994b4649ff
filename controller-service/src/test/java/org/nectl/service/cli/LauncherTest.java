package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
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
