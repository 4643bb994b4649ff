package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.stream.Stream;

import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The archive's mark-file directory beside the media driver's: the recorder removes only the mark
 * file it made and the directory only when nothing else is in it, and never works through a link.
 */
final class FlightRecorderMarkDirectoryTest
{
    private static final String SENTINEL = "do not delete\n";

    @TempDir
    Path temp;

    @Test
    void aLinkWhereTheMarkDirectoryGoesIsRefusedAndWhatItPointsAtStays() throws IOException
    {
        final Path aeronDirectory = temp.resolve("aeron");
        final Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        final Path sentinel = Files.writeString(elsewhere.resolve("sentinel.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(
            Path.of(aeronDirectory + FlightRecorder.MARK_FILE_DIRECTORY_SUFFIX), elsewhere);
        try (AeronTransport transport = AeronTransport.launch(embedded(aeronDirectory)))
        {
            final SetupException refused = assertThrows(SetupException.class,
                () -> FlightRecorder.start(transport.aeron(), transport.aeronDirectory(), recording()).close());
            assertTrue(refused.getMessage().contains("is a symbolic link"), refused.getMessage());
        }
        assertTrue(Files.isSymbolicLink(link), "the link stays");
        assertEquals(SENTINEL, Files.readString(sentinel), "what it points at stays");
        try (Stream<Path> entries = Files.list(elsewhere))
        {
            assertEquals(1, entries.count(), "nothing written through the link");
        }
    }

    @Test
    void aForeignFileInTheMarkDirectoryKeepsTheDirectoryAndTheFile() throws IOException
    {
        final Path aeronDirectory = temp.resolve("aeron");
        final Path markDirectory = Files.createDirectory(
            Path.of(aeronDirectory + FlightRecorder.MARK_FILE_DIRECTORY_SUFFIX));
        final Path foreign = Files.writeString(markDirectory.resolve("notes.txt"), SENTINEL);
        try (AeronTransport transport = AeronTransport.launch(embedded(aeronDirectory)))
        {
            FlightRecorder.start(transport.aeron(), transport.aeronDirectory(), recording()).close();
        }
        assertEquals(SENTINEL, Files.readString(foreign), "the foreign file stays");
        assertTrue(Files.isDirectory(markDirectory, LinkOption.NOFOLLOW_LINKS), "its directory stays");
        assertFalse(Files.exists(markDirectory.resolve(io.aeron.archive.ArchiveMarkFile.FILENAME)),
            "the archive's own mark file is gone");
    }

    @Test
    void aMarkDirectoryTheRecorderMadeIsRemovedAtClose() throws IOException
    {
        final Path aeronDirectory = temp.resolve("aeron");
        final Path markDirectory = Path.of(aeronDirectory + FlightRecorder.MARK_FILE_DIRECTORY_SUFFIX);
        try (AeronTransport transport = AeronTransport.launch(embedded(aeronDirectory)))
        {
            FlightRecorder.start(transport.aeron(), transport.aeronDirectory(), recording()).close();
        }
        assertFalse(Files.exists(markDirectory, LinkOption.NOFOLLOW_LINKS), "the recorder's own directory is gone");
    }

    private FlightRecorderConfig recording()
    {
        return new FlightRecorderConfig(temp.resolve("recordings"), 1L << 30, 3_600_000L, FlightRecorderConfig.TERM_LENGTH, 1011);
    }

    private static AeronConfig embedded(final Path directory)
    {
        return new AeronConfig(true, directory.toString(), ThreadingMode.SHARED, IdleStrategyKind.BACKOFF);
    }
}
