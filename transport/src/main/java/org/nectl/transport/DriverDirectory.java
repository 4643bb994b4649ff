package org.nectl.transport;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.driver.reports.LossReportUtil;
import io.aeron.exceptions.AeronException;
import org.agrona.BufferUtil;

/**
 * The directory of an embedded media driver, checked before the driver starts and removed after it
 * stops. Aeron's own clean-up ({@code dirDeleteOnStart}, {@code dirDeleteOnShutdown}, and the
 * deletion it does on start even without them when the directory exists) deletes the directory
 * recursively, following symbolic links, whatever it holds; a typo such as {@code ../../etc} would
 * delete system files, and a second service on the directory of a running one would delete that
 * driver's files. So the embedded driver runs with both options off, on a directory that does not
 * exist when it starts, and this class deletes only what it has proved to be a media driver's own
 * files that no live driver uses:
 * <ul>
 *     <li>what a media driver makes, and nothing else: {@code cnc.dat}, {@code loss-report.dat},
 *     {@code publications/} and {@code images/} holding only {@code <id>.logbuffer} files, every
 *     one a regular file or a real directory (never a symbolic link), with a {@code cnc.dat} long
 *     enough to hold the CnC header. An empty directory qualifies (nothing to delete in it);</li>
 *     <li>no live driver: Aeron's own check on the CnC file ({@link CommonContext#isDriverActive(long,
 *     java.util.function.Consumer, java.nio.ByteBuffer)}), which calls a driver live while its
 *     heartbeat is younger than the driver timeout. A driver that closed cleanly resets its heartbeat
 *     and is dead at once; one that was killed is dead once its heartbeat is older than the timeout.</li>
 * </ul>
 * Before the driver starts, anything else (a foreign file, a symbolic link anywhere in the
 * directory, an unexpected subdirectory, a CnC file of another Aeron version, a directory that is
 * itself a symbolic link or not a directory) is refused with a {@link DriverDirectoryException}
 * naming the directory, the entries and the reason, and nothing is deleted. After the driver
 * stops, its own files are deleted and anything else is left in place, with the directory, and
 * reported.
 *
 * <p>Links: the directory named must itself be a real directory; the components above it may be
 * symbolic links (as {@code /var/run} or, on some systems, {@code /dev/shm} are), because nothing is
 * deleted through them: every look-up and deletion is made relative to the open parent directory
 * with {@link SecureDirectoryStream} ({@code openat}, {@code unlinkat}) and {@link LinkOption#NOFOLLOW_LINKS},
 * so a link is never traversed and a name swapped for a link between the check and the deletion is
 * at worst unlinked itself, never its target. Platforms without {@link SecureDirectoryStream}
 * (Windows) get a refusal for an existing directory, never a deletion.
 *
 * <p>The directory is removed once its contents are gone, so that the driver creates it afresh and
 * Aeron's own start-up deletion never runs. Left unguarded: two services started within the same
 * few milliseconds on the same absent directory (the second one to reach Aeron would delete the
 * first one's new files); started one after the other, the second is refused.
 *
 * <p>Not real-time safe; thread safe (no state).
 */
public final class DriverDirectory
{
    /** Subdirectories a media driver makes for its log buffers (Aeron's FileStoreLogFactory). */
    private static final List<String> LOG_DIRECTORIES = List.of("publications", "images");
    /** The end of the line Aeron's driver-active check logs: the heartbeat's age, ms. */
    private static final Pattern HEARTBEAT_AGE = Pattern.compile("(-?[0-9]+)\\s*$");
    /** Foreign entries a message names; it counts the rest. */
    private static final int ENTRIES_LISTED = 5;
    private static final Pattern LOG_BUFFER = Pattern.compile("[0-9]+\\.logbuffer");
    private static final String KNOWN_CONTENTS = "a media driver makes only " + CncFileDescriptor.CNC_FILE + ", "
        + LossReportUtil.LOSS_REPORT_FILE_NAME + ", publications/ and images/ holding <id>.logbuffer files";

    private DriverDirectory()
    {
    }

    /**
     * Makes {@code directory} ready for a new embedded driver: nothing to do when it does not exist
     * (the driver creates it); the stale files of a dead driver are deleted and the directory removed;
     * anything else is refused and nothing is deleted. Not real-time safe.
     *
     * @param directory the driver's directory.
     * @param driverTimeoutMs a driver whose heartbeat is younger than this, ms, is live.
     * @throws DriverDirectoryException if the directory cannot be proved to be an unused media driver
     *     directory, or the clean-up failed.
     */
    public static void prepare(final String directory, final long driverTimeoutMs)
    {
        clean(directory, driverTimeoutMs, true);
    }

    /**
     * Removes the directory of an embedded driver that has just been closed, under the same proof as
     * {@link #prepare}, except that what does not belong to a driver (put there by someone else while
     * it ran) does not stop the driver's own files being deleted: it is left in place, with the
     * directory, and reported. Not real-time safe.
     *
     * @param directory the driver's directory.
     * @param driverTimeoutMs a driver whose heartbeat is younger than this, ms, is live.
     * @throws DriverDirectoryException if anything was left in place: what and why.
     */
    public static void removeAfterShutdown(final String directory, final long driverTimeoutMs)
    {
        clean(directory, driverTimeoutMs, false);
    }

    private static void clean(final String directory, final long driverTimeoutMs, final boolean beforeStart)
    {
        final Path path;
        try
        {
            path = Path.of(directory).toAbsolutePath();
        }
        catch (final InvalidPathException e)
        {
            throw refusal(directory, "it is not a valid path: " + e.getMessage());
        }
        final Path parentPath = path.getParent();
        final Path name = path.getFileName();
        if (parentPath == null || name == null || name.toString().equals(".") || name.toString().equals(".."))
        {
            throw refusal(directory, "it must name a directory by its own name (not /, . or ..)");
        }
        if (!Files.isDirectory(parentPath))
        {
            if (Files.exists(parentPath, LinkOption.NOFOLLOW_LINKS))
            {
                throw refusal(directory, "its parent " + parentPath + " is not a directory");
            }
            // Nothing there: the driver creates the directory and its parents.
            return;
        }
        try (DirectoryStream<Path> parentStream = Files.newDirectoryStream(parentPath))
        {
            if (!(parentStream instanceof SecureDirectoryStream<Path> parent))
            {
                if (Files.exists(path, LinkOption.NOFOLLOW_LINKS))
                {
                    throw refusal(directory, "it exists, and this platform cannot delete files without following symbolic "
                        + "links; remove it by hand, or give the driver a directory that does not exist");
                }
                return;
            }
            final BasicFileAttributes attributes;
            try
            {
                attributes = attributes(parent, name);
            }
            catch (final NoSuchFileException absent)
            {
                return;
            }
            if (attributes.isSymbolicLink())
            {
                throw refusal(directory, "it is a symbolic link (to " + linkTarget(path) + "); nectl never follows links in "
                    + "a driver directory: name the real directory");
            }
            if (!attributes.isDirectory())
            {
                throw refusal(directory, "it exists and is " + kind(attributes) + ", not a directory");
            }
            final Contents contents;
            try (SecureDirectoryStream<Path> driverFiles = parent.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS))
            {
                contents = inspect(directory, path, driverFiles);
                if (beforeStart && !contents.foreign.isEmpty())
                {
                    throw refusal(directory, "it holds " + listed(contents.foreign) + ", which a media driver does "
                        + "not make; " + KNOWN_CONTENTS);
                }
                if (contents.cnc)
                {
                    refuseIfLive(directory, driverFiles, driverTimeoutMs);
                }
                delete(driverFiles, contents);
            }
            if (!contents.foreign.isEmpty())
            {
                throw new DriverDirectoryException("media driver directory " + directory + ": the driver's files deleted; left "
                    + "in place with the directory: " + listed(contents.foreign) + ", which a media driver does not "
                    + "make");
            }
            parent.deleteDirectory(name);
        }
        catch (final IOException e)
        {
            throw new DriverDirectoryException("media driver directory " + directory + ": cannot clean it "
                + (beforeStart ? "before the media driver starts: " : "after the media driver stopped: ") + e, e);
        }
    }

    /** The entries proved to be a driver's, and those that are not. */
    private static final class Contents
    {
        private boolean cnc;
        private boolean lossReport;
        private final List<String> logDirectories = new ArrayList<>();
        private final List<Path> logBuffers = new ArrayList<>();
        private final List<String> foreign = new ArrayList<>();
    }

    private static Contents inspect(final String directory, final Path path, final SecureDirectoryStream<Path> driverFiles)
        throws IOException
    {
        final Contents contents = new Contents();
        for (final Path entry : driverFiles)
        {
            final Path name = entry.getFileName();
            final BasicFileAttributes attributes = attributes(driverFiles, name);
            final String text = name.toString();
            if (text.equals(CncFileDescriptor.CNC_FILE) && attributes.isRegularFile())
            {
                if (attributes.size() <= CncFileDescriptor.META_DATA_LENGTH)
                {
                    throw refusal(directory, "its " + text + " has " + attributes.size() + " bytes, too few for a CnC file "
                        + "(more than " + CncFileDescriptor.META_DATA_LENGTH + "); not proved to be a media driver's");
                }
                contents.cnc = true;
            }
            else if (text.equals(LossReportUtil.LOSS_REPORT_FILE_NAME) && attributes.isRegularFile())
            {
                contents.lossReport = true;
            }
            else if (LOG_DIRECTORIES.contains(text) && attributes.isDirectory())
            {
                final int foreignBefore = contents.foreign.size();
                try (SecureDirectoryStream<Path> logs = driverFiles.newDirectoryStream(name, LinkOption.NOFOLLOW_LINKS))
                {
                    for (final Path log : logs)
                    {
                        final Path logName = log.getFileName();
                        final BasicFileAttributes logAttributes = attributes(logs, logName);
                        if (LOG_BUFFER.matcher(logName.toString()).matches() && logAttributes.isRegularFile())
                        {
                            contents.logBuffers.add(name.resolve(logName));
                        }
                        else
                        {
                            contents.foreign.add(describe(path, name.resolve(logName), logAttributes));
                        }
                    }
                }
                if (contents.foreign.size() == foreignBefore)
                {
                    contents.logDirectories.add(text);
                }
            }
            else
            {
                contents.foreign.add(describe(path, name, attributes));
            }
        }
        if (!contents.cnc && (contents.lossReport || !contents.logDirectories.isEmpty() || !contents.logBuffers.isEmpty()))
        {
            throw refusal(directory, "it holds no " + CncFileDescriptor.CNC_FILE + ", so nothing proves it a media driver's "
                + "directory or tells whether its driver is alive");
        }
        return contents;
    }

    private static void refuseIfLive(final String directory, final SecureDirectoryStream<Path> driverFiles,
        final long driverTimeoutMs) throws IOException
    {
        final StringBuilder heartbeat = new StringBuilder();
        final boolean live;
        try (SeekableByteChannel channel = driverFiles.newByteChannel(Path.of(CncFileDescriptor.CNC_FILE),
            Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)))
        {
            final FileChannel file = (FileChannel)channel;
            final MappedByteBuffer cnc = file.map(FileChannel.MapMode.READ_ONLY, 0, file.size());
            try
            {
                live = CommonContext.isDriverActive(driverTimeoutMs, line -> heartbeat.append(line), cnc);
            }
            catch (final AeronException e)
            {
                throw refusal(directory, "its " + CncFileDescriptor.CNC_FILE + " cannot tell whether its driver is alive ("
                    + e.getMessage() + "); if no media driver uses it, remove it by hand");
            }
            finally
            {
                BufferUtil.free(cnc);
            }
        }
        if (live)
        {
            final Matcher ageMs = HEARTBEAT_AGE.matcher(heartbeat);
            throw refusal(directory, "a live media driver uses it (its heartbeat is "
                + (ageMs.find() ? ageMs.group(1) + " ms" : "less than " + driverTimeoutMs + " ms") + " old, within the driver timeout of "
                + driverTimeoutMs + " ms): another nectl run or media driver is running "
                + "there; stop it, or give this service a directory of its own (aeron.dir). A driver that was killed counts "
                + "as live until its heartbeat is older than the driver timeout");
        }
    }

    private static void delete(final SecureDirectoryStream<Path> driverFiles, final Contents contents) throws IOException
    {
        for (final Path logBuffer : contents.logBuffers)
        {
            try (SecureDirectoryStream<Path> logs = driverFiles.newDirectoryStream(logBuffer.getParent(), LinkOption.NOFOLLOW_LINKS))
            {
                logs.deleteFile(logBuffer.getFileName());
            }
        }
        for (final String logDirectory : contents.logDirectories)
        {
            driverFiles.deleteDirectory(Path.of(logDirectory));
        }
        if (contents.lossReport)
        {
            driverFiles.deleteFile(Path.of(LossReportUtil.LOSS_REPORT_FILE_NAME));
        }
        // The CnC file last: while it is there, what is left stays recognisable as a driver's directory.
        if (contents.cnc)
        {
            driverFiles.deleteFile(Path.of(CncFileDescriptor.CNC_FILE));
        }
    }

    private static BasicFileAttributes attributes(final SecureDirectoryStream<Path> directory, final Path name) throws IOException
    {
        return directory.getFileAttributeView(name, BasicFileAttributeView.class, LinkOption.NOFOLLOW_LINKS).readAttributes();
    }

    /** @return the first {@value #ENTRIES_LISTED} entries, and how many more (a typo such as /etc would list hundreds). */
    private static String listed(final List<String> entries)
    {
        final int more = entries.size() - ENTRIES_LISTED;
        return more > 0 ? String.join(", ", entries.subList(0, ENTRIES_LISTED)) + " and " + more + " more" : String.join(", ", entries);
    }

    private static String describe(final Path directory, final Path entry, final BasicFileAttributes attributes)
    {
        return "'" + entry + "' (" + kind(attributes)
            + (attributes.isSymbolicLink() ? " to " + linkTarget(directory.resolve(entry)) : "") + ")";
    }

    private static String kind(final BasicFileAttributes attributes)
    {
        if (attributes.isSymbolicLink())
        {
            return "a symbolic link";
        }
        return attributes.isDirectory() ? "a directory" : attributes.isRegularFile() ? "a file" : "a special file";
    }

    private static String linkTarget(final Path link)
    {
        try
        {
            return Files.readSymbolicLink(link).toString();
        }
        catch (final IOException e)
        {
            return "an unreadable target";
        }
    }

    private static DriverDirectoryException refusal(final String directory, final String reason)
    {
        return new DriverDirectoryException("media driver directory " + directory + " refused: " + reason
            + "; nothing was deleted");
    }
}
