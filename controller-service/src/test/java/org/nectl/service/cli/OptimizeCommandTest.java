package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OptimizeCommandTest
{
    private static final String RR = Path.of("..", "config", "robots", "two-link-rr.yaml").toString();

    @TempDir
    Path directory;

    @Test
    void writesTheTrajectoryCsvThatPlanReadsAndAReport() throws Exception
    {
        final Path csv = directory.resolve("move.csv");
        final Path report = directory.resolve("move.json");
        final CommandRun run = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "-o", csv.toString(), "--report", report.toString());
        assertEquals(0, run.status(), run.err());
        final List<String> lines = Files.readAllLines(csv);
        assertEquals("t,q1,q2", lines.get(1));
        assertEquals("0.000000,0.000000000,-2.000000000", lines.get(2));
        final JsonNode json = new ObjectMapper().readTree(report.toFile());
        final double duration = json.get("durationS").doubleValue();
        final String[] last = lines.get(lines.size() - 1).split(",");
        assertEquals(duration, Double.parseDouble(last[0]), 1e-6);
        assertEquals(1.0, Double.parseDouble(last[1]), 1e-9);
        assertEquals(-1.0, Double.parseDouble(last[2]), 1e-9);
        // 8 control points: a coarser spline than the thesis's optimum (0.392 s), never faster than it
        assertTrue(duration > 0.39 && duration < 0.41, "T = " + duration);
        assertTrue(json.get("denseCheck").get("effortRatio").doubleValue() <= 1.01, json.toString());
        assertTrue(json.get("activeConstraints").size() >= 5, json.toString());
        final JsonNode profiles = json.get("denseProfiles");
        assertEquals(json.get("denseCheck").get("gridPoints").intValue(), profiles.get("timeS").size());
        // one per body: the two links and the fixed tip frame
        assertEquals(3, profiles.get("reactionForceNormN").get(0).size());
        assertEquals(List.of("move.csv", "move.json"), names());
    }

    @Test
    void badRequestsExitTwoAndNonConvergenceExitsOneWithoutWritingAnything() throws Exception
    {
        final Path csv = directory.resolve("move.csv");
        final CommandRun same = CommandRun.of("optimize", "--model", RR, "--start", "1,-1", "--end", "1,-1", "-o", csv.toString());
        assertEquals(2, same.status());
        assertTrue(same.err().contains("start equals end"), same.err());

        final CommandRun count = CommandRun.of("optimize", "--model", RR, "--start", "0,-2,3", "--end", "1,-1", "-o", csv.toString());
        assertEquals(2, count.status());
        assertTrue(count.err().contains("start and end need 2 values"), count.err());

        final CommandRun gravity = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--gravity", "50,50,0",
            "-o", csv.toString());
        assertEquals(2, gravity.status(), gravity.err());
        assertTrue(gravity.err().contains("infeasible"), gravity.err());

        final CommandRun stuck = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "--max-iterations", "2", "-o", csv.toString());
        assertEquals(1, stuck.status(), stuck.err());
        assertTrue(stuck.err().contains("did not converge in 2 iterations"), stuck.err());
        assertEquals(List.of(), names());
    }

    @Test
    void anExistingOutputIsKeptUnlessForced() throws Exception
    {
        final Path csv = directory.resolve("move.csv");
        Files.writeString(csv, "mine\n");
        final CommandRun refused = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "-o", csv.toString());
        assertEquals(2, refused.status());
        assertTrue(refused.err().contains("exists (use --force to replace it)"), refused.err());
        assertEquals("mine\n", Files.readString(csv));
        final CommandRun forced = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "-o", csv.toString(), "--force");
        assertEquals(0, forced.status(), forced.err());
        assertFalse(Files.readString(csv).startsWith("mine"));
        assertEquals(List.of("move.csv"), names());
    }

    @Test
    void aLinkOrADirectoryAtTheOutputIsRefusedEvenWhenForcedAndNothingIsWrittenThroughIt() throws Exception
    {
        final Path foreign = Files.createDirectory(directory.resolve("elsewhere")).resolve("keep.csv");
        Files.writeString(foreign, "not nectl's\n");
        final Path link = Files.createSymbolicLink(directory.resolve("move.csv"), foreign);
        final CommandRun linked = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "-o", link.toString(), "--force");
        assertEquals(2, linked.status(), linked.err());
        assertTrue(linked.err().contains("is a symbolic link: refused"), linked.err());
        assertTrue(Files.isSymbolicLink(link));
        assertEquals("not nectl's\n", Files.readString(foreign));

        final Path folder = Files.createDirectory(directory.resolve("report.json"));
        final CommandRun toFolder = CommandRun.of("optimize", "--model", RR, "--start", "0,-2", "--end", "1,-1", "--control-points", "8",
            "-o", directory.resolve("other.csv").toString(), "--report", folder.toString(), "--force");
        assertEquals(2, toFolder.status(), toFolder.err());
        assertTrue(toFolder.err().contains("is not a regular file: refused"), toFolder.err());
        assertTrue(Files.isDirectory(folder));
        assertEquals(List.of("elsewhere", "move.csv", "report.json"), names());
    }

    private List<String> names() throws Exception
    {
        return CommandRun.names(directory);
    }
}
