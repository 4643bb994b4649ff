package org.nectl.transport;

import io.aeron.Aeron;
import io.aeron.Publication;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.CloseHelper;
import org.agrona.DirectBuffer;
import org.nectl.transport.sbe.AdapterHeartbeatDecoder;
import org.nectl.transport.sbe.AdapterHeartbeatEncoder;
import org.nectl.transport.sbe.JointStateDecoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.MessageHeaderEncoder;
import org.nectl.transport.sbe.MotorCommandEncoder;

/**
 * The controller's end of the hardware link: publishes MotorCommand by {@code tryClaim} and takes
 * the newest JointState and AdapterHeartbeat (docs/PROTOCOL.md, "Hardware link").
 *
 * <p>Publishing and polling are real-time safe (no allocation, no locks, no blocking).
 * Not thread safe: the control loop thread owns it; construct and close outside the loop.
 */
public final class ControllerLink implements AutoCloseable
{
    private final int jointCount;
    private final ClaimPublisher commandPublisher;
    private final Subscription jointStateSubscription;
    private final Subscription heartbeatSubscription;
    private final NewestMessagePoller poller = new NewestMessagePoller();
    private final MessageHeaderEncoder headerEncoder = new MessageHeaderEncoder();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final MotorCommandEncoder commandEncoder = new MotorCommandEncoder();
    /** JointState blocks of versions 1-3 end where the version 4 base-motion block starts; they still decode. */
    private static final int JOINT_STATE_V3_BLOCK_LENGTH = JointStateDecoder.baseMotionValidEncodingOffset();
    private final JointStateDecoder jointStateDecoder = new JointStateDecoder();
    private final AdapterHeartbeatDecoder heartbeatDecoder = new AdapterHeartbeatDecoder();
    private final FragmentHandler jointStateHandler = this::onJointState;
    private final FragmentHandler heartbeatHandler = this::onHeartbeat;
    private JointStateSample jointStateTarget;
    private HeartbeatSample heartbeatTarget;
    private long invalidMessageCount;

    /**
     * Not real-time safe.
     *
     * @param aeron connected client.
     * @param config channel and stream ids.
     * @param jointCount degrees of freedom of the robot; JointStates of any other count are invalid.
     */
    public ControllerLink(final Aeron aeron, final LinkConfig config, final int jointCount)
    {
        Wire.checkJointCount(jointCount);
        this.jointCount = jointCount;
        commandPublisher = new ClaimPublisher(aeron, config.channel(), config.motorCommandStreamId(),
            Wire.HEADER_LENGTH + MotorCommandEncoder.BLOCK_LENGTH);
        jointStateSubscription = aeron.addSubscription(config.channel(), config.jointStateStreamId());
        heartbeatSubscription = aeron.addSubscription(config.channel(), config.heartbeatStreamId());
    }

    /**
     * Publishes one MotorCommand in place. Real-time safe.
     *
     * @param command the command; its motor count should equal the link's joint count.
     * @return the new stream position (&gt; 0) or a negative {@link io.aeron.Publication} code
     *     (NOT_CONNECTED, BACK_PRESSURED, ADMIN_ACTION, CLOSED, MAX_POSITION_EXCEEDED).
     */
    public long publishMotorCommand(final MotorCommandSample command)
    {
        final long result = commandPublisher.claim();
        if (result > 0)
        {
            commandEncoder.wrapAndApplyHeader(commandPublisher.buffer(), commandPublisher.offset(), headerEncoder);
            command.encode(commandEncoder);
            commandPublisher.commit();
        }
        return result;
    }

    /**
     * @param result what {@link #publishMotorCommand} returned.
     * @return true if the command was not published because no drive adapter is subscribed.
     */
    public static boolean noDriveSubscribed(final long result)
    {
        return result == Publication.NOT_CONNECTED;
    }

    /**
     * Reads every JointState that has arrived and keeps the newest. Real-time safe.
     *
     * @param newest receives the newest valid state; untouched when none arrived.
     * @return number of valid states read (more than 1: older ones were superseded).
     */
    public int pollJointState(final JointStateSample newest)
    {
        jointStateTarget = newest;
        return poller.poll(jointStateSubscription, jointStateHandler);
    }

    /**
     * Reads every AdapterHeartbeat that has arrived and keeps the newest. Real-time safe.
     *
     * @param newest receives the newest valid heartbeat; untouched when none arrived.
     * @return number of valid heartbeats read.
     */
    public int pollHeartbeat(final HeartbeatSample newest)
    {
        heartbeatTarget = newest;
        return poller.poll(heartbeatSubscription, heartbeatHandler);
    }

    /** @return messages ignored since start: wrong schema, template, length or joint count, bad enum value. */
    public long invalidMessageCount()
    {
        return invalidMessageCount;
    }

    /** @return true when an adapter subscribes to commands and publishes states. Real-time safe. */
    public boolean isConnected()
    {
        return commandPublisher.isConnected() && jointStateSubscription.isConnected();
    }

    /**
     * @return true once the link is closed, by {@link #close} or by the Aeron client after losing
     *     its media driver; a closed link neither publishes nor receives. Real-time safe (volatile reads).
     */
    public boolean isClosed()
    {
        return commandPublisher.isClosed() || jointStateSubscription.isClosed() || heartbeatSubscription.isClosed();
    }

    /** Not real-time safe. */
    @Override
    public void close()
    {
        CloseHelper.closeAll(commandPublisher, jointStateSubscription, heartbeatSubscription);
    }

    private void onJointState(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, JointStateDecoder.TEMPLATE_ID,
            JOINT_STATE_V3_BLOCK_LENGTH))
        {
            jointStateDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
            if (jointStateDecoder.jointCount() == jointCount)
            {
                jointStateTarget.decode(jointStateDecoder);
                poller.accepted();
                return;
            }
        }
        invalidMessageCount++;
    }

    private void onHeartbeat(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, AdapterHeartbeatEncoder.TEMPLATE_ID,
            AdapterHeartbeatEncoder.BLOCK_LENGTH)
            && heartbeatTarget.decode(heartbeatDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder)))
        {
            poller.accepted();
            return;
        }
        invalidMessageCount++;
    }
}
