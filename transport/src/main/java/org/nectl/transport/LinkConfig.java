package org.nectl.transport;

import java.util.Objects;

/**
 * Channel and stream ids of the hardware link between controller and adapter (docs/PROTOCOL.md).
 *
 * @param channel Aeron channel of all three streams, {@code aeron:ipc} on one host.
 * @param jointStateStreamId JointState, adapter to controller.
 * @param motorCommandStreamId MotorCommand, controller to adapter.
 * @param heartbeatStreamId AdapterHeartbeat, adapter to controller.
 */
public record LinkConfig(String channel, int jointStateStreamId, int motorCommandStreamId, int heartbeatStreamId)
{
    /** Default channel of the hardware link. */
    public static final String IPC_CHANNEL = "aeron:ipc";
    /** Default stream id of JointState. */
    public static final int JOINT_STATE_STREAM_ID = 1001;
    /** Default stream id of MotorCommand. */
    public static final int MOTOR_COMMAND_STREAM_ID = 1002;
    /** Default stream id of AdapterHeartbeat. */
    public static final int HEARTBEAT_STREAM_ID = 1003;

    /** Validates the configuration. */
    public LinkConfig
    {
        Objects.requireNonNull(channel, "channel");
        if (jointStateStreamId == motorCommandStreamId || jointStateStreamId == heartbeatStreamId
            || motorCommandStreamId == heartbeatStreamId)
        {
            throw new IllegalArgumentException("hardware link stream ids must differ: " + jointStateStreamId + ", "
                + motorCommandStreamId + ", " + heartbeatStreamId);
        }
    }

    /** @return the documented defaults: {@code aeron:ipc}, streams 1001, 1002, 1003. */
    public static LinkConfig ipcDefaults()
    {
        return new LinkConfig(IPC_CHANNEL, JOINT_STATE_STREAM_ID, MOTOR_COMMAND_STREAM_ID, HEARTBEAT_STREAM_ID);
    }
}
