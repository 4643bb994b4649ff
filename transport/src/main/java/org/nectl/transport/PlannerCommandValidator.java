package org.nectl.transport;

import org.agrona.DirectBuffer;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.GroupSizeEncodingDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PayloadCommandDecoder;
import org.nectl.transport.sbe.PlannerHeaderDecoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * Decides whether one planner datagram is a well-formed, authenticated, in-range command
 * (docs/PROTOCOL.md, "Validation"). Checks, in order: datagram length, schema id, version, template,
 * block length, the authentication trailer, time window and sequence
 * ({@link PlannerCommandAuthenticator}), then the command's structure (group headers, counts, exact length), joint count, finite numbers,
 * position and velocity limits, field domains and chunk order. Remembers the trajectory segment in
 * progress so that its chunks arrive in order.
 *
 * <p>Real-time safe (allocation free) but meant for the gateway thread. Not thread safe.
 */
final class PlannerCommandValidator
{
    /** Result of {@link #validate} for an acceptable command; any other result is a RejectReason value. */
    static final int ACCEPTED = -1;
    /** Bytes of the authentication trailer that follows every planner command. */
    static final int AUTH_TRAILER_LENGTH = Wire.AUTH_TRAILER_LENGTH;
    /** {@link #jointIndex()} when the rejection does not concern one joint. */
    static final short NO_JOINT = 255;

    /** Largest payload mass a PayloadCommand may set, kg. */
    static final double MAX_PAYLOAD_MASS_KG = 20.0;
    /** Largest distance of a payload's centre of mass from its link's frame origin, m. */
    static final double MAX_PAYLOAD_COM_DISTANCE_M = 1.0;
    /** Shortest and longest payload ramp, ns. */
    static final long MIN_PAYLOAD_RAMP_NS = 10_000_000L;
    static final long MAX_PAYLOAD_RAMP_NS = 10_000_000_000L;
    /** CommandReject.jointIndex of a PayloadCommand names the field: these, then comX..comZ 1..3, ixx..izz 4..9. */
    static final short PAYLOAD_FIELD_MASS = 0;
    static final short PAYLOAD_FIELD_INERTIA = 4;
    static final short PAYLOAD_FIELD_RAMP = 10;

    private static final int NO_SEGMENT = -1;
    private static final int GROUP_HEADER_LENGTH = GroupSizeEncodingDecoder.ENCODED_LENGTH;

    private final int jointCount;
    private final int maxDatagramLength;
    private final CommandLimits limits;
    private final PlannerCommandAuthenticator authenticator;
    private final MessageHeaderDecoder header = new MessageHeaderDecoder();
    private final PlannerHeaderDecoder plannerHeader = new PlannerHeaderDecoder();
    private final TrajectorySegmentDecoder segment = new TrajectorySegmentDecoder();
    private final StreamSetpointDecoder setpoint = new StreamSetpointDecoder();
    private final ModeRequestDecoder modeRequest = new ModeRequestDecoder();
    private final PayloadCommandDecoder payload = new PayloadCommandDecoder();
    private final double[] payloadValues = new double[10];

    private DirectBuffer buffer;
    private int templateId;
    private long sequence;
    private long plannerId;
    private short jointIndex;
    private int messageLength;

    private long segmentId = NO_SEGMENT;
    private int segmentChunkCount;
    private int nextChunkIndex;
    private long lastWaypointTimeNs;

    PlannerCommandValidator(final CommandLimits limits, final int maxDatagramLength,
        final PlannerCommandAuthenticator authenticator)
    {
        this.limits = limits;
        this.authenticator = authenticator;
        this.jointCount = limits.jointCount();
        this.maxDatagramLength = maxDatagramLength;
    }

    /**
     * @param buffer datagram bytes from offset 0.
     * @param length datagram length, bytes.
     * @return {@link #ACCEPTED} or the {@link RejectReason} value.
     */
    int validate(final DirectBuffer buffer, final int length)
    {
        final int result = check(buffer, length);
        if (result != ACCEPTED && templateId == TrajectorySegmentDecoder.TEMPLATE_ID)
        {
            abortSegment();
        }
        return result;
    }

    private int check(final DirectBuffer buffer, final int length)
    {
        this.buffer = buffer;
        templateId = 0;
        sequence = 0;
        plannerId = 0;
        jointIndex = NO_JOINT;
        messageLength = length - AUTH_TRAILER_LENGTH;
        readEchoedFields(length);
        if (length > maxDatagramLength)
        {
            return RejectReason.OVERSIZED.value();
        }
        if (length < Wire.HEADER_LENGTH + AUTH_TRAILER_LENGTH)
        {
            return RejectReason.TRUNCATED.value();
        }
        final int headerResult = checkHeader();
        if (headerResult != ACCEPTED)
        {
            return headerResult;
        }
        if (messageLength < Wire.HEADER_LENGTH + header.blockLength())
        {
            return RejectReason.TRUNCATED.value();
        }
        final int authResult = authenticator.authenticate(buffer, messageLength, plannerId, sequence, plannerHeader.timestampNs());
        if (authResult != ACCEPTED)
        {
            return authResult;
        }
        return checkBody();
    }

    /**
     * Reads the fields a reply echoes as far as the datagram holds them, whatever else is wrong with
     * it: templateId from 8 bytes on; header.sequence and header.plannerId from 28 bytes on when
     * templateId is a planner command's (each starts with the planner header).
     */
    private void readEchoedFields(final int length)
    {
        if (length < Wire.HEADER_LENGTH)
        {
            return;
        }
        header.wrap(buffer, 0);
        templateId = header.templateId();
        if (length >= Wire.HEADER_LENGTH + PlannerHeaderDecoder.ENCODED_LENGTH && blockLength(templateId) >= 0)
        {
            plannerHeader.wrap(buffer, Wire.HEADER_LENGTH);
            sequence = plannerHeader.sequence();
            plannerId = plannerHeader.plannerId();
        }
    }

    /** Forgets the segment in progress: its next chunk must be chunk 0 again. */
    void abortSegment()
    {
        segmentId = NO_SEGMENT;
    }

    /** @return templateId of the last datagram, 0 if it was shorter than a message header. */
    int templateId()
    {
        return templateId;
    }

    /** @return header.sequence of the last datagram, 0 if unreadable (see {@link #readEchoedFields}). */
    long sequence()
    {
        return sequence;
    }

    /** @return header.plannerId of the last datagram, 0 if unreadable (see {@link #readEchoedFields}). */
    long plannerId()
    {
        return plannerId;
    }

    /** @return the joint whose value was rejected, or {@link #NO_JOINT}. */
    short jointIndex()
    {
        return jointIndex;
    }

    /** @return length of the SBE message of an accepted datagram (the datagram less its trailer). */
    int messageLength()
    {
        return messageLength;
    }

    private int checkHeader()
    {
        if (header.schemaId() != Wire.SCHEMA_ID)
        {
            return RejectReason.WRONG_SCHEMA_ID.value();
        }
        if (header.version() < 1 || header.version() > Wire.SCHEMA_VERSION)
        {
            return RejectReason.WRONG_SCHEMA_VERSION.value();
        }
        final int blockLength = blockLength(templateId);
        if (blockLength < 0)
        {
            return RejectReason.UNKNOWN_TEMPLATE.value();
        }
        if (header.blockLength() != blockLength)
        {
            return RejectReason.BLOCK_LENGTH_MISMATCH.value();
        }
        return ACCEPTED;
    }

    private static int blockLength(final int templateId)
    {
        switch (templateId)
        {
            case TrajectorySegmentDecoder.TEMPLATE_ID:
                return TrajectorySegmentDecoder.BLOCK_LENGTH;
            case StreamSetpointDecoder.TEMPLATE_ID:
                return StreamSetpointDecoder.BLOCK_LENGTH;
            case ModeRequestDecoder.TEMPLATE_ID:
                return ModeRequestDecoder.BLOCK_LENGTH;
            case EStopDecoder.TEMPLATE_ID:
                return EStopDecoder.BLOCK_LENGTH;
            case PayloadCommandDecoder.TEMPLATE_ID:
                return PayloadCommandDecoder.BLOCK_LENGTH;
            default:
                return -1;
        }
    }

    private int checkBody()
    {
        switch (templateId)
        {
            case TrajectorySegmentDecoder.TEMPLATE_ID:
                return checkSegment();
            case StreamSetpointDecoder.TEMPLATE_ID:
                return checkSetpoint();
            case ModeRequestDecoder.TEMPLATE_ID:
                return checkModeRequest();
            case PayloadCommandDecoder.TEMPLATE_ID:
                return checkPayload();
            default:
                return endsAt(Wire.HEADER_LENGTH + EStopDecoder.BLOCK_LENGTH);
        }
    }

    private int checkSetpoint()
    {
        setpoint.wrap(buffer, Wire.HEADER_LENGTH, StreamSetpointDecoder.BLOCK_LENGTH, Wire.SCHEMA_VERSION);
        if (setpoint.jointCount() != jointCount)
        {
            return RejectReason.WRONG_JOINT_COUNT.value();
        }
        final int groupResult = checkGroup(setpoint.limit(), StreamSetpointDecoder.JointsDecoder.sbeBlockLength(), jointCount);
        if (groupResult != ACCEPTED)
        {
            return groupResult;
        }
        final StreamSetpointDecoder.JointsDecoder joints = setpoint.joints();
        for (int k = 0; k < jointCount; k++)
        {
            joints.next();
            final int valueResult = checkJoint(k, joints.q(), joints.qd(), joints.qdd(), joints.qddd());
            if (valueResult != ACCEPTED)
            {
                return valueResult;
            }
        }
        return endsAt(setpoint.limit());
    }

    private int checkSegment()
    {
        segment.wrap(buffer, Wire.HEADER_LENGTH, TrajectorySegmentDecoder.BLOCK_LENGTH, Wire.SCHEMA_VERSION);
        if (segment.jointCount() != jointCount)
        {
            return RejectReason.WRONG_JOINT_COUNT.value();
        }
        if (!chunkInOrder(segment.segmentId(), segment.chunkIndex(), segment.chunkCount()))
        {
            return RejectReason.INVALID_FIELD.value();
        }
        final int waypointBlock = TrajectorySegmentDecoder.WaypointsDecoder.sbeBlockLength();
        final int jointBlock = TrajectorySegmentDecoder.WaypointsDecoder.JointsDecoder.sbeBlockLength();
        final int groupResult = checkGroupHeader(segment.limit(), waypointBlock);
        if (groupResult != ACCEPTED)
        {
            return groupResult;
        }
        final TrajectorySegmentDecoder.WaypointsDecoder waypoints = segment.waypoints();
        final int pointCount = waypoints.count();
        if (pointCount == 0)
        {
            return RejectReason.INVALID_FIELD.value();
        }
        long previousTimeNs = segment.chunkIndex() == 0 ? -1 : lastWaypointTimeNs;
        for (int p = 0; p < pointCount; p++)
        {
            if (segment.limit() + waypointBlock > messageLength)
            {
                return RejectReason.TRUNCATED.value();
            }
            final long timeNs = waypoints.next().timeFromStartNs();
            if (timeNs <= previousTimeNs)
            {
                return RejectReason.INVALID_FIELD.value();
            }
            previousTimeNs = timeNs;
            final int jointsResult = checkGroup(segment.limit(), jointBlock, jointCount);
            if (jointsResult != ACCEPTED)
            {
                return jointsResult;
            }
            final TrajectorySegmentDecoder.WaypointsDecoder.JointsDecoder joints = waypoints.joints();
            for (int k = 0; k < jointCount; k++)
            {
                joints.next();
                final int valueResult = checkJoint(k, joints.q(), joints.qd(), joints.qdd(), 0.0);
                if (valueResult != ACCEPTED)
                {
                    return valueResult;
                }
            }
        }
        final int endResult = endsAt(segment.limit());
        if (endResult == ACCEPTED)
        {
            advanceSegment(segment.segmentId(), segment.chunkIndex(), segment.chunkCount(), previousTimeNs);
        }
        return endResult;
    }

    private boolean chunkInOrder(final long id, final int chunkIndex, final int chunkCount)
    {
        if (chunkCount == 0 || chunkIndex >= chunkCount)
        {
            return false;
        }
        return chunkIndex == 0
            || (id == segmentId && chunkCount == segmentChunkCount && chunkIndex == nextChunkIndex);
    }

    private void advanceSegment(final long id, final int chunkIndex, final int chunkCount, final long lastTimeNs)
    {
        if (chunkIndex + 1 == chunkCount)
        {
            abortSegment();
            return;
        }
        segmentId = id;
        segmentChunkCount = chunkCount;
        nextChunkIndex = chunkIndex + 1;
        lastWaypointTimeNs = lastTimeNs;
    }

    private int checkModeRequest()
    {
        modeRequest.wrap(buffer, Wire.HEADER_LENGTH, ModeRequestDecoder.BLOCK_LENGTH, Wire.SCHEMA_VERSION);
        final short request = modeRequest.requestRaw();
        final short controller = modeRequest.controllerRaw();
        // RESET exists since version 2: a version-1 datagram carrying its value is malformed.
        final short newestRequest = header.version() >= 2 ? ModeRequestKind.RESET.value() : ModeRequestKind.HOLD.value();
        if (request < ModeRequestKind.ENABLE.value() || request > newestRequest
            || controller > ControllerKind.MIXED_ELASTIC.value())
        {
            return RejectReason.INVALID_FIELD.value();
        }
        return endsAt(Wire.HEADER_LENGTH + ModeRequestDecoder.BLOCK_LENGTH);
    }

    /**
     * A payload must be a rigid body the model can carry: finite, mass within [0, limit], centre of
     * mass within the stated distance, inertia about the centre of mass positive semi-definite with
     * principal moments obeying the triangle inequalities (a zero payload clears). The link index is
     * checked where the model is known (the command preparer).
     */
    private int checkPayload()
    {
        if (header.version() < 3)
        {
            return RejectReason.UNKNOWN_TEMPLATE.value();
        }
        payload.wrap(buffer, Wire.HEADER_LENGTH, PayloadCommandDecoder.BLOCK_LENGTH, Wire.SCHEMA_VERSION);
        final double[] v = payloadValues;
        v[0] = payload.mass();
        v[1] = payload.comX();
        v[2] = payload.comY();
        v[3] = payload.comZ();
        v[4] = payload.ixx();
        v[5] = payload.ixy();
        v[6] = payload.ixz();
        v[7] = payload.iyy();
        v[8] = payload.iyz();
        v[9] = payload.izz();
        for (int f = 0; f < v.length; f++)
        {
            if (!Double.isFinite(v[f]))
            {
                jointIndex = (short)f;
                return RejectReason.NON_FINITE.value();
            }
        }
        if (payload.rampNs() < MIN_PAYLOAD_RAMP_NS || payload.rampNs() > MAX_PAYLOAD_RAMP_NS)
        {
            jointIndex = PAYLOAD_FIELD_RAMP;
            return RejectReason.LIMIT_EXCEEDED.value();
        }
        if (v[0] < 0.0 || v[0] > MAX_PAYLOAD_MASS_KG)
        {
            jointIndex = PAYLOAD_FIELD_MASS;
            return RejectReason.LIMIT_EXCEEDED.value();
        }
        if (Math.sqrt(v[1] * v[1] + v[2] * v[2] + v[3] * v[3]) > MAX_PAYLOAD_COM_DISTANCE_M)
        {
            jointIndex = 1;
            return RejectReason.LIMIT_EXCEEDED.value();
        }
        if (v[0] == 0.0)
        {
            for (int f = 1; f < v.length; f++)
            {
                if (v[f] != 0.0)
                {
                    // A massless body has no centre of mass and no inertia: a clear says nothing else.
                    jointIndex = (short)f;
                    return RejectReason.INVALID_FIELD.value();
                }
            }
        }
        if (!physicalInertia(v[4], v[5], v[6], v[7], v[8], v[9]))
        {
            jointIndex = PAYLOAD_FIELD_INERTIA;
            return RejectReason.INVALID_FIELD.value();
        }
        return endsAt(Wire.HEADER_LENGTH + PayloadCommandDecoder.BLOCK_LENGTH);
    }

    /**
     * The principal moments of I obey the triangle inequalities exactly when the second-moment
     * matrix S = tr(I)/2 · 1 − I is positive semi-definite, which also makes I so (I = tr(S) · 1 − S);
     * a symmetric 3×3 matrix is positive semi-definite when all seven principal minors are
     * non-negative. Tolerance: 10⁻¹² of the trace, for inertias computed in floating point.
     */
    static boolean physicalInertia(
        final double ixx, final double ixy, final double ixz, final double iyy, final double iyz, final double izz)
    {
        final double half = 0.5 * (ixx + iyy + izz);
        final double sxx = half - ixx;
        final double syy = half - iyy;
        final double szz = half - izz;
        final double sxy = -ixy;
        final double sxz = -ixz;
        final double syz = -iyz;
        final double scale = Math.max(half, Double.MIN_NORMAL);
        final double eps = 1e-12 * scale;
        final double eps2 = eps * scale;
        final double eps3 = eps2 * scale;
        final double det = sxx * (syy * szz - syz * syz) - sxy * (sxy * szz - syz * sxz) + sxz * (sxy * syz - syy * sxz);
        return sxx >= -eps && syy >= -eps && szz >= -eps
            && sxx * syy - sxy * sxy >= -eps2 && sxx * szz - sxz * sxz >= -eps2 && syy * szz - syz * syz >= -eps2
            && det >= -eps3;
    }

    /** Checks a group header at {@code offset}, then that {@code count} entries of the expected size fit. */
    private int checkGroup(final int offset, final int entryLength, final int count)
    {
        final int headerResult = checkGroupHeader(offset, entryLength);
        if (headerResult != ACCEPTED)
        {
            return headerResult;
        }
        if (groupCount(offset) != count)
        {
            return RejectReason.MALFORMED.value();
        }
        if (offset + GROUP_HEADER_LENGTH + (long)count * entryLength > messageLength)
        {
            return RejectReason.TRUNCATED.value();
        }
        return ACCEPTED;
    }

    private int checkGroupHeader(final int offset, final int entryLength)
    {
        if (offset + GROUP_HEADER_LENGTH > messageLength)
        {
            return RejectReason.TRUNCATED.value();
        }
        if ((buffer.getShort(offset, Wire.BYTE_ORDER) & 0xFFFF) != entryLength)
        {
            return RejectReason.MALFORMED.value();
        }
        return ACCEPTED;
    }

    private int groupCount(final int offset)
    {
        return buffer.getShort(offset + 2, Wire.BYTE_ORDER) & 0xFFFF;
    }

    private int checkJoint(final int k, final double q, final double qd, final double qdd, final double qddd)
    {
        if (!Double.isFinite(q) || !Double.isFinite(qd) || !Double.isFinite(qdd) || !Double.isFinite(qddd))
        {
            jointIndex = (short)k;
            return RejectReason.NON_FINITE.value();
        }
        if (!limits.within(k, q, qd))
        {
            jointIndex = (short)k;
            return RejectReason.LIMIT_EXCEEDED.value();
        }
        return ACCEPTED;
    }

    private int endsAt(final int end)
    {
        return end == messageLength ? ACCEPTED : RejectReason.OVERSIZED.value();
    }
}
