package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/** {@code nectl dynamics} on a floating-base description: base fields in and out, and bad base input. */
class FloatingBaseDynamicsCommandTest
{
    private static final Path QUADRUPED = Path.of("..", "config", "robots", "quadruped-12.urdf");
    private static final String STATE = "\"q\":[0.1,0.7,-1.4,-0.1,0.7,-1.4,0.1,0.9,-1.5,-0.1,0.9,-1.5],"
        + "\"qd\":[0.5,-1,2,0,1,-2,0.3,0.2,-0.4,1,0,0],"
        + "\"base_pose\":[0.1,0.2,0.45,0.9579084246314463,0.19920418391917982,0.2005384355219582,0.05013460888048955],"
        + "\"base_twist\":[0.3,-0.2,0.1,0.5,-0.4,0.8]";

    @TempDir
    Path temporary;

    @Test
    void inverseThenDirectDynamicsGiveBackTheJointAndBaseAccelerations() throws Exception
    {
        final RobotModel model = RobotDescriptions.load(QUADRUPED);
        final FloatingBaseDynamicsEvaluator evaluator = evaluator(model);
        final ObjectMapper mapper = new ObjectMapper();
        final String qdd = "[1,-2,3,0.5,0,-1,2,2,-2,0,1,-3]";
        final JsonNode inverse = mapper.readTree(evaluator.evaluate("{" + STATE + ",\"qdd\":" + qdd + "}"));
        assertEquals(12, inverse.get("tau").size(), inverse.toString());
        assertEquals(6, inverse.get("base_acceleration").size(), inverse.toString());
        final JsonNode direct = mapper.readTree(evaluator.evaluate("{" + STATE + ",\"tau\":" + inverse.get("tau") + "}"));
        final JsonNode expected = mapper.readTree(qdd);
        for (int k = 0; k < 12; k++)
        {
            assertEquals(expected.get(k).asDouble(), direct.get("qdd").get(k).asDouble(), 1e-9, direct.toString());
        }
        for (int k = 0; k < 6; k++)
        {
            assertEquals(inverse.get("base_acceleration").get(k).asDouble(),
                direct.get("base_acceleration").get(k).asDouble(), 1e-9, direct.toString());
        }
        final JsonNode prescribed = mapper.readTree(evaluator.evaluate("{" + STATE + ",\"qdd\":" + qdd
            + ",\"base_acceleration\":" + inverse.get("base_acceleration") + "}"));
        for (int k = 0; k < 6; k++)
        {
            assertEquals(0.0, prescribed.get("base_wrench").get(k).asDouble(), 1e-9, prescribed.toString());
        }
    }

    @Test
    void badBaseFieldsOnALineAreReportedAndProcessingGoesOn() throws Exception
    {
        final FloatingBaseDynamicsEvaluator evaluator = evaluator(RobotDescriptions.load(QUADRUPED));
        final String zeros = "[0,0,0,0,0,0,0,0,0,0,0,0]";
        final String state = "\"q\":" + zeros + ",\"qd\":" + zeros + ",\"qdd\":" + zeros;
        final StringWriter text = new StringWriter();
        final PrintWriter out = new PrintWriter(text);
        final boolean allGood = evaluator.evaluateLines(new BufferedReader(new StringReader(
            "{" + state + ",\"base_pose\":[0,0,0,1,0,0,0.1]}\n"
                + "{" + state + ",\"base_twist\":[0,0,1e999,0,0,0]}\n"
                + "{" + state + ",\"tau\":" + zeros + "}\n"
                + "{" + state + "}\n")), out);
        out.flush();
        final String[] lines = text.toString().split("\n");
        assertEquals(false, allGood);
        assertTrue(lines[0].startsWith("{\"line\":1,\"error\":\"base_pose: the quaternion (w, x, y, z) = (1.0, 0.0, 0.0, 0.1)"
            + " has norm 1.004987562112089; expected a unit quaternion (norm within 1.0E-5 of 1)"), lines[0]);
        assertTrue(lines[1].contains("field 'base_twist'[2] = \\\"Infinity\\\" is not finite"), lines[1]);
        assertTrue(lines[2].contains("give either qdd"), lines[2]);
        assertTrue(lines[3].startsWith("{\"tau\":["), lines[3]);
    }

    @Test
    void badBaseOptionsExitWithStatusTwoBeforeReadingInput()
    {
        final String model = QUADRUPED.toString();
        final CommandRun nonUnit = CommandRun.of("dynamics", "--model", model, "--base-pose", "0,0,0,0.5,0,0,0");
        assertEquals(2, nonUnit.status());
        assertTrue(nonUnit.err().startsWith("nectl dynamics: --base-pose: the quaternion (w, x, y, z) = (0.5, 0.0, 0.0, 0.0)"
            + " has norm 0.5; expected a unit quaternion"), nonUnit.err());
        final CommandRun nonFinite = CommandRun.of("dynamics", "--model", model, "--base-twist", "0,0,NaN,0,0,0");
        assertEquals(2, nonFinite.status());
        assertTrue(nonFinite.err().startsWith("nectl dynamics: --base-twist[2]: value NaN is not a finite number"),
            nonFinite.err());
        final CommandRun infinite = CommandRun.of("dynamics", "--model", model, "--base-acceleration", "0,0,0,0,Infinity,0");
        assertEquals(2, infinite.status());
        assertTrue(infinite.err().contains("--base-acceleration[4]: value Infinity is not a finite number"), infinite.err());
        final CommandRun shortPose = CommandRun.of("dynamics", "--model", model, "--base-pose", "0,0,0,1");
        assertEquals(2, shortPose.status());
        assertTrue(shortPose.err().contains("--base-pose has 4 values; expected 7"), shortPose.err());
        final CommandRun fixed = CommandRun.of("dynamics", "--model", Path.of("..", "config", "robots", "panda.urdf")
            .toString(), "--base-twist", "0,0,0,0,0,1");
        assertEquals(2, fixed.status());
        assertTrue(fixed.err().contains("need a floating base"), fixed.err());
    }

    @Test
    void aFloatingJointBelowTheRootFailsModelCheckWithItsLine() throws Exception
    {
        final Path bad = temporary.resolve("loose.urdf");
        Files.writeString(bad, Files.readString(QUADRUPED).replace(
            "<joint name=\"fl_foot_fixed\" type=\"fixed\">", "<joint name=\"fl_foot_fixed\" type=\"floating\">"),
            StandardCharsets.UTF_8);
        final CommandRun check = CommandRun.of("model", "check", bad.toString());
        assertEquals(2, check.status());
        assertTrue(check.err().matches("(?s).*loose\\.urdf:\\d+:\\d+: /robot/joint\\[@name='fl_foot_fixed'\\]: floating joint"
            + " 'fl_foot_fixed' is below the root.*"), check.err());
    }

    private static FloatingBaseDynamicsEvaluator evaluator(final RobotModel model)
    {
        return new FloatingBaseDynamicsEvaluator(model, false, new double[] {0, 0, 0, 1, 0, 0, 0}, new double[6], null);
    }
}
