package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** User-given output files: created new, replaced only when asked and only if regular, never through a link. */
final class OutputFilesTest
{
    private static final String SENTINEL = "not nectl's\n";

    @TempDir
    Path temp;

    @Test
    void createsANewFile() throws IOException
    {
        final Path file = temp.resolve("out.csv");
        try (BufferedWriter writer = OutputFiles.newWriter(file, false))
        {
            writer.write("a,b\n");
        }
        assertEquals("a,b\n", Files.readString(file));
    }

    @Test
    void existingFileIsNotReplacedUnlessAsked() throws IOException
    {
        final Path file = Files.writeString(temp.resolve("out.csv"), SENTINEL);
        final FileAlreadyExistsException refused = assertThrows(FileAlreadyExistsException.class,
            () -> OutputFiles.newWriter(file, false));
        assertEquals(file + ": exists; not replaced, nothing written", refused.getMessage());
        assertEquals(SENTINEL, Files.readString(file));

        OutputFiles.writeString(file, "new\n", true);
        assertEquals("new\n", Files.readString(file));
    }

    @Test
    void linkIsNeverFollowedEvenWhenReplacing() throws IOException
    {
        final Path target = Files.writeString(temp.resolve("target.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(temp.resolve("out.csv"), target);
        final Path dangling = Files.createSymbolicLink(temp.resolve("dangling.csv"), temp.resolve("created-through-link.txt"));

        assertThrows(FileAlreadyExistsException.class, () -> OutputFiles.writeString(link, "x", false));
        final FileSystemException replacing = assertThrows(FileSystemException.class, () -> OutputFiles.writeString(link, "x", true));
        assertTrue(replacing.getMessage().contains("is a symbolic link; not followed"), replacing.getMessage());
        assertThrows(FileAlreadyExistsException.class, () -> OutputFiles.newWriter(dangling, false));
        assertThrows(FileSystemException.class, () -> OutputFiles.newWriter(dangling, true));

        assertEquals(SENTINEL, Files.readString(target));
        assertTrue(Files.isSymbolicLink(link) && Files.isSymbolicLink(dangling));
        assertTrue(Files.notExists(temp.resolve("created-through-link.txt")), "nothing created through the dangling link");
    }

    @Test
    void directoryOrDeviceIsNotReplaced() throws IOException
    {
        final FileSystemException directory = assertThrows(FileSystemException.class,
            () -> OutputFiles.writeString(temp, "x", true));
        assertTrue(directory.getMessage().contains("not a regular file"), directory.getMessage());
        final FileSystemException device = assertThrows(FileSystemException.class,
            () -> OutputFiles.writeString(Path.of("/dev/null"), "x", true));
        assertTrue(device.getMessage().contains("not a regular file"), device.getMessage());
    }

    @Test
    void aMissingDirectoryIsNamedWithTheReason() throws IOException
    {
        final Path file = temp.resolve("no-such-dir").resolve("out.csv");
        for (final boolean replace : new boolean[] {false, true})
        {
            final NoSuchFileException writer = assertThrows(NoSuchFileException.class, () -> OutputFiles.newWriter(file, replace));
            assertEquals(file + ": its directory " + file.getParent() + " does not exist; nothing written", writer.getMessage());
            final NoSuchFileException string = assertThrows(NoSuchFileException.class,
                () -> OutputFiles.writeString(file, "x", replace));
            assertEquals(writer.getMessage(), string.getMessage());
        }
        assertTrue(Files.notExists(file.getParent()), "no directory created");
    }
}
