package org.nectl.service.cli;

import java.io.File;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.Publication;
import org.agrona.DirectBuffer;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.RecordingArchive;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.TelemetryDecoder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code nectl replay ID}: publishes a recording's Telemetry and ControllerEvents, byte for byte,
 * on a telemetry stream (by default the one {@code nectl monitor} reads), paced by their controller
 * time divided by {@code --speed}, between {@code --from} and {@code --to} seconds after the
 * recording's first message. Uses the media driver at {@code --aeron-dir} if one runs there, else
 * starts one there. Not real-time safe.
 */
@Command(
    name = "replay",
    mixinStandardHelpOptions = true,
    description = {
        "Replays a flight recording into a telemetry stream, for nectl monitor (or any subscriber): every",
        "sample and event as recorded, paced by controller time / --speed, from --from to --to seconds, or",
        "--before to --after seconds around the --fault N-th fault marked.",
        "Exit status: 0 done, 2 bad option or unknown recording, 3 no subscriber within --connect-timeout-s."
    })
final class ReplayCommand implements Callable<Integer>
{
    /** Exit status when no subscriber connected in time. */
    static final int NO_SUBSCRIBER_EXIT_STATUS = 3;

    @Spec
    private CommandSpec spec;

    @Mixin
    private RecordingDirectoryOption directory;

    @Parameters(index = "0", paramLabel = "ID", description = "Recording id (nectl recordings lists them).")
    private long recordingId;

    @Option(names = "--from", paramLabel = "S", defaultValue = "0", description = "Start S seconds after the first message.")
    private double fromS;

    @Option(names = "--to", paramLabel = "S", defaultValue = "Infinity", description = "End S seconds after the first message.")
    private double toS;

    @Option(names = "--fault", paramLabel = "N", defaultValue = "0",
        description = "Replay the seconds around the N-th fault marked in the recording (nectl recordings lists them), "
            + "from --before to --after seconds of controller time around it, instead of --from/--to.")
    private int fault;

    @Option(names = "--before", paramLabel = "S", defaultValue = "2", description = "With --fault: seconds before it; default ${DEFAULT-VALUE}.")
    private double beforeS;

    @Option(names = "--after", paramLabel = "S", defaultValue = "2", description = "With --fault: seconds after it; default ${DEFAULT-VALUE}.")
    private double afterS;

    @Option(names = "--speed", paramLabel = "X", defaultValue = "1",
        description = "Replay speed: 1 real time, 10 ten times faster, 0 as fast as the subscriber takes it; default ${DEFAULT-VALUE}.")
    private double speed;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory to publish on; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--channel", paramLabel = "CHANNEL", defaultValue = TelemetryConfig.IPC_CHANNEL,
        description = "Channel to publish on; default ${DEFAULT-VALUE}.")
    private String channel;

    @Option(names = "--stream", paramLabel = "ID", defaultValue = "" + TelemetryConfig.STREAM_ID,
        description = "Stream id to publish on; default ${DEFAULT-VALUE}.")
    private int streamId;

    @Option(names = "--connect-timeout-s", paramLabel = "S", defaultValue = "30",
        description = "How long to wait for a subscriber (e.g. nectl monitor); default ${DEFAULT-VALUE}.")
    private double connectTimeoutS;

    @Option(names = "--linger-s", paramLabel = "S", defaultValue = "5",
        description = "After the last message, keep the stream (and a media driver this command started) up until the "
            + "subscriber leaves or S seconds pass, so it reads everything; default ${DEFAULT-VALUE}.")
    private double lingerS;

    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final TelemetryDecoder telemetry = new TelemetryDecoder();
    private final ControllerEventDecoder event = new ControllerEventDecoder();
    private long firstNs = Long.MIN_VALUE;
    private long faultNs = Long.MIN_VALUE;
    private long pacedFromNs = Long.MIN_VALUE;
    private long wallStartNs;
    private long samples;
    private long events;
    private long unsent;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        if (!(speed >= 0) || !(fromS >= 0) || !(toS > fromS) || !(connectTimeoutS > 0) || !(lingerS >= 0))
        {
            err.println("nectl replay: --speed, --from and --linger-s must be >= 0, --to above --from, --connect-timeout-s above 0");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        if (fault < 0 || !(beforeS >= 0) || !(afterS >= 0))
        {
            err.println("nectl replay: --fault, --before and --after must be >= 0");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        if (fault > 0)
        {
            final List<String> marks = RecordingArchive.list(directory.directory()).stream().filter(r -> r.id() == recordingId)
                .findFirst().map(RecordingArchive.Recording::faultMarks).orElse(List.of());
            if (fault > marks.size())
            {
                err.println("nectl replay: --fault " + fault + ": recording " + recordingId + " has " + marks.size()
                    + " fault marks (nectl recordings lists them)");
                return NectlCommand.USAGE_EXIT_STATUS;
            }
            faultNs = Long.parseLong(marks.get(fault - 1).split(",")[2]);
        }
        final String dir = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final boolean driverRunning = new File(dir, CncFileDescriptor.CNC_FILE).isFile()
            && CommonContext.isDriverActive(new File(dir), AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS, line -> { });
        try (RecordingArchive archive = RecordingArchive.open(directory.directory());
            AeronTransport transport = AeronTransport.launch(driverRunning ? AeronConfig.external(dir)
                : new AeronConfig(true, dir, AeronConfig.embeddedDefaults().threadingMode(),
                    AeronConfig.embeddedDefaults().driverIdleStrategy()));
            Publication publication = transport.aeron().addPublication(channel, streamId))
        {
            final long deadlineNs = System.nanoTime() + (long)(connectTimeoutS * 1e9);
            while (!publication.isConnected())
            {
                if (System.nanoTime() - deadlineNs > 0)
                {
                    err.println("nectl replay: no subscriber on " + channel + " stream " + streamId + " at " + dir
                        + " within " + connectTimeoutS + " s (start nectl monitor --aeron-dir " + dir + ")");
                    return NO_SUBSCRIBER_EXIT_STATUS;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            }
            archive.replay(recordingId, (buffer, offset, length, position) -> forward(publication, buffer, offset, length));
            final long lingerEndNs = System.nanoTime() + (long)(lingerS * 1e9);
            while (publication.isConnected() && System.nanoTime() - lingerEndNs < 0)
            {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
            }
        }
        out.println("nectl replay: recording " + recordingId + ": " + samples + " samples and " + events + " events published"
            + (unsent > 0 ? ", " + unsent + " not (the subscriber went away)" : ""));
        out.flush();
        return 0;
    }

    private void forward(final Publication publication, final DirectBuffer buffer, final int offset, final int length)
    {
        header.wrap(buffer, offset);
        final long timeNs;
        if (header.templateId() == TelemetryDecoder.TEMPLATE_ID)
        {
            timeNs = telemetry.wrapAndApplyHeader(buffer, offset, header).timestampNs();
        }
        else if (header.templateId() == ControllerEventDecoder.TEMPLATE_ID)
        {
            timeNs = event.wrapAndApplyHeader(buffer, offset, header).timestampNs();
        }
        else
        {
            return;
        }
        firstNs = firstNs == Long.MIN_VALUE ? timeNs : firstNs;
        if (!inWindow(timeNs))
        {
            return;
        }
        pace(timeNs);
        long result;
        while ((result = publication.offer(buffer, offset, length)) == Publication.BACK_PRESSURED
            || result == Publication.ADMIN_ACTION)
        {
            Thread.onSpinWait();
        }
        if (result < 0)
        {
            unsent++;
        }
        else if (header.templateId() == TelemetryDecoder.TEMPLATE_ID)
        {
            samples++;
        }
        else
        {
            events++;
        }
    }

    /** Within --from..--to of the first message, or --before..--after of the chosen fault. */
    private boolean inWindow(final long timeNs)
    {
        if (faultNs != Long.MIN_VALUE)
        {
            return timeNs >= faultNs - Math.round(beforeS * 1e9) && timeNs <= faultNs + Math.round(afterS * 1e9);
        }
        final long atNs = timeNs - firstNs;
        return atNs >= Math.round(fromS * 1e9) && (toS == Double.POSITIVE_INFINITY || atNs <= Math.round(toS * 1e9));
    }

    private void pace(final long timeNs)
    {
        if (pacedFromNs == Long.MIN_VALUE)
        {
            pacedFromNs = timeNs;
            wallStartNs = System.nanoTime();
        }
        if (speed == 0)
        {
            return;
        }
        final long dueNs = wallStartNs + (long)((timeNs - pacedFromNs) / speed);
        long waitNs;
        while ((waitNs = dueNs - System.nanoTime()) > 0)
        {
            LockSupport.parkNanos(Math.min(waitNs, TimeUnit.MILLISECONDS.toNanos(1)));
        }
    }
}
