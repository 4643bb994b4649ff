package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.driver.MediaDriver;
import io.aeron.driver.ThreadingMode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.transport.sbe.DriveMode;

/**
 * The embedded driver's directory: only a media driver's own files of a dead driver are deleted,
 * never anything else, never through a symbolic link; each case in a scratch directory with real
 * drivers, asserting what is left on disk.
 */
final class DriverDirectoryTest
{
    private static final int DOF = 2;
    private static final String SENTINEL = "do not delete\n";

    @TempDir
    Path temp;

    @Test
    void directoryWithAForeignFileAndALinkIsRefusedAndEverythingStays() throws IOException
    {
        final Path directory = Files.createDirectory(temp.resolve("aeron"));
        final Path foreign = Files.writeString(directory.resolve("notes.txt"), SENTINEL);
        final Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        final Path sentinel = Files.writeString(elsewhere.resolve("sentinel.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(directory.resolve("publications"), elsewhere);

        final DriverDirectoryException refused = assertThrows(DriverDirectoryException.class,
            () -> AeronTransport.launch(embedded(directory)));

        final String message = refused.getMessage();
        assertTrue(message.contains(directory.toString()) && message.contains("'notes.txt' (a file)")
            && message.contains("'publications' (a symbolic link to " + elsewhere + ")") && message.contains("nothing was deleted"),
            message);
        assertEquals(SENTINEL, Files.readString(foreign));
        assertEquals(SENTINEL, Files.readString(sentinel));
        assertTrue(Files.isSymbolicLink(link));
        assertEquals(List.of(foreign, link), sortedEntries(directory));
    }

    /** A typo naming a full directory (as /etc would be) gets a message of bounded length. */
    @Test
    void refusalNamesTheFirstFiveForeignEntriesAndCountsTheRest() throws IOException
    {
        final Path directory = Files.createDirectory(temp.resolve("aeron"));
        for (int i = 0; i < 8; i++)
        {
            Files.writeString(directory.resolve("file" + i), SENTINEL);
        }
        final DriverDirectoryException refused = assertThrows(DriverDirectoryException.class,
            () -> DriverDirectory.prepare(directory.toString(), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS));
        assertTrue(refused.getMessage().contains("(a file) and 3 more, which a media driver does not make"), refused.getMessage());
        assertEquals(8, sortedEntries(directory).size());
    }

    @Test
    void directoryThatIsALinkIsRefusedAndItsTargetStays() throws IOException
    {
        final Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        final Path sentinel = Files.writeString(elsewhere.resolve("sentinel.txt"), SENTINEL);
        final Path link = Files.createSymbolicLink(temp.resolve("aeron"), elsewhere);

        final DriverDirectoryException refused = assertThrows(DriverDirectoryException.class,
            () -> AeronTransport.launch(embedded(link)));

        assertTrue(refused.getMessage().contains(link + " refused: it is a symbolic link (to " + elsewhere + ")"),
            refused.getMessage());
        assertEquals(SENTINEL, Files.readString(sentinel));
        assertTrue(Files.isSymbolicLink(link));
    }

    @Test
    void regularFileAndParentDirectoryNamesAreRefused() throws IOException
    {
        final Path file = Files.writeString(temp.resolve("aeron"), SENTINEL);
        final DriverDirectoryException notDirectory = assertThrows(DriverDirectoryException.class,
            () -> AeronTransport.launch(embedded(file)));
        assertTrue(notDirectory.getMessage().contains("it exists and is a file, not a directory"), notDirectory.getMessage());
        final DriverDirectoryException parentNotDirectory = assertThrows(DriverDirectoryException.class,
            () -> AeronTransport.launch(embedded(file.resolve("aeron"))));
        assertTrue(parentNotDirectory.getMessage().contains("its parent " + file + " is not a directory"),
            parentNotDirectory.getMessage());
        assertEquals(SENTINEL, Files.readString(file));

        Files.createDirectory(temp.resolve("sub"));
        final DriverDirectoryException dots = assertThrows(DriverDirectoryException.class,
            () -> DriverDirectory.prepare(temp.resolve("sub").resolve("..").toString(), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS));
        assertTrue(dots.getMessage().contains("not /, . or .."), dots.getMessage());
        assertEquals(SENTINEL, Files.readString(file));
    }

    @Test
    void unrelatedDirectoryWithoutACncFileIsRefused() throws IOException
    {
        final Path directory = Files.createDirectories(temp.resolve("aeron").resolve("images"));
        final Path lookalike = Files.writeString(directory.resolve("1.logbuffer"), SENTINEL);

        final DriverDirectoryException refused = assertThrows(DriverDirectoryException.class,
            () -> DriverDirectory.prepare(temp.resolve("aeron").toString(), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS));

        assertTrue(refused.getMessage().contains("it holds no cnc.dat"), refused.getMessage());
        assertEquals(SENTINEL, Files.readString(lookalike));
    }

    /**
     * A second embedded driver on the directory of a running one is refused, and the first one keeps
     * carrying messages; the first one's close then deletes its directory.
     */
    @Test
    void liveDirectoryIsRefusedAndItsDriverKeepsServing() throws IOException
    {
        final Path directory = temp.resolve("aeron");
        try (AeronTransport first = AeronTransport.launch(embedded(directory));
            ControllerLink controller = new ControllerLink(first.aeron(), LinkConfig.ipcDefaults(), DOF);
            AdapterLink adapter = new AdapterLink(first.aeron(), LinkConfig.ipcDefaults(), DOF))
        {
            final List<Path> driverFiles = sortedEntries(directory);

            final DriverDirectoryException refused = assertThrows(DriverDirectoryException.class,
                () -> AeronTransport.launch(embedded(directory)));

            assertTrue(refused.getMessage().contains(directory + " refused: a live media driver uses it (its heartbeat is "),
                refused.getMessage());
            assertEquals(driverFiles, sortedEntries(directory), "nothing of the live driver deleted");
            Await.until(() -> controller.isConnected() && adapter.isConnected(), "link through the first driver");
            final MotorCommandSample command = new MotorCommandSample(DOF).sequence(7L).mode(DriveMode.TORQUE);
            assertTrue(controller.publishMotorCommand(command) > 0, "the first driver still carries messages");
            final MotorCommandSample applied = new MotorCommandSample(DOF);
            Await.until(() -> adapter.pollMotorCommand(applied) == 1, "command through the first driver");
            assertEquals(7L, applied.sequence());
            assertTrue(CommonContext.isDriverActive(directory.toFile(), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS, line -> { }));
        }
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS), "the first driver's directory removed on close");
    }

    /**
     * The files a dead driver left (here one closed with its own clean-up off, plus a log buffer as a
     * killed driver leaves them) are deleted and the directory reused.
     */
    @Test
    void staleDriverDirectoryIsCleanedAndReused() throws IOException
    {
        final Path directory = temp.resolve("aeron");
        try (MediaDriver dead = MediaDriver.launch(new MediaDriver.Context().aeronDirectoryName(directory.toString())
            .dirDeleteOnStart(false).dirDeleteOnShutdown(false).threadingMode(ThreadingMode.SHARED)))
        {
            assertTrue(Files.isRegularFile(directory.resolve(CncFileDescriptor.CNC_FILE)), dead.aeronDirectoryName());
        }
        final Path leftover = Files.writeString(directory.resolve("publications").resolve("42.logbuffer"), "term buffers");
        assertTrue(Files.isRegularFile(directory.resolve("loss-report.dat")));

        try (AeronTransport reused = AeronTransport.launch(embedded(directory)))
        {
            assertFalse(Files.exists(leftover), "the dead driver's log buffer deleted");
            assertTrue(reused.aeron().addPublication("aeron:ipc", 5).isOriginal());
            assertTrue(CommonContext.isDriverActive(directory.toFile(), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS, line -> { }));
        }
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS));
    }

    /** At shutdown the driver's own files go; a file someone added meanwhile stays, with the directory. */
    @Test
    void shutdownDeletesOnlyTheDriversFiles() throws IOException
    {
        final Path directory = temp.resolve("aeron");
        final Path foreign;
        final Path elsewhere = Files.createDirectory(temp.resolve("elsewhere"));
        final Path sentinel = Files.writeString(elsewhere.resolve("sentinel.txt"), SENTINEL);
        final Path link;
        try (AeronTransport transport = AeronTransport.launch(embedded(directory)))
        {
            transport.aeron().addPublication("aeron:ipc?term-length=64k", 6);
            foreign = Files.writeString(directory.resolve("notes.txt"), SENTINEL);
            link = Files.createSymbolicLink(directory.resolve("images").resolve("7.logbuffer"), sentinel);
        }
        assertEquals(List.of(directory.resolve("images"), link.getParent().resolve("7.logbuffer"), foreign),
            allEntries(directory), "only the added file and link are left, with the directories holding them");
        assertEquals(SENTINEL, Files.readString(foreign));
        assertEquals(SENTINEL, Files.readString(sentinel));
    }

    @Test
    void absentDirectoryIsCreatedWithItsParents() throws IOException
    {
        final Path directory = temp.resolve("a").resolve("b").resolve("aeron");
        try (AeronTransport transport = AeronTransport.launch(embedded(directory)))
        {
            assertTrue(Files.isRegularFile(directory.resolve(CncFileDescriptor.CNC_FILE)), transport.aeronDirectory());
        }
        assertFalse(Files.exists(directory, LinkOption.NOFOLLOW_LINKS));
        assertTrue(Files.isDirectory(temp.resolve("a").resolve("b")), "the parents are not the driver's to remove");
    }

    private static AeronConfig embedded(final Path directory)
    {
        return new AeronConfig(true, directory.toString(), ThreadingMode.SHARED, IdleStrategyKind.BACKOFF);
    }

    private static List<Path> sortedEntries(final Path directory) throws IOException
    {
        try (Stream<Path> entries = Files.list(directory))
        {
            return entries.sorted().toList();
        }
    }

    private static List<Path> allEntries(final Path directory) throws IOException
    {
        try (Stream<Path> entries = Files.walk(directory))
        {
            return entries.filter(p -> !p.equals(directory)).sorted().toList();
        }
    }
}
