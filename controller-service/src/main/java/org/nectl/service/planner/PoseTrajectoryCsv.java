package org.nectl.service.planner;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a platform pose trajectory for {@code nectl plan --poses} (docs/PLANNING.md): the layout of
 * {@link TrajectoryCsv} with the header {@code t,x,y,z,roll,pitch,yaw}: per line the time from the
 * start of the segment in s (0 or more, strictly increasing), the platform origin in the base frame
 * in m and its attitude as roll, pitch, yaw in rad ({@code R = Rz(yaw) Ry(pitch) Rx(roll)}, as a
 * Gough-Stewart description's {@code home.rpy}).
 *
 * <p>Stateless. Not real-time safe.
 */
public final class PoseTrajectoryCsv
{
    /** The header's columns, in order. */
    public static final List<String> COLUMNS = List.of("t", "x", "y", "z", "roll", "pitch", "yaw");

    private PoseTrajectoryCsv()
    {
    }

    /**
     * Timed platform poses, with the file line of each for messages.
     *
     * @param file where they were read.
     * @param timesS waypoint times, s.
     * @param poses per waypoint {x, y, z, roll, pitch, yaw}, m and rad.
     * @param lines per waypoint its 1-based line in the file.
     */
    public record Poses(Path file, double[] timesS, double[][] poses, int[] lines)
    {
        /** @return number of waypoints. */
        public int count()
        {
            return timesS.length;
        }
    }

    /**
     * @param file the pose trajectory file.
     * @return its waypoints.
     * @throws TrajectoryFormatException naming file, line, column and value of the first error, or the
     *     file when it is missing, not a regular file, too large or not UTF-8.
     * @throws IOException if the file cannot be read.
     */
    public static Poses read(final Path file) throws IOException
    {
        final List<String> lines = TrajectoryCsv.lines(file);
        boolean headerSeen = false;
        final List<Double> times = new ArrayList<>();
        final List<double[]> poses = new ArrayList<>();
        final List<Integer> lineNumbers = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++)
        {
            final String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#"))
            {
                continue;
            }
            final String[] cells = line.split(",", -1);
            final String where = file + ":" + (i + 1);
            if (!headerSeen)
            {
                header(where, cells);
                headerSeen = true;
                continue;
            }
            if (cells.length != COLUMNS.size())
            {
                throw new TrajectoryFormatException(where + ": " + cells.length + " columns, the header has " + COLUMNS.size());
            }
            final double timeS = TrajectoryCsv.number(where, cells, 0, "t");
            if (timeS < 0.0 || (!times.isEmpty() && timeS <= times.get(times.size() - 1)))
            {
                throw new TrajectoryFormatException(where + ": column 1 (t): " + cells[0].strip()
                    + " s must be >= 0 and greater than the previous time" + (times.isEmpty() ? "" : " " + times.get(times.size() - 1)));
            }
            final double[] pose = new double[6];
            for (int k = 0; k < 6; k++)
            {
                pose[k] = TrajectoryCsv.number(where, cells, k + 1, COLUMNS.get(k + 1));
            }
            times.add(timeS);
            poses.add(pose);
            lineNumbers.add(i + 1);
        }
        if (poses.isEmpty())
        {
            throw new TrajectoryFormatException(file + ": no waypoints (expected a header " + String.join(",", COLUMNS)
                + " and at least one line)");
        }
        return new Poses(file, times.stream().mapToDouble(Double::doubleValue).toArray(), poses.toArray(new double[0][]),
            lineNumbers.stream().mapToInt(Integer::intValue).toArray());
    }

    private static void header(final String where, final String[] cells)
    {
        final List<String> names = new ArrayList<>();
        for (final String cell : cells)
        {
            names.add(cell.strip());
        }
        if (!names.equals(COLUMNS))
        {
            throw new TrajectoryFormatException(where + ": header must be " + String.join(",", COLUMNS) + ", got '"
                + String.join(",", cells) + "'");
        }
    }
}
