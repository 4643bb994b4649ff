package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.nectl.transport.ControllerLink;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * The controller's side of a lockstep run, as the controller engineer's loop does it: wait for a
 * new JointState, compute a PD torque from it, answer with a MotorCommand acknowledging it.
 * Records every state received, bit for bit.
 */
final class LockstepControllerEnd
{
    private static final double KP = 40.0;
    private static final double KD = 4.0;

    private final ControllerLink link;
    private final JointStateSample state;
    private final MotorCommandSample command;
    private final double[] target;
    final List<long[]> received = new ArrayList<>();

    LockstepControllerEnd(final ControllerLink link, final int dof, final double[] target)
    {
        this.link = link;
        state = new JointStateSample(dof);
        command = new MotorCommandSample(dof);
        this.target = target.clone();
    }

    /**
     * Waits for the state of the given sequence, records it and returns it. Re-publications of an
     * older state (state 0 before the first command was read) are not new and are skipped; a newer
     * state than the one expected fails the test.
     */
    JointStateSample awaitState(final long sequence)
    {
        LinkFixture.awaitCondition(() -> link.pollJointState(state) > 0 && state.sequence() >= sequence,
            "JointState " + sequence);
        assertEquals(sequence, state.sequence(), "lockstep must publish exactly the next state");
        received.add(bits(state));
        return state;
    }

    /** Sends the PD torque for the newest state, acknowledging it. */
    void answer()
    {
        for (int k = 0; k < target.length; k++)
        {
            command.tau()[k] = KP * (target[k] - state.q()[k]) - KD * state.qd()[k];
        }
        send(state.sequence());
    }

    /** Sends the current torques acknowledging an arbitrary state sequence. */
    void send(final long acknowledgedSequence)
    {
        command.sequence(acknowledgedSequence).timestampNs(state.timestampNs()).jointStateSequence(acknowledgedSequence)
            .mode(DriveMode.TORQUE).enable(true);
        LinkFixture.awaitCondition(() -> link.publishMotorCommand(command) > 0, "MotorCommand accepted by the link");
    }

    /** @return the last command's torques, N m. */
    double[] torques()
    {
        return command.tau();
    }

    /** Every field of a state as raw bits: sequence, timestamp, status, q, qd. */
    static long[] bits(final JointStateSample sample)
    {
        final int dof = sample.jointCount();
        final long[] bits = new long[3 + 2 * dof];
        bits[0] = sample.sequence();
        bits[1] = sample.timestampNs();
        bits[2] = sample.statusBits();
        for (int k = 0; k < dof; k++)
        {
            bits[3 + k] = Double.doubleToRawLongBits(sample.q()[k]);
            bits[3 + dof + k] = Double.doubleToRawLongBits(sample.qd()[k]);
        }
        return bits;
    }
}
