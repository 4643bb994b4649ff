package org.nectl.service.cli;

import java.io.File;
import java.io.PrintWriter;
import java.nio.MappedByteBuffer;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;
import org.nectl.transport.ServiceCounters;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nectl stat}: prints the service's counters from the media driver's CnC file, as Aeron's
 * {@code AeronStat} prints the driver's: it maps the file read-only and reads the counters, so it
 * neither connects an Aeron client nor touches the service. Not real-time safe.
 */
@Command(
    name = "stat",
    mixinStandardHelpOptions = true,
    description = {
        "Prints the counters of a running service (ticks, deadline misses, drops, rejected datagrams, unsent",
        "replies, recording...) from the media driver's CnC file, without connecting to the service.",
        "Exit status: 0 done, 1 no media driver at the directory, 2 bad option."
    })
final class StatCommand implements Callable<Integer>
{
    @Spec
    private CommandSpec spec;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running service; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--all", description = "Also print the media driver's own counters (as AeronStat does).")
    private boolean all;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1",
        description = "Print N times, --interval-ms apart; 0 until interrupted; default ${DEFAULT-VALUE}.")
    private long count;

    @Option(names = "--interval-ms", paramLabel = "MS", defaultValue = "1000",
        description = "Time between two prints; default ${DEFAULT-VALUE}.")
    private long intervalMs;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (count < 0 || intervalMs <= 0)
        {
            err.println("nectl stat: --count must be >= 0 and --interval-ms > 0");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final File cncFile = new File(directory, CncFileDescriptor.CNC_FILE);
        if (!cncFile.isFile() || cncFile.length() <= CncFileDescriptor.META_DATA_LENGTH)
        {
            err.println("nectl stat: no media driver at " + directory + " (no " + CncFileDescriptor.CNC_FILE
                + "): start the service first, or pass --aeron-dir");
            return NectlCommand.NO_DRIVER_EXIT_STATUS;
        }
        final MappedByteBuffer cnc = IoUtil.mapExistingFile(cncFile, "cnc");
        try
        {
            final UnsafeBuffer metaData = CncFileDescriptor.createMetaDataBuffer(cnc);
            final int version = metaData.getIntVolatile(CncFileDescriptor.cncVersionOffset(0));
            CncFileDescriptor.checkVersion(version);
            final CountersReader counters = new CountersReader(
                CncFileDescriptor.createCountersMetaDataBuffer(cnc, metaData),
                CncFileDescriptor.createCountersValuesBuffer(cnc, metaData));
            final long pid = metaData.getLong(CncFileDescriptor.pidOffset(0));
            for (long printed = 0; count == 0 || printed < count; printed++)
            {
                if (printed > 0)
                {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(intervalMs));
                    if (Thread.currentThread().isInterrupted())
                    {
                        break;
                    }
                }
                print(out, directory, pid, counters);
            }
            return 0;
        }
        catch (final IllegalStateException e)
        {
            err.println("nectl stat: " + cncFile + ": " + e.getMessage());
            return NectlCommand.NO_DRIVER_EXIT_STATUS;
        }
        finally
        {
            IoUtil.unmap(cnc);
        }
    }

    private void print(final PrintWriter out, final String directory, final long pid, final CountersReader counters)
    {
        final StringBuilder text = new StringBuilder();
        final int[] shown = new int[1];
        text.append(String.format(Locale.ROOT, "%s - media driver pid %d, %s%n", Instant.now(), pid, directory));
        counters.forEach((value, id, label) ->
        {
            final boolean own = counters.getCounterTypeId(id) == ServiceCounters.TYPE_ID;
            if (own || all)
            {
                text.append(String.format(Locale.ROOT, "%4d: %,20d - %s%n", id, value, label));
                shown[0] += own ? 1 : 0;
            }
        });
        if (shown[0] == 0)
        {
            text.append("no nectl counters: no service is running on this media driver\n");
        }
        out.print(text);
        out.flush();
    }
}
