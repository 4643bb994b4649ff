package org.nectl.service.planner;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.SocketTimeoutException;
import java.time.Duration;

import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.PlannerSigner;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.CommandAckDecoder;
import org.nectl.transport.sbe.CommandRejectDecoder;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopEncoder;
import org.nectl.transport.sbe.GroupSizeEncodingEncoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.ModeRequestEncoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PayloadCommandEncoder;
import org.nectl.transport.sbe.PlannerHeaderEncoder;
import org.nectl.transport.sbe.StreamSetpointEncoder;
import org.nectl.transport.sbe.TrajectorySegmentEncoder;

/**
 * A planner's end of the UDP command link (docs/PROTOCOL.md): encodes ModeRequest, EStop,
 * TrajectorySegment (chunked to the gateway's datagram limit) and StreamSetpoint commands, sends
 * each to the planner gateway and waits for the CommandAck or CommandReject carrying its sequence.
 *
 * <p>Sequences start at the wall-clock time in nanoseconds and increase by one per datagram, so
 * they keep increasing across restarts of a planner with the same id. Every datagram carries the
 * UTC time and is signed with the planner's HMAC-SHA256 key (docs/PROTOCOL.md, "Authentication").
 *
 * <p>Not real-time safe (blocking socket I/O). Not thread safe: one thread per client.
 */
public final class PlannerClient implements AutoCloseable
{
    /** {@link CommandResult#jointIndex()} when a rejection does not concern one joint. */
    public static final int NO_JOINT = 255;

    private static final int TRAJECTORY_BLOCK_END = Wire.HEADER_LENGTH + TrajectorySegmentEncoder.BLOCK_LENGTH
        + GroupSizeEncodingEncoder.ENCODED_LENGTH;
    private static final int WAYPOINT_FIXED_LENGTH = TrajectorySegmentEncoder.WaypointsEncoder.sbeBlockLength()
        + GroupSizeEncodingEncoder.ENCODED_LENGTH;
    private static final int WAYPOINT_JOINT_LENGTH = TrajectorySegmentEncoder.WaypointsEncoder.JointsEncoder.sbeBlockLength();

    private final DatagramSocket socket;
    private final long plannerId;
    private final PlannerSigner signer;
    private final long replyTimeoutNs;
    private final int maxDatagramLength;
    private final byte[] sendBytes;
    private final UnsafeBuffer sendBuffer;
    private final DatagramPacket sendPacket;
    private final byte[] replyBytes = new byte[64];
    private final UnsafeBuffer replyBuffer = new UnsafeBuffer(replyBytes);
    private final DatagramPacket replyPacket = new DatagramPacket(replyBytes, replyBytes.length);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ModeRequestEncoder modeEncoder = new ModeRequestEncoder();
    private final PayloadCommandEncoder payloadEncoder = new PayloadCommandEncoder();
    private final EStopEncoder stopEncoder = new EStopEncoder();
    private final TrajectorySegmentEncoder segmentEncoder = new TrajectorySegmentEncoder();
    private final StreamSetpointEncoder setpointEncoder = new StreamSetpointEncoder();
    private final CommandAckDecoder ackDecoder = new CommandAckDecoder();
    private final CommandRejectDecoder rejectDecoder = new CommandRejectDecoder();
    private long nextSequence = System.currentTimeMillis() * 1_000_000L;
    private long nextSegmentId = 1;

    /**
     * Opens an ephemeral UDP socket connected to the gateway. Not real-time safe.
     *
     * @param gateway the gateway's UDP address.
     * @param plannerId this planner's identity, uint32, echoed in replies.
     * @param keys keys including this planner's; only its own is used.
     * @param replyTimeout how long each command waits for its reply.
     * @param maxDatagramLength the gateway's longest accepted datagram, bytes, trailer included (default 1472).
     */
    public PlannerClient(final InetSocketAddress gateway, final long plannerId, final PlannerKeys keys,
        final Duration replyTimeout, final int maxDatagramLength)
    {
        if (plannerId < 0 || plannerId > 0xFFFF_FFFFL)
        {
            throw new IllegalArgumentException("planner id " + plannerId + " outside 0..4294967295");
        }
        if (maxDatagramLength < TRAJECTORY_BLOCK_END + WAYPOINT_FIXED_LENGTH + WAYPOINT_JOINT_LENGTH + Wire.AUTH_TRAILER_LENGTH)
        {
            throw new IllegalArgumentException("maxDatagramLength " + maxDatagramLength + " cannot hold one waypoint");
        }
        this.plannerId = plannerId;
        this.signer = new PlannerSigner(keys, plannerId, maxDatagramLength);
        this.replyTimeoutNs = replyTimeout.toNanos();
        this.maxDatagramLength = maxDatagramLength;
        sendBytes = new byte[maxDatagramLength];
        sendBuffer = new UnsafeBuffer(sendBytes);
        sendPacket = new DatagramPacket(sendBytes, 0);
        try
        {
            socket = new DatagramSocket();
            socket.connect(gateway);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open a UDP socket to " + gateway, ex);
        }
    }

    /**
     * @return waypoints of {@code jointCount} joints that fit one TrajectorySegment datagram of
     *     {@code maxDatagramLength} bytes (docs/PROTOCOL.md: 7 for 7 joints in 1472 bytes).
     */
    public static int waypointsPerChunk(final int jointCount, final int maxDatagramLength)
    {
        return (maxDatagramLength - TRAJECTORY_BLOCK_END - Wire.AUTH_TRAILER_LENGTH)
            / (WAYPOINT_FIXED_LENGTH + WAYPOINT_JOINT_LENGTH * jointCount);
    }

    /** Asks for ENABLE (IDLE to ENABLED) with {@code controller} (UNCHANGED keeps the current one). */
    public CommandResult enable(final ControllerKind controller)
    {
        return modeRequest(ModeRequestKind.ENABLE, controller);
    }

    /** Asks for DISABLE (to IDLE, drives off). */
    public CommandResult disable(final ControllerKind controller)
    {
        return modeRequest(ModeRequestKind.DISABLE, controller);
    }

    /**
     * Asks for the operator RESET (schema version 2): FAULT or ESTOP to IDLE, STANDSTILL to ENABLED,
     * clearing the latched faults.
     */
    public CommandResult reset()
    {
        return modeRequest(ModeRequestKind.RESET, ControllerKind.UNCHANGED);
    }

    /** Asks for HOLD (hold the last reference with gravity compensation). */
    public CommandResult hold(final ControllerKind controller)
    {
        return modeRequest(ModeRequestKind.HOLD, controller);
    }

    /** Sends a ModeRequest and waits for its reply. */
    public CommandResult modeRequest(final ModeRequestKind request, final ControllerKind controller)
    {
        final long sequence = nextSequence++;
        modeEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder);
        plannerHeader(modeEncoder.header(), sequence);
        modeEncoder.request(request).controller(controller);
        return exchange(sequence, modeEncoder.encodedLength());
    }

    /**
     * Sends a PayloadCommand and waits for its reply: the controller ramps its model to the robot
     * with this payload on {@code link} (it replaces the previous payload; mass 0 clears it).
     *
     * @param link body index in the robot description, or 255 for the last link (the flange).
     * @param massKg payload mass, kg.
     * @param comM centre of mass in the link's frame, m (3).
     * @param inertiaAtComKgM2 inertia about the centre of mass, link axes: xx, xy, xz, yy, yz, zz, kg·m².
     * @param rampNs ramp duration, ns.
     */
    public CommandResult setPayload(final int link, final double massKg, final double[] comM,
        final double[] inertiaAtComKgM2, final long rampNs)
    {
        final long sequence = nextSequence++;
        payloadEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder);
        plannerHeader(payloadEncoder.header(), sequence);
        final double[] i = inertiaAtComKgM2;
        payloadEncoder.rampNs(rampNs).mass(massKg).comX(comM[0]).comY(comM[1]).comZ(comM[2])
            .ixx(i[0]).ixy(i[1]).ixz(i[2]).iyy(i[3]).iyz(i[4]).izz(i[5]).link((short)link);
        return exchange(sequence, payloadEncoder.encodedLength());
    }

    /** Sends an EStop (the controller goes to FAULT) and waits for its reply. */
    public CommandResult eStop()
    {
        final long sequence = nextSequence++;
        stopEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder);
        plannerHeader(stopEncoder.header(), sequence);
        return exchange(sequence, stopEncoder.encodedLength());
    }

    /**
     * Sends {@code trajectory} as one segment in as many chunks as the datagram limit requires,
     * in order, each waiting for its reply; stops at the first chunk not accepted (the gateway then
     * discards the segment).
     *
     * @return the reply to the last chunk, or to the first chunk not accepted.
     */
    public CommandResult sendTrajectory(final JointTrajectory trajectory)
    {
        final int perChunk = waypointsPerChunk(trajectory.jointCount(), maxDatagramLength);
        final int chunkCount = (trajectory.waypointCount() + perChunk - 1) / perChunk;
        if (chunkCount > 0xFFFF)
        {
            throw new IllegalArgumentException(trajectory.waypointCount() + " waypoints need " + chunkCount
                + " chunks, more than 65535");
        }
        final long segmentId = nextSegmentId++ & 0xFFFF_FFFFL;
        CommandResult result = null;
        for (int chunk = 0; chunk < chunkCount; chunk++)
        {
            final int first = chunk * perChunk;
            result = sendChunk(trajectory, segmentId, chunk, chunkCount, first, Math.min(trajectory.waypointCount(), first + perChunk));
            if (!result.accepted())
            {
                break;
            }
        }
        return result;
    }

    /**
     * Sends one StreamSetpoint and waits for its reply.
     *
     * @param q desired positions, rad or m.
     * @param qd desired velocities, rad/s or m/s.
     * @param qdd desired accelerations, rad/s² or m/s².
     * @param qddd desired jerks, rad/s³ or m/s³.
     */
    public CommandResult sendSetpoint(final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        final long sequence = nextSequence++;
        setpointEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder);
        plannerHeader(setpointEncoder.header(), sequence);
        setpointEncoder.jointCount((short)q.length);
        final StreamSetpointEncoder.JointsEncoder joints = setpointEncoder.jointsCount(q.length);
        for (int k = 0; k < q.length; k++)
        {
            joints.next().q(q[k]).qd(qd[k]).qdd(qdd[k]).qddd(qddd[k]);
        }
        return exchange(sequence, setpointEncoder.encodedLength());
    }

    /** Closes the socket. */
    @Override
    public void close()
    {
        socket.close();
    }

    private CommandResult sendChunk(final JointTrajectory trajectory, final long segmentId, final int chunk,
        final int chunkCount, final int first, final int end)
    {
        final long sequence = nextSequence++;
        final int jointCount = trajectory.jointCount();
        segmentEncoder.wrapAndApplyHeader(sendBuffer, 0, headerEncoder);
        plannerHeader(segmentEncoder.header(), sequence);
        segmentEncoder.segmentId(segmentId).chunkIndex(chunk).chunkCount(chunkCount).jointCount((short)jointCount);
        final TrajectorySegmentEncoder.WaypointsEncoder waypoints = segmentEncoder.waypointsCount(end - first);
        for (int p = first; p < end; p++)
        {
            final TrajectorySegmentEncoder.WaypointsEncoder.JointsEncoder joints =
                waypoints.next().timeFromStartNs(Math.round(trajectory.timeS(p) * 1e9)).jointsCount(jointCount);
            for (int k = 0; k < jointCount; k++)
            {
                joints.next().q(trajectory.q(p, k)).qd(trajectory.qd(p, k)).qdd(trajectory.qdd(p, k));
            }
        }
        return exchange(sequence, segmentEncoder.encodedLength());
    }

    private void plannerHeader(final PlannerHeaderEncoder header, final long sequence)
    {
        header.sequence(sequence).timestampNs(SystemEpochNanoClock.INSTANCE.nanoTime()).plannerId(plannerId);
    }


    private CommandResult exchange(final long sequence, final int blockAndGroupsLength)
    {
        final int messageLength = Wire.HEADER_LENGTH + blockAndGroupsLength;
        sendPacket.setLength(signer.sign(sendBuffer, messageLength));
        final long deadlineNs = System.nanoTime() + replyTimeoutNs;
        try
        {
            socket.send(sendPacket);
            return awaitReply(sequence, deadlineNs);
        }
        catch (final PortUnreachableException ex)
        {
            return new CommandResult(CommandResult.Outcome.UNREACHABLE, sequence, null, NO_JOINT, 0L);
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("UDP exchange with the gateway failed", ex);
        }
    }

    /** Reads replies until the one for {@code sequence}; replies to earlier, timed-out commands are skipped. */
    private CommandResult awaitReply(final long sequence, final long deadlineNs) throws IOException
    {
        while (true)
        {
            final long remainingMs = Math.max(0L, (deadlineNs - System.nanoTime() + 999_999L) / 1_000_000L);
            if (remainingMs == 0)
            {
                return new CommandResult(CommandResult.Outcome.TIMED_OUT, sequence, null, NO_JOINT, 0L);
            }
            socket.setSoTimeout((int)Math.min(Integer.MAX_VALUE, remainingMs));
            try
            {
                replyPacket.setLength(replyBytes.length);
                socket.receive(replyPacket);
            }
            catch (final SocketTimeoutException ex)
            {
                return new CommandResult(CommandResult.Outcome.TIMED_OUT, sequence, null, NO_JOINT, 0L);
            }
            final CommandResult result = decodeReply(replyPacket.getLength(), sequence);
            if (result != null)
            {
                return result;
            }
        }
    }

    private CommandResult decodeReply(final int length, final long sequence)
    {
        if (length < Wire.HEADER_LENGTH)
        {
            return null;
        }
        headerDecoder.wrap(replyBuffer, 0);
        if (headerDecoder.schemaId() != Wire.SCHEMA_ID)
        {
            return null;
        }
        if (headerDecoder.templateId() == CommandAckDecoder.TEMPLATE_ID
            && length >= Wire.HEADER_LENGTH + CommandAckDecoder.BLOCK_LENGTH)
        {
            ackDecoder.wrapAndApplyHeader(replyBuffer, 0, headerDecoder);
            return ackDecoder.commandSequence() == sequence && ackDecoder.plannerId() == plannerId
                ? new CommandResult(CommandResult.Outcome.ACCEPTED, sequence, null, NO_JOINT, ackDecoder.gatewayTimestampNs())
                : null;
        }
        if (headerDecoder.templateId() == CommandRejectDecoder.TEMPLATE_ID
            && length >= Wire.HEADER_LENGTH + CommandRejectDecoder.BLOCK_LENGTH)
        {
            rejectDecoder.wrapAndApplyHeader(replyBuffer, 0, headerDecoder);
            return rejectDecoder.commandSequence() == sequence
                ? new CommandResult(CommandResult.Outcome.REJECTED, sequence, rejectDecoder.reason(),
                    rejectDecoder.jointIndex(), rejectDecoder.gatewayTimestampNs())
                : null;
        }
        return null;
    }
}
