package org.nectl.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.aeron.FragmentAssembler;
import io.aeron.Subscription;
import io.aeron.logbuffer.FragmentHandler;
import org.agrona.concurrent.AgentRunner;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.EventCommand;
import org.nectl.transport.sbe.MessageHeaderDecoder;
import org.nectl.transport.sbe.RejectReason;
import org.nectl.transport.sbe.TelemetryDecoder;

/**
 * Telemetry from the loop-side ring through the publisher agent to a real Aeron subscription, over
 * IPC and over UDP on loopback; a full ring drops and counts instead of blocking the loop.
 */
final class TelemetryTest
{
    private static final int DOF = 6;
    private static final int MESSAGE_LENGTH = Wire.HEADER_LENGTH + TelemetryDecoder.BLOCK_LENGTH;

    private final List<Throwable> agentErrors = new CopyOnWriteArrayList<>();
    private final List<TelemetrySample> received = new ArrayList<>();
    private final MessageHeaderDecoder headerDecoder = new MessageHeaderDecoder();
    private final TelemetryDecoder decoder = new TelemetryDecoder();
    private final FragmentHandler collector = (buffer, offset, length, header) ->
    {
        assertTrue(Wire.isWholeMessage(headerDecoder, buffer, offset, length, TelemetryDecoder.TEMPLATE_ID,
            TelemetryDecoder.BLOCK_LENGTH));
        final TelemetrySample sample = new TelemetrySample(DOF);
        assertTrue(sample.decode(decoder.wrapAndApplyHeader(buffer, offset, headerDecoder)));
        received.add(sample);
    };
    /** A version 3 Telemetry message is longer than one frame of the default MTU. */
    private final FragmentHandler assembledCollector = new FragmentAssembler(collector);
    private AeronTransport transport;
    private AgentRunner runner;

    @BeforeEach
    void start()
    {
        transport = AeronTransport.launch(AeronConfig.embeddedDefaults());
    }

    @AfterEach
    void stop()
    {
        if (runner != null)
        {
            runner.close();
        }
        transport.close();
        assertTrue(agentErrors.isEmpty(), "agent errors: " + agentErrors);
    }

    @Test
    void decimatedSamplesArePublishedOverIpcWithEveryField()
    {
        final TelemetryConfig config = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 10, 64 * 1024);
        try (Subscription subscription = transport.aeron().addSubscription(config.channel(), config.streamId()))
        {
            publishAndCheck(config, subscription);
        }
    }

    @Test
    void decimatedSamplesArePublishedOverUdp()
    {
        try (Subscription subscription = transport.aeron().addSubscription("aeron:udp?endpoint=127.0.0.1:0", TelemetryConfig.STREAM_ID))
        {
            final String[] resolved = new String[1];
            Await.until(() -> (resolved[0] = subscription.tryResolveChannelEndpointPort()) != null, "UDP port bound");
            assertNotNull(resolved[0]);
            publishAndCheck(new TelemetryConfig(resolved[0], TelemetryConfig.STREAM_ID, 10, 64 * 1024), subscription);
        }
    }

    private void publishAndCheck(final TelemetryConfig config, final Subscription subscription)
    {
        final TelemetryQueue queue = new TelemetryQueue(config);
        final TelemetryPublisher publisher = new TelemetryPublisher(transport.aeron(), config, queue, new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES));
        runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, publisher);
        AgentRunner.startOnThread(runner);
        Await.until(publisher::isConnected, "telemetry subscriber connected");

        final TelemetrySample sample = new TelemetrySample(DOF);
        int queued = 0;
        for (int tick = 0; tick < 100; tick++)
        {
            fill(sample, tick);
            if (queue.offer(sample) == TelemetryQueue.QUEUED)
            {
                queued++;
            }
        }
        assertEquals(10, queued, "one tick in 10");
        Await.until(() ->
        {
            subscription.poll(assembledCollector, 10);
            return received.size() == 10;
        }, "10 telemetry messages");
        for (int i = 0; i < 10; i++)
        {
            final TelemetrySample got = received.get(i);
            final TelemetrySample expected = new TelemetrySample(DOF);
            fill(expected, 10 * i);
            assertEquals(i + 1L, got.sequence());
            assertEquals(10L * i, got.tickCount());
            assertEquals(expected.timestampNs(), got.timestampNs());
            assertEquals(expected.overrunCount(), got.overrunCount());
            assertEquals(expected.deadlineMissCount(), got.deadlineMissCount());
            assertEquals(expected.missingStateCount(), got.missingStateCount());
            assertEquals(expected.jointStateSequence(), got.jointStateSequence());
            assertEquals(expected.jointStateTimestampNs(), got.jointStateTimestampNs());
            assertEquals(expected.tickComputeNs(), got.tickComputeNs());
            assertEquals(ControllerState.ESTOP, got.state(), "a version 2 state");
            assertEquals(expected.faults(), got.faults());
            assertEquals(ControllerKind.PD_GRAVITY, got.controller());
            assertEquals(0L, got.telemetryDropCount());
            assertArrayEquals(expected.rejectCounts(), got.rejectCounts());
            assertArrayEquals(expected.q(), got.q(), 0.0);
            assertArrayEquals(expected.qd(), got.qd(), 0.0);
            assertArrayEquals(expected.tauCommand(), got.tauCommand(), 0.0);
            assertArrayEquals(expected.trackingError(), got.trackingError(), 0.0);
            assertArrayEquals(expected.tauFeedforward(), got.tauFeedforward(), 0.0);
            assertArrayEquals(expected.tauFeedforwardRate(), got.tauFeedforwardRate(), 0.0);
            assertArrayEquals(expected.tauLaw(), got.tauLaw(), 0.0);
            assertEquals(expected.tickStartLatenessNs(), got.tickStartLatenessNs());
            assertEquals(expected.tickIntervalNs(), got.tickIntervalNs());
        }
        assertEquals(10L, publisher.publishedCount());
        assertEquals(0L, publisher.unpublishedCount());
    }

    @Test
    void fullRingDropsAndCountsWhileTheConsumerStallsThenRecovers()
    {
        final TelemetryConfig config = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 32 * 1024);
        final TelemetryQueue queue = new TelemetryQueue(config);
        final TelemetrySample sample = new TelemetrySample(DOF);
        final int alignedRecord = align(MESSAGE_LENGTH + 8, 8);
        final int capacityRecords = 32 * 1024 / alignedRecord;

        int queued = 0;
        int dropped = 0;
        for (int tick = 0; tick < 1000; tick++)
        {
            fill(sample, tick);
            final int result = queue.offer(sample);
            if (result == TelemetryQueue.QUEUED)
            {
                queued++;
            }
            else
            {
                assertEquals(TelemetryQueue.DROPPED, result);
                dropped++;
            }
        }
        assertEquals(capacityRecords, queued, "ring holds " + capacityRecords + " records of " + alignedRecord + " bytes");
        assertEquals(1000 - capacityRecords, dropped);
        assertEquals(dropped, queue.dropCount());
        assertEquals(1000L, queue.sampleCount());

        try (Subscription subscription = transport.aeron().addSubscription(config.channel(), config.streamId()))
        {
            final TelemetryPublisher publisher = new TelemetryPublisher(transport.aeron(), config, queue, new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES));
            Await.until(publisher::isConnected, "telemetry subscriber connected");
            runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, publisher);
            AgentRunner.startOnThread(runner);
            Await.until(() ->
            {
                subscription.poll(assembledCollector, 10);
                return received.size() == capacityRecords;
            }, "the queued samples");
            fill(sample, 1000);
            Await.until(() -> queue.offer(sample) == TelemetryQueue.QUEUED, "ring has room again");
            Await.until(() ->
            {
                subscription.poll(assembledCollector, 10);
                return received.size() == capacityRecords + 1;
            }, "the sample after the stall");
        }
        final TelemetrySample afterStall = received.get(capacityRecords);
        assertEquals(1000L, afterStall.tickCount());
        assertEquals(dropped, afterStall.telemetryDropCount(), "drops reported in telemetry");
        assertEquals(1001L, afterStall.sequence(), "sequence gap shows the drops");
        assertEquals(capacityRecords, received.get(capacityRecords - 1).sequence());
    }

    /**
     * Events have their own ring: with the sample ring full (a stalled consumer) every event still
     * queues until the event ring is full, then events are dropped and counted, and the first event
     * after the stall carries the drop count and a sequence gap. Events are published before samples.
     */
    @Test
    void eventsBypassAFullSampleRingAndAFullEventRingDropsAndCounts()
    {
        final TelemetryConfig config = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 32 * 1024);
        final TelemetryQueue queue = new TelemetryQueue(config);
        final int eventRingBytes = 4096;
        final ControllerEventQueue events = new ControllerEventQueue(eventRingBytes);
        final TelemetrySample sample = new TelemetrySample(DOF);
        while (queue.offer(sample) == TelemetryQueue.QUEUED)
        {
            sample.tickCount(sample.tickCount() + 1);
        }
        final int capacityEvents = eventRingBytes / align(Wire.HEADER_LENGTH + ControllerEventDecoder.BLOCK_LENGTH + 8, 8);
        int queued = 0;
        for (int e = 1; e <= capacityEvents + 5; e++)
        {
            queued += events.offer(1000L * e, e, ControllerEventKind.FAULT, ControllerState.TRACKING, ControllerState.FAULT,
                e, e, EventCommand.NONE, 0) ? 1 : 0;
        }
        final int queuedEvents = queued;
        // The ring keeps at most one record of slack.
        assertTrue(queuedEvents >= capacityEvents - 1, "the event ring holds its capacity although the sample ring is full: " + queuedEvents);
        final long dropped = capacityEvents + 5L - queuedEvents;
        assertEquals(dropped, events.dropCount());
        final long stallEnd = capacityEvents + 6L;
        final List<Long> eventSequences = new ArrayList<>();
        final long[] lastEvent = new long[2];
        final ControllerEventDecoder eventDecoder = new ControllerEventDecoder();
        final int[] samplesBeforeFirstEvent = new int[1];
        final FragmentHandler both = (buffer, offset, length, header) ->
        {
            if (Wire.isWholeMessage(headerDecoder, buffer, offset, length, ControllerEventDecoder.TEMPLATE_ID,
                ControllerEventDecoder.BLOCK_LENGTH))
            {
                eventDecoder.wrapAndApplyHeader(buffer, offset, headerDecoder);
                if (eventSequences.isEmpty())
                {
                    samplesBeforeFirstEvent[0] = received.size();
                }
                eventSequences.add(eventDecoder.sequence());
                lastEvent[0] = eventDecoder.timestampNs();
                lastEvent[1] = eventDecoder.droppedEventCount();
            }
            else
            {
                collector.onFragment(buffer, offset, length, header);
            }
        };
        final FragmentHandler assembledBoth = new FragmentAssembler(both);
        try (Subscription subscription = transport.aeron().addSubscription(config.channel(), config.streamId()))
        {
            final TelemetryPublisher publisher = new TelemetryPublisher(transport.aeron(), config, queue, events);
            Await.until(publisher::isConnected, "telemetry subscriber connected");
            runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, publisher);
            AgentRunner.startOnThread(runner);
            Await.until(() ->
            {
                subscription.poll(assembledBoth, 10);
                return eventSequences.size() == queuedEvents;
            }, "the queued events");
            assertEquals(0, samplesBeforeFirstEvent[0], "events are published ahead of the queued samples");
            Await.until(() -> events.offer(1000L * stallEnd, stallEnd, ControllerEventKind.FAULT, ControllerState.FAULT,
                ControllerState.FAULT, 0, 0, EventCommand.NONE, 0), "event ring has room again");
            Await.until(() ->
            {
                subscription.poll(assembledBoth, 10);
                return eventSequences.size() == queuedEvents + 1;
            }, "the event after the stall");
            assertEquals(queuedEvents + 1L, publisher.publishedEventCount());
        }
        assertEquals(queuedEvents, eventSequences.get(queuedEvents - 1));
        assertEquals(stallEnd, eventSequences.get(queuedEvents), "sequence gap shows the dropped events");
        assertEquals(1000L * stallEnd, lastEvent[0]);
        assertEquals(dropped, lastEvent[1], "dropped events reported");
    }

    @Test
    void samplesWithoutAnySubscriberAreDiscardedAndCountedNotKept()
    {
        final TelemetryConfig config = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 64 * 1024);
        final TelemetryQueue queue = new TelemetryQueue(config);
        final TelemetryPublisher publisher = new TelemetryPublisher(transport.aeron(), config, queue, new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES));
        final TelemetrySample sample = new TelemetrySample(DOF);
        for (int tick = 0; tick < 3; tick++)
        {
            assertEquals(TelemetryQueue.QUEUED, queue.offer(sample.tickCount(tick)));
        }
        assertEquals(3, publisher.doWork());
        assertEquals(0, publisher.doWork(), "nothing left in the ring");
        assertEquals(3L, publisher.unpublishedCount());
        assertEquals(0L, publisher.publishedCount());
        publisher.onClose();
    }

    private static int align(final int value, final int alignment)
    {
        return (value + alignment - 1) & -alignment;
    }

    private static void fill(final TelemetrySample sample, final int tick)
    {
        sample.timestampNs(1_000_000L * tick).tickCount(tick).overrunCount(tick / 7).deadlineMissCount(tick / 11)
            .missingStateCount(tick / 13).jointStateSequence(tick + 5L).jointStateTimestampNs(999_000L * tick)
            .tickComputeNs(12_345L + tick).state(ControllerState.ESTOP).controller(ControllerKind.PD_GRAVITY)
            .faults((1 << 6) | tick).tickStartLatenessNs(17L * tick - 40L).tickIntervalNs(1_000_003L + tick);
        sample.rejectCounts()[RejectReason.OVERSIZED.value()] = tick;
        for (int k = 0; k < DOF; k++)
        {
            sample.q()[k] = 0.01 * tick + k;
            sample.qd()[k] = -0.02 * tick;
            sample.tauCommand()[k] = 3.0 * k - tick;
            sample.trackingError()[k] = 1e-6 * (tick + k);
            sample.tauFeedforward()[k] = 2.5 * k + 0.1 * tick;
            sample.tauFeedforwardRate()[k] = -40.0 * k + tick;
            sample.tauLaw()[k] = 3.0 * k - tick + 0.5;
        }
    }
}
