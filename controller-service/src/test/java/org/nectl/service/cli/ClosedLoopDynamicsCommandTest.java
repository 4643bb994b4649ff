package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.ClosedLoopDescriptions;
import org.nectl.core.closedloop.ClosedLoopModel;

import picocli.CommandLine;

/** {@code nectl dynamics} on closed-loop descriptions: active coordinates in and out. */
class ClosedLoopDynamicsCommandTest
{
    private static final Path ROBOTS = Path.of("..", "config", "robots");

    @TempDir
    Path temporary;

    @Test
    void palletiserTorquesGiveBackTheirAccelerationsAndTheTreeStateClosesTheLoops() throws Exception
    {
        final ClosedLoopModel model = ClosedLoopDescriptions.load(ROBOTS.resolve("palletiser.yaml"));
        final ClosedLoopDynamicsEvaluator evaluator = new ClosedLoopDynamicsEvaluator(model, false);
        final ObjectMapper mapper = new ObjectMapper();
        final String state = "\"q\":[0.3,1.7,3.0,0.5],\"qd\":[0.2,-0.4,0.3,1.0]";
        final JsonNode inverse = mapper.readTree(evaluator.evaluate("{" + state + ",\"qdd\":[1.0,-2.0,0.5,3.0]}"));
        assertEquals(4, inverse.get("tau").size());
        assertEquals(10, inverse.get("q_tree").size());
        assertTrue(inverse.get("closure_residual").asDouble() <= 1e-12, inverse.toString());
        final JsonNode forward = mapper.readTree(evaluator.evaluate("{" + state + ",\"tau\":" + inverse.get("tau") + "}"));
        final double[] expected = {1.0, -2.0, 0.5, 3.0};
        for (int a = 0; a < 4; a++)
        {
            assertEquals(expected[a], forward.get("qdd").get(a).asDouble(), 1e-9, forward.toString());
        }
    }

    @Test
    void badLinesAreReportedAndProcessingGoesOn() throws Exception
    {
        final ClosedLoopModel model = ClosedLoopDescriptions.load(ROBOTS.resolve("four-bar.yaml"));
        final StringWriter text = new StringWriter();
        final PrintWriter out = new PrintWriter(text);
        final boolean allGood = new ClosedLoopDynamicsEvaluator(model, false).evaluateLines(new BufferedReader(
            new StringReader("{\"q\":[0.1,0.2],\"qd\":[0],\"qdd\":[0]}\n{\"q\":[1],\"qd\":[0],\"qdd\":[0],\"qddd\":[0]}\n"
                + "{\"q\":[1],\"qd\":[2],\"qdd\":[3]}\n")), out);
        out.flush();
        final String[] lines = text.toString().split("\n");
        assertEquals(false, allGood);
        assertEquals("{\"line\":1,\"error\":\"field 'q' has 2 elements; the model needs 1\"}", lines[0]);
        assertTrue(lines[1].contains("unknown field 'qddd' (known: for a closed-loop robot q, qd, qdd, tau, gravity)"),
            lines[1]);
        assertTrue(lines[2].startsWith("{\"tau\":["), lines[2]);
    }

    @Test
    void aClosedLoopDescriptionThatDoesNotCloseExitsWithStatusTwoBeforeReadingInput() throws Exception
    {
        final Path bad = temporary.resolve("loop.yaml");
        Files.writeString(bad, Files.readString(ROBOTS.resolve("four-bar.yaml"))
            .replace("rocker: 1.7957749733962085}", "rocker: 1.79}"), StandardCharsets.UTF_8);
        assertEquals(2, new CommandLine(new NectlCommand()).execute("dynamics", "--model", bad.toString()));
        assertThrows(DynamicsEvaluator.RequestException.class, () -> new ClosedLoopDynamicsEvaluator(
            ClosedLoopDescriptions.load(ROBOTS.resolve("four-bar.yaml")), false).evaluate("[1]"));
    }
}
