package org.nectl.service.loop;

import java.net.InetSocketAddress;
import java.time.Instant;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

import org.agrona.CloseHelper;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.CompositeAgent;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.agrona.concurrent.SleepingMillisIdleStrategy;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.CommandLimits;
import org.nectl.transport.ControllerEventQueue;
import org.nectl.transport.ControllerLink;
import org.nectl.transport.FlightRecorder;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.PlannerGateway;
import org.nectl.transport.ServiceCounters;
import org.nectl.transport.TelemetryPublisher;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.sbe.ControllerEventDecoder;
import org.nectl.transport.sbe.RejectReason;

/**
 * The controller service: the media driver (embedded or external), the hardware link, the planner
 * gateway, command preparation and telemetry on one non-real-time agent thread, and the control
 * loop on its own thread. Not real-time safe (start and close); accessors are thread safe.
 *
 * <p>Loss of the media driver ({@link #transportLoss}): the Aeron client closes the hardware link
 * and the telemetry publication; the loop latches LINK_LOST and stops touching the link, the
 * telemetry publisher stops reading its rings, and only then does the client unmap its buffers.
 * The service keeps running (in FAULT, without I/O) until closed; the events it could not publish
 * are then {@link #drainUndeliveredEvents drained} for the log. See docs/SAFETY.md.
 *
 * <p>A failure in the loop ({@link ControlLoop}'s error path, fault LOOP_ERROR) makes the gateway
 * refuse every further command but EStop (CONTROLLER_UNAVAILABLE) and runs the {@link #onLoopError}
 * listener; {@link #stopForShutdown} stops the arm before {@link #close}.
 */
public final class ControllerService implements AutoCloseable
{
    private static final int LOOP_QUEUE_CAPACITY = 1024;
    /** Full-rate ring to the flight recorder: 1 MiB, about half a second of 1 kHz samples. */
    private static final int RECORD_RING_BYTES = 1 << 20;
    private static final long RECORD_DRAIN_TIMEOUT_NS = TimeUnit.SECONDS.toNanos(5);

    private final ServiceSettings settings;
    private final AeronTransport transport;
    private final ControllerLink link;
    private final PlannerGateway gateway;
    private final CommandPreparer preparer;
    private final TelemetryPublisher telemetryPublisher;
    private final ServiceCounters counters;
    private final FlightRecorder recorder;
    private final TelemetryPublisher recordPublisher;
    private final AgentRunner recorderRunner;
    private final AgentRunner agents;
    private final ControlLoop loop;
    private final Thread loopThread;
    private volatile Throwable loopFailure;
    private volatile Runnable loopErrorListener = () -> { };
    private volatile boolean loopErrored;
    private boolean closed;

    private ControllerService(final ServiceSettings settings, final TickStage stage, final FlightRecorderConfig recording)
    {
        this.settings = settings;
        final RobotModel model = settings.model();
        final int dof = model.dof();
        transport = AeronTransport.launch(settings.aeron());
        FlightRecorder startedRecorder = null;
        try
        {
            link = new ControllerLink(transport.aeron(), settings.link(), dof);
            gateway = new PlannerGateway(settings.planner(), commandLimits(model), new SystemNanoClock());
            final OneToOneConcurrentArrayQueue<PreparedCommand> loopQueue = new OneToOneConcurrentArrayQueue<>(LOOP_QUEUE_CAPACITY);
            final ControlCycle cycle = settings.controlCycle();
            preparer = new CommandPreparer(model, settings.mixedLaw().available(), gateway.commandQueue(), loopQueue,
                cycle::prepareModel);
            final TelemetryQueue telemetryQueue = new TelemetryQueue(settings.telemetry());
            final ControllerEventQueue events = new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES);
            telemetryPublisher = new TelemetryPublisher(transport.aeron(), settings.telemetry(), telemetryQueue, events);
            loop = new ControlLoop(
                cycle, dof, link, gateway, telemetryQueue, events, loopQueue,
                settings.mode(), settings.cycle().periodNs(), settings.lockstepLivenessNs(), settings.loopThread());
            if (recording != null)
            {
                startedRecorder = FlightRecorder.start(transport.aeron(), transport.aeronDirectory(), recording);
                recorder = startedRecorder;
                final TelemetryQueue recordQueue = new TelemetryQueue(recording.telemetry(RECORD_RING_BYTES));
                final ControllerEventQueue recordEvents = new ControllerEventQueue(ControllerEventQueue.DEFAULT_CAPACITY_BYTES);
                recordPublisher = new TelemetryPublisher(transport.aeron(), recording.telemetry(RECORD_RING_BYTES), recordQueue,
                    recordEvents);
                recordPublisher.publishedEventListener(recorder::onPublished);
                recorder.awaitRecording(recordPublisher.sessionId());
                loop.recordTo(recordQueue, recordEvents, recorder.stopped());
                recorderRunner = new AgentRunner(new SleepingMillisIdleStrategy(10), Throwable::printStackTrace, null, recorder);
            }
            else
            {
                recorder = null;
                recordPublisher = null;
                recorderRunner = null;
            }
            counters = registerCounters(new ServiceCounters(transport.aeron()));
            agents = new AgentRunner(
                new BackoffIdleStrategy(100, 10, 1_000, 100_000),
                Throwable::printStackTrace,
                null,
                recordPublisher != null
                    ? new CompositeAgent(gateway, preparer, telemetryPublisher, recordPublisher, counters)
                    : new CompositeAgent(gateway, preparer, telemetryPublisher, counters));
            loop.stage(stage);
            loop.onFirstError(this::loopErrored);
            loopThread = new Thread(loop, "nectl-control-loop");
            loopThread.setUncaughtExceptionHandler((thread, failure) ->
            {
                loopFailure = failure;
                System.err.println("nectl: the control loop thread ended at " + Instant.now() + " (nanoTime " + System.nanoTime()
                    + ") with an uncaught exception:");
                failure.printStackTrace();
            });
            // The client unmaps its buffers on close or driver loss only once these threads have let go of them.
            transport.registerBufferUser(loop::linkReleased);
            transport.registerBufferUser(() -> telemetryPublisher.released() || agents.isClosed());
            transport.registerBufferUser(() -> counters.released() || agents.isClosed());
        }
        catch (final RuntimeException e)
        {
            CloseHelper.quietCloseAll(startedRecorder, transport);
            throw e;
        }
        if (recordPublisher != null)
        {
            transport.registerBufferUser(() -> recordPublisher.released() || agents.isClosed());
            transport.registerBufferUser(() -> recorder.released() || recorderRunner.isClosed());
        }
    }

    /**
     * Every counter the service keeps, in the CnC file for {@code nectl stat}: the loop's (read
     * through its release-ordered status), the gateway's, the preparer's and the telemetry
     * publisher's; a carried arm's base-block counts; the recorder's when recording. docs/TELEMETRY.md
     * lists them.
     */
    private ServiceCounters registerCounters(final ServiceCounters c)
    {
        c.add("ticks", loop::tickCount)
            .add("mode", () -> loop.mode().ordinal())
            .add("faults_latched", loop::faults)
            .add("trajectories_completed", loop::completedTrajectories)
            .add("overruns", loop::overrunCount)
            .add("deadline_misses", loop::deadlineMissCount)
            .add("missing_states", loop::missingStateCount)
            .add("joint_states_received", loop::statesSeen)
            .add("invalid_link_messages", loop::invalidLinkMessageCount)
            .add("motor_command_publish_failures", loop::publishFailureCount)
            .add("motor_commands_unconnected", loop::unconnectedCommandCount)
            .add("loop_errors", loop::loopErrorCount)
            .add("commands_applied", loop::appliedCommandCount)
            .add("commands_refused_by_loop", loop::rejectedCommandCount)
            .add("controller_events", loop::eventCount)
            .add("controller_events_dropped", loop::droppedEventCount)
            .add("telemetry_samples", loop::telemetrySampleCount)
            .add("telemetry_ring_full_drops", loop::telemetryDropCount)
            .add("telemetry_published", telemetryPublisher::publishedCount)
            .add("telemetry_unpublished", telemetryPublisher::unpublishedCount)
            .add("controller_events_published", telemetryPublisher::publishedEventCount)
            .add("controller_events_unpublished", telemetryPublisher::unpublishedEventCount)
            .add("planner_commands_accepted", gateway::acceptedCount)
            .add("planner_replies_unsent", gateway::unsentReplyCount)
            .add("planner_rejects_controller_unavailable", gateway::unavailableRejectCount)
            .add("trajectories_refused_when_prepared", preparer::trajectoryRejectCount)
            .add("loop_command_queue_full", preparer::loopQueueFullCount);
        if (settings.carriedBase().carried())
        {
            c.add("base_blocks_valid", loop::baseBlocksValidCount)
                .add("base_blocks_missing", loop::baseBlocksMissingCount)
                .add("base_blocks_invalid", loop::baseBlocksInvalidCount);
        }
        if (recorder != null)
        {
            c.add("recording_id", recorder::recordingId)
                .add("recording_position_bytes", recorder::recordedPosition)
                .add("recording_stopped", () -> recorder.stopped().get() ? 1 : 0)
                .add("recording_errors", recorder::errorCount)
                .add("recording_fault_marks", recorder::faultMarkCount)
                .add("recordings_deleted", recorder::deletedRecordingCount)
                .add("recording_segment_bytes_deleted", recorder::purgedSegmentBytes)
                .add("recording_ring_full_drops", loop::recordDropCount)
                .add("recording_samples_published", recordPublisher::publishedCount)
                .add("recording_samples_unpublished", recordPublisher::unpublishedCount);
        }
        for (final RejectReason reason : RejectReason.values())
        {
            if (reason != RejectReason.NULL_VAL && reason != RejectReason.CONTROLLER_UNAVAILABLE)
            {
                c.add("planner_rejects_" + reason.name().toLowerCase(Locale.ROOT), () -> gateway.rejectCount(reason));
            }
        }
        return c;
    }

    /**
     * Starts the driver, the agents and the control loop. Not real-time safe.
     *
     * @param settings resolved settings.
     * @return the running service.
     */
    public static ControllerService start(final ServiceSettings settings)
    {
        return start(settings, TickStage.NONE);
    }

    /**
     * Starts the driver, the flight recorder (when {@code recording} is not null), the agents and the
     * control loop. Not real-time safe.
     *
     * @param settings resolved settings.
     * @param recording where the full-rate stream is recorded, or null for no recording.
     * @return the running service, recording from its first tick.
     */
    public static ControllerService start(final ServiceSettings settings, final FlightRecorderConfig recording)
    {
        return start(settings, TickStage.NONE, recording);
    }

    /** As {@link #start(ServiceSettings)}, the loop running {@code stage} inside every tick. */
    static ControllerService start(final ServiceSettings settings, final TickStage stage)
    {
        return start(settings, stage, null);
    }

    /** As {@link #start(ServiceSettings, FlightRecorderConfig)}, the loop running {@code stage} inside every tick. */
    static ControllerService start(final ServiceSettings settings, final TickStage stage, final FlightRecorderConfig recording)
    {
        final ControllerService service = new ControllerService(settings, stage, recording);
        if (service.recorderRunner != null)
        {
            AgentRunner.startOnThread(service.recorderRunner);
        }
        AgentRunner.startOnThread(service.agents);
        service.loopThread.start();
        return service;
    }

    /** @return the position and velocity limits planner commands must respect: the model's joint limits. */
    public static CommandLimits commandLimits(final RobotModel model)
    {
        final int dof = model.dof();
        final double[] min = new double[dof];
        final double[] max = new double[dof];
        final double[] velocity = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            final JointLimits limits = model.limits(j);
            min[j] = limits.positionMin();
            max[j] = limits.positionMax();
            velocity[j] = limits.velocityMax();
        }
        return new CommandLimits(min, max, velocity);
    }

    /** @return the control loop, for status (any thread) and, after {@link #close}, statistics. */
    public ControlLoop loop()
    {
        return loop;
    }

    /** @return the id of the control-loop thread, for per-thread CPU and allocation accounting. */
    public long loopThreadId()
    {
        return loopThread.getId();
    }

    /** @return the planner gateway, for its counters. */
    public PlannerGateway gateway()
    {
        return gateway;
    }

    /** @return the UDP address planners send to. */
    public InetSocketAddress plannerAddress()
    {
        return gateway.localAddress();
    }

    /** @return the Aeron directory adapters and monitors connect to. */
    public String aeronDirectory()
    {
        return transport.aeronDirectory();
    }

    /** @return the settings the service runs with. */
    public ServiceSettings settings()
    {
        return settings;
    }

    /** @return trajectories refused while being prepared (after the gateway acknowledged them). */
    public long trajectoryRejectCount()
    {
        return preparer.trajectoryRejectCount();
    }

    /** @return the reason the last trajectory was refused while being prepared, or "". */
    public String lastTrajectoryRejection()
    {
        return preparer.lastRejection();
    }

    /** @return how the Aeron client lost its media driver, or null while it has one. */
    public AeronTransport.Loss transportLoss()
    {
        return transport.loss();
    }

    /**
     * @param listener run once when the Aeron client loses its media driver, on the client's thread
     *     (so quick, e.g. a signal), or at once if it already has.
     */
    public void onTransportLoss(final Runnable listener)
    {
        transport.onLoss(listener);
    }

    /** On the loop thread, once: the first Throwable caught in a loop iteration. */
    private void loopErrored()
    {
        gateway.refuseCommands();
        loopErrored = true;
        loopErrorListener.run();
    }

    /**
     * @param listener run once after the loop caught its first Throwable (FAULT, LOOP_ERROR latched,
     *     commands refused), on the loop thread (so quick, e.g. a signal), or at once if it already has.
     */
    public void onLoopError(final Runnable listener)
    {
        loopErrorListener = listener;
        if (loopErrored)
        {
            listener.run();
        }
    }

    /**
     * Stops the arm for a shutdown, before {@link #close}: the gateway refuses every further
     * command but EStop (CONTROLLER_UNAVAILABLE), the loop latches SHUTDOWN if the drives are
     * powered and stops the arm with its category (safety.stop_category.shutdown, 1 by default);
     * then waits, up to the stop time plus {@code marginNs}, until the loop has the drives off and
     * the adapter's newest JointState no longer reports them powered. Not real-time safe.
     *
     * @param marginNs time allowed beyond the stop time, ns.
     * @return what happened, for the log.
     */
    public ShutdownStop stopForShutdown(final long marginNs)
    {
        final long startNs = System.nanoTime();
        final ControllerMode modeBefore = loop.mode();
        gateway.refuseCommands();
        loop.requestShutdownStop();
        final long deadlineNs = startNs + settings.safety().stopTimeNs() + marginNs;
        long loopStoppedNs = -1;
        while (System.nanoTime() - deadlineNs < 0 && !loopEnded())
        {
            if (loopStoppedNs < 0 && loop.shutdownStopApplied() && !loop.mode().drivesPowered())
            {
                loopStoppedNs = System.nanoTime();
            }
            if (loopStoppedNs >= 0 && (loop.statesSeen() == 0 || !loop.drivesReportEnabled() || transport.loss() != null))
            {
                break;
            }
            LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(200));
        }
        final long endNs = System.nanoTime();
        return new ShutdownStop(modeBefore, loop.mode(), loopStoppedNs < 0 ? -1 : loopStoppedNs - startNs,
            loopStoppedNs >= 0 && !loop.drivesReportEnabled(), endNs - startNs);
    }

    /**
     * What {@link #stopForShutdown} did.
     *
     * @param modeBefore the loop's mode when the shutdown began.
     * @param modeAfter the loop's mode at the end: FAULT after a stop, else unchanged (IDLE, FAULT, ESTOP).
     * @param stopNs time from the request to the loop's first state with the drives off, ns; -1 if not reached.
     * @param drivesReportOff true if the adapter's newest JointState reported the drives off.
     * @param elapsedNs time the whole wait took, ns.
     */
    public record ShutdownStop(ControllerMode modeBefore, ControllerMode modeAfter, long stopNs, boolean drivesReportOff,
        long elapsedNs)
    {
    }

    /** @return the exception that ended the control loop thread, or null (none, or still running). */
    public Throwable loopFailure()
    {
        return loopFailure;
    }

    /** @return true once the loop thread has ended (only {@link #close} ends it, unless it failed). */
    public boolean loopEnded()
    {
        return !loopThread.isAlive();
    }

    /**
     * Reads the controller events never published (the telemetry publication was closed, e.g. by a
     * lost media driver), oldest first. Only after {@link #close}. Not real-time safe.
     *
     * @param sink receives each event, the decoder wrapped on it (valid during the call only).
     * @return the number of events.
     */
    public int drainUndeliveredEvents(final Consumer<ControllerEventDecoder> sink)
    {
        if (!closed)
        {
            throw new IllegalStateException("drain the undelivered events after close");
        }
        return telemetryPublisher.drainUndeliveredEvents(sink);
    }

    /** @return the full-rate publisher to the flight recorder, for its counters, or null when the service does not record. */
    public TelemetryPublisher recordPublisher()
    {
        return recordPublisher;
    }

    /** @return the flight recorder, or null when the service does not record. */
    public FlightRecorder recorder()
    {
        return recorder;
    }

    /** @return the service's counters in the CnC file. */
    public ServiceCounters counters()
    {
        return counters;
    }

    /** @return the telemetry publisher, for its counters. */
    public TelemetryPublisher telemetryPublisher()
    {
        return telemetryPublisher;
    }

    /**
     * After the loop has ended: waits (at most 5 s) until the full-rate publisher has taken every
     * sample and event from its rings and the archive has written all it published, so a recording
     * ends with the last tick.
     */
    private void awaitRecordingDrained()
    {
        if (recordPublisher == null || recorder.stopped().get() || transport.loss() != null)
        {
            return;
        }
        final long deadlineNs = System.nanoTime() + RECORD_DRAIN_TIMEOUT_NS;
        while (System.nanoTime() - deadlineNs < 0 && !recorder.stopped().get()
            && (!recordPublisher.drained() || recorder.recordedPosition() < recordPublisher.position()))
        {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }
        if (!recordPublisher.drained() || recorder.recordedPosition() < recordPublisher.position())
        {
            System.err.println("nectl: flight recorder: recording " + recorder.recordingId() + " ends at position "
                + recorder.recordedPosition() + " of " + recordPublisher.position() + " published"
                + (recordPublisher.drained() ? "" : ", samples still queued") + " after waiting 5 s at shutdown");
        }
    }

    /** Stops the loop (joining it), the agents, the recorder, the link and the driver; idempotent. Not real-time safe. */
    @Override
    public synchronized void close()
    {
        if (closed)
        {
            return;
        }
        closed = true;
        loop.stop();
        try
        {
            loopThread.join();
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
        awaitRecordingDrained();
        CloseHelper.closeAll(agents, recorderRunner, link, transport);
    }
}
