package org.nectl.service.planner;

import org.nectl.transport.sbe.RejectReason;

/**
 * What the gateway answered to one planner command (docs/PROTOCOL.md, "UDP datagrams").
 *
 * @param outcome accepted, rejected, or no answer.
 * @param sequence header.sequence of the command.
 * @param reason the reject reason when {@code outcome} is REJECTED, else null.
 * @param jointIndex the rejected coordinate for NON_FINITE and LIMIT_EXCEEDED, else 255.
 * @param gatewayTimestampNs the gateway's monotonic clock at the reply, ns; 0 without a reply.
 */
public record CommandResult(Outcome outcome, long sequence, RejectReason reason, int jointIndex, long gatewayTimestampNs)
{
    /** How a command ended. */
    public enum Outcome
    {
        /** CommandAck received: valid and queued to the control loop. */
        ACCEPTED,
        /** CommandReject received, with a reason. */
        REJECTED,
        /** No reply within the timeout. */
        TIMED_OUT,
        /** The host reported the gateway's port closed (ICMP port unreachable). */
        UNREACHABLE
    }

    /** @return true if the gateway acknowledged the command. */
    public boolean accepted()
    {
        return outcome == Outcome.ACCEPTED;
    }

    /** @return one line for an operator, e.g. "sequence 12 rejected: LIMIT_EXCEEDED (joint 3)". */
    public String describe()
    {
        return switch (outcome)
        {
            case ACCEPTED -> "sequence " + sequence + " accepted";
            case REJECTED -> "sequence " + sequence + " rejected: " + reason
                + (jointIndex != PlannerClient.NO_JOINT ? " (joint " + jointIndex + ")" : "");
            case TIMED_OUT -> "sequence " + sequence + " timed out: no reply";
            case UNREACHABLE -> "sequence " + sequence + " unreachable: nothing listens on the gateway port";
        };
    }
}
