package org.nectl.service.monitor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.TelemetryDecoder;
import org.nectl.transport.sbe.TelemetryEncoder;

/**
 * The measured platform pose columns of the telemetry CSV: leg lengths from the inverse kinematics of
 * known poses give back the poses, a sample without a solution gets empty fields and is counted, and
 * a model that is not the telemetry's platform is refused.
 */
final class PlatformPosesTest
{
    private static final Path HEXAPOD = Path.of("..", "config", "parallel-robots", "hexapod.yaml");
    /** x, y, z (m), roll, pitch, yaw (rad): a walk through the workspace, each a small step from the one before. */
    private static final double[][] POSES = {
        {0.0, 0.0, 0.55, 0.0, 0.0, 0.0},
        {0.02, -0.01, 0.57, 0.03, -0.02, 0.05},
        {0.05, 0.03, 0.60, -0.05, 0.04, 0.10},
        {-0.04, 0.06, 0.52, 0.08, 0.06, -0.12},
        {-0.06, -0.05, 0.62, -0.10, -0.08, 0.20},
    };

    @TempDir
    Path temp;

    @Test
    void csvRowsCarryThePoseWhoseLegLengthsTheyMeasured() throws IOException
    {
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(HEXAPOD);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final StringWriter out = new StringWriter();
        final PlatformPoses poses = PlatformPoses.load(HEXAPOD);
        final TelemetryCsv csv = new TelemetryCsv(out, poses);
        final double[] lengths = new double[GoughStewartModel.LEGS];
        for (int p = 0; p < POSES.length; p++)
        {
            final double[] pose = POSES[p];
            kinematics.inverse(new double[] {pose[0], pose[1], pose[2]}, Transforms.rpy(pose[3], pose[4], pose[5]), lengths);
            final TelemetryDecoder decoder = telemetry(p + 1, lengths);
            if (p == 0)
            {
                csv.writeHeader(decoder);
            }
            assertTrue(csv.write(decoder));
            if (p == 2)
            {
                // A glitch of one leg's measurement: no pose; the next sample starts from the last pose found.
                final double[] glitch = lengths.clone();
                glitch[3] = Double.NaN;
                assertTrue(csv.write(telemetry(100, glitch)));
            }
        }
        csv.flush();

        final String[] lines = out.toString().split("\n");
        assertEquals(1 + POSES.length + 1, lines.length);
        final List<String> header = List.of(lines[0].split(",", -1));
        assertEquals(PlatformPoses.COLUMNS, header.subList(header.size() - 6, header.size()), "the pose columns end the header");
        int row = 1;
        for (int p = 0; p < POSES.length; p++, row++)
        {
            final String[] fields = lines[row].split(",", -1);
            assertEquals(header.size(), fields.length, "row " + row);
            for (int k = 0; k < 6; k++)
            {
                assertEquals(POSES[p][k], Double.parseDouble(fields[header.indexOf(PlatformPoses.COLUMNS.get(k))]), 1e-9,
                    PlatformPoses.COLUMNS.get(k) + " of pose " + p);
            }
            if (p == 2)
            {
                row++;
                final String[] glitch = lines[row].split(",", -1);
                assertEquals(header.size(), glitch.length, "the glitch row has every column");
                assertEquals(List.of("", "", "", "", "", ""), List.of(glitch).subList(glitch.length - 6, glitch.length));
            }
        }
        assertEquals(1, poses.failureCount());
    }

    @Test
    void telemetryOfAnotherJointCountIsRefused() throws IOException
    {
        final TelemetryCsv csv = new TelemetryCsv(new StringWriter(), PlatformPoses.load(HEXAPOD));
        final PlatformPoses.ModelMismatchException e = assertThrows(PlatformPoses.ModelMismatchException.class,
            () -> csv.writeHeader(telemetry(1, new double[] {0.1, 0.2, 0.3})));
        assertEquals("--model " + HEXAPOD + ": the telemetry carries 3 joints, the platform has 6 legs; not this robot's telemetry",
            e.getMessage());
    }

    @Test
    void aModelThatIsNotAGoughStewartPlatformIsRefused() throws IOException
    {
        final Path tree = Path.of("..", "config", "robots", "puma560.yaml");
        final PlatformPoses.ModelMismatchException e = assertThrows(PlatformPoses.ModelMismatchException.class,
            () -> PlatformPoses.load(tree));
        assertEquals("--model " + tree + ": not a Gough-Stewart description (format: gough-stewart); the platform pose needs one",
            e.getMessage());
        final Path broken = Files.writeString(temp.resolve("broken.yaml"),
            Files.readString(HEXAPOD).replace("legs: U-P-S", "legs: P-U-S"));
        final DescriptionException invalid = assertThrows(DescriptionException.class, () -> PlatformPoses.load(broken));
        assertTrue(invalid.getMessage().startsWith(broken.toString()) && invalid.getMessage().contains("P-U-S"), invalid.getMessage());
    }

    /** A version 4 Telemetry message with the given leg lengths as the measured positions. */
    private static TelemetryDecoder telemetry(final long sequence, final double[] q)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[MessageHeaderEncoder.ENCODED_LENGTH + TelemetryEncoder.BLOCK_LENGTH]);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderEncoder());
        encoder.sequence(sequence).jointCount((short)q.length);
        for (int k = 0; k < q.length; k++)
        {
            encoder.q(k, q[k]);
        }
        return new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, new MessageHeaderDecoder());
    }
}
