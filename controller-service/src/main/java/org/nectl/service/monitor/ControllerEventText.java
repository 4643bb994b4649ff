package org.nectl.service.monitor;

import java.util.Locale;

import org.nectl.core.runtime.Faults;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;

/**
 * Formats a received ControllerEvent (docs/PROTOCOL.md, "ControllerEvent") as an operator line or
 * a CSV row with every field. Stateless. Not real-time safe.
 */
public final class ControllerEventText
{
    /** CSV header matching {@link #csvRow}. */
    public static final String CSV_HEADER =
        "sequence,timestampNs,tickCount,kind,fromState,toState,command,rejectCode,faults,newFaults,droppedEventCount,joint,"
        + "externalTorque";

    private ControllerEventText()
    {
    }

    /**
     * @param event a decoder wrapped on a whole ControllerEvent.
     * @return one line without a terminator, e.g. {@code event 3 at 1200000 ns, tick 1200: FAULT ENABLED -> FAULT
     *     (state missing)}.
     */
    public static String line(final ControllerEventDecoder event)
    {
        final ControllerEventKind kind = event.kind();
        final StringBuilder text = new StringBuilder(128).append(String.format(Locale.ROOT, "event %d at %d ns, tick %d: %s %s -> %s",
            event.sequence(), event.timestampNs(), event.tickCount(), kind, event.fromState(), event.toState()));
        if (kind == ControllerEventKind.FAULT)
        {
            text.append(" (").append(Faults.describe((int)event.newFaults())).append(')');
        }
        if (kind == ControllerEventKind.COMMAND_REJECTED)
        {
            text.append(" code ").append(event.rejectCode());
        }
        if (kind == ControllerEventKind.COLLISION)
        {
            text.append(String.format(Locale.ROOT, " joint %d, external torque %.3f N m", event.joint(), event.externalTorque()));
        }
        if (event.commandRaw() != 0)
        {
            text.append(", command ").append(event.command());
        }
        if (event.droppedEventCount() != 0)
        {
            text.append(", ").append(event.droppedEventCount()).append(" events dropped so far");
        }
        return text.toString();
    }

    /**
     * @param event a decoder wrapped on a whole ControllerEvent.
     * @return the CSV row without a terminator; fault bits as integers; joint and external torque
     *     (N m) of a COLLISION, 0 for other events, 255 and NaN from version 2 senders.
     */
    public static String csvRow(final ControllerEventDecoder event)
    {
        return event.sequence() + "," + event.timestampNs() + "," + event.tickCount() + "," + event.kind() + ","
            + event.fromState() + "," + event.toState() + "," + event.command() + "," + event.rejectCode() + ","
            + event.faults() + "," + event.newFaults() + "," + event.droppedEventCount() + "," + event.joint() + ","
            + event.externalTorque();
    }
}
