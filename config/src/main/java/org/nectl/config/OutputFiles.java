package org.nectl.config;

import java.io.BufferedOutputStream;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Files nectl writes at a path a user gave (monitor CSVs, exported URDF): a new file is created,
 * an existing one is never replaced unless asked, and then only if it is a regular file; a symbolic
 * link is never followed (the link is refused, its target untouched), so a typo or a planted link
 * cannot truncate a file nectl did not create.
 *
 * <p>Not real-time safe; thread safe (no state).
 */
public final class OutputFiles
{
    private OutputFiles()
    {
    }

    /**
     * Opens {@code file} for writing UTF-8 text.
     *
     * @param file where to write.
     * @param replace false: the file must not exist (created atomically, {@code O_EXCL}); true: an
     *     existing regular file is truncated and rewritten, anything else refused.
     * @return a buffered writer; the caller closes it.
     * @throws FileAlreadyExistsException if the file exists and {@code replace} is false.
     * @throws FileSystemException if {@code replace} is true and the file is a symbolic link or not a
     *     regular file (the message says which).
     * @throws IOException if the file cannot be opened.
     */
    public static BufferedWriter newWriter(final Path file, final boolean replace) throws IOException
    {
        try
        {
            return new BufferedWriter(new OutputStreamWriter(Files.newOutputStream(file, options(file, replace)),
                StandardCharsets.UTF_8.newEncoder()));
        }
        catch (final FileAlreadyExistsException e)
        {
            throw exists(file);
        }
        catch (final NoSuchFileException | AccessDeniedException e)
        {
            throw withReason(file, e);
        }
    }

    /**
     * Opens {@code file} for writing bytes, under the rules of {@link #newWriter}.
     *
     * @param file where to write.
     * @param replace whether an existing regular file may be replaced.
     * @return a buffered stream; the caller closes it.
     * @throws IOException as {@link #newWriter}.
     */
    public static OutputStream newOutputStream(final Path file, final boolean replace) throws IOException
    {
        try
        {
            return new BufferedOutputStream(Files.newOutputStream(file, options(file, replace)), 1 << 16);
        }
        catch (final FileAlreadyExistsException e)
        {
            throw exists(file);
        }
        catch (final NoSuchFileException | AccessDeniedException e)
        {
            throw withReason(file, e);
        }
    }

    /**
     * Writes {@code text} as UTF-8 to {@code file}, under the rules of {@link #newWriter}.
     *
     * @param file where to write.
     * @param text the whole content.
     * @param replace whether an existing regular file may be replaced.
     * @throws IOException as {@link #newWriter}.
     */
    public static void writeString(final Path file, final String text, final boolean replace) throws IOException
    {
        try
        {
            Files.writeString(file, text, StandardCharsets.UTF_8, options(file, replace));
        }
        catch (final FileAlreadyExistsException e)
        {
            throw exists(file);
        }
        catch (final NoSuchFileException | AccessDeniedException e)
        {
            throw withReason(file, e);
        }
    }

    private static FileAlreadyExistsException exists(final Path file)
    {
        return new FileAlreadyExistsException(file.toString(), null, "exists; not replaced, nothing written");
    }

    /** The JDK's exceptions for these two name only the path: the message says why. */
    private static FileSystemException withReason(final Path file, final FileSystemException e)
    {
        final Path parent = file.toAbsolutePath().getParent();
        final String reason = e instanceof NoSuchFileException
            ? "its directory " + parent + " does not exist; nothing written"
            : "permission denied; nothing written";
        final FileSystemException described = e instanceof NoSuchFileException
            ? new NoSuchFileException(file.toString(), null, reason)
            : new AccessDeniedException(file.toString(), null, reason);
        described.initCause(e);
        return described;
    }

    private static OpenOption[] options(final Path file, final boolean replace) throws IOException
    {
        if (!replace)
        {
            return new OpenOption[] {StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE};
        }
        try
        {
            final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (attributes.isSymbolicLink())
            {
                throw new FileSystemException(file.toString(), null, "is a symbolic link; not followed, nothing written");
            }
            if (!attributes.isRegularFile())
            {
                throw new FileSystemException(file.toString(), null, "exists and is not a regular file; nothing written");
            }
        }
        catch (final NoSuchFileException absent)
        {
            // Created below.
        }
        // NOFOLLOW_LINKS: a link put in its place since the check is refused by the open itself (O_NOFOLLOW).
        return new OpenOption[] {StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE,
            LinkOption.NOFOLLOW_LINKS};
    }
}
