package org.nectl.service.planner;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a trajectory file for {@code nectl plan} (docs/PLANNING.md): comma-separated values, one
 * waypoint per line; lines starting with {@code #} and blank lines are ignored; the first other line
 * is the header {@code t,q1,...,qn}; every following line holds the time from the start of the
 * segment in s (0 or more, strictly increasing) and one position per joint, rad or m. Velocities
 * and accelerations follow from the positions as in {@link JointTrajectory#fromPositions}.
 *
 * <p>Stateless. Not real-time safe.
 */
public final class TrajectoryCsv
{
    /**
     * Largest trajectory file, bytes: 65 535 waypoints (the most one segment's chunk count can carry at
     * one waypoint per chunk) of 32 joints at 32 characters a number need less.
     */
    public static final long MAX_FILE_BYTES = 64L << 20;

    private TrajectoryCsv()
    {
    }

    /**
     * The file's lines, decoded as UTF-8 one at a time so that an invalid byte is reported with its line;
     * also read by {@link PoseTrajectoryCsv}.
     */
    static List<String> lines(final Path file) throws IOException
    {
        if (!Files.exists(file))
        {
            throw new TrajectoryFormatException(file + ": not found");
        }
        if (!Files.isRegularFile(file))
        {
            throw new TrajectoryFormatException(file + ": not a regular file" + (Files.isDirectory(file) ? " (a directory)" : ""));
        }
        final long size = Files.size(file);
        if (size > MAX_FILE_BYTES)
        {
            throw new TrajectoryFormatException(file + ": " + size + " bytes, more than the " + MAX_FILE_BYTES
                + " a trajectory file may have");
        }
        final byte[] bytes = Files.readAllBytes(file);
        final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
        final List<String> lines = new ArrayList<>();
        int start = 0;
        while (start < bytes.length)
        {
            int end = start;
            while (end < bytes.length && bytes[end] != '\n')
            {
                end++;
            }
            try
            {
                lines.add(utf8.decode(ByteBuffer.wrap(bytes, start, end - start)).toString());
            }
            catch (final CharacterCodingException e)
            {
                throw new TrajectoryFormatException(file + ":" + (lines.size() + 1) + ": not UTF-8 text");
            }
            start = end + 1;
        }
        return lines;
    }

    /**
     * @param file the trajectory file.
     * @return its waypoints.
     * @throws TrajectoryFormatException naming file, line, column and value of the first error, or
     *     the file when it is missing, not a regular file, larger than {@value #MAX_FILE_BYTES} bytes
     *     (checked before reading) or not UTF-8 (with the line).
     * @throws IOException if the file cannot be read.
     */
    public static JointTrajectory read(final Path file) throws IOException
    {
        final List<String> lines = lines(file);
        int jointCount = -1;
        final List<Double> times = new ArrayList<>();
        final List<double[]> positions = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] cells = line.split(",", -1);
            final String where = file + ":" + (i + 1);
            if (jointCount < 0)
            {
                jointCount = header(where, cells);
                continue;
            }
            if (cells.length != jointCount + 1)
            {
                throw new TrajectoryFormatException(where + ": " + cells.length + " columns, the header has " + (jointCount + 1));
            }
            final double timeS = number(where, cells, 0);
            if (timeS < 0.0 || (!times.isEmpty() && timeS <= times.get(times.size() - 1)))
            {
                throw new TrajectoryFormatException(where + ": column 1 (t): " + cells[0].strip()
                    + " s must be >= 0 and greater than the previous time" + (times.isEmpty() ? "" : " " + times.get(times.size() - 1)));
            }
            final double[] q = new double[jointCount];
            for (int k = 0; k < jointCount; k++)
            {
                q[k] = number(where, cells, k + 1);
            }
            times.add(timeS);
            positions.add(q);
        }
        if (positions.isEmpty())
        {
            throw new TrajectoryFormatException(file + ": no waypoints (expected a header t,q1,...,qn and at least one line)");
        }
        final double[] timesS = new double[times.size()];
        for (int p = 0; p < timesS.length; p++)
        {
            timesS[p] = times.get(p);
        }
        return JointTrajectory.fromPositions(timesS, positions.toArray(new double[0][]));
    }

    private static int header(final String where, final String[] cells)
    {
        if (cells.length < 2 || !"t".equals(cells[0].strip()))
        {
            throw new TrajectoryFormatException(where + ": header must be t,q1,...,qn, got '" + String.join(",", cells) + "'");
        }
        for (int c = 1; c < cells.length; c++)
        {
            if (!("q" + c).equals(cells[c].strip()))
            {
                throw new TrajectoryFormatException(where + ": column " + (c + 1) + " of the header must be q" + c + ", got '"
                    + cells[c].strip() + "'");
            }
        }
        return cells.length - 1;
    }

    private static double number(final String where, final String[] cells, final int column)
    {
        return number(where, cells, column, column == 0 ? "t" : "q" + column);
    }

    /** The finite number in cells[column], named in the message as column (column + 1) (name). */
    static double number(final String where, final String[] cells, final int column, final String name)
    {
        final String cell = cells[column].strip();
        final double value;
        try
        {
            value = Double.parseDouble(cell);
        }
        catch (final NumberFormatException e)
        {
            throw new TrajectoryFormatException(where + ": column " + (column + 1) + " (" + name + "): '" + cell + "' is not a number");
        }
        if (!Double.isFinite(value))
        {
            throw new TrajectoryFormatException(where + ": column " + (column + 1) + " (" + name + "): '" + cell + "' is not finite");
        }
        return value;
    }
}
