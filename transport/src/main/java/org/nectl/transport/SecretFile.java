package org.nectl.transport;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Reads a file holding secrets (a planner key file) only if nobody but its owner could have read
 * or changed it, with the rules OpenSSH applies to private keys and {@code authorized_keys}
 * (StrictModes): the file is a regular file owned by the user running nectl or by root, with no
 * permission for group or others (mode 0600 or 0400); its directory is writable by its owner only.
 * No directory above it may be writable by everyone unless sticky (as /tmp), so that no stranger
 * can swap a directory on its path; a group-writable directory above is accepted, as a clone made
 * under the common umask 002 (user private groups) has them. A symbolic link is followed and the
 * checks apply to the file and directories it leads to (a mounted secret is usually a link). On a
 * file system without POSIX permissions only the file type and size are checked. Not real-time safe.
 */
final class SecretFile
{
    /** Mode bits that let group or others read, write or execute. */
    private static final int GROUP_OR_OTHERS = 0077;
    private static final int WRITABLE_BY_GROUP_OR_OTHERS = 0022;
    private static final int WRITABLE_BY_OTHERS = 0002;
    private static final int STICKY = 01000;
    private static final long ROOT_UID = 0;

    private SecretFile()
    {
    }

    /**
     * @param file the file as the user named it.
     * @param what what the file is, for messages, e.g. "planner key file".
     * @param maxBytes largest accepted size; a larger file is refused without being read.
     * @return the file's text, ASCII (other bytes become U+FFFD).
     * @throws SetupException naming the file and the rule broken (never its contents).
     */
    static String readAscii(final Path file, final String what, final int maxBytes)
    {
        final String name = what + " " + file;
        try
        {
            final Path real = file.toRealPath();
            checkAccess(real, name);
            try (InputStream in = Files.newInputStream(real, LinkOption.NOFOLLOW_LINKS))
            {
                final byte[] bytes = in.readNBytes(maxBytes + 1);
                if (bytes.length > maxBytes)
                {
                    throw new SetupException(name + ": larger than " + maxBytes + " bytes; not a " + what);
                }
                return new String(bytes, StandardCharsets.US_ASCII);
            }
        }
        catch (final IOException e)
        {
            throw new SetupException(name + ": " + describe(e), e);
        }
    }

    private static void checkAccess(final Path real, final String name) throws IOException
    {
        if (!Files.isRegularFile(real))
        {
            throw new SetupException(name + ": not a regular file" + (Files.isDirectory(real) ? " (a directory)" : ""));
        }
        if (!Files.getFileStore(real).supportsFileAttributeView("unix"))
        {
            return;
        }
        checkOwner(real, name);
        if ((mode(real) & GROUP_OR_OTHERS) != 0)
        {
            throw new SetupException(name + ": mode " + modeText(real) + " lets group or others read or change it;"
                + " a key file must be accessible by its owner only (chmod 600 " + real + ")");
        }
        final Path directory = real.getParent();
        if ((mode(directory) & WRITABLE_BY_GROUP_OR_OTHERS) != 0)
        {
            throw new SetupException(name + ": its directory " + directory + " has mode " + modeText(directory)
                + ", writable by group or others, who could replace the file; keep it in a directory only its owner can write"
                + " (chmod go-w " + directory + ")");
        }
        for (Path above = directory.getParent(); above != null; above = above.getParent())
        {
            final int mode = mode(above);
            if ((mode & WRITABLE_BY_OTHERS) != 0 && (mode & STICKY) == 0)
            {
                throw new SetupException(name + ": directory " + above + " on its path has mode " + modeText(above)
                    + ", writable by anyone and not sticky: anyone could swap the directories below it");
            }
        }
    }

    /** Owned by the user running nectl or by root, as OpenSSH requires. */
    private static void checkOwner(final Path real, final String name) throws IOException
    {
        final Path self = Path.of("/proc/self");
        if (!Files.exists(self))
        {
            return;
        }
        final long owner = ((Number)Files.getAttribute(real, "unix:uid")).longValue();
        final long user = ((Number)Files.getAttribute(self, "unix:uid")).longValue();
        if (owner != user && owner != ROOT_UID)
        {
            throw new SetupException(name + ": owned by uid " + owner + ", not by the user running nectl (uid " + user + ") or root");
        }
    }

    private static int mode(final Path path) throws IOException
    {
        return ((Number)Files.getAttribute(path, "unix:mode")).intValue() & 07777;
    }

    private static String modeText(final Path path) throws IOException
    {
        return String.format(Locale.ROOT, "%04o", mode(path));
    }

    /** The I/O failure in words: "not found", "permission denied", else the system's reason. */
    private static String describe(final IOException e)
    {
        if (e instanceof NoSuchFileException)
        {
            return "not found";
        }
        if (e instanceof AccessDeniedException)
        {
            return "permission denied";
        }
        if (e instanceof FileSystemException fs && fs.getReason() != null)
        {
            return fs.getReason();
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }
}
