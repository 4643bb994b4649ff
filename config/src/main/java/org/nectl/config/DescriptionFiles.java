package org.nectl.config;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads a robot description or deployment file as UTF-8 text before any parser sees it, so that
 * what a parser cannot bound is refused first: a path that is not a regular file (a directory, a
 * device such as {@code /dev/zero}, a pipe), a file larger than the format's limit, and bytes that
 * are not UTF-8 (reported with the line, column and byte offset of the first bad byte). Not
 * real-time safe; thread safe (no shared state).
 */
public final class DescriptionFiles
{
    private DescriptionFiles()
    {
    }

    /**
     * @param path the file; messages name it as given.
     * @param maxBytes the largest size accepted, bytes.
     * @param what what the file should be, for the size message (e.g. {@code a URDF file}).
     * @return the file's text.
     * @throws DescriptionException if the file is missing, not a regular file, too large, unreadable
     *     or not UTF-8.
     */
    public static String readUtf8(final Path path, final long maxBytes, final String what)
    {
        final String file = path.toString();
        if (!Files.exists(path))
        {
            throw new DescriptionException(file, 0, 0, "", "no such file");
        }
        if (!Files.isRegularFile(path))
        {
            throw new DescriptionException(
                file, 0, 0, "", "not a regular file (" + kindOf(path) + "); expected " + what);
        }
        final byte[] bytes;
        try
        {
            final long size = Files.size(path);
            if (size > maxBytes)
            {
                throw tooLarge(file, size, maxBytes, what);
            }
            try (InputStream in = Files.newInputStream(path))
            {
                // One byte more than allowed tells a file that grew since its size was read.
                bytes = in.readNBytes((int)Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            }
        }
        catch (final IOException e)
        {
            throw new DescriptionException(file, 0, 0, "", "cannot read the file: " + e);
        }
        if (bytes.length > maxBytes)
        {
            throw tooLarge(file, bytes.length, maxBytes, what);
        }
        return decode(file, bytes);
    }

    /**
     * @param path an existing path that is not a regular file.
     * @return what it is instead, for messages: {@code a directory} or {@code a device, pipe or socket}.
     */
    public static String kindOf(final Path path)
    {
        return Files.isDirectory(path) ? "a directory" : "a device, pipe or socket";
    }

    private static DescriptionException tooLarge(
        final String file, final long size, final long maxBytes, final String what)
    {
        return new DescriptionException(file, 0, 0, "", "the file is " + size + " bytes, more than the limit of "
            + maxBytes + " bytes for " + what);
    }

    private static String decode(final String file, final byte[] bytes)
    {
        final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final ByteBuffer in = ByteBuffer.wrap(bytes);
        final CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (!result.isError())
        {
            result = decoder.flush(out);
        }
        if (result.isError())
        {
            throw invalidByte(file, bytes, Math.min(in.position(), bytes.length - 1));
        }
        return out.flip().toString();
    }

    /** Line and column count characters as an editor does: a column is one UTF-8 sequence. */
    private static DescriptionException invalidByte(final String file, final byte[] bytes, final int offset)
    {
        int line = 1;
        int column = 1;
        for (int i = 0; i < offset; i++)
        {
            final int b = bytes[i] & 0xFF;
            if (b == '\n')
            {
                line++;
                column = 1;
            }
            else if ((b & 0xC0) != 0x80)
            {
                column++;
            }
        }
        return new DescriptionException(file, line, column, "", String.format(
            "byte 0x%02X at byte offset %d is not valid UTF-8; the file must be UTF-8 encoded",
            bytes[offset] & 0xFF, offset));
    }
}
