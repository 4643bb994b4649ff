package org.nectl.service.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.agrona.concurrent.AgentRunner;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.ControllerEventQueue;
import org.nectl.transport.IdleStrategyKind;
import org.nectl.transport.TelemetryConfig;
import org.nectl.transport.TelemetryPublisher;
import org.nectl.transport.TelemetryQueue;

/**
 * The control loop's telemetry side without a loop: an embedded media driver in a unique directory,
 * the transport's TelemetryQueue and ControllerEventQueue, and the TelemetryPublisher on its own agent
 * thread, as the service runs it. Tests offer samples and events and read them with the CLI.
 */
final class TelemetryPublisherRig implements AutoCloseable
{
    /** Errors the publisher's agent thread reported. */
    final List<Throwable> agentErrors = new CopyOnWriteArrayList<>();
    final AeronTransport transport;
    final TelemetryQueue queue;
    final ControllerEventQueue events = new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES);
    final TelemetryPublisher publisher;
    private final AgentRunner runner;
    private boolean closed;

    /** @param termLength the telemetry publication's term length, bytes. */
    TelemetryPublisherRig(final int termLength)
    {
        transport = AeronTransport.launch(AeronConfig.embeddedDefaults());
        final TelemetryConfig config = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, termLength);
        queue = new TelemetryQueue(config);
        publisher = new TelemetryPublisher(transport.aeron(), config, queue, events);
        runner = new AgentRunner(IdleStrategyKind.BACKOFF.create(), agentErrors::add, null, publisher);
        AgentRunner.startOnThread(runner);
    }

    /** @return the media driver's directory, for the CLI's --aeron-dir. */
    String aeronDirectory()
    {
        return transport.aeronDirectory();
    }

    /** Stops the publisher and the media driver; a second call does nothing. */
    @Override
    public void close()
    {
        if (!closed)
        {
            closed = true;
            runner.close();
            transport.close();
        }
    }
}
