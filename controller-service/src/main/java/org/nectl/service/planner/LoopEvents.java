package org.nectl.service.planner;

import java.io.File;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.aeron.CncFileDescriptor;
import io.aeron.CommonContext;
import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import io.aeron.logbuffer.Header;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.Wire;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.MessageHeaderDecoder;

/**
 * The control loop's verdict on planner commands the gateway acknowledged, read from the
 * controller's ControllerEvent stream (docs/PROTOCOL.md, "Two stages: gateway ack, then loop
 * outcome").
 *
 * <p>The loop applies commands in the order the gateway queued them and reports each it refuses as
 * COMMAND_REJECTED and each it accepts as one event naming the command: STOP for DISABLE, HOLD and
 * EStop, RESET for RESET, MODE_TRANSITION for ENABLE, a segment and a setpoint that starts TRACKING
 * (further events of the same cause, such as the transition after a STOP, are not verdicts); only a
 * StreamSetpoint that keeps TRACKING raises no event. So, for a planner that sends one command at a
 * time and is the only one sending that kind of command, the verdict on a command is the first such
 * event caused by a command of its kind after it was sent. A stream's verdict is known once every setpoint
 * has been applied: when the loop leaves TRACKING on its own (the stream's command timeout, or a
 * fault) or refuses one.
 *
 * <p>Subscribe ({@link #connect}) before sending the first command: a subscription sees only events
 * published after it joined. Not thread safe. Not real-time safe.
 */
public final class LoopEvents implements AutoCloseable
{
    private final AeronTransport transport;
    private final Subscription subscription;
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final ControllerEventDecoder eventDecoder = new ControllerEventDecoder();
    private final ArrayDeque<LoopOutcome.Event> received = new ArrayDeque<>();
    /** The stream also carries Telemetry, whose version 3 message spans two frames of the default MTU. */
    private final FragmentHandler assembler = new FragmentAssembler(this::onFragment);
    private final IdleStrategy idle = new BackoffIdleStrategy();
    private volatile boolean closed;

    private LoopEvents(final AeronTransport transport, final Subscription subscription)
    {
        this.transport = transport;
        this.subscription = subscription;
    }

    /**
     * Subscribes to the controller's event stream.
     *
     * @param aeronDirectory the media driver directory of the running service.
     * @param channel the Telemetry channel, e.g. {@code aeron:ipc}.
     * @param streamId the Telemetry stream id.
     * @param connectTimeoutNs how long to wait for the service's publication; 0 not to wait (an EStop
     *     must not wait: events published once this returns are seen all the same, because the
     *     driver links the subscription before it answers; see {@link #publisherSeen}).
     * @return the subscribed stream.
     * @throws IllegalStateException, with the reason as its message, when the stream cannot be reached.
     */
    public static LoopEvents connect(final String aeronDirectory, final String channel, final int streamId, final long connectTimeoutNs)
    {
        final File directory = new File(aeronDirectory);
        if (!new File(directory, CncFileDescriptor.CNC_FILE).isFile())
        {
            throw new IllegalStateException("no media driver at " + aeronDirectory);
        }
        if (!CommonContext.isDriverActive(directory, AeronConfig.DEFAULT_DRIVER_TIMEOUT_MS, message -> { }))
        {
            throw new IllegalStateException("the media driver at " + aeronDirectory + " is not running");
        }
        final AeronTransport transport;
        try
        {
            transport = AeronTransport.launch(AeronConfig.external(aeronDirectory));
        }
        catch (final RuntimeException e)
        {
            throw new IllegalStateException("cannot connect to the media driver at " + aeronDirectory + ": " + e.getMessage(), e);
        }
        final LoopEvents events;
        try
        {
            events = new LoopEvents(transport, transport.aeron().addSubscription(channel, streamId));
        }
        catch (final RuntimeException e)
        {
            transport.close();
            throw new IllegalStateException("cannot subscribe to " + channel + " stream " + streamId + ": " + e.getMessage(), e);
        }
        transport.registerBufferUser(() -> events.closed);
        final long deadlineNs = System.nanoTime() + connectTimeoutNs;
        while (connectTimeoutNs > 0 && !events.subscription.isConnected())
        {
            if (System.nanoTime() - deadlineNs > 0 || transport.loss() != null)
            {
                events.close();
                throw new IllegalStateException("no controller publishes on " + channel + " stream " + streamId + " of the media driver at "
                    + aeronDirectory + " (waited " + TimeUnit.NANOSECONDS.toMillis(connectTimeoutNs) + " ms)");
            }
            events.idle.idle();
        }
        events.idle.reset();
        // An IPC subscription joins at the slowest subscriber's position, so it may start with events a
        // lagging monitor has not read yet: none of them is an outcome of a command not sent yet.
        while (events.poll() > 0)
        {
            events.received.clear();
        }
        return events;
    }

    /** @return true once the service's publication has been seen, false if nothing publishes on the stream. */
    public boolean publisherSeen()
    {
        return subscription.isConnected();
    }

    /**
     * Waits for the loop's verdict on the command of {@code command}'s kind sent last.
     *
     * @param command the kind of the command, not SETPOINT (see {@link #awaitStreamEnd}).
     * @param timeoutNs longest wait.
     * @return accepted or refused, or {@link LoopOutcome.Verdict#NONE} when no verdict arrived in time.
     */
    public LoopOutcome await(final EventCommand command, final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            for (LoopOutcome.Event event = received.pollFirst(); event != null; event = received.pollFirst())
            {
                if (event.command() != command)
                {
                    continue;
                }
                if (event.kind() == ControllerEventKind.COMMAND_REJECTED)
                {
                    return new LoopOutcome(LoopOutcome.Verdict.REFUSED, event);
                }
                if (event.kind() == acceptance(command))
                {
                    return new LoopOutcome(LoopOutcome.Verdict.ACCEPTED, event);
                }
            }
            if (!waitForEvents(deadlineNs))
            {
                return LoopOutcome.none(timeoutNs);
            }
        }
    }

    /**
     * While streaming: the first setpoint refusal received so far, without waiting.
     *
     * @return the refusal, or null.
     */
    public LoopOutcome setpointRefusal()
    {
        poll();
        for (LoopOutcome.Event event = received.pollFirst(); event != null; event = received.pollFirst())
        {
            if (event.command() == EventCommand.SETPOINT && event.kind() == ControllerEventKind.COMMAND_REJECTED)
            {
                return new LoopOutcome(LoopOutcome.Verdict.REFUSED, event);
            }
        }
        return null;
    }

    /**
     * After the last setpoint of a stream: waits until the loop has applied every setpoint, shown by
     * its leaving TRACKING on its own (the command timeout, or a fault), or refused one.
     *
     * @param timeoutNs longest wait; must exceed the deployment's {@code command_timeout_ms}.
     * @return accepted (with the transition that ended the stream), refused, or none in time.
     */
    public LoopOutcome awaitStreamEnd(final long timeoutNs)
    {
        final long deadlineNs = System.nanoTime() + timeoutNs;
        while (true)
        {
            for (LoopOutcome.Event event = received.pollFirst(); event != null; event = received.pollFirst())
            {
                if (event.command() == EventCommand.SETPOINT && event.kind() == ControllerEventKind.COMMAND_REJECTED)
                {
                    return new LoopOutcome(LoopOutcome.Verdict.REFUSED, event);
                }
                if (event.command() == EventCommand.NONE && event.kind() == ControllerEventKind.MODE_TRANSITION
                    && event.from() == ControllerState.TRACKING)
                {
                    return new LoopOutcome(LoopOutcome.Verdict.ACCEPTED, event);
                }
            }
            if (!waitForEvents(deadlineNs))
            {
                return LoopOutcome.none(timeoutNs);
            }
        }
    }

    @Override
    public void close()
    {
        closed = true;
        transport.close();
    }

    /** @return the one event kind by which the loop reports that it applied a command of this kind. */
    private static ControllerEventKind acceptance(final EventCommand command)
    {
        return switch (command)
        {
            case DISABLE, HOLD, ESTOP -> ControllerEventKind.STOP;
            case RESET -> ControllerEventKind.RESET;
            case PAYLOAD -> ControllerEventKind.PAYLOAD_CHANGE_STARTED;
            default -> ControllerEventKind.MODE_TRANSITION;
        };
    }

    /** @return false once the deadline has passed or the driver is lost. */
    private boolean waitForEvents(final long deadlineNs)
    {
        if (System.nanoTime() - deadlineNs > 0 || transport.loss() != null)
        {
            return false;
        }
        idle.idle(poll());
        return true;
    }

    private int poll()
    {
        return subscription.poll(assembler, 64);
    }

    private void onFragment(final DirectBuffer buffer, final int offset, final int length, final Header header)
    {
        if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, ControllerEventDecoder.TEMPLATE_ID,
            ControllerEventDecoder.BLOCK_LENGTH))
        {
            eventDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
            received.addLast(new LoopOutcome.Event(eventDecoder.kind(), eventDecoder.fromState(), eventDecoder.toState(),
                eventDecoder.command(), eventDecoder.rejectCode(), eventDecoder.tickCount(), eventDecoder.timestampNs()));
        }
    }
}
