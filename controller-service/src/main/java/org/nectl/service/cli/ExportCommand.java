package org.nectl.service.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nectl.service.recording.RecordingExport;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.SetupException;

import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nectl export ID}: writes a recording as CSV (the columns of {@code nectl monitor --csv})
 * or as one MCAP file with JSON channels (docs/TELEMETRY.md). Not while a service records into
 * the directory. Not real-time safe.
 */
@Command(
    name = "export",
    mixinStandardHelpOptions = true,
    description = {
        "Writes a flight recording as CSV (--csv, and --events-csv for the controller events; the columns of",
        "nectl monitor --csv) or as MCAP (--mcap; JSON channels /nectl/telemetry and /nectl/events).",
        "Exit status: 0 done, 2 bad option, unknown recording, or a file that cannot be written."
    })
final class ExportCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Mixin
    private RecordingDirectoryOption directory;

    @Parameters(index = "0", paramLabel = "ID", description = "Recording id (nectl recordings lists them).")
    private long recordingId;

    @ArgGroup(exclusive = true, multiplicity = "1")
    private Format format;

    @Option(names = "--events-csv", paramLabel = "FILE", description = "With --csv: the controller events to this CSV file.")
    private Path eventsCsv;

    @Option(names = "--force", description = "Replace existing files (regular files only, never through a symbolic link).")
    private boolean force;

    /** One of the two formats. */
    static final class Format
    {
        @Option(names = "--csv", paramLabel = "FILE", required = true, description = "Write the samples to this CSV file.")
        Path csv;

        @Option(names = "--mcap", paramLabel = "FILE", required = true, description = "Write samples and events to this MCAP file.")
        Path mcap;
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (eventsCsv != null && format.csv == null)
        {
            err.println("nectl export: --events-csv goes with --csv (MCAP holds the events in /nectl/events)");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final Path dir = directory.directory();
        final RecordingArchive.Recording recording = RecordingArchive.list(dir).stream()
            .filter(r -> r.id() == recordingId).findFirst()
            .orElseThrow(() -> new SetupException("no recording " + recordingId + " in " + dir + " (nectl recordings lists them)"));
        try (RecordingArchive archive = RecordingArchive.open(dir))
        {
            final RecordingExport.Counts counts = format.csv != null
                ? RecordingExport.csv(archive, recordingId, format.csv, eventsCsv, force)
                : RecordingExport.mcap(archive, recordingId, recording.startTimestampMs(), format.mcap, force);
            out.println("nectl export: recording " + recordingId + ": " + counts.samples() + " samples, " + counts.events()
                + " events to " + (format.csv != null ? format.csv + (eventsCsv != null ? " and " + eventsCsv : "") : format.mcap));
            out.flush();
            return 0;
        }
        catch (final IOException e)
        {
            err.println("nectl export: cannot write: " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
    }
}
