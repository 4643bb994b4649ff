package org.nectl.service.loop;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import org.HdrHistogram.Histogram;
import org.agrona.concurrent.OneToOneConcurrentArrayQueue;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.transport.ControllerEventQueue;
import org.nectl.transport.ControllerLink;
import org.nectl.transport.HeartbeatSample;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.PlannerGateway;
import org.nectl.transport.TelemetryQueue;
import org.nectl.transport.TelemetrySample;
import org.nectl.transport.sbe.ControllerEventKind;
import org.nectl.transport.sbe.ControllerKind;
import org.nectl.transport.sbe.ControllerState;
import org.nectl.transport.sbe.DriveMode;
import org.nectl.transport.sbe.EventCommand;

/**
 * The control-loop thread: busy-spins, and once per period (realtime) or per new JointState
 * (lockstep) takes the newest state, applies prepared planner commands, runs one
 * {@link ControlCycle} tick, publishes the MotorCommand by tryClaim and hands a telemetry sample
 * to the telemetry ring. Every mode transition (an accepted segment counts as one, TRACKING to
 * TRACKING when it replaces a running one), newly latched fault, accepted stop request, reset
 * and refused command goes, undecimated, to the controller-event ring with its controller time.
 * Overruns (compute longer than the period) and deadline misses (a tick starting more than half a
 * period late) are counted and published; tick compute time goes into an HdrHistogram.
 *
 * <p>When the hardware link closes under it (the Aeron client lost its media driver) the loop stops
 * touching the link at once, reports that it has {@link #linkReleased released} it, and goes on
 * ticking without I/O: the tick latches {@link Faults#LINK_LOST} (FAULT, zero torque), every later
 * MotorCommand counts as a publish failure, and the events stay in the event ring.
 *
 * <p>Error path, as Agrona's {@code AgentRunner} has one: a Throwable from any part of an iteration
 * (command application, tick, publication) is caught on the loop thread and counted; the first one
 * is kept for the service to report. The loop publishes a MotorCommand with zero torque and the
 * brakes engaged at once, latches {@link Faults#LOOP_ERROR} (category 0, FAULT; latched again after
 * a reset, as nothing the failed code computes can be trusted), queues its FAULT and transition
 * events, tells the service (once, on this thread) and goes on ticking in FAULT, so the drives keep
 * receiving braking commands until the service stops it. See docs/SAFETY.md.
 *
 * <p>Shutdown ({@link #requestShutdownStop}): the next iteration latches {@link Faults#SHUTDOWN}
 * while the drives are powered, which stops the arm with that fault's category (1 by default: a
 * controlled stop to standstill, then FAULT with the brakes engaged).
 *
 * <p>Lockstep supervision runs on simulated time: the loop ticks only on a new JointState, so no
 * wall-clock stall of the simulator counts as a missing state; only a simulator silent for the
 * wall-clock liveness timeout latches STATE_MISSING (a dead simulator).
 *
 * <p>{@link #run} is the real-time path: after construction it allocates nothing, takes no locks,
 * logs nothing and never blocks (the error path excepted: the caught Throwable was allocated by
 * whatever threw it). Status accessors may be read from any thread; the cycle and the
 * histogram only after the loop thread has been joined.
 */
public final class ControlLoop implements Runnable
{
    /** Status slots published with release semantics for other threads. */
    private static final int TICKS = 0;
    private static final int MODE = 1;
    private static final int FAULTS = 2;
    private static final int COMPLETED = 3;
    private static final int OVERRUNS = 4;
    private static final int MISSES = 5;
    private static final int MISSING_STATES = 6;
    private static final int STATES_SEEN = 7;
    private static final int PUBLISH_FAILURES = 8;
    private static final int REJECTED_COMMANDS = 9;
    private static final int APPLIED_COMMANDS = 10;
    private static final int EVENTS = 11;
    private static final int DROPPED_EVENTS = 12;
    private static final int UNCONNECTED_COMMANDS = 13;
    private static final int LOOP_ERRORS = 14;
    private static final int STATE_STATUS = 15;
    private static final int TELEMETRY_SAMPLES = 16;
    private static final int TELEMETRY_DROPS = 17;
    private static final int INVALID_LINK_MESSAGES = 18;
    private static final int RECORD_DROPS = 19;
    private static final int BASE_BLOCKS_VALID = 20;
    private static final int BASE_BLOCKS_MISSING = 21;
    private static final int BASE_BLOCKS_INVALID = 22;
    private static final int STATUS_SLOTS = 23;

    /** JointState status bits that mean the adapter cannot be trusted: drive fault, encoder fault. */
    private static final int ADAPTER_FAULT_BITS = (1 << 1) | (1 << 2);
    /** JointState status bit: the drives are powered and accepting torque. */
    private static final int DRIVES_ENABLED_BIT = 1;
    /** JointState status bit: the adapter watchdog has zeroed the torque. */
    private static final int WATCHDOG_BIT = 1 << 3;
    /**
     * Consecutive states with the watchdog bit that count as a fault: one stale trip (from a stall
     * while idle) clears with the next command; a persisting one means commands do not arrive.
     */
    private static final int WATCHDOG_STATES_TO_FAULT = 3;
    private static final long HISTOGRAM_MAX_NS = 10_000_000_000L;
    /** Wire state per {@link ControllerMode} ordinal (the two enums share their order). */
    private static final ControllerState[] STATE_OF_MODE = {
        ControllerState.IDLE, ControllerState.ENABLED, ControllerState.TRACKING, ControllerState.HOLD, ControllerState.FAULT,
        ControllerState.STOPPING, ControllerState.STANDSTILL, ControllerState.ESTOP};
    /** Wire controller per {@link ControlLaw}, by ordinal. */
    private static final ControllerKind[] CONTROLLER_OF_LAW = {
        ControllerKind.COMPUTED_TORQUE, ControllerKind.PD_GRAVITY, ControllerKind.MIXED_ELASTIC};
    /** Wire name of each {@link PreparedCommand.Kind}, by ordinal. */
    private static final EventCommand[] EVENT_COMMAND = {
        EventCommand.ENABLE, EventCommand.DISABLE, EventCommand.HOLD, EventCommand.RESET, EventCommand.ESTOP,
        EventCommand.TRAJECTORY, EventCommand.SETPOINT, EventCommand.PAYLOAD};

    private final ControlCycle cycle;
    private final ControllerLink link;
    private final PlannerGateway gateway;
    private final TelemetryQueue telemetryQueue;
    private final ControllerEventQueue events;
    private final OneToOneConcurrentArrayQueue<PreparedCommand> commands;
    private final LoopMode mode;
    private final long periodNs;
    private final long livenessTimeoutNs;
    private final ThreadPlacement placement;
    private final int dof;
    private final JointStateSample state;
    private final HeartbeatSample heartbeat = new HeartbeatSample();
    private final MotorCommandSample command;
    private final TelemetrySample telemetry;
    private final Histogram computeHistogram = new Histogram(HISTOGRAM_MAX_NS, 3);
    private final AtomicLongArray status = new AtomicLongArray(STATUS_SLOTS);

    private volatile boolean running = true;
    private volatile boolean shutdownRequested;
    private volatile boolean shutdownStopApplied;
    private volatile Throwable firstError;
    private TickStage stage = TickStage.NONE;
    private TelemetryQueue recordQueue;
    private ControllerEventQueue recordEvents;
    private AtomicBoolean recordingStopped;
    private boolean recordingStopReported;
    private Runnable errorListener = () -> { };
    private boolean shutdownApplied;
    private boolean loopErrored;
    private boolean stateSourceLost;
    private long loopErrors;
    private long deadlineNs;
    private volatile String pinning = "not started";
    private volatile boolean linkReleased;
    private volatile long linkLostNs;
    private volatile long linkLostTick = -1;
    private boolean linkLost;
    private boolean freshState;
    private long statesSeen;
    private long lastHeartbeatNs;
    private long lastTickWallNs;
    private long lastComputeNs;
    private long startLatenessNs;
    private long tickIntervalNs;
    private long overruns;
    private long misses;
    private long missingStates;
    private long publishFailures;
    private long unconnectedCommands;
    private long rejectedCommands;
    private int watchdogStates;
    private long lastTickedSequence = -1;
    private long appliedCommands;
    private ControllerMode reportedMode = ControllerMode.IDLE;
    private int reportedFaults;
    private long reportedCollisions;
    private long reportedModelChanges;

    ControlLoop(
        final ControlCycle cycle, final int dof, final ControllerLink link, final PlannerGateway gateway,
        final TelemetryQueue telemetryQueue, final ControllerEventQueue events,
        final OneToOneConcurrentArrayQueue<PreparedCommand> commands,
        final LoopMode mode, final long periodNs, final long livenessTimeoutNs, final ThreadPlacement placement)
    {
        this.events = events;
        this.cycle = cycle;
        this.dof = dof;
        this.link = link;
        this.gateway = gateway;
        this.telemetryQueue = telemetryQueue;
        this.commands = commands;
        this.mode = mode;
        this.periodNs = periodNs;
        this.livenessTimeoutNs = livenessTimeoutNs;
        this.placement = placement;
        state = new JointStateSample(dof);
        command = new MotorCommandSample(dof);
        telemetry = new TelemetrySample(dof);
    }

    @Override
    public void run()
    {
        pinning = ThreadPinning.placeCurrentThread(placement, "control loop");
        final long startNs = System.nanoTime();
        // Heartbeat age is measured on the clock the adapter stamps: the wall clock in realtime,
        // simulated time (from 0) in lockstep.
        lastHeartbeatNs = mode == LoopMode.REALTIME ? startNs : 0L;
        lastTickWallNs = startNs;
        deadlineNs = startNs + periodNs;
        try
        {
            while (running)
            {
                try
                {
                    if (mode == LoopMode.REALTIME)
                    {
                        realtimeIteration();
                    }
                    else
                    {
                        lockstepIteration();
                    }
                }
                catch (final Throwable failure)
                {
                    onError(failure);
                }
            }
        }
        finally
        {
            linkReleased = true;
        }
    }

    private void realtimeIteration()
    {
        pollInputs();
        final long nowNs = System.nanoTime();
        if (nowNs < deadlineNs)
        {
            return;
        }
        startLatenessNs = nowNs - deadlineNs;
        if (startLatenessNs > periodNs / 2)
        {
            misses++;
        }
        // The schedule advances first: a tick that throws must not be retried at once.
        deadlineNs += periodNs;
        if (nowNs - deadlineNs > periodNs)
        {
            // Far behind (pre-emption): re-anchor rather than burst through the missed ticks.
            deadlineNs = nowNs + periodNs;
        }
        applyShutdownRequest(nowNs);
        applyCommands(nowNs);
        tick(nowNs, nowNs);
    }

    private void lockstepIteration()
    {
        // Read before the poll: a state that arrived before this time is seen, however long the
        // loop thread itself was descheduled, so only a silent simulator can exceed the timeout.
        final long polledNs = System.nanoTime();
        pollInputs();
        // No controller clock runs between lockstep ticks: command events carry the newest state's time.
        applyShutdownRequest(state.timestampNs());
        applyCommands(state.timestampNs());
        final long nowNs = System.nanoTime();
        if (freshState)
        {
            tick(state.timestampNs(), nowNs);
        }
        else if (statesSeen > 0 && polledNs - lastTickWallNs > livenessTimeoutNs)
        {
            // Simulated time stands still while the simulator is silent, so only wall time can tell a dead one.
            stateSourceLost = true;
            tick(state.timestampNs(), nowNs);
        }
        else if (linkLost && !linkLostLatched())
        {
            // No link any more: keep supervising on the last simulated time.
            tick(state.timestampNs(), nowNs);
        }
    }

    /** Latches SHUTDOWN once after {@link #requestShutdownStop}, with its STOP, FAULT and transition events. */
    private void applyShutdownRequest(final long timeNs)
    {
        if (shutdownRequested && !shutdownApplied)
        {
            shutdownApplied = true;
            shutdownStopApplied = true;
            final ControllerState before = STATE_OF_MODE[cycle.mode().ordinal()];
            cycle.shutdown();
            if (cycle.mode() != reportedMode)
            {
                event(timeNs, ControllerEventKind.STOP, before, 0, EventCommand.NONE, 0);
            }
            reportChanges(timeNs, EventCommand.NONE);
            publishStatus();
        }
    }

    /**
     * The error path: brake first (with the preallocated sample, touching nothing the failure may
     * have left inconsistent), then latch and report. A second failure in here is counted only.
     */
    private void onError(final Throwable failure)
    {
        loopErrors++;
        loopErrored = true;
        if (firstError == null)
        {
            firstError = failure;
        }
        final long timeNs = mode == LoopMode.REALTIME ? System.nanoTime() : state.timestampNs();
        try
        {
            publish(timeNs, false);
            cycle.loopError();
            reportChanges(timeNs, EventCommand.NONE);
            publishStatus();
            if (loopErrors == 1)
            {
                errorListener.run();
            }
        }
        catch (final Throwable again)
        {
            loopErrors++;
            status.lazySet(LOOP_ERRORS, loopErrors);
        }
    }

    private void pollInputs()
    {
        if (linkLost)
        {
            return;
        }
        if (link.isClosed())
        {
            // Closed by the Aeron client after losing its driver: from now on the link's buffers may be unmapped.
            linkLost = true;
            linkLostNs = System.nanoTime();
            linkLostTick = cycle.tickCount();
            linkReleased = true;
            return;
        }
        // A state whose sequence was already ticked (re-published, e.g. the lockstep simulator repeating
        // state 0) is not new: it neither earns a second tick nor resets the missing-state count.
        if (link.pollJointState(state) > 0 && state.sequence() != lastTickedSequence)
        {
            freshState = true;
            statesSeen++;
        }
        if (link.pollHeartbeat(heartbeat) > 0)
        {
            lastHeartbeatNs = mode == LoopMode.REALTIME ? System.nanoTime() : heartbeat.timestampNs();
        }
    }

    private void applyCommands(final long timeNs)
    {
        final long appliedBefore = appliedCommands;
        PreparedCommand next;
        while ((next = commands.poll()) != null)
        {
            appliedCommands++;
            final ControllerState before = STATE_OF_MODE[cycle.mode().ordinal()];
            // Nothing restarts the arm once it stops for a shutdown; an emergency stop still applies.
            final int result = shutdownApplied && next.kind != PreparedCommand.Kind.EMERGENCY_STOP
                ? ControlCycle.REJECTED_MODE
                : next.refusal != ControlCycle.ACCEPTED ? next.refusal : apply(next);
            final EventCommand command = EVENT_COMMAND[next.kind.ordinal()];
            if (result != ControlCycle.ACCEPTED)
            {
                rejectedCommands++;
                event(timeNs, ControllerEventKind.COMMAND_REJECTED, before, 0, command, result);
            }
            else if (command == EventCommand.DISABLE || command == EventCommand.HOLD || command == EventCommand.ESTOP)
            {
                event(timeNs, ControllerEventKind.STOP, before, 0, command, 0);
            }
            else if (command == EventCommand.RESET)
            {
                event(timeNs, ControllerEventKind.RESET, before, 0, command, 0);
            }
            else if (command == EventCommand.PAYLOAD)
            {
                event(timeNs, ControllerEventKind.PAYLOAD_CHANGE_STARTED, before, 0, command, 0);
            }
            else if (command == EventCommand.TRAJECTORY && cycle.mode() == reportedMode)
            {
                // A segment replacing a running one leaves the mode TRACKING, yet a planner must see that it was taken.
                event(timeNs, ControllerEventKind.MODE_TRANSITION, before, 0, command, 0);
            }
            reportChanges(timeNs, command);
        }
        if (appliedCommands != appliedBefore)
        {
            // Lockstep may wait long between ticks: the new mode must be visible before the next state.
            publishStatus();
        }
    }

    private int apply(final PreparedCommand c)
    {
        switch (c.kind)
        {
            case ENABLE:
                return cycle.enable(c.law);
            case DISABLE:
                return cycle.disable();
            case HOLD:
                return cycle.hold(c.law);
            case RESET:
                return cycle.reset();
            case EMERGENCY_STOP:
                cycle.emergencyStop();
                return ControlCycle.ACCEPTED;
            case TRAJECTORY:
                return cycle.startTrajectory(c.trajectory);
            case PAYLOAD:
                return changePayload(c);
            default:
                return cycle.streamSetpoint(c.q, c.qd, c.qdd, c.qddd);
        }
    }

    /**
     * A payload changes the model only in IDLE (at once), ENABLED, HOLD and TRACKING (ramped): during
     * a stop (STOPPING, STANDSTILL) the stop's torque must not change under it, and FAULT and ESTOP
     * are left by RESET first.
     */
    private int changePayload(final PreparedCommand c)
    {
        final ControllerMode current = cycle.mode();
        if (current != ControllerMode.IDLE && current != ControllerMode.ENABLED && current != ControllerMode.HOLD
            && current != ControllerMode.TRACKING)
        {
            return ControlCycle.REJECTED_MODE;
        }
        return cycle.changeModel(c.model, c.rampNs);
    }

    private void tick(final long timeNs, final long wallStartNs)
    {
        final boolean newState = freshState;
        freshState = false;
        if (newState)
        {
            lastTickedSequence = state.sequence();
        }
        if (!newState)
        {
            missingStates++;
        }
        System.arraycopy(state.q(), 0, cycle.measuredQ(), 0, dof);
        System.arraycopy(state.qd(), 0, cycle.measuredQd(), 0, dof);
        cycle.measuredStateTimeNs(state.timestampNs());
        System.arraycopy(state.theta(), 0, cycle.measuredTheta(), 0, dof);
        System.arraycopy(state.thetaDot(), 0, cycle.measuredThetaDot(), 0, dof);
        if (newState)
        {
            cycle.carriedBase().measure(state.baseMotionValid(), state.baseMotion());
        }
        if (linkLost && !linkLostLatched())
        {
            // Latched again should an operator RESET clear it: without a link nothing can run.
            cycle.linkLost();
        }
        if (loopErrored && (cycle.faults() & Faults.LOOP_ERROR) == 0)
        {
            // Latched again should an operator RESET clear it: the code that failed runs in every tick.
            cycle.loopError();
        }
        if (stateSourceLost)
        {
            stateSourceLost = false;
            cycle.stateLost();
        }
        tickIntervalNs = cycle.tickCount() == 0 ? 0L : wallStartNs - lastTickWallNs;
        final boolean adapterFault = adapterFault(newState);
        final long heartbeatAgeNs = (mode == LoopMode.REALTIME ? wallStartNs : timeNs) - lastHeartbeatNs;
        cycle.tick(timeNs, newState, heartbeatAgeNs, adapterFault);
        stage.afterTick(cycle.tickCount());
        publish(timeNs, cycle.drivesEnabled());
        reportChanges(timeNs, EventCommand.NONE);
        reportRecordingStop(timeNs);
        final long computeNs = System.nanoTime() - wallStartNs;
        computeHistogram.recordValue(Math.min(computeNs, HISTOGRAM_MAX_NS));
        if (computeNs > periodNs)
        {
            overruns++;
        }
        offerTelemetry(timeNs);
        lastComputeNs = computeNs;
        lastTickWallNs = wallStartNs;
        publishStatus();
    }

    /**
     * Queues a COLLISION event for a new detection, a FAULT event for newly latched bits and a
     * MODE_TRANSITION event for a changed mode, in that order.
     */
    private void reportChanges(final long timeNs, final EventCommand command)
    {
        final int newFaults = cycle.faults() & ~reportedFaults;
        final ControllerState before = STATE_OF_MODE[reportedMode.ordinal()];
        if (cycle.collisionCount() != reportedCollisions)
        {
            reportedCollisions = cycle.collisionCount();
            events.offerCollision(cycle.lastCollisionTimeNs(), cycle.tickCount(), before, reportedFaults,
                cycle.lastCollisionJoint(), cycle.lastCollisionTorque());
        }
        if (cycle.modelChanges() != reportedModelChanges)
        {
            reportedModelChanges = cycle.modelChanges();
            event(timeNs, ControllerEventKind.PAYLOAD_CHANGED, before, 0, EventCommand.PAYLOAD, 0);
        }
        if (newFaults != 0)
        {
            event(timeNs, ControllerEventKind.FAULT, before, newFaults, command, 0);
        }
        if (cycle.mode() != reportedMode)
        {
            event(timeNs, ControllerEventKind.MODE_TRANSITION, before, 0, command, 0);
        }
        reportedMode = cycle.mode();
        reportedFaults = cycle.faults();
    }

    /** Queues RECORDING_STOPPED once, the first tick after the flight recorder stopped on its own. */
    private void reportRecordingStop(final long timeNs)
    {
        if (recordingStopped != null && !recordingStopReported && recordingStopped.get())
        {
            recordingStopReported = true;
            event(timeNs, ControllerEventKind.RECORDING_STOPPED, STATE_OF_MODE[cycle.mode().ordinal()], 0, EventCommand.NONE, 0);
        }
    }

    private void event(
        final long timeNs, final ControllerEventKind kind, final ControllerState before, final int newFaults,
        final EventCommand command, final int rejectCode)
    {
        final ControllerState after = STATE_OF_MODE[cycle.mode().ordinal()];
        events.offer(timeNs, cycle.tickCount(), kind, before, after, cycle.faults(), newFaults, command, rejectCode);
        if (recordEvents != null)
        {
            recordEvents.offer(timeNs, cycle.tickCount(), kind, before, after, cycle.faults(), newFaults, command, rejectCode);
        }
    }

    private boolean adapterFault(final boolean newState)
    {
        if (statesSeen == 0)
        {
            return false;
        }
        final int bits = state.statusBits();
        if (newState)
        {
            watchdogStates = (bits & WATCHDOG_BIT) != 0 ? watchdogStates + 1 : 0;
        }
        return (bits & ADAPTER_FAULT_BITS) != 0 || watchdogStates >= WATCHDOG_STATES_TO_FAULT;
    }

    private boolean linkLostLatched()
    {
        return (cycle.faults() & Faults.LINK_LOST) != 0;
    }

    /** Publishes the tick's command, or zero torque with the brakes engaged when {@code enabled} is false. */
    private void publish(final long timeNs, final boolean enabled)
    {
        if (linkLost)
        {
            publishFailures++;
            return;
        }
        if (enabled)
        {
            System.arraycopy(cycle.tauCommand(), 0, command.tau(), 0, dof);
        }
        else
        {
            Arrays.fill(command.tau(), 0, dof, 0.0);
        }
        command.sequence(cycle.tickCount())
            .timestampNs(timeNs)
            .jointStateSequence(state.sequence())
            .mode(enabled ? DriveMode.TORQUE : DriveMode.BRAKE)
            .enable(enabled);
        final long result = link.publishMotorCommand(command);
        if (ControllerLink.noDriveSubscribed(result))
        {
            unconnectedCommands++;
        }
        else if (result < 0)
        {
            publishFailures++;
        }
    }

    /** Fills the telemetry sample only on the ticks that survive decimation (every tick while recording). */
    private void offerTelemetry(final long timeNs)
    {
        final boolean live = telemetryQueue.due();
        final boolean recorded = recordQueue != null && recordQueue.due();
        if (!live && !recorded)
        {
            return;
        }
        System.arraycopy(state.q(), 0, telemetry.q(), 0, dof);
        System.arraycopy(state.qd(), 0, telemetry.qd(), 0, dof);
        System.arraycopy(cycle.tauCommand(), 0, telemetry.tauCommand(), 0, dof);
        System.arraycopy(cycle.trackingError(), 0, telemetry.trackingError(), 0, dof);
        System.arraycopy(cycle.externalTorque(), 0, telemetry.externalTorque(), 0, dof);
        System.arraycopy(cycle.tauFeedforward(), 0, telemetry.tauFeedforward(), 0, dof);
        System.arraycopy(cycle.tauFeedforwardRate(), 0, telemetry.tauFeedforwardRate(), 0, dof);
        System.arraycopy(cycle.tauLaw(), 0, telemetry.tauLaw(), 0, dof);
        gateway.copyRejectCounts(telemetry.rejectCounts());
        telemetry.timestampNs(timeNs)
            .tickCount(cycle.tickCount())
            .overrunCount(overruns)
            .deadlineMissCount(misses)
            .missingStateCount(missingStates)
            .jointStateSequence(state.sequence())
            .jointStateTimestampNs(state.timestampNs())
            .tickComputeNs(lastComputeNs)
            .state(STATE_OF_MODE[cycle.mode().ordinal()])
            .controller(CONTROLLER_OF_LAW[cycle.law().ordinal()])
            .referenceClockRate(cycle.timeScaling().rate())
            .timeScaledTickCount(cycle.timeScaling().scaledTicks())
            .torqueClipCount(cycle.limiter().torqueClipTotal())
            .torqueRateClipCount(cycle.limiter().rateClipTotal())
            .limiterFlags(cycle.limiterFlags())
            .faults(cycle.faults())
            .tickStartLatenessNs(mode == LoopMode.REALTIME ? startLatenessNs : 0L)
            .tickIntervalNs(tickIntervalNs)
            .collisionCount(cycle.collisionCount())
            .baseBlockCounts(cycle.carriedBase().acceptedCount(), cycle.carriedBase().missingCount(),
                cycle.carriedBase().rejectedCount());
        if (live)
        {
            telemetryQueue.enqueue(telemetry);
        }
        if (recorded)
        {
            recordQueue.enqueue(telemetry);
        }
    }

    private void publishStatus()
    {
        status.lazySet(TICKS, cycle.tickCount());
        status.lazySet(MODE, cycle.mode().ordinal());
        status.lazySet(FAULTS, cycle.faults());
        status.lazySet(COMPLETED, cycle.completedTrajectories());
        status.lazySet(OVERRUNS, overruns);
        status.lazySet(MISSES, misses);
        status.lazySet(MISSING_STATES, missingStates);
        status.lazySet(STATES_SEEN, statesSeen);
        status.lazySet(PUBLISH_FAILURES, publishFailures);
        status.lazySet(UNCONNECTED_COMMANDS, unconnectedCommands);
        status.lazySet(REJECTED_COMMANDS, rejectedCommands);
        status.lazySet(APPLIED_COMMANDS, appliedCommands);
        status.lazySet(EVENTS, events.eventCount());
        status.lazySet(DROPPED_EVENTS, events.dropCount());
        status.lazySet(LOOP_ERRORS, loopErrors);
        status.lazySet(STATE_STATUS, state.statusBits());
        status.lazySet(TELEMETRY_SAMPLES, telemetryQueue.sampleCount());
        status.lazySet(TELEMETRY_DROPS, telemetryQueue.dropCount());
        status.lazySet(INVALID_LINK_MESSAGES, link.invalidMessageCount());
        status.lazySet(BASE_BLOCKS_VALID, cycle.carriedBase().acceptedCount());
        status.lazySet(BASE_BLOCKS_MISSING, cycle.carriedBase().missingCount());
        status.lazySet(BASE_BLOCKS_INVALID, cycle.carriedBase().rejectedCount());
        if (recordQueue != null)
        {
            status.lazySet(RECORD_DROPS, recordQueue.dropCount());
        }
    }

    /**
     * Makes every tick's sample and every event also go, undecimated, to the flight recorder's rings,
     * and reports a RECORDING_STOPPED event once {@code stopped} turns true. Before the loop thread
     * starts only.
     */
    void recordTo(final TelemetryQueue fullRate, final ControllerEventQueue fullRateEvents, final AtomicBoolean stopped)
    {
        recordQueue = fullRate;
        recordEvents = fullRateEvents;
        recordingStopped = stopped;
    }

    /** @return full-rate samples dropped because the recorder's ring was full. Any thread. */
    public long recordDropCount()
    {
        return status.get(RECORD_DROPS);
    }

    /** Sets the stage run inside every tick; before the loop thread starts only. */
    void stage(final TickStage tickStage)
    {
        stage = tickStage;
    }

    /**
     * Sets what runs, once and on the loop thread, after the first Throwable caught in an
     * iteration; it must be quick (e.g. a signal). Before the loop thread starts only.
     */
    void onFirstError(final Runnable listener)
    {
        errorListener = listener;
    }

    /**
     * Asks the loop to stop the arm for a shutdown: its next iteration latches {@link Faults#SHUTDOWN}
     * if the drives are powered. Any thread.
     */
    public void requestShutdownStop()
    {
        shutdownRequested = true;
    }

    /** @return true once the loop has applied {@link #requestShutdownStop}. Any thread. */
    public boolean shutdownStopApplied()
    {
        return shutdownStopApplied;
    }

    /**
     * @return true if the newest JointState, as of the last tick, reports the drives powered (its
     *     drivesEnabled status bit); false before any. Any thread.
     */
    public boolean drivesReportEnabled()
    {
        return (status.get(STATE_STATUS) & DRIVES_ENABLED_BIT) != 0;
    }

    /** @return Throwables caught in loop iterations since start. Any thread. */
    public long loopErrorCount()
    {
        return status.get(LOOP_ERRORS);
    }

    /** @return the first Throwable caught in a loop iteration, or null. Any thread. */
    public Throwable firstError()
    {
        return firstError;
    }

    /** Asks the loop to stop after its current iteration. Any thread. */
    public void stop()
    {
        running = false;
    }

    /** @return whether the loop thread was pinned, as a sentence. Any thread. */
    public String pinning()
    {
        return pinning;
    }

    /**
     * @return true once the loop no longer touches the hardware link: it saw the link closed, or
     *     the loop thread has ended. Any thread.
     */
    public boolean linkReleased()
    {
        return linkReleased;
    }

    /** @return {@link System#nanoTime()} when the loop first saw the hardware link closed, or 0. Any thread. */
    public long linkLostNs()
    {
        return linkLostNs;
    }

    /** @return ticks run when the loop first saw the hardware link closed, or -1. Any thread. */
    public long linkLostTick()
    {
        return linkLostTick;
    }

    /** @return ticks run. Any thread. */
    public long tickCount()
    {
        return status.get(TICKS);
    }

    /** @return the controller mode after the last tick. Any thread. */
    public ControllerMode mode()
    {
        return ControllerMode.values()[(int)status.get(MODE)];
    }

    /** @return latched fault bits. Any thread. */
    public int faults()
    {
        return (int)status.get(FAULTS);
    }

    /** @return trajectories followed to their end. Any thread. */
    public long completedTrajectories()
    {
        return status.get(COMPLETED);
    }

    /** @return ticks whose compute time exceeded the period. Any thread. */
    public long overrunCount()
    {
        return status.get(OVERRUNS);
    }

    /** @return ticks that started more than half a period late. Any thread. */
    public long deadlineMissCount()
    {
        return status.get(MISSES);
    }

    /** @return ticks without a new JointState. Any thread. */
    public long missingStateCount()
    {
        return status.get(MISSING_STATES);
    }

    /** @return JointStates received. Any thread. */
    public long statesSeen()
    {
        return status.get(STATES_SEEN);
    }

    /**
     * @return MotorCommands that could not be claimed while a drive adapter was subscribed (back
     *     pressure, a closed publication) or after the link was lost. Any thread.
     */
    public long publishFailureCount()
    {
        return status.get(PUBLISH_FAILURES);
    }

    /**
     * @return MotorCommands not published because no drive adapter was subscribed: before the adapter
     *     connects, or after it went away (which the state and heartbeat supervision turns into a
     *     fault). Any thread.
     */
    public long unconnectedCommandCount()
    {
        return status.get(UNCONNECTED_COMMANDS);
    }

    /** @return planner commands the cycle refused (wrong mode, discontinuous reference). Any thread. */
    public long rejectedCommandCount()
    {
        return status.get(REJECTED_COMMANDS);
    }

    /**
     * @return planner commands taken from the queue and applied or refused; the status accessors
     *     reflect them once this count includes them. Any thread.
     */
    public long appliedCommandCount()
    {
        return status.get(APPLIED_COMMANDS);
    }

    /** @return controller events raised, queued or dropped. Any thread. */
    public long eventCount()
    {
        return status.get(EVENTS);
    }

    /** @return telemetry samples selected by decimation, queued or dropped. Any thread. */
    public long telemetrySampleCount()
    {
        return status.get(TELEMETRY_SAMPLES);
    }

    /** @return telemetry samples dropped because the telemetry ring was full. Any thread. */
    public long telemetryDropCount()
    {
        return status.get(TELEMETRY_DROPS);
    }

    /** @return hardware-link messages ignored (wrong schema, template, length, joint count or enum). Any thread. */
    public long invalidLinkMessageCount()
    {
        return status.get(INVALID_LINK_MESSAGES);
    }

    /** @return controller events dropped because the event ring was full. Any thread. */
    public long droppedEventCount()
    {
        return status.get(DROPPED_EVENTS);
    }

    /** @return a carried arm's valid base blocks taken since start (0 for a fixed base). Any thread. */
    public long baseBlocksValidCount()
    {
        return status.get(BASE_BLOCKS_VALID);
    }

    /** @return a carried arm's JointStates without a base block since start (0 for a fixed base). Any thread. */
    public long baseBlocksMissingCount()
    {
        return status.get(BASE_BLOCKS_MISSING);
    }

    /**
     * @return a carried arm's base blocks refused since start, a non-finite value or a non-unit quaternion
     *     (0 for a fixed base). Any thread.
     */
    public long baseBlocksInvalidCount()
    {
        return status.get(BASE_BLOCKS_INVALID);
    }

    /** @return the tick compute-time histogram, ns; read only after the loop thread has ended. */
    public Histogram computeHistogram()
    {
        return computeHistogram;
    }

    /** @return the cycle; read only after the loop thread has ended. */
    public ControlCycle cycle()
    {
        return cycle;
    }
}
