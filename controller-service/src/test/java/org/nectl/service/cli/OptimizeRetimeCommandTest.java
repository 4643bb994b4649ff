package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.TrajectoryCsv;

/** {@code nectl optimize --retime}: the Panda through five waypoints, and refused or failed requests. */
class OptimizeRetimeCommandTest
{
    private static final String PANDA = Path.of("..", "config", "robots", "panda.yaml").toString();

    /** The Panda through five waypoints; times are ignored by --retime. */
    static final String PANDA_PATH = "t,q1,q2,q3,q4,q5,q6,q7\n"
        + "0,0.0,-0.785,0.0,-2.356,0.0,1.571,0.785\n"
        + "1,0.5,-0.3,0.3,-2.0,0.3,1.9,0.5\n"
        + "2,1.0,0.0,0.0,-1.5,0.0,1.5,1.0\n"
        + "3,0.6,0.3,-0.4,-1.2,-0.4,1.2,0.3\n"
        + "4,0.0,-0.2,0.0,-1.8,0.0,1.6,0.0\n";

    @TempDir
    Path directory;

    @Test
    void retimesThePathIntoTheCsvThatPlanReadsAndReportsTheCostOfTheTorqueRateLimit() throws Exception
    {
        final Path path = Files.writeString(directory.resolve("path.csv"), PANDA_PATH);
        final Path csv = directory.resolve("fast.csv");
        final Path report = directory.resolve("fast.json");
        final CommandRun run = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--torque-rate-limits",
            "-o", csv.toString(), "--report", report.toString());
        assertEquals(0, run.status(), run.err());
        final JointTrajectory read = TrajectoryCsv.read(csv);
        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        final double duration = json.get("durationS").doubleValue();
        assertEquals(duration, read.durationS(), 1e-6);
        assertEquals(0.785, read.q(0, 6), 1e-9);
        assertEquals(0.0, read.q(read.waypointCount() - 1, 6), 1e-9);
        assertEquals(-1.8, read.q(read.waypointCount() - 1, 3), 1e-9);
        final double free = json.get("durationWithoutTorqueRateLimitS").doubleValue();
        final double optimum = json.get("durationSecondOrderOptimumS").doubleValue();
        assertTrue(duration >= free && free >= optimum && optimum > 0.5,
            duration + " s with, " + free + " s without the torque-rate limit, " + optimum + " s second-order optimum");
        assertEquals(duration - free, json.get("torqueRateLimitCostS").doubleValue(), 1e-9);
        // a waypoint every 0.25 ms, and one at each zero crossing of a joint's velocity or acceleration
        assertTrue(read.waypointCount() > duration * 4000.0 && read.waypointCount() < duration * 4000.0 + 100.0,
            read.waypointCount() + " waypoints over " + duration + " s");
        final JsonNode dense = json.get("denseCheck");
        // the limits that bind with the torque-rate limit on: tau-dot, and the velocity near it
        assertTrue(dense.get("torqueRateRatio").doubleValue() <= 1.0 && dense.get("torqueRateRatio").doubleValue() > 0.98,
            dense.toString());
        assertTrue(dense.get("velocityRatio").doubleValue() <= 1.0 && dense.get("velocityRatio").doubleValue() > 0.98,
            dense.toString());
        assertTrue(dense.get("torqueRateRatioWithoutTheLimit").doubleValue() > 1.0, dense.toString());
        assertTrue(dense.get("effortRatio").doubleValue() <= 1.0, dense.toString());
        assertEquals(List.of("fast.csv", "fast.json", "path.csv"), names());
    }

    @Test
    void badPathsExitTwoAndANonSettlingIterationExitsOneWithoutWritingAnything() throws Exception
    {
        final Path csv = directory.resolve("fast.csv");
        final Path repeated = Files.writeString(directory.resolve("repeated.csv"),
            "t,q1,q2,q3,q4,q5,q6,q7\n0,0,0,0,-2,0,1.5,0\n1,0,0,0,-2,0,1.5,0\n");
        final CommandRun same = CommandRun.of("optimize", "--model", PANDA, "--retime", repeated.toString(), "-o", csv.toString());
        assertEquals(2, same.status(), same.err());
        assertTrue(same.err().contains("repeated.csv: waypoints 1 and 2 coincide"), same.err());

        final Path narrow = Files.writeString(directory.resolve("narrow.csv"), "t,q1,q2\n0,0,0\n1,1,1\n");
        final CommandRun columns = CommandRun.of("optimize", "--model", PANDA, "--retime", narrow.toString(), "-o", csv.toString());
        assertEquals(2, columns.status(), columns.err());
        assertTrue(columns.err().contains("narrow.csv: 2 coordinates, panda has 7"), columns.err());

        final Path path = Files.writeString(directory.resolve("path.csv"), PANDA_PATH);
        final CommandRun heavy = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--gravity", "0,0,-200",
            "-o", csv.toString());
        assertEquals(2, heavy.status(), heavy.err());
        assertTrue(heavy.err().contains("the limits cannot be met along the path"), heavy.err());

        final CommandRun stuck = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--torque-rate-limits",
            "--max-iterations", "2", "-o", csv.toString());
        assertEquals(1, stuck.status(), stuck.err());
        assertTrue(stuck.err().contains("did not settle in 2 passes"), stuck.err());

        final CommandRun mixed = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--start", "0,0,0,0,0,0,0",
            "-o", csv.toString());
        assertEquals(2, mixed.status(), mixed.err());

        final CommandRun share = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--limit-share", "1.5",
            "-o", csv.toString());
        assertEquals(2, share.status(), share.err());
        assertTrue(share.err().contains("--limit-share must be in (0, 1], got 1.5"), share.err());

        final CommandRun both = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--for-service",
            "--clock-reserve", "1", "-o", csv.toString());
        assertEquals(2, both.status(), both.err());
        assertTrue(both.err().contains("give either it or --limit-share/--clock-reserve"), both.err());

        final CommandRun dense = CommandRun.of("optimize", "--model", PANDA, "--retime", path.toString(), "--waypoint-ms", "0.01",
            "-o", csv.toString());
        assertEquals(2, dense.status(), dense.err());
        assertTrue(dense.err().contains("exceed the 65535 of one trajectory segment"), dense.err());
        assertEquals(List.of("narrow.csv", "path.csv", "repeated.csv"), names());
    }

    private List<String> names() throws Exception
    {
        return CommandRun.names(directory);
    }
}
