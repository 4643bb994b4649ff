package org.nectl.transport;

import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopEncoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.ModeRequestEncoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PlannerHeaderEncoder;
import org.nectl.transport.sbe.StreamSetpointEncoder;
import org.nectl.transport.sbe.TrajectorySegmentEncoder;

/**
 * Builds planner datagrams (SBE message + 32-byte HMAC-SHA256 trailer) as a planner would send
 * them, stamped with the tests' fixed UTC time {@link #NOW_MS} and signed with {@link #KEYS}.
 */
final class PlannerDatagrams
{
    static final long PLANNER_ID = 4242L;
    /** The UTC time, ms, of the gateway clock in tests: 2026-11-01T00:00:00Z. */
    static final long NOW_MS = 1_793_491_200_000L;
    /** The test planner's key: bytes 0x40..0x5f. */
    static final PlannerKeys KEYS = PlannerKeys.of(PLANNER_ID, keyBytes(0x40));
    private static final long NOW_NS = NOW_MS * 1_000_000L;
    private static final int CAPACITY = 8192;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CAPACITY]);
    private final PlannerSigner signer = new PlannerSigner(KEYS, PLANNER_ID, CAPACITY);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();

    /** A StreamSetpoint whose joint k has q = q[k], qd = qd[k], qdd = 0.1 k, qddd = -0.1 k. */
    byte[] setpoint(final long sequence, final double[] q, final double[] qd)
    {
        final StreamSetpointEncoder encoder = new StreamSetpointEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(NOW_NS).plannerId(PLANNER_ID);
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
        encoder.header().sequence(sequence).timestampNs(NOW_NS).plannerId(PLANNER_ID);
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
        encoder.header().sequence(sequence).timestampNs(NOW_NS).plannerId(PLANNER_ID);
        encoder.request(request).controller(controller);
        return withTrailer(encoder.encodedLength());
    }

    byte[] eStop(final long sequence)
    {
        final EStopEncoder encoder = new EStopEncoder().wrapAndApplyHeader(buffer, 0, header);
        encoder.header().sequence(sequence).timestampNs(NOW_NS).plannerId(PLANNER_ID);
        return withTrailer(encoder.encodedLength());
    }

    /** Re-signs a datagram (e.g. after changing its bytes) over all but its last 32 bytes, in place. */
    byte[] resign(final byte[] datagram)
    {
        signer.sign(new UnsafeBuffer(datagram), datagram.length - Wire.AUTH_TRAILER_LENGTH);
        return datagram;
    }

    /** Gives a datagram another header.sequence and re-signs it, in place. */
    byte[] resign(final byte[] datagram, final long sequence)
    {
        new UnsafeBuffer(datagram).putLong(MessageHeaderEncoder.ENCODED_LENGTH + PlannerHeaderEncoder.sequenceEncodingOffset(),
            sequence, Wire.BYTE_ORDER);
        return resign(datagram);
    }

    /** @return 32 key bytes {@code first, first + 1, ...}. */
    static byte[] keyBytes(final int first)
    {
        final byte[] key = new byte[PlannerKeys.KEY_LENGTH];
        for (int i = 0; i < key.length; i++)
        {
            key[i] = (byte)(first + i);
        }
        return key;
    }

    private byte[] withTrailer(final int blockAndGroupsLength)
    {
        final int messageLength = MessageHeaderEncoder.ENCODED_LENGTH + blockAndGroupsLength;
        final int length = signer.sign(buffer, messageLength);
        return Arrays.copyOf(buffer.byteArray(), length);
    }
}
