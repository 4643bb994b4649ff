package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.SystemNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.CommandAckDecoder;
import org.nectl.transport.sbe.CommandRejectDecoder;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.ModeRequestDecoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.StreamSetpointDecoder;
import org.nectl.transport.sbe.TrajectorySegmentDecoder;

/**
 * The planner gateway on its own agent thread, spoken to with real UDP datagrams on loopback:
 * valid commands are acked and reach the loop-side queue; every kind of bad datagram is rejected
 * with its reason, counted, answered, and never forwarded.
 */
final class PlannerGatewayTest
{
    private static final int DOF = 7;
    private static final double POSITION_LIMIT_RAD = 2.0;
    private static final double VELOCITY_LIMIT_RAD_PER_S = 1.5;
    private static final int REPLY_TIMEOUT_MS = 10_000;

    private final PlannerDatagrams datagrams = new PlannerDatagrams();
    private final List<Throwable> agentErrors = new CopyOnWriteArrayList<>();
    private PlannerGateway gateway;
    private AgentRunner runner;
    private DatagramSocket planner;

    @BeforeEach
    void start() throws IOException
    {
        startGateway(PlannerGatewayConfig.defaults(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
            PlannerAuthentication.loopback(PlannerDatagrams.KEYS)));
    }

    private void startGateway(final PlannerGatewayConfig config) throws IOException
    {
        final double[] min = new double[DOF];
        final double[] max = new double[DOF];
        final double[] velocity = new double[DOF];
        Arrays.fill(min, -POSITION_LIMIT_RAD);
        Arrays.fill(max, POSITION_LIMIT_RAD);
        Arrays.fill(velocity, VELOCITY_LIMIT_RAD_PER_S);
        gateway = new PlannerGateway(config, new CommandLimits(min, max, velocity), new SystemNanoClock(),
            () -> PlannerDatagrams.NOW_MS);
        runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, gateway);
        AgentRunner.startOnThread(runner);
        planner = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        planner.setSoTimeout(REPLY_TIMEOUT_MS);
    }

    @AfterEach
    void stop()
    {
        planner.close();
        runner.close();
        assertTrue(agentErrors.isEmpty(), "gateway agent errors: " + agentErrors);
    }

    @Test
    void validStreamSetpointIsAckedAndForwardedUnchanged() throws IOException
    {
        final double[] q = {0.1, -0.2, 0.3, -0.4, 0.5, -0.6, 1.9};
        final double[] qd = {0.0, 0.1, -0.1, 1.4, -1.4, 0.0, 0.2};
        final Reply reply = exchange(datagrams.setpoint(501L, q, qd));
        assertEquals(CommandAckDecoder.TEMPLATE_ID, reply.templateId);
        assertEquals(501L, reply.commandSequence);
        assertEquals(PlannerDatagrams.PLANNER_ID, reply.plannerId);
        assertEquals(StreamSetpointDecoder.TEMPLATE_ID, reply.commandTemplateId);

        final RecordingHandler loop = new RecordingHandler();
        assertEquals(1, gateway.commandQueue().drain(loop, 10));
        assertEquals(List.of("setpoint 501"), loop.events);
        assertArrayEquals(q, loop.setpointQ, 0.0);
        assertArrayEquals(qd, loop.setpointQd, 0.0);
        for (int k = 0; k < DOF; k++)
        {
            assertEquals(0.1 * k, loop.setpointQdd[k]);
            assertEquals(-0.1 * k, loop.setpointQddd[k]);
        }
        assertEquals(1L, gateway.acceptedCount());
    }

    @Test
    void modeRequestSegmentChunksAndEStopArriveInOrder() throws IOException
    {
        assertAck(exchange(datagrams.modeRequest(1L, ModeRequestKind.ENABLE, ControllerKind.COMPUTED_TORQUE)));
        assertAck(exchange(datagrams.segmentChunk(2L, 9L, 0, 2, DOF, new long[] {0L, 1_000_000L}, new double[] {0.0, 0.1})));
        assertAck(exchange(datagrams.segmentChunk(3L, 9L, 1, 2, DOF, new long[] {2_000_000L}, new double[] {0.2})));
        assertAck(exchange(datagrams.eStop(4L)));

        final RecordingHandler loop = new RecordingHandler();
        assertEquals(4, gateway.commandQueue().drain(loop, 10));
        assertEquals(List.of("mode 1 ENABLE COMPUTED_TORQUE", "segment 2 9 chunk 0/2 points 2", "segment 3 9 chunk 1/2 points 1",
            "estop 4"), loop.events);
    }

    @Test
    void resetIsAcceptedFromVersionTwoAndIsAnInvalidFieldInAVersionOneDatagram() throws IOException
    {
        final byte[] reset = datagrams.modeRequest(1L, ModeRequestKind.RESET, ControllerKind.UNCHANGED);
        assertAck(exchange(reset));
        assertReject(exchange(datagrams.resign(withShort(reset, 6, 1), 2L)), RejectReason.INVALID_FIELD);
        assertAck(exchange(datagrams.resign(withShort(datagrams.modeRequest(3L, ModeRequestKind.HOLD, ControllerKind.UNCHANGED), 6, 1))));

        final RecordingHandler loop = new RecordingHandler();
        assertEquals(2, gateway.commandQueue().drain(loop, 10));
        assertEquals(List.of("mode 1 RESET UNCHANGED", "mode 3 HOLD UNCHANGED"), loop.events);
    }

    @Test
    void segmentChunksOutOfOrderOrGoingBackInTimeAreRejected() throws IOException
    {
        assertReject(exchange(datagrams.segmentChunk(1L, 5L, 1, 3, DOF, new long[] {0L}, new double[] {0.0})),
            RejectReason.INVALID_FIELD);
        assertAck(exchange(datagrams.segmentChunk(2L, 5L, 0, 3, DOF, new long[] {0L, 10L}, new double[] {0.0, 0.0})));
        assertReject(exchange(datagrams.segmentChunk(3L, 5L, 1, 3, DOF, new long[] {10L}, new double[] {0.0})),
            RejectReason.INVALID_FIELD);
        assertReject(exchange(datagrams.segmentChunk(4L, 5L, 1, 3, DOF, new long[] {20L}, new double[] {0.0})),
            RejectReason.INVALID_FIELD);
        assertReject(exchange(datagrams.segmentChunk(5L, 6L, 2, 2, DOF, new long[] {0L}, new double[] {0.0})),
            RejectReason.INVALID_FIELD);
        assertEquals(4L, gateway.rejectCount(RejectReason.INVALID_FIELD));

        assertAck(exchange(datagrams.segmentChunk(6L, 7L, 0, 2, DOF, new long[] {0L}, new double[] {0.0})));
        final byte[] badBlock = datagrams.segmentChunk(7L, 7L, 1, 2, DOF, new long[] {5L}, new double[] {0.0});
        badBlock[0]++;
        assertReject(exchange(badBlock), RejectReason.BLOCK_LENGTH_MISMATCH);
        assertReject(exchange(datagrams.segmentChunk(8L, 7L, 1, 2, DOF, new long[] {5L}, new double[] {0.0})),
            RejectReason.INVALID_FIELD, "a rejected chunk aborts its segment");
    }

    @Test
    void everyKindOfBadDatagramIsRejectedCountedAndNotForwarded() throws IOException
    {
        final double[] q = new double[DOF];
        final double[] qd = new double[DOF];
        final byte[] valid = datagrams.setpoint(7L, q, qd);

        assertReject(exchange(datagrams.resign(Arrays.copyOf(valid, valid.length - 10), 3L)), RejectReason.TRUNCATED);
        assertReject(exchange(new byte[] {1, 2, 3, 4, 5}), RejectReason.TRUNCATED);
        assertReject(exchange(new byte[PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH + 500]), RejectReason.OVERSIZED);
        assertReject(exchange(datagrams.resign(Arrays.copyOf(valid, valid.length + 8), 4L)), RejectReason.OVERSIZED);
        assertReject(exchange(datagrams.resign(withShort(valid, 8 + 21, 24), 5L)), RejectReason.MALFORMED);
        assertReject(exchange(datagrams.resign(withShort(valid, 8 + 23, DOF + 1), 6L)), RejectReason.MALFORMED);
        assertReject(exchange(withShort(valid, 4, 2)), RejectReason.WRONG_SCHEMA_ID);
        assertReject(exchange(withShort(valid, 6, Wire.SCHEMA_VERSION + 1)), RejectReason.WRONG_SCHEMA_VERSION);
        assertReject(exchange(withShort(valid, 6, 0)), RejectReason.WRONG_SCHEMA_VERSION);
        assertReject(exchange(withShort(valid, 2, 99)), RejectReason.UNKNOWN_TEMPLATE);
        assertReject(exchange(withShort(valid, 2, 1)), RejectReason.UNKNOWN_TEMPLATE);
        assertReject(exchange(withShort(valid, 0, 22)), RejectReason.BLOCK_LENGTH_MISMATCH);
        assertReject(exchange(datagrams.setpoint(8L, new double[DOF - 1], new double[DOF - 1])), RejectReason.WRONG_JOINT_COUNT);

        final double[] nanAtThree = q.clone();
        nanAtThree[3] = Double.NaN;
        final Reply nan = exchange(datagrams.setpoint(9L, nanAtThree, qd));
        assertReject(nan, RejectReason.NON_FINITE);
        assertEquals(3, nan.jointIndex);
        assertReject(exchange(datagrams.segmentChunk(10L, 1L, 0, 1, DOF, new long[] {0L}, new double[] {Double.POSITIVE_INFINITY})),
            RejectReason.NON_FINITE);

        final double[] beyondAtTwo = q.clone();
        beyondAtTwo[2] = POSITION_LIMIT_RAD + 1e-9;
        final Reply beyond = exchange(datagrams.setpoint(11L, beyondAtTwo, qd));
        assertReject(beyond, RejectReason.LIMIT_EXCEEDED);
        assertEquals(2, beyond.jointIndex);
        final double[] fastAtSix = qd.clone();
        fastAtSix[6] = -VELOCITY_LIMIT_RAD_PER_S * 1.01;
        assertReject(exchange(datagrams.setpoint(12L, q, fastAtSix)), RejectReason.LIMIT_EXCEEDED);

        final byte[] badMode = datagrams.modeRequest(13L, ModeRequestKind.HOLD, ControllerKind.UNCHANGED);
        badMode[8 + 20] = 7;
        assertReject(exchange(datagrams.resign(badMode, 13L)), RejectReason.INVALID_FIELD);

        final long[] counts = new long[PlannerGateway.REJECT_COUNTER_COUNT];
        gateway.copyRejectCounts(counts);
        final long[] expected = new long[PlannerGateway.REJECT_COUNTER_COUNT];
        expected[RejectReason.TRUNCATED.value()] = 2;
        expected[RejectReason.OVERSIZED.value()] = 2;
        expected[RejectReason.MALFORMED.value()] = 2;
        expected[RejectReason.WRONG_SCHEMA_ID.value()] = 1;
        expected[RejectReason.WRONG_SCHEMA_VERSION.value()] = 2;
        expected[RejectReason.UNKNOWN_TEMPLATE.value()] = 2;
        expected[RejectReason.BLOCK_LENGTH_MISMATCH.value()] = 1;
        expected[RejectReason.WRONG_JOINT_COUNT.value()] = 1;
        expected[RejectReason.NON_FINITE.value()] = 2;
        expected[RejectReason.LIMIT_EXCEEDED.value()] = 2;
        expected[RejectReason.INVALID_FIELD.value()] = 1;
        assertArrayEquals(expected, counts);
        assertEquals(0, gateway.commandQueue().drain(new RecordingHandler(), 100), "nothing forwarded");
        assertEquals(0L, gateway.acceptedCount());

        assertAck(exchange(datagrams.setpoint(14L, q, qd)));
        assertEquals(1, gateway.commandQueue().drain(new RecordingHandler(), 100), "still accepts valid commands");
    }

    /**
     * A reject echoes what the datagram holds, whatever is wrong with it: templateId from 8 bytes on,
     * header.sequence and header.plannerId from 28 bytes on under a planner command's templateId.
     */
    @Test
    void headerLevelRejectsEchoTheFieldsTheDatagramHolds() throws IOException
    {
        final byte[] valid = datagrams.setpoint(21L, new double[DOF], new double[DOF]);
        assertEcho(exchange(withShort(valid, 4, 2)), RejectReason.WRONG_SCHEMA_ID, StreamSetpointDecoder.TEMPLATE_ID, 21L);
        assertEcho(exchange(withShort(valid, 6, Wire.SCHEMA_VERSION + 1)), RejectReason.WRONG_SCHEMA_VERSION,
            StreamSetpointDecoder.TEMPLATE_ID, 21L);
        assertEcho(exchange(withShort(valid, 0, 22)), RejectReason.BLOCK_LENGTH_MISMATCH, StreamSetpointDecoder.TEMPLATE_ID, 21L);
        assertEcho(exchange(Arrays.copyOf(valid, PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH + 1)), RejectReason.OVERSIZED,
            StreamSetpointDecoder.TEMPLATE_ID, 21L);
        assertEcho(exchange(Arrays.copyOf(valid, Wire.HEADER_LENGTH + 20)), RejectReason.TRUNCATED, StreamSetpointDecoder.TEMPLATE_ID, 21L);

        final Reply unknown = exchange(withShort(valid, 2, 99));
        assertEcho(unknown, RejectReason.UNKNOWN_TEMPLATE, 99, 0L);
        assertEquals(0L, unknown.plannerId, "no planner header under an unknown template");
        final Reply headerOnly = exchange(Arrays.copyOf(valid, Wire.HEADER_LENGTH + 19));
        assertEcho(headerOnly, RejectReason.TRUNCATED, StreamSetpointDecoder.TEMPLATE_ID, 0L);
        assertEquals(0L, headerOnly.plannerId, "the planner header is cut");
        final Reply noHeader = exchange(Arrays.copyOf(valid, Wire.HEADER_LENGTH - 1));
        assertEcho(noHeader, RejectReason.TRUNCATED, 0, 0L);
        assertEquals(0L, noHeader.plannerId);
    }

    /**
     * A signed datagram cut short in transit: its last 32 bytes are no longer the trailer, so it fails
     * authentication, unless it is too short to hold its root block and a trailer (TRUNCATED).
     */
    @Test
    void signedDatagramTruncatedInTransitFailsAuthentication() throws IOException
    {
        final byte[] setpoint = datagrams.setpoint(31L, new double[DOF], new double[DOF]);
        final int rootAndTrailer = Wire.HEADER_LENGTH + StreamSetpointDecoder.BLOCK_LENGTH + 32;
        for (final int length : new int[] {setpoint.length - 1, setpoint.length - 10, setpoint.length - 32, rootAndTrailer})
        {
            final Reply reply = exchange(Arrays.copyOf(setpoint, length));
            assertReject(reply, RejectReason.AUTHENTICATION_FAILED, "cut to " + length + " of " + setpoint.length + " bytes");
            assertEquals(31L, reply.commandSequence);
        }
        assertReject(exchange(Arrays.copyOf(setpoint, rootAndTrailer - 1)), RejectReason.TRUNCATED);
        final byte[] chunk = datagrams.segmentChunk(32L, 5L, 0, 1, DOF, new long[] {0L, 1_000_000L}, new double[] {0.0, 0.1});
        assertReject(exchange(Arrays.copyOf(chunk, chunk.length - 24)), RejectReason.AUTHENTICATION_FAILED, "a segment chunk cut short");
        assertEquals(0, gateway.commandQueue().drain(new RecordingHandler(), 100), "nothing forwarded");
    }

    private static void assertEcho(final Reply reply, final RejectReason reason, final int commandTemplateId, final long sequence)
    {
        assertReject(reply, reason);
        assertEquals(commandTemplateId, reply.commandTemplateId, "echoed templateId, " + reason);
        assertEquals(sequence, reply.commandSequence, "echoed sequence, " + reason);
        if (sequence != 0L)
        {
            assertEquals(PlannerDatagrams.PLANNER_ID, reply.plannerId, "echoed plannerId, " + reason);
        }
    }

    @Test
    void fullQueueRejectsWithQueueFullUntilTheLoopDrains() throws IOException
    {
        final double[] zeros = new double[DOF];
        int acked = 0;
        Reply reply = exchange(datagrams.setpoint(0L, zeros, zeros));
        while (reply.templateId == CommandAckDecoder.TEMPLATE_ID && acked < 10_000)
        {
            acked++;
            reply = exchange(datagrams.setpoint(acked, zeros, zeros));
        }
        assertReject(reply, RejectReason.QUEUE_FULL);
        assertTrue(acked > 0, "some commands fit before the queue filled");
        assertEquals(1L, gateway.rejectCount(RejectReason.QUEUE_FULL));

        final RecordingHandler loop = new RecordingHandler();
        int drained = 0;
        while (gateway.commandQueue().drain(loop, 16) > 0)
        {
            drained = loop.events.size();
        }
        assertEquals(acked, drained, "every acked command reaches the loop exactly once");
        assertAck(exchange(datagrams.setpoint(acked + 1L, zeros, zeros)));
    }

    @Test
    void loopDrainingOnItsOwnThreadReceivesEveryAckedCommandOnceAndInOrder() throws Exception
    {
        final int commandCount = 4096;
        final int burst = 32;
        final long[] drainedSequences = new long[commandCount];
        final int[] drainedCount = new int[1];
        final AtomicBoolean running = new AtomicBoolean(true);
        final PlannerCommandHandler loopHandler = new RecordingHandler()
        {
            @Override
            public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
            {
                drainedSequences[drainedCount[0]++] = setpoint.header().sequence();
            }
        };
        final Thread loop = new Thread(() ->
        {
            while (running.get())
            {
                gateway.commandQueue().drain(loopHandler, 16);
            }
            while (gateway.commandQueue().drain(loopHandler, 16) > 0)
            {
                Thread.onSpinWait();
            }
        }, "loop");
        loop.start();

        final double[] zeros = new double[DOF];
        final Set<Long> acked = new HashSet<>();
        long queueFull = 0;
        for (int first = 0; first < commandCount; first += burst)
        {
            for (int i = first; i < first + burst; i++)
            {
                final byte[] datagram = datagrams.setpoint(i, zeros, zeros);
                planner.send(new DatagramPacket(datagram, datagram.length, gateway.localAddress()));
            }
            for (int i = 0; i < burst; i++)
            {
                final Reply reply = receiveReply();
                if (reply.templateId == CommandAckDecoder.TEMPLATE_ID)
                {
                    acked.add(reply.commandSequence);
                }
                else
                {
                    assertEquals(RejectReason.QUEUE_FULL, reply.reason);
                    queueFull++;
                }
            }
        }
        running.set(false);
        loop.join();

        assertEquals(commandCount, acked.size() + queueFull, "one reply per command");
        assertEquals(acked.size(), drainedCount[0], "every acked command drained exactly once");
        for (int i = 0; i < drainedCount[0]; i++)
        {
            assertTrue(acked.contains(drainedSequences[i]), "drained " + drainedSequences[i] + " was acked");
            assertTrue(i == 0 || drainedSequences[i] > drainedSequences[i - 1], "in order at " + i);
        }
    }

    @Test
    void randomBytesAreAllRejectedAndTheGatewayKeepsServing() throws IOException
    {
        final long seed = 0xF022L;
        final SplittableRandom random = new SplittableRandom(seed);
        final byte[] valid = datagrams.setpoint(1L, new double[DOF], new double[DOF]);
        final int rounds = 500;
        for (int i = 0; i < rounds; i++)
        {
            final byte[] bytes;
            if (i % 2 == 0)
            {
                bytes = new byte[random.nextInt(1, 1600)];
                random.nextBytes(bytes);
            }
            else
            {
                bytes = valid.clone();
                final int bit = random.nextInt(8 * (valid.length - PlannerCommandValidator.AUTH_TRAILER_LENGTH));
                bytes[bit / 8] ^= (byte)(1 << (bit % 8));
            }
            final Reply reply = exchange(bytes);
            if (reply.templateId == CommandAckDecoder.TEMPLATE_ID)
            {
                assertEquals(1, gateway.commandQueue().drain(new RecordingHandler(), 1), "seed " + seed + " round " + i);
            }
        }
        final long[] counts = new long[PlannerGateway.REJECT_COUNTER_COUNT];
        gateway.copyRejectCounts(counts);
        assertEquals(rounds, Arrays.stream(counts).sum() + gateway.acceptedCount(), "every datagram answered and counted, seed " + seed);
        assertAck(exchange(valid));
    }

    private static byte[] withShort(final byte[] datagram, final int offset, final int value)
    {
        final byte[] copy = datagram.clone();
        new UnsafeBuffer(copy).putShort(offset, (short)value, ByteOrder.LITTLE_ENDIAN);
        return copy;
    }

    private Reply exchange(final byte[] datagram) throws IOException
    {
        planner.send(new DatagramPacket(datagram, datagram.length, gateway.localAddress()));
        return receiveReply();
    }

    private Reply receiveReply() throws IOException
    {
        final byte[] bytes = new byte[256];
        final DatagramPacket packet = new DatagramPacket(bytes, bytes.length);
        planner.receive(packet);
        return Reply.decode(new UnsafeBuffer(bytes, 0, packet.getLength()));
    }

    private static void assertAck(final Reply reply)
    {
        assertEquals(CommandAckDecoder.TEMPLATE_ID, reply.templateId, "expected an ack, got " + reply);
    }

    private static void assertReject(final Reply reply, final RejectReason reason)
    {
        assertReject(reply, reason, "reject reason");
    }

    private static void assertReject(final Reply reply, final RejectReason reason, final String why)
    {
        assertEquals(CommandRejectDecoder.TEMPLATE_ID, reply.templateId, "expected a reject, got " + reply);
        assertEquals(reason, reply.reason, why);
    }

    /** A decoded CommandAck or CommandReject. */
    private static final class Reply
    {
        int templateId;
        long commandSequence;
        long plannerId;
        int commandTemplateId;
        RejectReason reason;
        int jointIndex;

        static Reply decode(final UnsafeBuffer buffer)
        {
            final MessageHeaderDecoder header = new MessageHeaderDecoder().wrap(buffer, 0);
            final Reply reply = new Reply();
            reply.templateId = header.templateId();
            if (reply.templateId == CommandAckDecoder.TEMPLATE_ID)
            {
                final CommandAckDecoder ack = new CommandAckDecoder().wrapAndApplyHeader(buffer, 0, header);
                reply.commandSequence = ack.commandSequence();
                reply.plannerId = ack.plannerId();
                reply.commandTemplateId = ack.commandTemplateId();
                assertEquals(Wire.HEADER_LENGTH + CommandAckDecoder.BLOCK_LENGTH, buffer.capacity());
            }
            else
            {
                final CommandRejectDecoder reject = new CommandRejectDecoder().wrapAndApplyHeader(buffer, 0, header);
                reply.commandSequence = reject.commandSequence();
                reply.plannerId = reject.plannerId();
                reply.commandTemplateId = reject.commandTemplateId();
                reply.reason = reject.reason();
                reply.jointIndex = reject.jointIndex();
                assertEquals(Wire.HEADER_LENGTH + CommandRejectDecoder.BLOCK_LENGTH, buffer.capacity());
            }
            return reply;
        }

        @Override
        public String toString()
        {
            return "template " + templateId + " reason " + reason + " joint " + jointIndex;
        }
    }

    /** The loop side: records what it was handed. */
    private static class RecordingHandler implements PlannerCommandHandler
    {
        final List<String> events = new ArrayList<>();
        final double[] setpointQ = new double[DOF];
        final double[] setpointQd = new double[DOF];
        final double[] setpointQdd = new double[DOF];
        final double[] setpointQddd = new double[DOF];

        @Override
        public void onTrajectorySegment(final TrajectorySegmentDecoder segment)
        {
            events.add("segment " + segment.header().sequence() + " " + segment.segmentId() + " chunk " + segment.chunkIndex()
                + "/" + segment.chunkCount() + " points " + segment.waypoints().count());
        }

        @Override
        public void onStreamSetpoint(final StreamSetpointDecoder setpoint)
        {
            events.add("setpoint " + setpoint.header().sequence());
            int k = 0;
            for (final StreamSetpointDecoder.JointsDecoder joint : setpoint.joints())
            {
                setpointQ[k] = joint.q();
                setpointQd[k] = joint.qd();
                setpointQdd[k] = joint.qdd();
                setpointQddd[k] = joint.qddd();
                k++;
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
    }
}
