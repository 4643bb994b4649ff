package org.nectl.service.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.aeron.CommonContext;
import org.agrona.CloseHelper;
import org.nectl.config.ClosedChains;
import org.nectl.config.DescriptionException;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.model.RobotModel;
import org.nectl.service.planner.CommandResult;
import org.nectl.service.planner.DemoMove;
import org.nectl.service.planner.HexapodPoseReferences;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.LoopEvents;
import org.nectl.service.planner.LoopOutcome;
import org.nectl.service.planner.PlannerClient;
import org.nectl.service.planner.PoseTrajectoryCsv;
import org.nectl.service.planner.TrajectoryCsv;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EventCommand;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nectl plan}: a command-line planner over UDP (docs/PLANNING.md). In order: EStop (alone),
 * or ENABLE, then a trajectory (one segment, or streamed setpoints), then HOLD, then DISABLE;
 * prints every reply and, read from the controller's event stream, the control loop's outcome of
 * every acknowledged command (docs/PROTOCOL.md, "Two stages: gateway ack, then loop outcome");
 * stops at the first command not accepted by either. Not real-time safe.
 */
@Command(
    name = "plan",
    mixinStandardHelpOptions = true,
    description = {
        "Sends planner commands to a running service's UDP gateway and prints the replies.",
        "Order: --estop alone; else --enable, the trajectory (--file, --poses or --demo; --stream to stream a --file or --demo), "
            + "--hold, --disable.",
        "Each acknowledged command then waits for the control loop's outcome on the controller's event stream",
        "(--aeron-dir); without that stream only the gateway's ack is known, and the output says so.",
        "Exit status: 0 all accepted, 1 a command rejected by the gateway, 2 bad option or file, 3 no reply from the gateway,",
        "4 a command refused by the control loop, 5 no loop outcome within --outcome-timeout-ms."
    })
final class PlanCommand implements Callable<Integer>
{
    /** Exit status when a command was rejected. */
    static final int REJECTED_EXIT_STATUS = 1;
    /** Exit status for a bad option or trajectory file. */
    static final int USAGE_EXIT_STATUS = 2;
    /** Exit status when the gateway did not answer. */
    static final int NO_REPLY_EXIT_STATUS = 3;
    /** Longest demo move, s: an hour, far beyond a demonstration, and its stream or segment stays bounded. */
    static final double MAX_DURATION_S = 3_600.0;
    /** Most waypoints sent as one segment: a segment carries at most 65 535 chunks of one or more waypoints each. */
    static final int MAX_SEGMENT_WAYPOINTS = 65_535;
    /** Exit status when the control loop refused a command the gateway had acknowledged. */
    static final int LOOP_REFUSED_EXIT_STATUS = 4;
    /** Exit status when the control loop's outcome did not arrive in time. */
    static final int NO_LOOP_OUTCOME_EXIT_STATUS = 5;

    @Spec
    private CommandSpec spec;

    private LoopEvents loopEvents;

    @Option(names = "--target", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + PlannerGatewayConfig.DEFAULT_PORT,
        description = "Planner gateway address; default ${DEFAULT-VALUE}.")
    private String target;

    @Option(names = "--planner-id", paramLabel = "ID", defaultValue = "1", description = "Planner id (uint32); default ${DEFAULT-VALUE}.")
    private long plannerId;

    @Option(names = "--key-file", paramLabel = "FILE", defaultValue = "config/deploy/keys/development.keys",
        description = "Planner key file holding this planner's HMAC-SHA256 key (docs/DEPLOYMENT.md); default ${DEFAULT-VALUE}"
            + " (development keys, never for a real robot).")
    private Path keyFile;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "1000",
        description = "How long each command waits for its reply; default ${DEFAULT-VALUE}.")
    private long timeoutMs;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running service, to read the loop's outcome of each command from its event "
            + "stream; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--events-channel", paramLabel = "CHANNEL", defaultValue = TelemetryConfig.IPC_CHANNEL,
        description = "Channel of the controller's event stream (its Telemetry publication); default ${DEFAULT-VALUE}.")
    private String eventsChannel;

    @Option(names = "--events-stream", paramLabel = "ID", defaultValue = "" + TelemetryConfig.STREAM_ID,
        description = "Stream id of the controller's event stream; default ${DEFAULT-VALUE}.")
    private int eventsStreamId;

    @Option(names = "--outcome-timeout-ms", paramLabel = "MS", defaultValue = "1000",
        description = "How long each acknowledged command waits for the loop's outcome (and for the event stream at start); "
            + "a stream waits this long for the loop to leave TRACKING, so it must exceed command_timeout_ms; default ${DEFAULT-VALUE}.")
    private long outcomeTimeoutMs;

    @Option(names = "--ack-only", description = "Do not read the loop's outcome: report the gateway's acks only.")
    private boolean ackOnly;

    @Option(names = "--controller", paramLabel = "NAME", defaultValue = "unchanged",
        description = "Control law for --enable/--hold/--disable: computed_torque, pd_gravity, mixed_elastic, unchanged; "
            + "default ${DEFAULT-VALUE}.")
    private String controller;

    @Option(names = "--reset", description = "Send ModeRequest RESET first: out of FAULT or ESTOP to IDLE, STANDSTILL to ENABLED.")
    private boolean reset;

    @Option(names = "--enable", description = "Send ModeRequest ENABLE first (after --reset).")
    private boolean enable;

    @Option(names = "--hold", description = "Send ModeRequest HOLD after the trajectory.")
    private boolean hold;

    @Option(names = "--disable", description = "Send ModeRequest DISABLE last.")
    private boolean disable;

    @Option(names = "--estop", description = "Send an EStop and nothing else.")
    private boolean estop;

    @Option(names = "--set-payload", paramLabel = "SPEC",
        description = "Send a PayloadCommand after --enable: mass=KG,com=X,Y,Z[,inertia=XX,XY,XZ,YY,YZ,ZZ] (m in the link's frame, "
            + "kg·m² about the centre of mass; default a point mass), ramped into the controller's model (docs/PLANNING.md).")
    private String setPayload;

    @Option(names = "--clear-payload", description = "Send a PayloadCommand with mass 0: back to the description's own model.")
    private boolean clearPayload;

    @Option(names = "--payload-link", paramLabel = "INDEX|flange", defaultValue = "flange",
        description = "Link carrying the payload: body index in the description, or flange (the last link); default ${DEFAULT-VALUE}.")
    private String payloadLink;

    @Option(names = "--payload-ramp-s", paramLabel = "S", defaultValue = "1",
        description = "Ramp of the payload change, s, in [0.01, 10]; default ${DEFAULT-VALUE}.")
    private double payloadRampS;

    @Option(names = "--file", paramLabel = "FILE", description = "Trajectory file: CSV with header t,q1,...,qn (docs/PLANNING.md).")
    private Path file;

    @Option(names = "--poses", paramLabel = "FILE",
        description = "Platform pose trajectory for a Gough-Stewart --model: CSV with header t,x,y,z,roll,pitch,yaw (m, rad), "
            + "sent as the leg lengths of its inverse kinematics (docs/PLANNING.md).")
    private Path poses;

    @Option(names = "--demo", description = "Send the built-in move: each joint out by --amplitude and back, minimum jerk.")
    private boolean demo;

    @Option(names = "--dof", paramLabel = "N", defaultValue = "7", description = "Joints of the demo move; default ${DEFAULT-VALUE}.")
    private int dof;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "4",
        description = "Duration of the demo move, s, up to 3600 (and at most 65535 waypoints as a segment); default ${DEFAULT-VALUE}.")
    private double durationS;

    @Option(names = "--amplitude", paramLabel = "RAD", defaultValue = "0.3",
        description = "Excursion of the demo move, rad or m; odd joints move the other way; default ${DEFAULT-VALUE}.")
    private double amplitude;

    @Option(names = "--start", paramLabel = "Q", split = ",",
        description = "Start pose of the demo move, comma separated (the arm's current pose); default all 0.")
    private double[] startQ;

    @Option(names = "--waypoint-ms", paramLabel = "MS", defaultValue = "20",
        description = "Waypoint spacing of the demo move sent as a segment; default ${DEFAULT-VALUE}.")
    private double waypointMs;

    @Option(names = "--stream", paramLabel = "RATE_HZ",
        description = "Stream the trajectory as StreamSetpoint commands at this rate instead of sending one segment "
            + "(a --file needs --model).")
    private Double streamRateHz;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "1",
        description = "Send the trajectory N times from this one process (a planner that stays up); default ${DEFAULT-VALUE}.")
    private int repeat;

    @Option(names = "--every", paramLabel = "S",
        description = "With --repeat: seconds from one trajectory's start to the next; default its duration + 0.5 s.")
    private Double everyS;

    @Option(names = "--model", paramLabel = "FILE",
        description = "Robot description (.yaml, .urdf): checks the trajectory against its limits (a closed-loop robot's "
            + "active joints); needed to stream a --file.")
    private Path modelFile;

    private PayloadSpec payload;

    /** Samples a reference curve at a time into caller-owned arrays. */
    @FunctionalInterface
    private interface Curve
    {
        void sample(double timeS, double[] q, double[] qd, double[] qdd, double[] qddd);
    }

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final InetSocketAddress gateway;
        final ControllerKind kind;
        final JointTrajectory trajectory;
        final Curve curve;
        final PlannerKeys keys;
        try
        {
            gateway = parseTarget(target);
            keys = ownKey(PlannerKeys.read(keyFile));
            kind = parseController(controller);
            checkOptions();
            payload = setPayload != null ? PayloadSpec.parse(setPayload, payloadLink)
                : clearPayload ? PayloadSpec.clear(payloadLink) : null;
            final RobotModel model = commandModel();
            trajectory = trajectory();
            curve = curve(model, trajectory);
        }
        catch (final IllegalArgumentException | DescriptionException | IOException | UncheckedIOException e)
        {
            err.println("nectl plan: " + e.getMessage());
            return USAGE_EXIT_STATUS;
        }
        loopEvents = ackOnly ? null : connectLoopEvents(out);
        try (PlannerClient client = new PlannerClient(gateway, plannerId, keys, Duration.ofMillis(timeoutMs),
            PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH))
        {
            return send(client, kind, trajectory, curve, out);
        }
        finally
        {
            CloseHelper.quietClose(loopEvents);
        }
    }

    /** Subscribes to the controller's events before the first command, or says why only the gateway's acks will be known. */
    private LoopEvents connectLoopEvents(final PrintWriter out)
    {
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        try
        {
            // An EStop goes out at once: the subscription sees its outcome without waiting for the publication first.
            final long connectTimeoutNs = estop ? 0L : TimeUnit.MILLISECONDS.toNanos(outcomeTimeoutMs);
            return LoopEvents.connect(directory, eventsChannel, eventsStreamId, connectTimeoutNs);
        }
        catch (final IllegalStateException e)
        {
            printOutcomeUnknown(out, e.getMessage());
            return null;
        }
    }

    private static void printOutcomeUnknown(final PrintWriter out, final String why)
    {
        out.println("loop outcome: unknown, " + why + " (give the service's --aeron-dir); only the gateway's acks are "
            + "reported, and an ack does not mean the loop applied the command");
        out.flush();
    }

    private PlannerKeys ownKey(final PlannerKeys keys)
    {
        if (!keys.contains(plannerId))
        {
            throw new IllegalArgumentException(keyFile + " has no key for planner " + plannerId + " (--planner-id); it has keys for "
                + keys.plannerIds());
        }
        return keys.only(plannerId);
    }

    private int send(final PlannerClient client, final ControllerKind kind, final JointTrajectory trajectory, final Curve curve,
        final PrintWriter out)
    {
        if (estop)
        {
            return report(out, "estop", client.eStop(), EventCommand.ESTOP);
        }
        int status = reset ? report(out, "reset", client.reset(), EventCommand.RESET) : 0;
        if (status == 0 && enable)
        {
            status = report(out, "enable", client.enable(kind), EventCommand.ENABLE);
        }
        if (status == 0 && payload != null)
        {
            status = report(out, payload.describe(), client.setPayload(payload.link(), payload.massKg(), payload.comM(),
                payload.inertiaAtComKgM2(), Math.round(payloadRampS * 1e9)), EventCommand.PAYLOAD);
        }
        if (status == 0 && trajectory != null)
        {
            final long everyNs = Math.round((everyS != null ? everyS : trajectory.durationS() + 0.5) * 1e9);
            final long startNs = System.nanoTime();
            int sent = 0;
            while (status == 0 && sent < repeat)
            {
                parkUntil(startNs + sent * everyNs);
                status = streamRateHz != null
                    ? stream(client, curve, trajectory.jointCount(), trajectory.durationS(), out)
                    : report(out, "trajectory of " + trajectory.waypointCount() + " waypoints, " + trajectory.durationS() + " s",
                        client.sendTrajectory(trajectory), EventCommand.TRAJECTORY);
                sent++;
            }
            if (repeat > 1)
            {
                out.printf(Locale.ROOT, "repeat: %d of %d trajectories accepted%n", status == 0 ? sent : sent - 1, repeat);
            }
        }
        if (status == 0 && hold)
        {
            status = report(out, "hold", client.hold(kind), EventCommand.HOLD);
        }
        if (status == 0 && disable)
        {
            status = report(out, "disable", client.disable(kind), EventCommand.DISABLE);
        }
        out.flush();
        return status;
    }

    /** Streams the curve at the requested rate, paced by the monotonic clock; stops at the first setpoint not accepted. */
    private int stream(final PlannerClient client, final Curve curve, final int jointCount, final double durationS,
        final PrintWriter out)
    {
        final double[] q = new double[jointCount];
        final double[] qd = new double[jointCount];
        final double[] qdd = new double[jointCount];
        final double[] qddd = new double[jointCount];
        final long periodNs = Math.round(1e9 / streamRateHz);
        final long count = (long)Math.ceil(durationS * streamRateHz - 1e-9) + 1;
        final long startNs = System.nanoTime();
        for (long i = 0; i < count; i++)
        {
            parkUntil(startNs + i * periodNs);
            curve.sample(Math.min(i / streamRateHz, durationS), q, qd, qdd, qddd);
            final CommandResult result = client.sendSetpoint(q, qd, qdd, qddd);
            if (!result.accepted())
            {
                out.printf(Locale.ROOT, "stream: setpoint %d of %d: %s%n", i + 1, count, result.describe());
                return exitStatus(result);
            }
            final LoopOutcome refusal = loopEvents != null ? loopEvents.setpointRefusal() : null;
            if (refusal != null)
            {
                out.printf(Locale.ROOT, "stream: after setpoint %d of %d: loop: a setpoint %s%n", i + 1, count, refusal.describe());
                return LOOP_REFUSED_EXIT_STATUS;
            }
        }
        out.printf(Locale.ROOT, "stream: %d setpoints at %.1f Hz over %.3f s accepted", count, streamRateHz, durationS);
        if (loopEvents == null)
        {
            out.println();
            return 0;
        }
        final LoopOutcome outcome = loopEvents.awaitStreamEnd(TimeUnit.MILLISECONDS.toNanos(outcomeTimeoutMs));
        out.println("; loop: " + outcome.describe());
        return exitStatus(outcome);
    }

    /** Waits until the monotonic clock reaches dueNs. */
    private static void parkUntil(final long dueNs)
    {
        for (long waitNs = dueNs - System.nanoTime(); waitNs > 0; waitNs = dueNs - System.nanoTime())
        {
            LockSupport.parkNanos(waitNs);
        }
    }

    /** Prints the gateway's reply and, once acknowledged, the loop's outcome; returns the exit status so far. */
    private int report(final PrintWriter out, final String what, final CommandResult result, final EventCommand command)
    {
        out.print(what + ": " + result.describe());
        if (!result.accepted() || loopEvents == null)
        {
            out.println();
            out.flush();
            return exitStatus(result);
        }
        final LoopOutcome outcome = loopEvents.await(command, TimeUnit.MILLISECONDS.toNanos(outcomeTimeoutMs));
        if (outcome.verdict() == LoopOutcome.Verdict.NONE && !loopEvents.publisherSeen())
        {
            out.println();
            printOutcomeUnknown(out, "no controller publishes on " + eventsChannel + " stream " + eventsStreamId);
            return exitStatus(result);
        }
        out.println("; loop: " + outcome.describe());
        out.flush();
        return exitStatus(outcome);
    }

    private static int exitStatus(final LoopOutcome outcome)
    {
        return switch (outcome.verdict())
        {
            case ACCEPTED -> 0;
            case REFUSED -> LOOP_REFUSED_EXIT_STATUS;
            case NONE -> NO_LOOP_OUTCOME_EXIT_STATUS;
        };
    }

    private static int exitStatus(final CommandResult result)
    {
        return switch (result.outcome())
        {
            case ACCEPTED -> 0;
            case REJECTED -> REJECTED_EXIT_STATUS;
            case TIMED_OUT, UNREACHABLE -> NO_REPLY_EXIT_STATUS;
        };
    }

    private void checkOptions()
    {
        if (setPayload != null && clearPayload)
        {
            throw new IllegalArgumentException("--set-payload and --clear-payload exclude each other");
        }
        if (!(payloadRampS >= 0.01 && payloadRampS <= 10.0))
        {
            throw new IllegalArgumentException("--payload-ramp-s must be in [0.01, 10] s, got " + payloadRampS);
        }
        final boolean payloadCommand = setPayload != null || clearPayload;
        final boolean trajectoryGiven = file != null || poses != null || demo;
        if (estop && (reset || enable || hold || disable || trajectoryGiven || payloadCommand))
        {
            throw new IllegalArgumentException("--estop is sent alone");
        }
        if ((file != null ? 1 : 0) + (poses != null ? 1 : 0) + (demo ? 1 : 0) > 1)
        {
            throw new IllegalArgumentException("--file, --poses and --demo exclude each other");
        }
        if (!estop && !reset && !enable && !hold && !disable && !trajectoryGiven && !payloadCommand)
        {
            throw new IllegalArgumentException("nothing to send: give --reset, --enable, --set-payload, --clear-payload, --file, "
                + "--poses, --demo, --hold, --disable or --estop");
        }
        if (streamRateHz != null && !(streamRateHz > 0.0 && streamRateHz <= 10_000.0))
        {
            throw new IllegalArgumentException("--stream must be in (0, 10000] Hz, got " + streamRateHz);
        }
        if (streamRateHz != null && file == null && !demo)
        {
            throw new IllegalArgumentException("--stream needs a trajectory: --file or --demo (a --poses trajectory is sent as one "
                + "segment)");
        }
        if (repeat < 1)
        {
            throw new IllegalArgumentException("--repeat must be at least 1, got " + repeat);
        }
        if (everyS != null && !(everyS > 0.0 && everyS <= 86_400.0))
        {
            throw new IllegalArgumentException("--every must be in (0, 86400] s, got " + everyS);
        }
        if ((repeat > 1 || everyS != null) && !trajectoryGiven)
        {
            throw new IllegalArgumentException("--repeat and --every need a trajectory: --file, --poses or --demo");
        }
        if (timeoutMs <= 0)
        {
            throw new IllegalArgumentException("--timeout-ms must be > 0, got " + timeoutMs);
        }
        if (outcomeTimeoutMs <= 0 || outcomeTimeoutMs > 600_000)
        {
            throw new IllegalArgumentException("--outcome-timeout-ms must be in 1..600000, got " + outcomeTimeoutMs);
        }
    }

    private JointTrajectory trajectory() throws IOException
    {
        if (file != null || poses != null)
        {
            final JointTrajectory read = file != null ? TrajectoryCsv.read(file) : poseTrajectory();
            if (streamRateHz == null && read.waypointCount() > MAX_SEGMENT_WAYPOINTS)
            {
                throw new IllegalArgumentException((file != null ? file : poses) + ": " + read.waypointCount()
                    + " waypoints, more than the " + MAX_SEGMENT_WAYPOINTS + " one segment holds");
            }
            return read;
        }
        return demo ? demoMove().toTrajectory(waypointMs * 1e-3) : null;
    }

    /**
     * The model a joint trajectory is checked against: the description, or for a Gough-Stewart
     * platform its six actuators (it is commanded in leg lengths); none for --poses, whose model the
     * pose references read themselves.
     */
    private RobotModel commandModel()
    {
        if (modelFile == null || poses != null)
        {
            return null;
        }
        return GoughStewartDescriptions.isGoughStewart(modelFile)
            ? HexapodPoseReferences.actuators(GoughStewartDescriptions.load(modelFile)) : ClosedChains.controlledJoints(modelFile);
    }

    /** The leg lengths of the --poses trajectory for the Gough-Stewart --model. */
    private JointTrajectory poseTrajectory() throws IOException
    {
        // A missing or unreadable file is left to the loader, which says why.
        if (modelFile == null || Files.isRegularFile(modelFile) && !GoughStewartDescriptions.isGoughStewart(modelFile))
        {
            throw new IllegalArgumentException("--poses needs --model, a Gough-Stewart description (format: gough-stewart)"
                + (modelFile == null ? "" : "; " + modelFile + " is not one"));
        }
        return HexapodPoseReferences.legLengths(GoughStewartDescriptions.load(modelFile), PoseTrajectoryCsv.read(poses));
    }

    private DemoMove demoMove()
    {
        if (dof < 1 || dof > 32)
        {
            throw new IllegalArgumentException("--dof must be in 1..32, got " + dof);
        }
        if (startQ != null && startQ.length != dof)
        {
            throw new IllegalArgumentException("--start has " + startQ.length + " values, --dof is " + dof);
        }
        if (!(durationS > 0.0 && durationS <= MAX_DURATION_S))
        {
            throw new IllegalArgumentException("--duration must be in (0, " + (int)MAX_DURATION_S + "] s, got " + durationS);
        }
        if (!(waypointMs > 0.0))
        {
            throw new IllegalArgumentException("--waypoint-ms must be > 0, got " + waypointMs);
        }
        if (streamRateHz == null && durationS / (waypointMs * 1e-3) >= MAX_SEGMENT_WAYPOINTS)
        {
            throw new IllegalArgumentException("--duration " + durationS + " s at --waypoint-ms " + waypointMs + " makes more than "
                + MAX_SEGMENT_WAYPOINTS + " waypoints, the most one segment holds");
        }
        return new DemoMove(startQ != null ? startQ : new double[dof], amplitude, durationS);
    }

    /** The curve to stream; with a model, also checks the trajectory against the model's limits. */
    private Curve curve(final RobotModel model, final JointTrajectory trajectory)
    {
        if (trajectory == null)
        {
            return null;
        }
        final TrajectorySampler sampler = model != null ? sampler(model, trajectory) : null;
        if (demo)
        {
            return demoMove()::sample;
        }
        if (streamRateHz != null && sampler == null)
        {
            throw new IllegalArgumentException("streaming a --file needs --model to interpolate between its waypoints");
        }
        if (sampler == null)
        {
            return null;
        }
        final double[] snap = new double[trajectory.jointCount()];
        return (timeS, q, qd, qdd, qddd) -> sampler.sample(timeS, q, qd, qdd, qddd, snap);
    }

    private static TrajectorySampler sampler(final RobotModel model, final JointTrajectory trajectory)
    {
        if (trajectory.waypointCount() < 2)
        {
            throw new IllegalArgumentException("a trajectory checked against a model needs at least 2 waypoints");
        }
        final double[] timesS = new double[trajectory.waypointCount()];
        final double[][] q = new double[timesS.length][trajectory.jointCount()];
        for (int p = 0; p < timesS.length; p++)
        {
            timesS[p] = trajectory.timeS(p);
            for (int k = 0; k < q[p].length; k++)
            {
                q[p][k] = trajectory.q(p, k);
            }
        }
        return new TrajectorySampler(model, new JointWaypoints(timesS, q));
    }

    static InetSocketAddress parseTarget(final String target)
    {
        return parseAddress("--target", target);
    }

    /**
     * @param option the option's name, for the message.
     * @param target HOST:PORT.
     * @return the resolved address.
     * @throws IllegalArgumentException naming the option and what is wrong.
     */
    static InetSocketAddress parseAddress(final String option, final String target)
    {
        final int colon = target.lastIndexOf(':');
        if (colon <= 0 || colon == target.length() - 1)
        {
            throw new IllegalArgumentException(option + " must be HOST:PORT, got '" + target + "'");
        }
        final int port;
        try
        {
            port = Integer.parseInt(target.substring(colon + 1));
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(option + " port must be a number, got '" + target.substring(colon + 1) + "'", e);
        }
        if (port < 1 || port > 65_535)
        {
            throw new IllegalArgumentException(option + " port must be in 1..65535, got " + port);
        }
        final InetSocketAddress address = new InetSocketAddress(target.substring(0, colon), port);
        if (address.isUnresolved())
        {
            throw new IllegalArgumentException(option + " host '" + target.substring(0, colon) + "' does not resolve");
        }
        return address;
    }

    static ControllerKind parseController(final String name)
    {
        final String normalised = name.strip().toUpperCase(Locale.ROOT).replace('-', '_');
        for (final ControllerKind kind : ControllerKind.values())
        {
            if (kind != ControllerKind.NULL_VAL && kind.name().equals(normalised))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("--controller must be computed_torque, pd_gravity, mixed_elastic or unchanged, got '"
            + name + "'");
    }
}
