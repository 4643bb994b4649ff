package org.nectl.service.cli;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.nectl.core.runtime.Faults;
import org.nectl.transport.RecordingArchive;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code nectl recordings}: lists the flight recorder's recordings from its catalog: id, start,
 * duration, size and the faults marked in each, with the tick and stream position of each fault.
 * Reads the catalog file only, so it works while a service records. Not real-time safe.
 */
@Command(
    name = "recordings",
    mixinStandardHelpOptions = true,
    description = {
        "Lists the flight recorder's recordings: id, start (UTC), duration, bytes kept and the faults marked,",
        "each with its tick, controller time and position (nectl replay / export take the id).",
        "Exit status: 0 done, 2 bad option or no recording directory."
    })
final class RecordingsCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Mixin
    private RecordingDirectoryOption directory;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final List<RecordingArchive.Recording> recordings = RecordingArchive.list(directory.directory());
        out.println("    id  start (UTC)                 duration s          bytes  faults");
        for (final RecordingArchive.Recording r : recordings)
        {
            final boolean running = r.stopPosition() < 0;
            out.println(String.format(Locale.ROOT, "%6d  %-26s %11s %14d  %d", r.id(), Instant.ofEpochMilli(r.startTimestampMs()),
                running ? "recording" : String.format(Locale.ROOT, "%.3f", (r.stopTimestampMs() - r.startTimestampMs()) / 1e3),
                running ? 0 : r.stopPosition() - r.startPosition(), r.faultMarks().size()));
            for (final String mark : r.faultMarks())
            {
                final String[] f = mark.split(",");
                out.println(String.format(Locale.ROOT, "        fault at tick %s, controller time %s ns, position %s: %s",
                    f[1], f[2], f[0], Faults.describe(Integer.parseInt(f[3]))));
            }
        }
        out.flush();
        return 0;
    }
}
