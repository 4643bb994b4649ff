package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The trajectory file format of {@code nectl plan}: what it accepts and the exact error for each mistake. */
final class TrajectoryCsvTest
{
    @TempDir
    Path temp;

    @Test
    void readsCommentsHeaderAndWaypoints() throws IOException
    {
        final JointTrajectory trajectory = read("# two joints\n\nt,q1,q2\n0,0.5,-0.5\n  1.5 , 0.75 ,-1e-1\n2,0.5,-0.5\n");
        assertEquals(3, trajectory.waypointCount());
        assertEquals(2, trajectory.jointCount());
        assertEquals(1.5, trajectory.timeS(1), 0.0);
        assertEquals(0.75, trajectory.q(1, 0), 0.0);
        assertEquals(-0.1, trajectory.q(1, 1), 0.0);
        assertEquals(0.0, trajectory.qd(1, 0), 0.0, "joint 1 turns at waypoint 1");
    }

    @Test
    void reportsFileLineColumnAndValue()
    {
        assertError("t,q1,q3", ":1: column 3 of the header must be q2, got 'q3'");
        assertError("time,q1", ":1: header must be t,q1,...,qn, got 'time,q1'");
        assertError("t,q1\n0,1,2", ":2: 3 columns, the header has 2");
        assertError("t,q1\n0,1\n0,2", ":3: column 1 (t): 0 s must be >= 0 and greater than the previous time 0.0");
        assertError("t,q1\n-1,1", ":2: column 1 (t): -1 s must be >= 0 and greater than the previous time");
        assertError("t,q1\n0,NaN", ":2: column 2 (q1): 'NaN' is not finite");
        assertError("t,q1\n0,", ":2: column 2 (q1): '' is not a number");
        assertError("# nothing\nt,q1\n", ": no waypoints (expected a header t,q1,...,qn and at least one line)");
    }

    @Test
    void refusesWhatIsNotAReadableTextFileWithItsLine() throws IOException
    {
        final Path missing = temp.resolve("missing.csv");
        assertEquals(missing + ": not found", assertThrows(TrajectoryFormatException.class, () -> TrajectoryCsv.read(missing)).getMessage());
        assertEquals(temp + ": not a regular file (a directory)",
            assertThrows(TrajectoryFormatException.class, () -> TrajectoryCsv.read(temp)).getMessage());
        assertEquals("/dev/zero: not a regular file",
            assertThrows(TrajectoryFormatException.class, () -> TrajectoryCsv.read(Path.of("/dev/zero"))).getMessage());
        final Path latin1 = temp.resolve("latin1.csv");
        Files.write(latin1, "t,q1\n0,0\n# caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1));
        assertEquals(latin1 + ":3: not UTF-8 text",
            assertThrows(TrajectoryFormatException.class, () -> TrajectoryCsv.read(latin1)).getMessage());
        final Path huge = temp.resolve("huge.csv");
        try (RandomAccessFile sparse = new RandomAccessFile(huge.toFile(), "rw"))
        {
            sparse.setLength(TrajectoryCsv.MAX_FILE_BYTES + 1);
        }
        assertEquals(huge + ": 67108865 bytes, more than the 67108864 a trajectory file may have",
            assertThrows(TrajectoryFormatException.class, () -> TrajectoryCsv.read(huge)).getMessage());
    }

    private void assertError(final String content, final String expectedAfterFileName)
    {
        final Path file = temp.resolve("bad.csv");
        final TrajectoryFormatException e = assertThrows(TrajectoryFormatException.class, () ->
        {
            Files.writeString(file, content);
            TrajectoryCsv.read(file);
        });
        assertEquals(file + expectedAfterFileName, e.getMessage());
    }

    private JointTrajectory read(final String content) throws IOException
    {
        final Path file = temp.resolve("t.csv");
        Files.writeString(file, content);
        return TrajectoryCsv.read(file);
    }
}
