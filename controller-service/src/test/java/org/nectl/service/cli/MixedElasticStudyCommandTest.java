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

class MixedElasticStudyCommandTest
{
    @Test
    void jsonOutputHasThreeValuesPerMeasureAndMatchesTheStudyRun() throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream original = System.out;
        final int status;
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            status = NectlCommand.newCommandLine().execute("study", "mixed-elastic-3dof", "--payload", "--json",
                "--model", MixedElasticStudyTest.MODEL.toString());
        }
        finally
        {
            System.setOut(original);
        }
        assertEquals(0, status, bytes.toString(StandardCharsets.UTF_8));
        final JsonNode json = new ObjectMapper().readTree(bytes.toString(StandardCharsets.UTF_8));
        final double[] paperPayload = {0.0026903, 0.0061066, 0.052422};
        for (final String field : new String[] {"rms_rad", "max_abs_rad", "max_torque_rate"})
        {
            assertEquals(3, json.get(field).size(), field + " in " + json);
        }
        for (int k = 0; k < 3; k++)
        {
            assertTrue(json.get("rms_rad").get(k).asDouble() <= paperPayload[k], json.toString());
            assertTrue(json.get("max_abs_rad").get(k).asDouble() >= json.get("rms_rad").get(k).asDouble(), json.toString());
        }
    }

    @Test
    void theMotorReferenceAsPrintedIsSelectableAndAnUnknownFormOrALawItCannotRunExitsWithStatusTwo(
        @TempDir final Path dir) throws Exception
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream original = System.out;
        final int status;
        try (PrintStream capture = new PrintStream(bytes, true, StandardCharsets.UTF_8))
        {
            System.setOut(capture);
            status = NectlCommand.newCommandLine().execute("study", "mixed-elastic-3dof", "--json", "--motor-reference",
                "control-law", "--model", MixedElasticStudyTest.MODEL.toString());
        }
        finally
        {
            System.setOut(original);
        }
        assertEquals(0, status, bytes.toString(StandardCharsets.UTF_8));
        final JsonNode json = new ObjectMapper().readTree(bytes.toString(StandardCharsets.UTF_8));
        // measured 0.0236 rad as printed, 0.0469 rad along the reference (docs/CONTROL.md)
        assertTrue(json.get("rms_rad").get(2).asDouble() < 0.03, json.toString());
        assertEquals(2, NectlCommand.newCommandLine().execute("study", "mixed-elastic-3dof", "--motor-reference", "measured",
            "--model", MixedElasticStudyTest.MODEL.toString()));
        final String arm = Files.readString(MixedElasticStudyTest.MODEL);
        final Path damped = Files.writeString(dir.resolve("damped.yaml"), arm.replace("damping: 0", "damping: 0.5"));
        assertEquals(2, NectlCommand.newCommandLine().execute("study", "mixed-elastic-3dof", "--model", damped.toString()));
    }

    @Test
    void aMissingDescriptionExitsWithStatusTwo()
    {
        assertEquals(2, NectlCommand.newCommandLine().execute("study", "mixed-elastic-3dof", "--model", "no-such-file.yaml"));
    }
}
