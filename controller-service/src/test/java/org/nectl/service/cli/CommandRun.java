package org.nectl.service.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import picocli.CommandLine;

/** One {@code nectl} command run in this JVM: its exit status and what it printed on stderr. */
record CommandRun(int status, String err)
{
    /** @return the status and stderr of {@code nectl args...}. */
    static CommandRun of(final String... args)
    {
        final PrintStream saved = System.err;
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            final int status = new CommandLine(new NectlCommand()).execute(args);
            return new CommandRun(status, err.toString(StandardCharsets.UTF_8));
        }
        finally
        {
            System.setErr(saved);
        }
    }

    /** @return the names of the entries of {@code directory}, sorted. */
    static List<String> names(final Path directory) throws IOException
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}
