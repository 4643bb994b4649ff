package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.parallel.GoughStewartModel;

/** {@code nectl model show} on closed-loop and Gough-Stewart descriptions. */
class ParallelModelShowTest
{
    private static final Path ROBOTS = Path.of("..", "config", "robots");
    private static final Path HEXAPOD = Path.of("..", "config", "parallel-robots", "hexapod.yaml");

    @TempDir
    Path temporary;

    @Test
    void fourBarShowsItsActiveAndPassiveJointsAndItsCutJoint() throws Exception
    {
        final JsonNode json = json(ROBOTS.resolve("four-bar.yaml"));
        assertEquals("closed-loop", json.get("kind").textValue());
        assertEquals(3, json.get("tree_dof").intValue());
        assertEquals("[\"crank\"]", json.get("active").toString());
        assertEquals("[\"coupler\",\"rocker\"]", json.get("passive").toString());
        assertEquals("active", json.get("joints").get(0).get("role").textValue());
        assertEquals("passive", json.get("joints").get(2).get("role").textValue());
        assertEquals(Math.PI / 3, json.get("joints").get(0).get("home").doubleValue(), 1e-12);
        assertEquals(10.0, json.get("joints").get(0).get("qd_max").doubleValue());
        assertTrue(json.get("joints").get(0).get("q_min").isNull(), "an unlimited position is null");
        final JsonNode cut = json.get("cut_joints").get(0);
        assertEquals("B", cut.get("name").textValue());
        assertEquals("revolute", cut.get("type").textValue());
        assertEquals("coupler", cut.get("frame_k_link").textValue());
        assertEquals("rocker", cut.get("frame_k_plus_b_link").textValue());
        assertEquals(5, json.get("closure_equations").get("candidate").intValue());
        assertEquals(2, json.get("closure_equations").get("independent").intValue());
        final String table = text(ROBOTS.resolve("palletiser.yaml"));
        assertTrue(table.contains("closed loop: 10 tree joints, 4 active (the degrees of freedom), 6 passive; 3 cut joints"), table);
    }

    @Test
    void hexapodShowsItsLegsWithTheirJointsPointsHomeLengthsAndLimits() throws Exception
    {
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(HEXAPOD);
        final double[] lengths = hexapod.legLengths(hexapod.homePosition(), hexapod.homeRotation());
        final JsonNode json = json(HEXAPOD);
        assertEquals("gough-stewart", json.get("kind").textValue());
        assertEquals(6, json.get("legs").size());
        for (int i = 0; i < 6; i++)
        {
            final JsonNode leg = json.get("legs").get(i);
            assertEquals("leg" + (i + 1) + "_actuator", leg.get("active").textValue());
            assertEquals("[\"leg" + (i + 1) + "_u1\",\"leg" + (i + 1) + "_u2\",\"spherical at B" + (i + 1) + "\"]",
                leg.get("passive").toString());
            assertEquals(lengths[i], leg.get("home_length").doubleValue(), 1e-15);
            assertEquals(hexapod.basePoints()[3 * i + 1], leg.get("base_point").get(1).doubleValue());
        }
        assertEquals(0.45, json.get("actuator").get("stroke_min").doubleValue());
        assertEquals(0.75, json.get("actuator").get("stroke_max").doubleValue());
        assertEquals(0.55, json.get("home").get("position").get(2).doubleValue());
        assertEquals(4.5, json.get("leg_mass").doubleValue(), 1e-12);
        final String table = text(HEXAPOD);
        assertTrue(table.contains("Gough-Stewart platform, 6 U-P-S legs, commanded in leg lengths"), table);
        assertTrue(table.contains("actuators: stroke [0.45, 0.75] m, speed 0.3 m/s, force 2000 N"), table);
    }

    @Test
    void anInvalidHexapodIsReportedWithItsLineAndStatusTwo() throws Exception
    {
        final Path file = temporary.resolve("hexapod.yaml");
        Files.writeString(file, Files.readString(HEXAPOD).replace("stroke: [0.45, 0.75]", "stroke: [0.45, 0.5]"));
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ParallelModelShow.show(file, false, new PrintStream(new ByteArrayOutputStream(), true,
            StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        final String message = err.toString(StandardCharsets.UTF_8);
        assertEquals(2, status, message);
        assertTrue(message.startsWith("nectl model show: " + file + ":"), message);
        assertTrue(message.contains("home: at home leg 1 is"), message);
        assertEquals(2, CommandRun.of("model", "show", file.toString()).status());
    }

    private static JsonNode json(final Path file) throws Exception
    {
        return new ObjectMapper().readTree(run(file, true));
    }

    private static String text(final Path file)
    {
        return run(file, false);
    }

    private static String run(final Path file, final boolean json)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final int status = ParallelModelShow.show(file, json, new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8);
    }
}
