package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.identification.ExcitationTrajectory;
import org.nectl.core.identification.PayloadEstimate;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.PayloadTrackingRun;

/**
 * {@code nectl identify payload} and the acceptance on nectl's own plant: the simulated Panda carries
 * 1.5 kg whose centre of mass is 5 cm off the flange.
 */
class IdentifyPayloadCommandTest
{
    private static final Path PANDA_FILE = Path.of("../config/robots/panda.yaml");
    private static final double[] READY = {0.0, -Math.PI / 4, 0.0, -3 * Math.PI / 4, 0.0, Math.PI / 2, Math.PI / 4};

    @TempDir
    Path dir;

    /**
     * The shipped Panda (computed torque, default gains, 1 kHz, RK4 plant) tracks an 8 s excitation of
     * 0.4 rad around the ready pose with 1.5 kg at (0.05, 0, 0.02) m on the flange that its model lacks:
     * mass within 3 %, centre of mass within 5 mm; the estimate, ramped into the running cycle, cuts
     * the tracking error.
     */
    @Test
    void aPayloadOnThePandasFlangeIsIdentifiedWithinThreePercentAndFiveMillimetres()
    {
        final RobotModel panda = RobotDescriptions.load(PANDA_FILE);
        final int flange = panda.bodyCount() - 1;
        final double[] centre = {0.05, 0.0, 0.02};
        final InertialParameters payload = InertialParameters.ofCentreOfMass(1.5, centre,
            new double[] {3e-3, 0, 0, 0, 3e-3, 0, 0, 0, 2e-3});
        final PayloadTrackingRun.Result result = PayloadTrackingRun.run(panda, flange, Payloads.withPayload(panda, flange, payload),
            new ExcitationTrajectory(READY, 8.0, 0.4, 1));
        final PayloadEstimate estimate = result.estimate();
        final double[] c = estimate.centreOfMass();
        final double centreError = Math.sqrt(Math.pow(c[0] - centre[0], 2) + Math.pow(c[1] - centre[1], 2)
            + Math.pow(c[2] - centre[2], 2));
        double before = 0.0;
        double after = 0.0;
        for (int j = 0; j < panda.dof(); j++)
        {
            before = Math.max(before, result.rmsBefore()[j]);
            after = Math.max(after, result.rmsAfter()[j]);
        }
        System.out.printf("Panda, 1.5 kg at 5 cm on the flange: %s%nmass off by %.3f %%, centre of mass off by %.3f mm;"
            + " worst joint's tracking RMS %.3e rad before, %.3e rad after setting it%n", estimate.report(),
            100 * (estimate.mass() - 1.5) / 1.5, centreError * 1e3, before, after);
        assertEquals(1.5, estimate.mass(), 0.03 * 1.5, estimate.report());
        assertTrue(centreError <= 0.005, "centre of mass off by " + centreError + " m\n" + estimate.report());
        assertEquals(0, result.faults());
        assertTrue(after < 0.5 * before, "tracking RMS " + after + " after, " + before + " before");
    }

    @Test
    void theExcitationIsWrittenForNectlPlanAndABadRecordingIsNamedWithFileAndLine() throws Exception
    {
        final Path excitation = dir.resolve("excitation.csv");
        final Output written = run("identify", "payload", "--model", PANDA_FILE.toString(), "--start", csv(READY),
            "--duration", "4", "--excitation", excitation.toString());
        assertEquals(0, written.status(), written.err());
        final List<String> lines = Files.readAllLines(excitation);
        assertEquals("t,q1,q2,q3,q4,q5,q6,q7", lines.get(1));
        assertEquals(2 + 201, lines.size(), "a waypoint every 20 ms over 4 s");
        assertEquals(0.0, Double.parseDouble(lines.get(2).split(",")[0]), lines.get(2));

        final Path recording = dir.resolve("recording.csv");
        Files.writeString(recording, "sequence,timestampNs,tickCount,q1\n1,0,0,0.5\n");
        final Output bad = run("identify", "payload", "--model", PANDA_FILE.toString(), "--recording", recording.toString());
        assertEquals(2, bad.status());
        assertTrue(bad.err().contains(recording + ":1: no column 'state'"), "err: " + bad.err() + " out: " + bad.out());

        final Output outOfRange = run("identify", "payload", "--model", PANDA_FILE.toString(), "--amplitude", "0.4",
            "--excitation", excitation.toString());
        assertEquals(2, outOfRange.status());
        assertTrue(outOfRange.err().contains("joint 4: --start 0.0000 +- --amplitude 0.4000 leaves its position limits"),
            outOfRange.err());
    }

    private static String csv(final double[] values)
    {
        final StringBuilder text = new StringBuilder();
        for (final double v : values)
        {
            text.append(text.length() == 0 ? "" : ",").append(v);
        }
        return text.toString();
    }

    private record Output(int status, String out, String err)
    {
    }

    private static Output run(final String... args)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream originalOut = System.out;
        final PrintStream originalErr = System.err;
        final int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
            PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8))
        {
            System.setOut(o);
            System.setErr(e);
            status = NectlCommand.newCommandLine().execute(args);
        }
        finally
        {
            System.setOut(originalOut);
            System.setErr(originalErr);
        }
        return new Output(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
