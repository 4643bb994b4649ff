package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import org.nectl.transport.ControllerLink;
import org.nectl.transport.HeartbeatSample;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.sbe.DriveMode;

/** The controller's side of a realtime test: constant torque commands, newest state and heartbeat. */
final class RealtimeControllerEnd
{
    private final ControllerLink link;
    private final JointStateSample state;
    private final MotorCommandSample command;
    private final HeartbeatSample heartbeat = new HeartbeatSample();
    private long heartbeatCount;
    private long commandCount;

    RealtimeControllerEnd(final ControllerLink link, final int dof)
    {
        this.link = link;
        state = new JointStateSample(dof);
        command = new MotorCommandSample(dof);
    }

    /** Waits for a state and checks it is the expected one (the adapter ran on this thread, so it is there). */
    JointStateSample awaitState(final long sequence)
    {
        LinkFixture.awaitCondition(() -> link.pollJointState(state) > 0, "JointState " + sequence);
        assertEquals(sequence, state.sequence());
        return state;
    }

    /** Waits for a heartbeat and returns the newest. */
    HeartbeatSample awaitHeartbeat()
    {
        LinkFixture.awaitCondition(() -> pollHeartbeats() > 0, "AdapterHeartbeat");
        return heartbeat;
    }

    /** Reads everything that has arrived, keeping the newest state and counting heartbeats. */
    void drain()
    {
        link.pollJointState(state);
        pollHeartbeats();
    }

    JointStateSample newestState()
    {
        return state;
    }

    long heartbeatCount()
    {
        return heartbeatCount;
    }

    /** Sends the same torque on every joint, TORQUE mode, drives enabled. */
    void sendTorque(final double torqueNm)
    {
        Arrays.fill(command.tau(), torqueNm);
        command.sequence(commandCount++).jointStateSequence(state.sequence()).mode(DriveMode.TORQUE).enable(true);
        LinkFixture.awaitCondition(() -> link.publishMotorCommand(command) > 0, "MotorCommand accepted by the link");
    }

    private int pollHeartbeats()
    {
        final int count = link.pollHeartbeat(heartbeat);
        heartbeatCount += count;
        return count;
    }
}
