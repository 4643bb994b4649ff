package org.nectl.service.planner;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.transport.CommandLimits;
import org.nectl.transport.IdleStrategyKind;
import org.nectl.transport.PlannerCommandHandler;
import org.nectl.transport.PlannerGateway;
import org.nectl.transport.PlannerAuthentication;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.PayloadCommandDecoder;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * A real planner gateway for a 7-joint arm (positions within +/-2 rad, velocities within 1.5 rad/s)
 * on its own agent thread, bound to an ephemeral loopback UDP port, and a recorder of what it
 * queues for the control loop.
 */
public final class GatewayRig implements AutoCloseable
{
    /** Joints of the arm the gateway checks commands for. */
    public static final int DOF = 7;
    /** Position limit of every joint, rad. */
    public static final double POSITION_LIMIT_RAD = 2.0;
    /** Velocity limit of every joint, rad/s. */
    public static final double VELOCITY_LIMIT_RAD_PER_S = 1.5;

    /** The development keys shipped for `nectl plan` (planner 1) and the Python example (planner 2). */
    public static final Path DEVELOPMENT_KEYS = Path.of("../config/deploy/keys/development.keys");

    /**
     * A clone checks the shipped keys out with mode 0644, which {@link PlannerKeys#read} refuses (the
     * launcher restricts them to 0600 when it starts): tests read a private copy.
     *
     * @param directory a scratch directory of the test.
     * @return a copy of the development keys in it, mode 0600.
     */
    public static Path developmentKeys(final Path directory)
    {
        try
        {
            final Path copy = directory.resolve("development.keys");
            if (!Files.exists(copy, LinkOption.NOFOLLOW_LINKS))
            {
                Files.copy(DEVELOPMENT_KEYS, copy);
                Files.setPosixFilePermissions(copy, PosixFilePermissions.fromString("rw-------"));
            }
            return copy;
        }
        catch (final IOException e)
        {
            throw new UncheckedIOException(e);
        }
    }

    private final PlannerKeys keys;
    private final List<Throwable> agentErrors = new CopyOnWriteArrayList<>();
    private final PlannerGateway gateway;
    private final AgentRunner runner;

    /** Binds the gateway, accepting planners 1, 2 and 77 with fresh random keys, and starts its agent thread. */
    public GatewayRig()
    {
        this(PlannerKeys.generate(new SecureRandom(), 1, 2, 77));
    }

    /**
     * Binds the gateway, checking commands against ±{@value #POSITION_LIMIT_RAD} rad and
     * {@value #VELOCITY_LIMIT_RAD_PER_S} rad/s, and starts its agent thread.
     *
     * @param keys the planners' keys the gateway accepts.
     */
    public GatewayRig(final PlannerKeys keys)
    {
        this(keys, uniformLimits());
    }

    /**
     * Binds the gateway and starts its agent thread.
     *
     * @param keys the planners' keys the gateway accepts.
     * @param limits the joint count and limits commands must respect.
     */
    public GatewayRig(final PlannerKeys keys, final CommandLimits limits)
    {
        this.keys = keys;
        gateway = new PlannerGateway(PlannerGatewayConfig.defaults(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            PlannerAuthentication.loopback(keys)), limits, new SystemNanoClock());
        runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, gateway);
        AgentRunner.startOnThread(runner);
    }

    private static CommandLimits uniformLimits()
    {
        final double[] min = new double[DOF];
        final double[] max = new double[DOF];
        final double[] velocity = new double[DOF];
        Arrays.fill(min, -POSITION_LIMIT_RAD);
        Arrays.fill(max, POSITION_LIMIT_RAD);
        Arrays.fill(velocity, VELOCITY_LIMIT_RAD_PER_S);
        return new CommandLimits(min, max, velocity);
    }

    /** @return the planners' keys the gateway accepts. */
    public PlannerKeys keys()
    {
        return keys;
    }

    /** @return the gateway. */
    public PlannerGateway gateway()
    {
        return gateway;
    }

    /** @return the gateway's bound address. */
    public InetSocketAddress address()
    {
        return gateway.localAddress();
    }

    /** @return everything queued for the loop so far, drained. */
    public Recorder drain()
    {
        final Recorder recorder = new Recorder();
        while (gateway.commandQueue().drain(recorder, 100) > 0)
        {
            assertTrue(recorder.events.size() < 100_000, "queue drains");
        }
        return recorder;
    }

    /** Stops the agent and closes the socket; fails if the agent reported errors. */
    @Override
    public void close()
    {
        runner.close();
        assertTrue(agentErrors.isEmpty(), "gateway agent errors: " + agentErrors);
    }

    /** Records what the control loop would receive: one event line per command, waypoints and setpoints in full. */
    public static final class Recorder implements PlannerCommandHandler
    {
        private final List<String> events = new ArrayList<>();
        private final List<Long> timesNs = new ArrayList<>();
        private final List<double[]> joints = new ArrayList<>();

        /** @return one line per command, e.g. "mode 12 ENABLE PD_GRAVITY", "segment 13 1 chunk 0/8", "setpoint 14". */
        public List<String> events()
        {
            return events;
        }

        /** @return waypoint times of every segment chunk, ns, in arrival order. */
        public List<Long> timesNs()
        {
            return timesNs;
        }

        /** @return per joint {q, qd, qdd} of every waypoint, or {q, qd, qdd, qddd} of every setpoint, in arrival order. */
        public List<double[]> joints()
        {
            return joints;
        }

        @Override
        public void onTrajectorySegment(final TrajectorySegmentDecoder segment)
        {
            events.add("segment " + segment.header().sequence() + " " + segment.segmentId() + " chunk " + segment.chunkIndex()
                + "/" + segment.chunkCount());
            for (final TrajectorySegmentDecoder.WaypointsDecoder waypoint : segment.waypoints())
            {
                timesNs.add(waypoint.timeFromStartNs());
                for (final TrajectorySegmentDecoder.WaypointsDecoder.JointsDecoder joint : waypoint.joints())
                {
                    joints.add(new double[] {joint.q(), joint.qd(), joint.qdd()});
                }
            }
        }

        @Override
        public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
        {
            events.add("setpoint " + setpoint.header().sequence());
            for (final StreamSetpointDecoder.JointsDecoder joint : setpoint.joints())
            {
                joints.add(new double[] {joint.q(), joint.qd(), joint.qdd(), joint.qddd()});
            }
        }

        @Override
        public void onModeRequest(final ModeRequestDecoder request)
        {
            events.add("mode " + request.header().sequence() + " " + request.request() + " " + request.controller());
        }

        @Override
        public void onEStop(final EStopDecoder stop)
        {
            events.add("estop " + stop.header().sequence());
        }

        @Override
        public void onPayload(final PayloadCommandDecoder payload)
        {
            events.add(String.format(java.util.Locale.ROOT, "payload %d link %d %.3f kg at %.3f,%.3f,%.3f inertia %.4f,%.4f,%.4f,%.4f,%.4f,%.4f ramp %d ns",
                payload.header().sequence(), payload.link(), payload.mass(), payload.comX(), payload.comY(), payload.comZ(),
                payload.ixx(), payload.ixy(), payload.ixz(), payload.iyy(), payload.iyz(), payload.izz(), payload.rampNs()));
        }
    }
}
