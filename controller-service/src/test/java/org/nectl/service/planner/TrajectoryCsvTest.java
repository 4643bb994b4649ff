package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
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
