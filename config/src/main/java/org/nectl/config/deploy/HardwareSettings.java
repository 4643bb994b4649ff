package org.nectl.config.deploy;

import java.util.List;

import org.nectl.config.YamlField;

/**
 * The hardware link between controller and adapter (section {@code hardware}; docs/PROTOCOL.md).
 * Immutable.
 *
 * @param channel Aeron channel of the three streams, {@code aeron:ipc} on one host.
 * @param jointStateStreamId JointState, adapter to controller.
 * @param motorCommandStreamId MotorCommand, controller to adapter.
 * @param heartbeatStreamId AdapterHeartbeat, adapter to controller.
 */
public record HardwareSettings(String channel, int jointStateStreamId, int motorCommandStreamId, int heartbeatStreamId)
{
    /** Default JointState stream id. */
    public static final int DEFAULT_JOINT_STATE_STREAM_ID = 1001;
    /** Default MotorCommand stream id. */
    public static final int DEFAULT_MOTOR_COMMAND_STREAM_ID = 1002;
    /** Default AdapterHeartbeat stream id. */
    public static final int DEFAULT_HEARTBEAT_STREAM_ID = 1003;

    private static final List<String> KEYS =
        List.of("channel", "joint_state_stream", "motor_command_stream", "heartbeat_stream");

    /** @return {@code aeron:ipc}, streams 1001, 1002, 1003. */
    public static HardwareSettings defaults()
    {
        return new HardwareSettings(
            AeronFields.IPC, DEFAULT_JOINT_STATE_STREAM_ID, DEFAULT_MOTOR_COMMAND_STREAM_ID, DEFAULT_HEARTBEAT_STREAM_ID);
    }

    /**
     * @param section the {@code hardware} mapping.
     * @return the settings, defaults for absent keys.
     */
    static HardwareSettings read(final YamlField section)
    {
        section.mapping(KEYS);
        return new HardwareSettings(
            section.optional("channel").map(AeronFields::channel).orElse(AeronFields.IPC),
            section.optional("joint_state_stream").map(AeronFields::streamId).orElse(DEFAULT_JOINT_STATE_STREAM_ID),
            section.optional("motor_command_stream").map(AeronFields::streamId).orElse(DEFAULT_MOTOR_COMMAND_STREAM_ID),
            section.optional("heartbeat_stream").map(AeronFields::streamId).orElse(DEFAULT_HEARTBEAT_STREAM_ID));
    }
}
