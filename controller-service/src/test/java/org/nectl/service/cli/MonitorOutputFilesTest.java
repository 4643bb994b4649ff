package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;

/**
 * {@code nectl monitor --csv/--events-csv} against a real media driver: an existing file is refused
 * with status 2 and left as it was unless --force, and a symbolic link is never written through.
 */
final class MonitorOutputFilesTest
{
    private static final String SENTINEL = "not nectl's\n";

    @TempDir
    Path temp;

    @Test
    void existingFilesAndLinksAreRefusedAndLeftIntact() throws IOException
    {
        final Path existing = Files.writeString(temp.resolve("telemetry.csv"), SENTINEL);
        final Path target = Files.writeString(temp.resolve("target.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(temp.resolve("events.csv"), target);
        try (AeronTransport driver = AeronTransport.launch(AeronConfig.embeddedDefaults()))
        {
            final StringWriter err = new StringWriter();
            assertEquals(2, monitor(err, driver, "--csv", existing.toString()), err.toString());
            assertTrue(err.toString().contains(existing + ": exists; not replaced"), err.toString());

            final StringWriter linkErr = new StringWriter();
            assertEquals(2, monitor(linkErr, driver, "--events-csv", link.toString(), "--force"), linkErr.toString());
            assertTrue(linkErr.toString().contains("is a symbolic link; not followed"), linkErr.toString());
        }
        assertEquals(SENTINEL, Files.readString(existing));
        assertEquals(SENTINEL, Files.readString(target));
        assertTrue(Files.isSymbolicLink(link));
    }

    private static int monitor(final StringWriter err, final AeronTransport driver, final String... options)
    {
        final List<String> arguments = new ArrayList<>(List.of("monitor", "--aeron-dir", driver.aeronDirectory(), "--count", "1",
            "--duration", "0.1", "--quiet"));
        arguments.addAll(List.of(options));
        return NectlCommand.newCommandLine().setErr(new PrintWriter(err, true)).execute(arguments.toArray(String[]::new));
    }
}
