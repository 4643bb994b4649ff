package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import javax.xml.parsers.DocumentBuilderFactory;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.BooleanType;
import org.nectl.transport.sbe.CommandRejectDecoder;
import org.nectl.transport.sbe.CommandRejectEncoder;
import org.nectl.transport.sbe.ControllerEventEncoder;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.JointStateDecoder;
import org.nectl.transport.sbe.JointStateEncoder;
import org.nectl.transport.sbe.JointStateStatusDecoder;
import org.nectl.transport.sbe.JointStateStatusEncoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.PayloadCommandEncoder;
import org.nectl.transport.sbe.MotorCommandDecoder;
import org.nectl.transport.sbe.MotorCommandEncoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.StreamSetpointEncoder;
import org.nectl.transport.sbe.TelemetryDecoder;
import org.nectl.transport.sbe.TelemetryEncoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;
import org.nectl.transport.sbe.TrajectorySegmentEncoder;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * The generated codecs round-trip every value, and the bytes sit where docs/PROTOCOL.md says they
 * do (read back with plain little-endian loads, independent of the codecs).
 */
final class WireFormatTest
{
    private static final long SEED = 0x5BE_0001L;
    private static final int HEADER = MessageHeaderEncoder.ENCODED_LENGTH;
    /** A limiter flag word: the rate bit (32 + j) of joint 2. */
    private static final long RATE_FLAG_OF_JOINT_2 = 1L << 34;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();


    @Test
    void schemaIsVersionFourLittleEndianAndEveryElementIsDescribed() throws Exception
    {
        final Document schema;
        try (InputStream in = WireFormatTest.class.getResourceAsStream("/sbe/nectl-schema.xml"))
        {
            final DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            schema = factory.newDocumentBuilder().parse(in);
        }
        final Element root = schema.getDocumentElement();
        assertEquals("1", root.getAttribute("id"));
        assertEquals("4", root.getAttribute("version"));
        final NodeList messages = schema.getElementsByTagNameNS("*", "message");
        for (int i = 0; i < messages.getLength(); i++)
        {
            final Element message = (Element)messages.item(i);
            final int id = Integer.parseInt(message.getAttribute("id"));
            final String since = id == ControllerEventEncoder.TEMPLATE_ID ? "2" : id == PayloadCommandEncoder.TEMPLATE_ID ? "3" : "";
            assertEquals(since, message.getAttribute("sinceVersion"), message.getAttribute("name") + " sinceVersion");
        }
        assertEquals("littleEndian", root.getAttribute("byteOrder"));
        assertEquals("org.nectl.transport.sbe", root.getAttribute("package"));

        final List<String> undescribed = new ArrayList<>();
        for (final String tag : new String[] {"field", "group", "type", "composite", "enum", "validValue", "set", "choice"})
        {
            final NodeList nodes = schema.getElementsByTagName(tag);
            for (int i = 0; i < nodes.getLength(); i++)
            {
                final Element element = (Element)nodes.item(i);
                if (element.getAttribute("description").isBlank())
                {
                    undescribed.add(tag + " " + element.getAttribute("name"));
                }
            }
        }
        assertTrue(undescribed.isEmpty(), "elements without description: " + undescribed);
    }

    @Test
    void jointStateRoundTripsAndLiesAtDocumentedOffsets()
    {
        final SplittableRandom random = new SplittableRandom(SEED);
        final int jointCount = 7;
        final double[] q = randomVector(random, jointCount);
        final double[] qd = randomVector(random, jointCount);
        final double[] theta = randomVector(random, jointCount);
        final double[] thetaDot = randomVector(random, jointCount);

        final JointStateEncoder encoder = new JointStateEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequence(42L)
            .timestampNs(123_456_789L)
            .elasticMask(0b0101_0000)
            .jointCount((short)jointCount);
        encoder.status().drivesEnabled(true).simulated(true);
        for (int k = 0; k < jointCount; k++)
        {
            encoder.q(k, q[k]).qd(k, qd[k]).theta(k, theta[k]).thetaDot(k, thetaDot[k]);
        }
        assertEquals(HEADER + 1152, HEADER + encoder.encodedLength(), "JointState is fixed size (PROTOCOL.md)");

        final JointStateDecoder decoder = new JointStateDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(42L, decoder.sequence());
        assertEquals(123_456_789L, decoder.timestampNs());
        assertEquals(0b0101_0000L, decoder.elasticMask());
        assertEquals(jointCount, decoder.jointCount());
        final short status = (short)decoder.status().getRaw();
        assertTrue(JointStateStatusDecoder.drivesEnabled(status));
        assertTrue(JointStateStatusDecoder.simulated(status));
        assertFalse(JointStateStatusDecoder.driveFault(status));
        for (int k = 0; k < jointCount; k++)
        {
            assertEquals(q[k], decoder.q(k), "seed " + SEED);
            assertEquals(qd[k], decoder.qd(k), "seed " + SEED);
            assertEquals(theta[k], decoder.theta(k), "seed " + SEED);
            assertEquals(thetaDot[k], decoder.thetaDot(k), "seed " + SEED);
            assertEquals(q[k], buffer.getDouble(HEADER + 16 + 8 * k, ByteOrder.LITTLE_ENDIAN));
            assertEquals(qd[k], buffer.getDouble(HEADER + 272 + 8 * k, ByteOrder.LITTLE_ENDIAN));
            assertEquals(theta[k], buffer.getDouble(HEADER + 528 + 8 * k, ByteOrder.LITTLE_ENDIAN));
            assertEquals(thetaDot[k], buffer.getDouble(HEADER + 784 + 8 * k, ByteOrder.LITTLE_ENDIAN));
        }
        assertHeader(1152, JointStateEncoder.TEMPLATE_ID);
        assertEquals(1, JointStateEncoder.TEMPLATE_ID);
        assertEquals(42L, buffer.getLong(HEADER, ByteOrder.LITTLE_ENDIAN));
        assertEquals(123_456_789L, buffer.getLong(HEADER + 8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0b0101_0000, buffer.getInt(HEADER + 1040, ByteOrder.LITTLE_ENDIAN));
        assertEquals(JointStateStatusEncoder.simulated(JointStateStatusEncoder.drivesEnabled((short)0, true), true),
            buffer.getShort(HEADER + 1044, ByteOrder.LITTLE_ENDIAN));
        assertEquals(jointCount, buffer.getByte(HEADER + 1046));
    }

    @Test
    void motorCommandRoundTripsAndLiesAtDocumentedOffsets()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 1);
        final int motorCount = 6;
        final double[] tau = randomVector(random, motorCount);
        final MotorCommandEncoder encoder = new MotorCommandEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequence(7L)
            .timestampNs(99L)
            .jointStateSequence(6L)
            .motorCount((short)motorCount)
            .mode(DriveMode.TORQUE)
            .enable(BooleanType.TRUE);
        for (int k = 0; k < motorCount; k++)
        {
            encoder.tau(k, tau[k]);
        }
        assertEquals(283, encoder.encodedLength());

        final MotorCommandDecoder decoder = new MotorCommandDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(7L, decoder.sequence());
        assertEquals(99L, decoder.timestampNs());
        assertEquals(6L, decoder.jointStateSequence());
        assertEquals(DriveMode.TORQUE, decoder.mode());
        assertEquals(BooleanType.TRUE, decoder.enable());
        for (int k = 0; k < motorCount; k++)
        {
            assertEquals(tau[k], decoder.tau(k), "seed " + (SEED + 1));
            assertEquals(tau[k], buffer.getDouble(HEADER + 24 + 8 * k, ByteOrder.LITTLE_ENDIAN));
        }
        assertHeader(283, 2);
        assertEquals(motorCount, buffer.getByte(HEADER + 280));
        assertEquals(DriveMode.TORQUE.value(), buffer.getByte(HEADER + 281));
        assertEquals(1, buffer.getByte(HEADER + 282));
    }

    @Test
    void streamSetpointRoundTripsThroughItsJointGroup()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 2);
        final int jointCount = 3;
        final double[][] values = new double[jointCount][];
        final StreamSetpointEncoder encoder = new StreamSetpointEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder);
        encoder.header().sequence(11L).timestampNs(12L).plannerId(13L);
        encoder.jointCount((short)jointCount);
        final StreamSetpointEncoder.JointsEncoder joints = encoder.jointsCount(jointCount);
        for (int k = 0; k < jointCount; k++)
        {
            values[k] = randomVector(random, 4);
            joints.next().q(values[k][0]).qd(values[k][1]).qdd(values[k][2]).qddd(values[k][3]);
        }
        assertEquals(21 + 4 + 32 * jointCount, encoder.encodedLength());

        final StreamSetpointDecoder decoder = new StreamSetpointDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(11L, decoder.header().sequence());
        assertEquals(12L, decoder.header().timestampNs());
        assertEquals(13L, decoder.header().plannerId());
        int k = 0;
        for (final StreamSetpointDecoder.JointsDecoder joint : decoder.joints())
        {
            assertEquals(values[k][0], joint.q());
            assertEquals(values[k][1], joint.qd());
            assertEquals(values[k][2], joint.qdd());
            assertEquals(values[k][3], joint.qddd());
            final int entry = HEADER + 21 + 4 + 32 * k;
            assertEquals(values[k][0], buffer.getDouble(entry, ByteOrder.LITTLE_ENDIAN));
            assertEquals(values[k][3], buffer.getDouble(entry + 24, ByteOrder.LITTLE_ENDIAN));
            k++;
        }
        assertEquals(jointCount, k);
        assertHeader(21, 11);
        assertEquals(11L, buffer.getLong(HEADER, ByteOrder.LITTLE_ENDIAN));
        assertEquals(12L, buffer.getLong(HEADER + 8, ByteOrder.LITTLE_ENDIAN));
        assertEquals(13, buffer.getInt(HEADER + 16, ByteOrder.LITTLE_ENDIAN));
        assertEquals(32, buffer.getShort(HEADER + 21, ByteOrder.LITTLE_ENDIAN));
        assertEquals(jointCount, buffer.getShort(HEADER + 23, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void trajectorySegmentRoundTripsNestedWaypointGroups()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 3);
        final int jointCount = 2;
        final int pointCount = 3;
        final double[][] q = new double[pointCount][];
        final TrajectorySegmentEncoder encoder = new TrajectorySegmentEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder);
        encoder.header().sequence(1L).timestampNs(2L).plannerId(3L);
        encoder.segmentId(77L).chunkIndex(1).chunkCount(4).jointCount((short)jointCount);
        final TrajectorySegmentEncoder.WaypointsEncoder waypoints = encoder.waypointsCount(pointCount);
        for (int p = 0; p < pointCount; p++)
        {
            q[p] = randomVector(random, jointCount);
            final TrajectorySegmentEncoder.WaypointsEncoder.JointsEncoder joints =
                waypoints.next().timeFromStartNs(1_000_000L * p).jointsCount(jointCount);
            for (int k = 0; k < jointCount; k++)
            {
                joints.next().q(q[p][k]).qd(0.5 * k).qdd(-0.25 * k);
            }
        }
        assertEquals(29 + 4 + pointCount * (8 + 4 + 24 * jointCount), encoder.encodedLength());

        final TrajectorySegmentDecoder decoder = new TrajectorySegmentDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(77L, decoder.segmentId());
        assertEquals(1, decoder.chunkIndex());
        assertEquals(4, decoder.chunkCount());
        int p = 0;
        for (final TrajectorySegmentDecoder.WaypointsDecoder waypoint : decoder.waypoints())
        {
            assertEquals(1_000_000L * p, waypoint.timeFromStartNs());
            int k = 0;
            for (final TrajectorySegmentDecoder.WaypointsDecoder.JointsDecoder joint : waypoint.joints())
            {
                assertEquals(q[p][k], joint.q(), "seed " + (SEED + 3));
                assertEquals(0.5 * k, joint.qd());
                assertEquals(-0.25 * k, joint.qdd());
                k++;
            }
            assertEquals(jointCount, k);
            p++;
        }
        assertEquals(pointCount, p);
        final int secondWaypoint = HEADER + 29 + 4 + (8 + 4 + 24 * jointCount);
        assertEquals(1_000_000L, buffer.getLong(secondWaypoint, ByteOrder.LITTLE_ENDIAN));
        assertEquals(q[1][0], buffer.getDouble(secondWaypoint + 8 + 4, ByteOrder.LITTLE_ENDIAN));
    }

    @Test
    void telemetryRoundTripsCountersStateAndJointVectors()
    {
        final SplittableRandom random = new SplittableRandom(SEED + 4);
        final double[] error = randomVector(random, 7);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .sequence(5L).tickCount(1000L).overrunCount(2L).deadlineMissCount(3L)
            .state(ControllerState.TRACKING).controller(ControllerKind.COMPUTED_TORQUE).jointCount((short)7)
            .referenceClockRate(0.625).timeScaledTickCount(11L).torqueClipCount(12L).torqueRateClipCount(13L)
            .limiterFlags(RATE_FLAG_OF_JOINT_2).faults(0x41L);
        encoder.rejectCounts(RejectReason.NON_FINITE.value(), 9L);
        for (int k = 0; k < error.length; k++)
        {
            encoder.trackingError(k, error[k]);
        }
        assertEquals(2351, encoder.encodedLength());

        final TelemetryDecoder decoder = new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(5L, decoder.sequence());
        assertEquals(1000L, decoder.tickCount());
        assertEquals(ControllerState.TRACKING, decoder.state());
        assertEquals(ControllerKind.COMPUTED_TORQUE, decoder.controller());
        assertEquals(9L, decoder.rejectCounts(RejectReason.NON_FINITE.value()));
        assertEquals(9L, buffer.getLong(HEADER + 80 + 8 * RejectReason.NON_FINITE.value(), ByteOrder.LITTLE_ENDIAN));
        for (int k = 0; k < error.length; k++)
        {
            assertEquals(error[k], decoder.trackingError(k));
            assertEquals(error[k], buffer.getDouble(HEADER + 976 + 8 * k, ByteOrder.LITTLE_ENDIAN));
        }
        assertEquals(ControllerState.TRACKING.value(), buffer.getByte(HEADER + 1232));
        assertEquals(0.625, decoder.referenceClockRate());
        assertEquals(0.625, buffer.getDouble(HEADER + 1235, ByteOrder.LITTLE_ENDIAN));
        assertEquals(11L, buffer.getLong(HEADER + 1243, ByteOrder.LITTLE_ENDIAN));
        assertEquals(12L, buffer.getLong(HEADER + 1251, ByteOrder.LITTLE_ENDIAN));
        assertEquals(13L, buffer.getLong(HEADER + 1259, ByteOrder.LITTLE_ENDIAN));
        assertEquals(RATE_FLAG_OF_JOINT_2, buffer.getLong(HEADER + 1267, ByteOrder.LITTLE_ENDIAN));
        assertEquals(0x41L, decoder.faults());
        assertEquals(0x41, buffer.getInt(HEADER + 1275, ByteOrder.LITTLE_ENDIAN));

        decoder.wrap(buffer, HEADER, 1235, 1);
        assertEquals(ControllerState.TRACKING, decoder.state(), "a version 1 reader of the same bytes");
        assertEquals(TelemetryDecoder.faultsNullValue(), decoder.faults(), "a field since version 2 is absent at version 1");
    }

    @Test
    void aVersionOneTelemetryBlockDecodesWithTheVersionTwoFieldsAtTheirNeutralValues()
    {
        final TelemetrySample sent = new TelemetrySample(7).referenceClockRate(0.5).timeScaledTickCount(3L)
            .torqueClipCount(4L).torqueRateClipCount(5L).limiterFlags(RATE_FLAG_OF_JOINT_2);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder);
        sent.encode(encoder, 1L, 0L);
        // What a version 1 sender writes: the first 1235 bytes of the block, header version 1.
        buffer.putShort(0, (short)1235, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)1, ByteOrder.LITTLE_ENDIAN);
        final TelemetryDecoder decoder = new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        final TelemetrySample received = new TelemetrySample(7);
        assertTrue(received.decode(decoder));
        assertEquals(1.0, received.referenceClockRate());
        assertEquals(0L, received.timeScaledTickCount() + received.torqueClipCount() + received.torqueRateClipCount()
            + received.limiterFlags());
        buffer.putShort(0, (short)1279, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)2, ByteOrder.LITTLE_ENDIAN);
        assertTrue(received.decode(new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder)));
        assertEquals(0.5, received.referenceClockRate());
        assertEquals(3L, received.timeScaledTickCount());
        assertEquals(4L, received.torqueClipCount());
        assertEquals(5L, received.torqueRateClipCount());
        assertEquals(RATE_FLAG_OF_JOINT_2, received.limiterFlags());
    }

    @Test
    void aVersionTwoTelemetryBlockDecodesWithTheVersionThreeFieldsAtZero()
    {
        final TelemetrySample sent = new TelemetrySample(7).tickStartLatenessNs(250L).tickIntervalNs(1_000_250L);
        sent.tauFeedforward()[6] = 1.5;
        sent.tauFeedforwardRate()[0] = -2.5;
        sent.tauLaw()[3] = 9.0;
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder);
        sent.encode(encoder, 1L, 0L);
        assertEquals(2351, TelemetryEncoder.BLOCK_LENGTH, "version 4 block: 2327 bytes of version 3 (1279 bytes of version 2, 4 joint"
            + " vectors, 3 longs), 3 longs");
        assertEquals(1.5, buffer.getDouble(HEADER + 1279 + 8 * 6, ByteOrder.LITTLE_ENDIAN), "tauFeedforward after faults");
        assertEquals(-2.5, buffer.getDouble(HEADER + 1279 + 256, ByteOrder.LITTLE_ENDIAN), "tauFeedforwardRate");
        assertEquals(9.0, buffer.getDouble(HEADER + 1279 + 512 + 8 * 3, ByteOrder.LITTLE_ENDIAN), "tauLaw");
        assertEquals(250L, buffer.getLong(HEADER + 2047, ByteOrder.LITTLE_ENDIAN), "tickStartLatenessNs");
        assertEquals(1_000_250L, buffer.getLong(HEADER + 2055, ByteOrder.LITTLE_ENDIAN), "tickIntervalNs");
        final TelemetrySample received = new TelemetrySample(7);
        assertTrue(received.decode(new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder)));
        assertEquals(1.5, received.tauFeedforward()[6]);
        assertEquals(1_000_250L, received.tickIntervalNs());
        // What a version 2 sender writes: the first 1279 bytes of the block, header version 2.
        buffer.putShort(0, (short)1279, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)2, ByteOrder.LITTLE_ENDIAN);
        assertTrue(received.decode(new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder)));
        assertEquals(0.0, received.tauFeedforward()[6]);
        assertEquals(0.0, received.tauFeedforwardRate()[0]);
        assertEquals(0.0, received.tauLaw()[3]);
        assertEquals(0L, received.tickStartLatenessNs() + received.tickIntervalNs());
    }

    @Test
    void aVersionThreeTelemetryBlockDecodesWithTheBaseBlockCountsAtZero()
    {
        final TelemetrySample sent = new TelemetrySample(7).collisionCount(2L).baseBlockCounts(900L, 30L, 60L);
        final TelemetryEncoder encoder = new TelemetryEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder);
        sent.encode(encoder, 1L, 0L);
        assertEquals(900L, buffer.getLong(HEADER + 2327, ByteOrder.LITTLE_ENDIAN), "baseBlockValidCount after collisionCount");
        assertEquals(30L, buffer.getLong(HEADER + 2335, ByteOrder.LITTLE_ENDIAN), "baseBlockMissingCount");
        assertEquals(60L, buffer.getLong(HEADER + 2343, ByteOrder.LITTLE_ENDIAN), "baseBlockInvalidCount");
        final TelemetrySample received = new TelemetrySample(7);
        assertTrue(received.decode(new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder)));
        assertEquals(900L, received.baseBlockValidCount());
        assertEquals(30L, received.baseBlockMissingCount());
        assertEquals(60L, received.baseBlockInvalidCount());
        // What a version 3 sender writes: the first 2327 bytes of the block, header version 3.
        buffer.putShort(0, (short)2327, ByteOrder.LITTLE_ENDIAN);
        buffer.putShort(6, (short)3, ByteOrder.LITTLE_ENDIAN);
        assertTrue(received.decode(new TelemetryDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder)));
        assertEquals(2L, received.collisionCount(), "the version 3 fields as sent");
        assertEquals(0L, received.baseBlockValidCount() + received.baseBlockMissingCount() + received.baseBlockInvalidCount());
    }

    @Test
    void commandRejectCarriesReasonAndOffendingJoint()
    {
        new CommandRejectEncoder().wrapAndApplyHeader(buffer, 0, headerEncoder)
            .commandSequence(31L).gatewayTimestampNs(32L).plannerId(33L).commandTemplateId(11)
            .reason(RejectReason.LIMIT_EXCEEDED).jointIndex((short)4);
        final CommandRejectDecoder decoder = new CommandRejectDecoder().wrapAndApplyHeader(buffer, 0, headerDecoder);
        assertEquals(31L, decoder.commandSequence());
        assertEquals(RejectReason.LIMIT_EXCEEDED, decoder.reason());
        assertEquals(4, decoder.jointIndex());
        assertHeader(24, 21);
        assertEquals(RejectReason.LIMIT_EXCEEDED.value(), buffer.getByte(HEADER + 22));
        assertEquals(4, buffer.getByte(HEADER + 23));
    }

    private void assertHeader(final int blockLength, final int templateId)
    {
        assertEquals(blockLength, buffer.getShort(0, ByteOrder.LITTLE_ENDIAN), "blockLength");
        assertEquals(templateId, buffer.getShort(2, ByteOrder.LITTLE_ENDIAN), "templateId");
        assertEquals(1, buffer.getShort(4, ByteOrder.LITTLE_ENDIAN), "schemaId");
        assertEquals(Wire.SCHEMA_VERSION, buffer.getShort(6, ByteOrder.LITTLE_ENDIAN), "version");
    }

    private static double[] randomVector(final SplittableRandom random, final int length)
    {
        final double[] values = new double[length];
        for (int i = 0; i < length; i++)
        {
            values[i] = random.nextDouble(-3.0, 3.0);
        }
        return values;
    }
}
