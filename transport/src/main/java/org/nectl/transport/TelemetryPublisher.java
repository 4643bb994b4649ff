package org.nectl.transport;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import io.aeron.Aeron;
import io.aeron.Publication;
import org.agrona.CloseHelper;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.ControlledMessageHandler;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventEncoder;
import org.nectl.transport.sbe.MessageHeaderDecoder;

/**
 * Moves queued controller events from the {@link ControllerEventQueue} ring and telemetry samples
 * from the {@link TelemetryQueue} ring to one Aeron publication, events first, copying each encoded
 * message straight from its ring. Under back pressure the sample stays in the
 * ring and is retried on the next duty cycle, so a slow consumer fills the ring and the loop then
 * drops and counts; with no subscriber at all samples are discarded and counted here. Events are
 * treated alike in their own ring and counters. Once the publication is closed (the Aeron client
 * lost its media driver) nothing more is read: events stay in their ring, to be
 * {@link #drainUndeliveredEvents drained} and reported some other way when the service stops.
 *
 * <p>An Agrona {@link Agent} for a non-real-time thread. Counters may be read from any thread.
 */
public final class TelemetryPublisher implements Agent
{
    /** Told of every controller event this publisher published, on the publisher's thread. */
    @FunctionalInterface
    public interface PublishedEventListener
    {
        /**
         * @param event the event, the decoder wrapped on it (valid during the call only).
         * @param position the publication's position just after the event, bytes.
         */
        void onPublished(ControllerEventDecoder event, long position);
    }

    private static final int SAMPLES_PER_DUTY_CYCLE = 16;

    private final TelemetryQueue queue;
    private final ControllerEventQueue events;
    private final Publication publication;
    private final ControlledMessageHandler forwarder = this::forward;
    private final AtomicLong publishedCount = new AtomicLong();
    private final AtomicLong unpublishedCount = new AtomicLong();
    private final AtomicLong publishedEventCount = new AtomicLong();
    private final AtomicLong unpublishedEventCount = new AtomicLong();
    private final MessageHeaderDecoder eventHeader = new MessageHeaderDecoder();
    private final ControllerEventDecoder publishedEvent = new ControllerEventDecoder();
    private PublishedEventListener eventListener;
    private volatile boolean released;

    /**
     * Not real-time safe.
     *
     * @param aeron connected client.
     * @param config channel and stream id.
     * @param queue the sample ring the loop fills.
     * @param events the event ring the loop fills.
     */
    public TelemetryPublisher(
        final Aeron aeron, final TelemetryConfig config, final TelemetryQueue queue, final ControllerEventQueue events)
    {
        this.queue = queue;
        this.events = events;
        this.publication = aeron.addPublication(config.channel(), config.streamId());
    }

    @Override
    public int doWork()
    {
        if (released || publication.isClosed())
        {
            released = true;
            return 0;
        }
        return events.read(forwarder, SAMPLES_PER_DUTY_CYCLE) + queue.read(forwarder, SAMPLES_PER_DUTY_CYCLE);
    }

    @Override
    public String roleName()
    {
        return "telemetry-publisher";
    }

    /** Closes the publication. */
    @Override
    public void onClose()
    {
        CloseHelper.quietClose(publication);
    }

    /**
     * @return true once this publisher has seen its publication closed and no longer touches it (nor
     *     the rings). Any thread.
     */
    public boolean released()
    {
        return released;
    }

    /**
     * Reads every event still in the event ring: after the loop and this publisher have stopped,
     * the events that were never published. Not real-time safe.
     *
     * @param sink receives each event, the decoder wrapped on it (valid during the call only).
     * @return the number of events drained.
     */
    public int drainUndeliveredEvents(final Consumer<ControllerEventDecoder> sink)
    {
        final MessageHeaderDecoder header = new MessageHeaderDecoder();
        final ControllerEventDecoder decoder = new ControllerEventDecoder();
        int drained = 0;
        int read;
        do
        {
            read = events.read((msgTypeId, buffer, index, length) ->
            {
                sink.accept(decoder.wrapAndApplyHeader(buffer, index, header));
                return ControlledMessageHandler.Action.CONTINUE;
            }, Integer.MAX_VALUE);
            drained += read;
        }
        while (read > 0);
        return drained;
    }

    /** Sets who is told of each published event, e.g. the recorder marking faults; before the agent runs. */
    public void publishedEventListener(final PublishedEventListener listener)
    {
        eventListener = listener;
    }

    /** @return the publication's position, bytes; any thread. */
    public long position()
    {
        return publication.position();
    }

    /** @return true when both rings are empty: everything queued was published or discarded. Any thread. */
    public boolean drained()
    {
        return queue.isEmpty() && events.isEmpty();
    }

    /** @return the Aeron session id of the publication. */
    public int sessionId()
    {
        return publication.sessionId();
    }

    /** @return true when at least one subscriber is connected. */
    public boolean isConnected()
    {
        return publication.isConnected();
    }

    /** @return samples published since start. Any thread. */
    public long publishedCount()
    {
        return publishedCount.get();
    }

    /** @return samples taken from the ring and discarded: no subscriber, or the publication closed. Any thread. */
    public long unpublishedCount()
    {
        return unpublishedCount.get();
    }

    /** @return controller events published since start. Any thread. */
    public long publishedEventCount()
    {
        return publishedEventCount.get();
    }

    /** @return controller events taken from the ring and discarded: no subscriber, or the publication closed. Any thread. */
    public long unpublishedEventCount()
    {
        return unpublishedEventCount.get();
    }

    private ControlledMessageHandler.Action forward(
        final int msgTypeId, final MutableDirectBuffer buffer, final int index, final int length)
    {
        final long result = publication.offer(buffer, index, length);
        if (result == Publication.BACK_PRESSURED || result == Publication.ADMIN_ACTION)
        {
            return ControlledMessageHandler.Action.ABORT;
        }
        final boolean event = msgTypeId == ControllerEventEncoder.TEMPLATE_ID;
        if (event && result > 0 && eventListener != null)
        {
            eventListener.onPublished(publishedEvent.wrapAndApplyHeader(buffer, index, eventHeader), result);
        }
        final AtomicLong counter = result > 0
            ? (event ? publishedEventCount : publishedCount)
            : (event ? unpublishedEventCount : unpublishedCount);
        counter.lazySet(counter.get() + 1);
        return ControlledMessageHandler.Action.CONTINUE;
    }
}
