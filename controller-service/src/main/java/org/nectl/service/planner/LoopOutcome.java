package org.nectl.service.planner;

import java.util.concurrent.TimeUnit;

import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;

/**
 * What the control loop did with a command the gateway acknowledged (docs/PROTOCOL.md, "Two
 * stages: gateway ack, then loop outcome"), as read by {@link LoopEvents}.
 *
 * @param verdict accepted, refused, or no verdict in time.
 * @param event the ControllerEvent that gave the verdict; null for {@link Verdict#NONE}.
 * @param waitedNs for {@link Verdict#NONE}: how long was waited, ns; else 0.
 */
public record LoopOutcome(Verdict verdict, Event event, long waitedNs)
{
    /** The loop's verdict. */
    public enum Verdict
    {
        /** The loop applied the command. */
        ACCEPTED,
        /** The loop refused the command (COMMAND_REJECTED with a code). */
        REFUSED,
        /** No verdict arrived within the wait. */
        NONE
    }

    /**
     * The fields of a received ControllerEvent that give a verdict.
     *
     * @param kind event kind.
     * @param from state before.
     * @param to state after.
     * @param command the command that caused it, NONE for the loop itself.
     * @param rejectCode COMMAND_REJECTED: why; else 0.
     * @param tickCount ticks run when it happened.
     * @param timestampNs controller clock of the event, ns.
     */
    public record Event(ControllerEventKind kind, ControllerState from, ControllerState to, EventCommand command, short rejectCode,
        long tickCount, long timestampNs)
    {
    }

    LoopOutcome(final Verdict verdict, final Event event)
    {
        this(verdict, event, 0L);
    }

    static LoopOutcome none(final long waitedNs)
    {
        return new LoopOutcome(Verdict.NONE, null, waitedNs);
    }

    /** @return true if the loop refused the command. */
    public boolean refused()
    {
        return verdict == Verdict.REFUSED;
    }

    /** @return a few words for an operator, e.g. "refused in ESTOP, code 1 (not allowed in this state)". */
    public String describe()
    {
        return switch (verdict)
        {
            case ACCEPTED -> (event.command() == EventCommand.NONE ? "applied, then left TRACKING on its own: " : "applied, ")
                + event.from() + " -> " + event.to();
            case REFUSED -> "refused in " + event.from() + ", code " + event.rejectCode() + " (" + reason(event.rejectCode()) + ")";
            case NONE -> "no outcome within " + TimeUnit.NANOSECONDS.toMillis(waitedNs) + " ms";
        };
    }

    /** @return the meaning of a COMMAND_REJECTED code (docs/PROTOCOL.md, "ControllerEvent"). */
    public static String reason(final int rejectCode)
    {
        return switch (rejectCode)
        {
            case 1 -> "not allowed in this state";
            case 2 -> "no measured state yet (or, on a carried arm, no valid base-motion block within base.max_age_ms)";
            case 3 -> "reference would jump: too far from the current reference";
            case 4 -> "wrong joint count";
            case 5 -> "control law needs a robot with elastic joints";
            case 6 -> "segment refused when prepared: its curve leaves the limits between waypoints, or it has a single waypoint"
                + " (a payload: its link is not in the robot)";
            default -> "code not known to this planner";
        };
    }
}
