package org.nectl.transport;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopEncoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.ModeRequestEncoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.StreamSetpointEncoder;
import org.nectl.transport.sbe.TrajectorySegmentEncoder;

/** Builds planner datagrams (SBE message + 32-byte zero trailer) as a planner would send them. */
final class PlannerDatagrams
{
    static final long PLANNER_ID = 4242L;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8192]);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    /** A StreamSetpoint whose joint k has q = q[k], qd = qd[k], qdd = 0.1 k, qddd = -0.1 k. */
    byte[] setpoint(final long sequence, final double[] q, final double[] qd)
    {
        final StreamSetpointEncoder encoder = new StreamSetpointEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(sequence * 1000).plannerId(PLANNER_ID);
        encoder.jointCount((short)q.length);
        final StreamSetpointEncoder.JointsEncoder joints = encoder.jointsCount(q.length);
        for (int k = 0; k < q.length; k++)
        {
            joints.next().q(q[k]).qd(qd[k]).qdd(0.1 * k).qddd(-0.1 * k);
        }
        return withTrailer(encoder.encodedLength());
    }

    /** One chunk of a segment: waypoints at times[p] ns with all joints at q = positions[p]. */
    byte[] segmentChunk(final long sequence, final long segmentId, final int chunkIndex, final int chunkCount,
        final int jointCount, final long[] timesNs, final double[] positions)
    {
        final TrajectorySegmentEncoder encoder = new TrajectorySegmentEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(0L).plannerId(PLANNER_ID);
        encoder.segmentId(segmentId).chunkIndex(chunkIndex).chunkCount(chunkCount).jointCount((short)jointCount);
        final TrajectorySegmentEncoder.WaypointsEncoder waypoints = encoder.waypointsCount(timesNs.length);
        for (int p = 0; p < timesNs.length; p++)
        {
            final TrajectorySegmentEncoder.WaypointsEncoder.JointsEncoder joints =
                waypoints.next().timeFromStartNs(timesNs[p]).jointsCount(jointCount);
            for (int k = 0; k < jointCount; k++)
            {
                joints.next().q(positions[p]).qd(0.0).qdd(0.0);
            }
        }
        return withTrailer(encoder.encodedLength());
    }

    byte[] modeRequest(final long sequence, final ModeRequestKind request, final ControllerKind controller)
    {
        final ModeRequestEncoder encoder = new ModeRequestEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(0L).plannerId(PLANNER_ID);
        encoder.request(request).controller(controller);
        return withTrailer(encoder.encodedLength());
    }

    byte[] eStop(final long sequence)
    {
        final EStopEncoder encoder = new EStopEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(0L).plannerId(PLANNER_ID);
        return withTrailer(encoder.encodedLength());
    }

    private byte[] withTrailer(final int blockAndGroupsLength)
    {
        final int messageLength = MessageHeaderEncoder.ENCODED_LENGTH + blockAndGroupsLength;
        final byte[] datagram = Arrays.copyOf(buffer.byteArray(), messageLength + PlannerCommandValidator.AUTH_TRAILER_LENGTH);
        Arrays.fill(datagram, messageLength, datagram.length, (byte)0);
        return datagram;
    }
}
