package org.nectl.service.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;

import org.nectl.config.DescriptionException;
import org.nectl.config.OutputFiles;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.identification.ExcitationTrajectory;
import org.nectl.core.identification.PayloadEstimate;
import org.nectl.core.identification.PayloadIdentification;
import org.nectl.core.identification.Payloads;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.Faults;
import org.nectl.core.simulation.PayloadTrackingRun;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl identify payload}: writes an excitation trajectory, identifies a payload from a
 * recording of it, or does both on nectl's own simulated arm ({@link PayloadTrackingRun}).
 * docs/CONTROL.md, "Payload identification". Not real-time safe.
 */
@Command(
    name = "payload",
    mixinStandardHelpOptions = true,
    description = {
        "Identifies the mass, centre of mass and (where the motion excites it) inertia of a payload on a link.",
        "--excitation FILE writes a trajectory for nectl plan (t,q1..qn); --recording FILE reads a nectl monitor",
        "--csv recording of it (every tick: --decimation 1) and prints the estimate with its conditioning;",
        "--simulate runs the excitation on nectl's simulated arm carrying --payload-mass at --payload-com and",
        "identifies it. Exit status: 2 bad option, description or file (file:line), 1 the estimate failed."
    })
final class IdentifyPayloadCommand implements Callable<Integer>
{
    /** Controller states whose ticks a recording contributes: the drives apply the commanded torque. */
    private static final Set<String> POWERED = Set.of("ENABLED", "TRACKING", "HOLD");

    @Option(names = "--model", paramLabel = "FILE", defaultValue = "config/robots/panda.yaml",
        description = "Robot description without the payload; default ${DEFAULT-VALUE}.")
    private Path modelFile;

    @Option(names = "--link", paramLabel = "NAME", description = "Link carrying the payload; default the last link.")
    private String link;

    @Option(names = "--excitation", paramLabel = "FILE", description = "Write the excitation trajectory (t,q1..qn) to FILE.")
    private Path excitationFile;

    @Option(names = "--recording", paramLabel = "FILE", description = "Identify from this nectl monitor --csv recording.")
    private Path recordingFile;

    @Option(names = "--simulate", description = "Track the excitation on the simulated arm with a payload and identify it.")
    private boolean simulate;

    @Option(names = "--start", paramLabel = "Q", split = ",", description = "Excitation start and end pose, rad; default all 0.")
    private double[] start;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "8", description = "Excitation period, s; default ${DEFAULT-VALUE}.")
    private double durationS;

    @Option(names = "--amplitude", paramLabel = "RAD", defaultValue = "0.4",
        description = "Largest excursion of every joint from the start, rad; default ${DEFAULT-VALUE}.")
    private double amplitude;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Excitation seed; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--payload-mass", paramLabel = "KG", defaultValue = "1.5",
        description = "--simulate: the payload's mass; default ${DEFAULT-VALUE}.")
    private double payloadMass;

    @Option(names = "--payload-com", paramLabel = "X,Y,Z", split = ",", defaultValue = "0.05,0,0",
        description = "--simulate: its centre of mass in the link's frame, m; default ${DEFAULT-VALUE}.")
    private double[] payloadCom;

    @Option(names = "--force", description = "Replace an existing --excitation file.")
    private boolean force;

    @Override
    public Integer call()
    {
        final RobotModel model;
        final int body;
        final ExcitationTrajectory excitation;
        try
        {
            model = RobotDescriptions.load(modelFile);
            body = body(model);
            excitation = excitationFile != null || simulate ? excitation(model) : null;
            if (excitationFile == null && recordingFile == null && !simulate)
            {
                throw new IllegalArgumentException("give --excitation FILE, --recording FILE or --simulate");
            }
        }
        catch (final DescriptionException | IllegalArgumentException e)
        {
            System.err.println("nectl identify payload: " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        try
        {
            if (excitationFile != null)
            {
                writeExcitation(excitation, model.dof());
            }
            if (recordingFile != null)
            {
                final PayloadIdentification identification = new PayloadIdentification(model, body);
                final int used = readRecording(identification, model.dof());
                System.out.printf(Locale.ROOT, "%s: %d ticks used%n", recordingFile, used);
                System.out.print(identification.estimate().report());
            }
            if (simulate)
            {
                final InertialParameters payload = InertialParameters.ofCentreOfMass(payloadMass, payloadCom,
                    new double[] {1e-3, 0, 0, 0, 1e-3, 0, 0, 0, 1e-3});
                final PayloadTrackingRun.Result result = PayloadTrackingRun.run(model, body,
                    Payloads.withPayload(model, body, payload), excitation);
                System.out.print(simulationReport(result));
            }
        }
        catch (final RecordingException | IOException | IllegalArgumentException e)
        {
            System.err.println("nectl identify payload: " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        catch (final IllegalStateException e)
        {
            System.err.println("nectl identify payload: " + e.getMessage());
            return NectlCommand.INTERNAL_ERROR_EXIT_STATUS;
        }
        return 0;
    }

    private String simulationReport(final PayloadTrackingRun.Result result)
    {
        final PayloadEstimate estimate = result.estimate();
        final double[] c = estimate.centreOfMass();
        final StringBuilder text = new StringBuilder(estimate.report());
        text.append(String.format(Locale.ROOT, "simulated payload: %.4f kg at [%.4f, %.4f, %.4f] m; mass off by %.2f %%,"
            + " centre of mass off by %.2f mm%n", payloadMass, payloadCom[0], payloadCom[1], payloadCom[2],
            100.0 * (estimate.mass() - payloadMass) / payloadMass,
            1e3 * Math.sqrt(Math.pow(c[0] - payloadCom[0], 2) + Math.pow(c[1] - payloadCom[1], 2) + Math.pow(c[2] - payloadCom[2], 2))));
        text.append("tracking RMS per joint, rad, without the payload in the model:");
        for (final double r : result.rmsBefore())
        {
            text.append(String.format(Locale.ROOT, " %.3e", r));
        }
        text.append(System.lineSeparator()).append("after setting the estimate (0.5 s ramp):");
        for (final double r : result.rmsAfter())
        {
            text.append(String.format(Locale.ROOT, " %.3e", r));
        }
        text.append(System.lineSeparator()).append("faults: ").append(Faults.describe(result.faults())).append(System.lineSeparator());
        return text.toString();
    }

    private int body(final RobotModel model)
    {
        if (link == null)
        {
            return model.bodyCount() - 1;
        }
        final int index = model.bodyIndex(link);
        if (index < 0)
        {
            throw new IllegalArgumentException("--link: no link '" + link + "' in " + model.name());
        }
        return index;
    }

    private ExcitationTrajectory excitation(final RobotModel model)
    {
        final double[] q0 = start == null ? new double[model.dof()] : start;
        if (q0.length != model.dof())
        {
            throw new IllegalArgumentException("--start has " + q0.length + " values, " + model.name() + " has " + model.dof() + " joints");
        }
        if (!(durationS >= 1.0 && durationS <= 600.0) || !(amplitude > 0.0 && amplitude <= 1.5))
        {
            throw new IllegalArgumentException("--duration " + durationS + " s must be in 1..600 and --amplitude " + amplitude
                + " rad in (0, 1.5]");
        }
        for (int j = 0; j < model.dof(); j++)
        {
            final double low = model.limits(j).positionMin();
            final double high = model.limits(j).positionMax();
            if (q0[j] - amplitude < low || q0[j] + amplitude > high)
            {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "joint %d: --start %.4f +- --amplitude %.4f leaves"
                    + " its position limits [%.4f, %.4f]", j + 1, q0[j], amplitude, low, high));
            }
        }
        return new ExcitationTrajectory(q0, durationS, amplitude, seed);
    }

    private void writeExcitation(final ExcitationTrajectory excitation, final int dof) throws IOException
    {
        final StringBuilder text = new StringBuilder("# nectl identify payload excitation: send with nectl plan, record with"
            + " nectl monitor --csv\nt");
        for (int j = 1; j <= dof; j++)
        {
            text.append(",q").append(j);
        }
        text.append('\n');
        for (final double[] row : excitation.waypoints(0.02))
        {
            for (int c = 0; c < row.length; c++)
            {
                text.append(c == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.9g", row[c]));
            }
            text.append('\n');
        }
        OutputFiles.writeString(excitationFile, text.toString(), force);
        System.out.printf(Locale.ROOT, "%s: excitation of %.1f s, %d joints within %.3f rad of the start%n", excitationFile,
            excitation.periodS(), dof, amplitude);
    }

    /** Reads every powered, consecutive tick of the recording; q-dot-dot by central differences of qd. */
    private int readRecording(final PayloadIdentification identification, final int dof) throws IOException
    {
        if (!Files.isRegularFile(recordingFile))
        {
            throw new RecordingException(recordingFile + ": not found or not a regular file");
        }
        final List<String> lines = Files.readAllLines(recordingFile, StandardCharsets.UTF_8);
        if (lines.isEmpty())
        {
            throw new RecordingException(recordingFile + ":1: empty; expected the header of nectl monitor --csv");
        }
        final List<String> header = List.of(lines.get(0).split(",", -1));
        final int time = column(header, "timestampNs");
        final int sequence = column(header, "tickCount");
        final int state = column(header, "state");
        final int[] q = new int[dof];
        final int[] qd = new int[dof];
        final int[] tau = new int[dof];
        for (int j = 0; j < dof; j++)
        {
            q[j] = column(header, "q" + (j + 1));
            qd[j] = column(header, "qd" + (j + 1));
            tau[j] = column(header, "tauCommand" + (j + 1));
        }
        final List<double[]> window = new ArrayList<>();
        int used = 0;
        for (int i = 1; i < lines.size(); i++)
        {
            final String[] cells = lines.get(i).split(",", -1);
            if (cells.length != header.size())
            {
                throw new RecordingException(recordingFile + ":" + (i + 1) + ": " + cells.length + " columns, the header has "
                    + header.size());
            }
            if (!POWERED.contains(cells[state]))
            {
                window.clear();
                continue;
            }
            final double[] row = new double[2 + 3 * dof];
            row[0] = number(cells, time, i, "timestampNs") * 1e-9;
            row[1] = number(cells, sequence, i, "tickCount");
            for (int j = 0; j < dof; j++)
            {
                row[2 + j] = number(cells, q[j], i, "q" + (j + 1));
                row[2 + dof + j] = number(cells, qd[j], i, "qd" + (j + 1));
                row[2 + 2 * dof + j] = number(cells, tau[j], i, "tauCommand" + (j + 1));
            }
            if (!window.isEmpty() && row[1] != window.get(window.size() - 1)[1] + 1)
            {
                window.clear();
            }
            window.add(row);
            if (window.size() == 3)
            {
                addSample(identification, window, dof);
                used++;
                window.remove(0);
            }
        }
        return used;
    }

    private static void addSample(final PayloadIdentification identification, final List<double[]> w, final int dof)
    {
        final double[] before = w.get(0);
        final double[] now = w.get(1);
        final double[] after = w.get(2);
        final double dt = after[0] - before[0];
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] qdd = new double[dof];
        final double[] tau = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            q[j] = now[2 + j];
            qd[j] = now[2 + dof + j];
            qdd[j] = (after[2 + dof + j] - before[2 + dof + j]) / dt;
            // the acceleration over two periods pairs with the mean of the torques held over them
            tau[j] = 0.5 * (before[2 + 2 * dof + j] + now[2 + 2 * dof + j]);
        }
        identification.add(q, qd, qdd, tau);
    }

    private int column(final List<String> header, final String name)
    {
        final int index = header.indexOf(name);
        if (index < 0)
        {
            throw new RecordingException(recordingFile + ":1: no column '" + name + "' (expected a nectl monitor --csv recording"
                + " of this robot)");
        }
        return index;
    }

    private double number(final String[] cells, final int column, final int line, final String name)
    {
        try
        {
            final double value = Double.parseDouble(cells[column].strip());
            if (Double.isFinite(value))
            {
                return value;
            }
        }
        catch (final NumberFormatException e)
        {
            // reported below with file, line and column
        }
        throw new RecordingException(recordingFile + ":" + (line + 1) + ": column " + (column + 1) + " (" + name + "): '"
            + cells[column] + "' is not a finite number");
    }

    /** A recording that cannot be used, with file, line and column. */
    private static final class RecordingException extends RuntimeException
    {
        private static final long serialVersionUID = 1L;

        RecordingException(final String message)
        {
            super(message);
        }
    }
}
