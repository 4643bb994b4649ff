package org.nectl.service.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.SystemEpochNanoClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.PlannerSigner;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.CommandAckDecoder;
import org.nectl.transport.sbe.CommandRejectDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.ModeRequestEncoder;
import org.nectl.transport.sbe.ModeRequestKind;
import org.nectl.transport.sbe.PlannerHeaderEncoder;
import org.nectl.transport.sbe.StreamSetpointEncoder;
import org.nectl.transport.sbe.TrajectorySegmentEncoder;

/**
 * Sends generated datagrams at a running planner gateway (docs/PROTOCOL.md) and checks every reply:
 * random bytes, bit flips, truncations, oversized datagrams, wrong schema id, version, template or
 * block length, non-finite and out-of-range values, wrong joint counts, undefined enum values and
 * chunk indices, malformed groups (all correctly signed where the damage is behind the trailer),
 * unsigned, badly signed, wrong-key, unknown-planner, stale and replayed commands, and commands
 * from a disallowed source address, interleaved with correctly signed valid setpoints that must
 * still be acknowledged. See {@link FuzzCase} for each case and its required reply.
 *
 * <p>Every datagram has at least one byte: the JDK's DatagramChannel reports an empty datagram as
 * no datagram at all, so the gateway can neither answer nor count one (docs/PROTOCOL.md).
 *
 * <p>Datagrams go out in windows; the gateway answers the datagrams of one socket in order, so
 * the i-th reply of a window answers its i-th datagram from the allowed socket. Seeded: the same
 * seed sends the same damage (sequences and timestamps follow the clock).
 *
 * <p>Not real-time safe; not thread safe.
 */
public final class PlannerFuzzer implements AutoCloseable
{
    /** The smallest ModeRequestKind value above every defined one (NULL_VAL 255 excluded). */
    private static final int FIRST_INVALID_REQUEST = Arrays.stream(ModeRequestKind.values())
        .filter(k -> k != ModeRequestKind.NULL_VAL).mapToInt(ModeRequestKind::value).max().orElse(0) + 1;

    /** Longest oversized datagram sent, bytes. */
    private static final int MAX_OVERSIZE = 4096;
    /** Far beyond the longest configurable time window (60 s). */
    private static final long STALE_OFFSET_NS = TimeUnit.SECONDS.toNanos(61);
    private static final int TEMPLATE_ID_OFFSET = 2;
    private static final int SCHEMA_ID_OFFSET = 4;
    private static final int VERSION_OFFSET = 6;
    private static final int SETPOINT_GROUP_OFFSET = Wire.HEADER_LENGTH + StreamSetpointEncoder.BLOCK_LENGTH;
    private static final int SETPOINT_JOINT_LENGTH = StreamSetpointEncoder.JointsEncoder.sbeBlockLength();
    private static final FuzzCase[] ATTACKS = Arrays.copyOfRange(FuzzCase.values(), 1, FuzzCase.values().length);

    private final DatagramSocket socket;
    private final DatagramSocket stranger;
    private final InetSocketAddress target;
    private final SplittableRandom random;
    private final long plannerId;
    private final PlannerSigner signer;
    private final PlannerSigner wrongKeySigner;
    private final PlannerSigner unknownPlannerSigner;
    private final long unknownPlannerId;
    private final int dof;
    private final double[] positionMin;
    private final double[] positionMax;
    private final double[] velocityMax;
    private final double[] probeQ;
    private final double[] zeros;
    private final int maxDatagramLength;
    private final long timeWindowNs;
    private final byte[] bytes = new byte[MAX_OVERSIZE + 1];
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    private final MessageHeaderEncoder header = new MessageHeaderEncoder();
    private final StreamSetpointEncoder setpoint = new StreamSetpointEncoder();
    private final ModeRequestEncoder modeRequest = new ModeRequestEncoder();
    private final TrajectorySegmentEncoder segment = new TrajectorySegmentEncoder();
    private final byte[] replyBytes = new byte[64];
    private final UnsafeBuffer replyBuffer = new UnsafeBuffer(replyBytes);
    private final DatagramPacket replyPacket = new DatagramPacket(replyBytes, replyBytes.length);
    private final MessageHeaderDecoder replyHeader = new MessageHeaderDecoder();
    private final CommandRejectDecoder rejectDecoder = new CommandRejectDecoder();
    private long nextSequence = utcNs();
    private byte[] lastValid;

    /**
     * Opens the sockets. Not real-time safe.
     *
     * @param target the gateway's UDP address.
     * @param keys keys including {@code plannerId}'s.
     * @param plannerId the planner the fuzzer signs as.
     * @param model the controlled robot, for the joint count and limits.
     * @param probeQ position of the VALID setpoints, within the limits, rad or m.
     * @param disallowedSource a local address outside the gateway's allow-list to send
     *     DISALLOWED_SOURCE datagrams from, or null to send none.
     * @param replyTimeout how long to wait for each reply.
     * @param timeWindow the gateway's time window: a datagram answered later than this after it was
     *     stamped may rightly be STALE, the host having delayed it.
     * @param maxDatagramLength the gateway's longest datagram, bytes.
     * @param seed seed of the generated damage.
     */
    public PlannerFuzzer(final InetSocketAddress target, final PlannerKeys keys, final long plannerId, final RobotModel model,
        final double[] probeQ, final InetAddress disallowedSource, final Duration replyTimeout, final Duration timeWindow,
        final int maxDatagramLength, final long seed)
    {
        this.timeWindowNs = timeWindow.toNanos();
        this.target = target;
        this.plannerId = plannerId;
        this.dof = model.dof();
        this.probeQ = probeQ.clone();
        this.zeros = new double[dof];
        this.maxDatagramLength = maxDatagramLength;
        this.random = new SplittableRandom(seed);
        positionMin = new double[dof];
        positionMax = new double[dof];
        velocityMax = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            final JointLimits limits = model.limits(k);
            positionMin[k] = limits.positionMin();
            positionMax[k] = limits.positionMax();
            velocityMax[k] = limits.velocityMax();
        }
        checkProbe();
        signer = new PlannerSigner(keys, plannerId, bytes.length);
        unknownPlannerId = plannerId ^ 0x8000_0000L;
        wrongKeySigner = new PlannerSigner(PlannerKeys.generate(new SecureRandom(), plannerId), plannerId, bytes.length);
        unknownPlannerSigner = new PlannerSigner(PlannerKeys.generate(new SecureRandom(), unknownPlannerId), unknownPlannerId,
            bytes.length);
        try
        {
            socket = new DatagramSocket();
            socket.connect(target);
            socket.setSoTimeout((int)Math.max(1, replyTimeout.toMillis()));
            stranger = disallowedSource == null ? null : new DatagramSocket(new InetSocketAddress(disallowedSource, 0));
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("cannot open fuzzer sockets towards " + target, ex);
        }
    }

    private void checkProbe()
    {
        if (probeQ.length != dof)
        {
            throw new IllegalArgumentException("probe pose has " + probeQ.length + " values, the robot " + dof + " joints");
        }
        for (int k = 0; k < dof; k++)
        {
            if (!(probeQ[k] >= positionMin[k] && probeQ[k] <= positionMax[k]) || !(velocityMax[k] < Double.POSITIVE_INFINITY))
            {
                throw new IllegalArgumentException("probe position " + probeQ[k] + " of joint " + k + " is outside ["
                    + positionMin[k] + ", " + positionMax[k] + "], or the joint has no velocity limit to exceed");
            }
        }
    }

    /**
     * Sends {@code datagrams} datagrams: every {@code probeEvery}-th a VALID setpoint (the first
     * one too), the others attacks chosen uniformly among the cases. Not real-time safe.
     *
     * @param datagrams how many to send.
     * @param probeEvery period of the VALID probes, ≥ 2.
     * @param window datagrams sent before their replies are read, ≥ 1.
     * @return what was sent and answered.
     */
    public FuzzReport run(final long datagrams, final int probeEvery, final int window)
    {
        final FuzzReport report = new FuzzReport();
        final FuzzCase[] pending = new FuzzCase[window];
        final long[] pendingIndex = new long[window];
        final long[] stampedNs = new long[window];
        final long startNs = System.nanoTime();
        try
        {
            long index = 0;
            while (index < datagrams)
            {
                int count = 0;
                final long end = Math.min(datagrams, index + window);
                for (; index < end; index++)
                {
                    final FuzzCase c = index % probeEvery == 0 ? FuzzCase.VALID : attack();
                    report.countSent(c);
                    final int length = build(c);
                    final DatagramPacket packet = new DatagramPacket(bytes, length, target);
                    if (c == FuzzCase.DISALLOWED_SOURCE)
                    {
                        stranger.send(packet);
                        continue;
                    }
                    socket.send(packet);
                    pending[count] = c;
                    stampedNs[count] = System.nanoTime();
                    pendingIndex[count++] = index;
                }
                readReplies(report, pending, pendingIndex, stampedNs, count);
            }
            report.countStrangerReplies(drainStranger());
        }
        catch (final IOException ex)
        {
            throw new UncheckedIOException("fuzzing " + target + " failed", ex);
        }
        report.recordElapsedNs(System.nanoTime() - startNs);
        return report;
    }

    private FuzzCase attack()
    {
        while (true)
        {
            final FuzzCase c = ATTACKS[random.nextInt(ATTACKS.length)];
            if ((c != FuzzCase.REPLAY || lastValid != null) && (c != FuzzCase.DISALLOWED_SOURCE || stranger != null))
            {
                return c;
            }
        }
    }

    private void readReplies(final FuzzReport report, final FuzzCase[] pending, final long[] pendingIndex, final long[] stampedNs,
        final int count) throws IOException
    {
        for (int i = 0; i < count; i++)
        {
            try
            {
                replyPacket.setLength(replyBytes.length);
                socket.receive(replyPacket);
            }
            catch (final SocketTimeoutException ex)
            {
                for (int j = i; j < count; j++)
                {
                    report.countUnanswered(pending[j], pendingIndex[j]);
                }
                return;
            }
            replyHeader.wrap(replyBuffer, 0);
            if (replyHeader.templateId() == CommandAckDecoder.TEMPLATE_ID)
            {
                report.countAck(pending[i], pendingIndex[i]);
            }
            else
            {
                final boolean late = System.nanoTime() - stampedNs[i] > timeWindowNs;
                report.countReject(pending[i], rejectDecoder.wrapAndApplyHeader(replyBuffer, 0, replyHeader).reason(), pendingIndex[i],
                    late);
            }
        }
    }

    private long drainStranger() throws IOException
    {
        if (stranger == null)
        {
            return 0;
        }
        long replies = 0;
        stranger.setSoTimeout(1);
        final DatagramPacket packet = new DatagramPacket(new byte[64], 64);
        while (true)
        {
            try
            {
                stranger.receive(packet);
                replies++;
            }
            catch (final SocketTimeoutException ex)
            {
                return replies;
            }
        }
    }

    /** Writes the datagram of case {@code c} into {@code bytes}; returns its length. */
    private int build(final FuzzCase c)
    {
        switch (c)
        {
            case VALID:
                final int valid = signed(setpoint(plannerId, utcNs(), dof, probeQ, zeros));
                lastValid = Arrays.copyOf(bytes, valid);
                return valid;
            case RANDOM_BYTES:
                return randomBytes(0, 1 + random.nextInt(maxDatagramLength));
            case BIT_FLIP:
                return flipBits(signed(probe()));
            case TRUNCATION:
                return 1 + random.nextInt(signed(probe()) - 1);
            case OVERSIZED:
                return randomBytes(signed(probe()), maxDatagramLength + 1 + random.nextInt(MAX_OVERSIZE - maxDatagramLength));
            case WRONG_SCHEMA_ID:
                return withShort(signed(probe()), SCHEMA_ID_OFFSET, Wire.SCHEMA_ID + 1 + random.nextInt(0xFFFE));
            case WRONG_VERSION:
                return withShort(signed(probe()), VERSION_OFFSET, random.nextBoolean() ? 0 : Wire.SCHEMA_VERSION + 1
                    + random.nextInt(0xFFFF - Wire.SCHEMA_VERSION));
            case WRONG_TEMPLATE:
                return withShort(signed(probe()), TEMPLATE_ID_OFFSET, unknownTemplate());
            case WRONG_BLOCK_LENGTH:
                return withShort(signed(probe()), 0, StreamSetpointEncoder.BLOCK_LENGTH + 1 + random.nextInt(200));
            case NON_FINITE:
                return signed(nonFinite());
            case OUT_OF_RANGE:
                return signed(outOfRange());
            case WRONG_JOINT_COUNT:
                return signed(wrongJointCount());
            case BAD_ENUM:
                return signed(badEnum());
            case BAD_CHUNK:
                return signed(badChunk());
            case BAD_GROUP:
                return signed(badGroup());
            case UNSIGNED:
                return trailer(probe(), false);
            case BAD_SIGNATURE:
                return trailer(probe(), true);
            case WRONG_KEY:
                return wrongKeySigner.sign(buffer, probe());
            case UNKNOWN_PLANNER:
                return unknownPlannerSigner.sign(buffer, setpoint(unknownPlannerId, utcNs(), dof, probeQ, zeros));
            case STALE:
                final long offsetNs = STALE_OFFSET_NS + (long)(random.nextDouble() * TimeUnit.HOURS.toNanos(1));
                return signed(setpoint(plannerId, utcNs() + (random.nextBoolean() ? offsetNs : -offsetNs), dof, probeQ, zeros));
            case REPLAY:
                System.arraycopy(lastValid, 0, bytes, 0, lastValid.length);
                return lastValid.length;
            case DISALLOWED_SOURCE:
                return signed(probe());
            default:
                throw new IllegalStateException("unhandled case " + c);
        }
    }

    /** A valid setpoint at the probe pose; returns the message length. */
    private int probe()
    {
        return setpoint(plannerId, utcNs(), dof, probeQ, zeros);
    }

    private int setpoint(final long planner, final long timestampNs, final int jointCount, final double[] q, final double[] qd)
    {
        setpoint.wrapAndApplyHeader(buffer, 0, header);
        plannerHeader(setpoint.header(), planner, timestampNs);
        setpoint.jointCount((short)jointCount);
        final StreamSetpointEncoder.JointsEncoder joints = setpoint.jointsCount(jointCount);
        for (int k = 0; k < jointCount; k++)
        {
            joints.next().q(q[k % dof]).qd(qd[k % dof]).qdd(0.0).qddd(0.0);
        }
        return Wire.HEADER_LENGTH + setpoint.encodedLength();
    }

    private void plannerHeader(final PlannerHeaderEncoder plannerHeader, final long planner, final long timestampNs)
    {
        plannerHeader.sequence(nextSequence++).timestampNs(timestampNs).plannerId(planner);
    }

    private int nonFinite()
    {
        final int length = probe();
        final int k = random.nextInt(dof);
        final int field = random.nextInt(4);
        final double[] values = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        buffer.putDouble(SETPOINT_GROUP_OFFSET + 4 + k * SETPOINT_JOINT_LENGTH + 8 * field, values[random.nextInt(3)], Wire.BYTE_ORDER);
        return length;
    }

    private int outOfRange()
    {
        final double[] q = probeQ.clone();
        final double[] qd = zeros.clone();
        final int k = random.nextInt(dof);
        final double excess = 1e-6 + random.nextDouble();
        switch (random.nextInt(3))
        {
            case 0:
                q[k] = Double.isFinite(positionMax[k]) ? positionMax[k] + excess : Double.MAX_VALUE;
                qd[k] = Double.isFinite(positionMax[k]) ? 0.0 : velocityBeyond(k, excess);
                break;
            case 1:
                q[k] = Double.isFinite(positionMin[k]) ? positionMin[k] - excess : -Double.MAX_VALUE;
                qd[k] = Double.isFinite(positionMin[k]) ? 0.0 : velocityBeyond(k, excess);
                break;
            default:
                qd[k] = velocityBeyond(k, excess);
                break;
        }
        return setpoint(plannerId, utcNs(), dof, q, qd);
    }

    private double velocityBeyond(final int k, final double excess)
    {
        final double v = Double.isFinite(velocityMax[k]) ? velocityMax[k] + excess : Double.MAX_VALUE;
        return random.nextBoolean() ? v : -v;
    }

    private int wrongJointCount()
    {
        final int count = dof == Wire.MAX_JOINTS || dof > 1 && random.nextBoolean() ? dof - 1 : dof + 1;
        return setpoint(plannerId, utcNs(), count, probeQ, zeros);
    }

    private int badEnum()
    {
        modeRequest.wrapAndApplyHeader(buffer, 0, header);
        plannerHeader(modeRequest.header(), plannerId, utcNs());
        final boolean badRequest = random.nextBoolean();
        final int requestOffset = Wire.HEADER_LENGTH + ModeRequestEncoder.requestEncodingOffset();
        final int controllerOffset = Wire.HEADER_LENGTH + ModeRequestEncoder.controllerEncodingOffset();
        buffer.putByte(requestOffset, (byte)(badRequest
            ? (random.nextBoolean() ? 0 : FIRST_INVALID_REQUEST + random.nextInt(255 - FIRST_INVALID_REQUEST)) : 1));
        buffer.putByte(controllerOffset, (byte)(badRequest ? 0 : 4 + random.nextInt(252)));
        return Wire.HEADER_LENGTH + ModeRequestEncoder.BLOCK_LENGTH;
    }

    private int badChunk()
    {
        segment.wrapAndApplyHeader(buffer, 0, header);
        plannerHeader(segment.header(), plannerId, utcNs());
        final int chunkCount = random.nextInt(4);
        segment.segmentId(random.nextInt(1000)).chunkIndex(chunkCount + random.nextInt(4)).chunkCount(chunkCount)
            .jointCount((short)dof);
        final TrajectorySegmentEncoder.WaypointsEncoder.JointsEncoder joints =
            segment.waypointsCount(1).next().timeFromStartNs(0L).jointsCount(dof);
        for (int k = 0; k < dof; k++)
        {
            joints.next().q(probeQ[k]).qd(0.0).qdd(0.0);
        }
        return Wire.HEADER_LENGTH + segment.encodedLength();
    }

    private int badGroup()
    {
        final int length = probe();
        if (random.nextBoolean())
        {
            buffer.putShort(SETPOINT_GROUP_OFFSET, (short)(SETPOINT_JOINT_LENGTH + 1 + random.nextInt(100)), Wire.BYTE_ORDER);
        }
        else
        {
            buffer.putShort(SETPOINT_GROUP_OFFSET + 2, (short)(dof + 1 + random.nextInt(100)), Wire.BYTE_ORDER);
        }
        return length;
    }

    private int unknownTemplate()
    {
        while (true)
        {
            final int id = random.nextInt(0x10000);
            if (id < TrajectorySegmentEncoder.TEMPLATE_ID || id > TrajectorySegmentEncoder.TEMPLATE_ID + 3)
            {
                return id;
            }
        }
    }

    private int signed(final int messageLength)
    {
        return signer.sign(buffer, messageLength);
    }

    private int trailer(final int messageLength, final boolean randomTag)
    {
        for (int i = 0; i < Wire.AUTH_TRAILER_LENGTH; i++)
        {
            bytes[messageLength + i] = randomTag ? (byte)random.nextInt(256) : 0;
        }
        return messageLength + Wire.AUTH_TRAILER_LENGTH;
    }

    private int randomBytes(final int from, final int length)
    {
        for (int i = from; i < length; i++)
        {
            bytes[i] = (byte)random.nextInt(256);
        }
        return length;
    }

    /** Flips 1 to 8 distinct bits, so the datagram always differs from the signed one. */
    private int flipBits(final int length)
    {
        final int[] bits = new int[1 + random.nextInt(8)];
        for (int f = 0; f < bits.length; f++)
        {
            int bit;
            do
            {
                bit = random.nextInt(8 * length);
            }
            while (contains(bits, f, bit));
            bits[f] = bit;
            bytes[bit / 8] ^= (byte)(1 << (bit % 8));
        }
        return length;
    }

    private static boolean contains(final int[] values, final int count, final int value)
    {
        for (int i = 0; i < count; i++)
        {
            if (values[i] == value)
            {
                return true;
            }
        }
        return false;
    }

    private int withShort(final int length, final int offset, final int value)
    {
        buffer.putShort(offset, (short)value, Wire.BYTE_ORDER);
        return length;
    }


    private static long utcNs()
    {
        return SystemEpochNanoClock.INSTANCE.nanoTime();
    }

    /** Closes the sockets. */
    @Override
    public void close()
    {
        socket.close();
        if (stranger != null)
        {
            stranger.close();
        }
    }
}
