package org.nectl.transport;

import io.aeron.Aeron;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.nectl.transport.sbe.AdapterHeartbeatEncoder;
import org.nectl.transport.sbe.JointStateEncoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.MotorCommandDecoder;

/**
 * The hardware adapter's end of the hardware link: publishes JointState and AdapterHeartbeat by
 * {@code tryClaim} and takes the newest MotorCommand (docs/PROTOCOL.md, "Hardware link").
 *
 * <p>Publishing and polling are real-time safe. Not thread safe, with one exception: heartbeats
 * have their own publication, so {@link #publishHeartbeat} may run on a different thread than the
 * other methods (one thread each).
 */
public final class AdapterLink implements AutoCloseable
{
    private final int jointCount;
    private final ClaimPublisher jointStatePublisher;
    private final ClaimPublisher heartbeatPublisher;
    private final Subscription commandSubscription;
    private final NewestMessagePoller poller = new NewestMessagePoller();
    private final MessageHeaderEncoder stateHeaderEncoder = new MessageHeaderEncoder();
    private final MessageHeaderEncoder heartbeatHeaderEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final JointStateEncoder jointStateEncoder = new JointStateEncoder();
    private final AdapterHeartbeatEncoder heartbeatEncoder = new AdapterHeartbeatEncoder();
    private final MotorCommandDecoder commandDecoder = new MotorCommandDecoder();
    private final FragmentHandler commandHandler = this::onMotorCommand;
    private MotorCommandSample commandTarget;
    private long invalidMessageCount;

    /**
     * Not real-time safe.
     *
     * @param aeron connected client.
     * @param config channel and stream ids.
     * @param jointCount number of joints and motors; MotorCommands of any other count are invalid.
     */
    public AdapterLink(final Aeron aeron, final LinkConfig config, final int jointCount)
    {
        Wire.checkJointCount(jointCount);
        this.jointCount = jointCount;
        jointStatePublisher = new ClaimPublisher(aeron, config.channel(), config.jointStateStreamId(),
            Wire.HEADER_LENGTH + JointStateEncoder.BLOCK_LENGTH);
        heartbeatPublisher = new ClaimPublisher(aeron, config.channel(), config.heartbeatStreamId(),
            Wire.HEADER_LENGTH + AdapterHeartbeatEncoder.BLOCK_LENGTH);
        commandSubscription = aeron.addSubscription(config.channel(), config.motorCommandStreamId());
    }

    /**
     * Publishes one JointState in place. Real-time safe.
     *
     * @return the new stream position (&gt; 0) or a negative {@link io.aeron.Publication} code.
     */
    public long publishJointState(final JointStateSample state)
    {
        final long result = jointStatePublisher.claim();
        if (result > 0)
        {
            jointStateEncoder.wrapAndApplyHeader(jointStatePublisher.buffer(), jointStatePublisher.offset(),
                stateHeaderEncoder);
            state.encode(jointStateEncoder);
            jointStatePublisher.commit();
        }
        return result;
    }

    /**
     * Publishes one AdapterHeartbeat in place. Real-time safe.
     *
     * @return the new stream position (&gt; 0) or a negative {@link io.aeron.Publication} code.
     */
    public long publishHeartbeat(final HeartbeatSample heartbeat)
    {
        final long result = heartbeatPublisher.claim();
        if (result > 0)
        {
            heartbeatEncoder.wrapAndApplyHeader(heartbeatPublisher.buffer(), heartbeatPublisher.offset(),
                heartbeatHeaderEncoder);
            heartbeat.encode(heartbeatEncoder);
            heartbeatPublisher.commit();
        }
        return result;
    }

    /**
     * Reads every MotorCommand that has arrived and keeps the newest. Real-time safe.
     *
     * @param newest receives the newest valid command; untouched when none arrived.
     * @return number of valid commands read.
     */
    public int pollMotorCommand(final MotorCommandSample newest)
    {
        commandTarget = newest;
        return poller.poll(commandSubscription, commandHandler);
    }

    /** @return messages ignored since start: wrong schema, template, length or motor count, bad enum value. */
    public long invalidMessageCount()
    {
        return invalidMessageCount;
    }

    /** @return true when a controller subscribes to states and publishes commands. Real-time safe. */
    public boolean isConnected()
    {
        return jointStatePublisher.isConnected() && commandSubscription.isConnected();
    }

    /**
     * @return true once the link is closed, by {@link #close} or by the Aeron client after losing
     *     its media driver; a closed link neither publishes nor receives. Real-time safe (volatile reads).
     */
    public boolean isClosed()
    {
        return jointStatePublisher.isClosed() || heartbeatPublisher.isClosed() || commandSubscription.isClosed();
    }

    /** Not real-time safe. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(jointStatePublisher, heartbeatPublisher, commandSubscription);
    }

    private void onMotorCommand(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, MotorCommandDecoder.TEMPLATE_ID,
            MotorCommandDecoder.BLOCK_LENGTH))
        {
            commandDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
            if (commandDecoder.motorCount() == jointCount && commandTarget.decode(commandDecoder))
            {
                poller.accepted();
                return;
            }
        }
        invalidMessageCount++;
    }
}
