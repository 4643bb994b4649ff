package org.nectl.transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import org.agrona.CloseHelper;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.EpochClock;
import org.agrona.concurrent.NanoClock;
import org.agrona.concurrent.SystemEpochClock;
import org.agrona.concurrent.UnsafeBuffer;
import org.nectl.transport.sbe.CommandAckEncoder;
import org.nectl.transport.sbe.CommandRejectEncoder;
import org.nectl.transport.sbe.EStopDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.TelemetryEncoder;

/**
 * Receives planner commands as raw UDP datagrams (any language can send them), validates them,
 * forwards valid ones to the control loop through a {@link PlannerCommandQueue}, counts rejections
 * by reason and answers every datagram with a CommandAck or CommandReject sent to its source
 * (docs/PROTOCOL.md).
 *
 * <p>Authentication (docs/PROTOCOL.md, "Authentication"): datagrams from a source outside the
 * allow-list are counted as DISALLOWED_SOURCE and not answered; every other datagram must end in
 * an HMAC-SHA256 trailer under its planner's key, carry a recent UTC timestamp and a sequence above
 * the planner's last one. All of it is verified here, on the gateway thread, never on the loop.
 *
 * <p>An Agrona {@link Agent} for a non-real-time thread: the JDK allocates a source address per
 * received datagram. Counters may be read from any thread.
 */
public final class PlannerGateway implements Agent
{
    /** Number of reject counters: the RejectCounts array length of Telemetry. */
    public static final int REJECT_COUNTER_COUNT = TelemetryEncoder.rejectCountsLength();

    private final DatagramChannel channel;
    private final InetSocketAddress localAddress;
    private final int datagramsPerDutyCycle;
    private final PlannerCommandAuthenticator authenticator;
    private final PlannerCommandValidator validator;
    private final PlannerCommandQueue queue;
    private final NanoClock clock;
    private final ByteBuffer receiveBuffer;
    private final UnsafeBuffer datagram;
    private final ByteBuffer replyBuffer = ByteBuffer.allocateDirect(64);
    private final UnsafeBuffer reply = new UnsafeBuffer(replyBuffer);
    private final MessageHeaderEncoder replyHeader = new MessageHeaderEncoder();
    private final CommandAckEncoder ack = new CommandAckEncoder();
    private final CommandRejectEncoder reject = new CommandRejectEncoder();
    private final AtomicLongArray rejectCounts = new AtomicLongArray(REJECT_COUNTER_COUNT);
    private final AtomicLong acceptedCount = new AtomicLong();
    private final AtomicLong unsentReplyCount = new AtomicLong();
    private final AtomicLong unavailableCount = new AtomicLong();
    private volatile boolean refusing;

    /**
     * Binds the UDP socket (non-blocking), checking timestamps against the host's UTC clock. Not
     * real-time safe.
     *
     * @param config address, datagram size, queue capacity and authentication.
     * @param limits joint count and limits commands must respect.
     * @param clock host monotonic clock for reply timestamps.
     */
    public PlannerGateway(final PlannerGatewayConfig config, final CommandLimits limits, final NanoClock clock)
    {
        this(config, limits, clock, SystemEpochClock.INSTANCE);
    }

    /**
     * Binds the UDP socket (non-blocking). Not real-time safe.
     *
     * @param config address, datagram size, queue capacity and authentication.
     * @param limits joint count and limits commands must respect.
     * @param clock host monotonic clock for reply timestamps.
     * @param utcClock UTC wall clock, ms since the Unix epoch, for the time window of commands.
     */
    public PlannerGateway(final PlannerGatewayConfig config, final CommandLimits limits, final NanoClock clock,
        final EpochClock utcClock)
    {
        this.datagramsPerDutyCycle = config.datagramsPerDutyCycle();
        this.authenticator = new PlannerCommandAuthenticator(config.authentication(), config.maxDatagramLength(), utcClock);
        this.validator = new PlannerCommandValidator(limits, config.maxDatagramLength(), authenticator);
        this.queue = new PlannerCommandQueue(config.queueCapacityBytes());
        this.clock = clock;
        receiveBuffer = ByteBuffer.allocateDirect(config.maxDatagramLength() + 1);
        datagram = new UnsafeBuffer(receiveBuffer);
        channel = bind(config.bindAddress());
        try
        {
            localAddress = (InetSocketAddress)channel.getLocalAddress();
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            throw new UncheckedIOException("cannot read the planner gateway's local address", ex);
        }
    }

    /**
     * @return a non-blocking channel bound to the address.
     * @throws SetupException if the host does not resolve or the address cannot be bound (in use, not
     *     an address of this host, a privileged port).
     */
    private static DatagramChannel bind(final InetSocketAddress address)
    {
        final String host = address.isUnresolved() ? address.getHostString()
            : address.getAddress() instanceof Inet6Address ? "[" + address.getAddress().getHostAddress() + "]"
            : address.getAddress().getHostAddress();
        final String where = "planner gateway: UDP " + host + ":" + address.getPort();
        if (address.isUnresolved())
        {
            throw new SetupException(where + ": host '" + address.getHostString() + "' does not resolve to an address");
        }
        DatagramChannel channel = null;
        try
        {
            channel = DatagramChannel.open(address.getAddress() instanceof Inet6Address
                ? StandardProtocolFamily.INET6 : StandardProtocolFamily.INET);
            channel.configureBlocking(false);
            channel.bind(address);
            return channel;
        }
        catch (final IOException ex)
        {
            CloseHelper.quietClose(channel);
            throw new SetupException(where + ": cannot bind: " + ex.getMessage(), ex);
        }
    }

    /** @return the queue the control loop drains. */
    public PlannerCommandQueue commandQueue()
    {
        return queue;
    }

    /** @return the bound UDP address (with the actual port when 0 was configured). */
    public InetSocketAddress localAddress()
    {
        return localAddress;
    }

    /** Handles up to the configured number of datagrams. Gateway thread only. */
    @Override
    public int doWork() throws IOException
    {
        int work = 0;
        while (work < datagramsPerDutyCycle)
        {
            receiveBuffer.clear();
            final SocketAddress source = channel.receive(receiveBuffer);
            if (source == null)
            {
                break;
            }
            onDatagram(receiveBuffer.position(), (InetSocketAddress)source);
            work++;
        }
        return work;
    }

    @Override
    public String roleName()
    {
        return "planner-gateway";
    }

    /** Closes the UDP socket. */
    @Override
    public void onClose()
    {
        CloseHelper.quietClose(channel);
    }

    /** @return datagrams rejected for {@code reason} since start. Any thread. */
    public long rejectCount(final RejectReason reason)
    {
        return reason == RejectReason.CONTROLLER_UNAVAILABLE ? unavailableCount.get() : rejectCounts.get(reason.value());
    }

    /** Copies the reject counters, indexed by RejectReason value, into {@code counts}. Real-time safe, any thread. */
    public void copyRejectCounts(final long[] counts)
    {
        for (int r = 0; r < REJECT_COUNTER_COUNT; r++)
        {
            counts[r] = rejectCounts.get(r);
        }
    }

    /**
     * From now on refuses every valid command but EStop with CONTROLLER_UNAVAILABLE: the control
     * loop failed or the service is shutting down. Any thread; irreversible.
     */
    public void refuseCommands()
    {
        refusing = true;
    }

    /** @return true once {@link #refuseCommands} was called. Any thread. */
    public boolean refusingCommands()
    {
        return refusing;
    }

    /** @return valid commands refused with CONTROLLER_UNAVAILABLE (not in Telemetry's RejectCounts). Any thread. */
    public long unavailableRejectCount()
    {
        return unavailableCount.get();
    }

    /** @return commands accepted and queued since start. Any thread. */
    public long acceptedCount()
    {
        return acceptedCount.get();
    }

    /** @return replies the socket could not send (send buffer full). Any thread. */
    public long unsentReplyCount()
    {
        return unsentReplyCount.get();
    }

    private void onDatagram(final int length, final InetSocketAddress source) throws IOException
    {
        if (!authenticator.sourceAllowed(source.getAddress()))
        {
            count(RejectReason.DISALLOWED_SOURCE.value());
            return;
        }
        int result = validator.validate(datagram, length);
        // An emergency stop is always forwarded: it can only make the arm safer.
        if (result == PlannerCommandValidator.ACCEPTED && refusing && validator.templateId() != EStopDecoder.TEMPLATE_ID)
        {
            validator.abortSegment();
            result = RejectReason.CONTROLLER_UNAVAILABLE.value();
        }
        else if (result == PlannerCommandValidator.ACCEPTED
            && !queue.offer(datagram, 0, validator.messageLength(), validator.templateId()))
        {
            validator.abortSegment();
            result = RejectReason.QUEUE_FULL.value();
        }
        if (result == PlannerCommandValidator.ACCEPTED)
        {
            acceptedCount.lazySet(acceptedCount.get() + 1);
            encodeAck();
        }
        else
        {
            count(result);
            encodeReject(result);
        }
        if (channel.send(replyBuffer, source) == 0)
        {
            unsentReplyCount.lazySet(unsentReplyCount.get() + 1);
        }
    }

    private void count(final int reason)
    {
        if (reason == RejectReason.CONTROLLER_UNAVAILABLE.value())
        {
            // Beyond the 16 entries of Telemetry's RejectCounts: counted here only.
            unavailableCount.lazySet(unavailableCount.get() + 1);
            return;
        }
        rejectCounts.lazySet(reason, rejectCounts.get(reason) + 1);
    }

    private void encodeAck()
    {
        ack.wrapAndApplyHeader(reply, 0, replyHeader)
            .commandSequence(validator.sequence())
            .gatewayTimestampNs(clock.nanoTime())
            .plannerId(validator.plannerId())
            .commandTemplateId(validator.templateId());
        replyBuffer.clear().limit(Wire.HEADER_LENGTH + ack.encodedLength());
    }

    private void encodeReject(final int reason)
    {
        reject.wrapAndApplyHeader(reply, 0, replyHeader)
            .commandSequence(validator.sequence())
            .gatewayTimestampNs(clock.nanoTime())
            .plannerId(validator.plannerId())
            .commandTemplateId(validator.templateId())
            .reason(RejectReason.get((short)reason))
            .jointIndex(validator.jointIndex());
        replyBuffer.clear().limit(Wire.HEADER_LENGTH + reject.encodedLength());
    }
}
