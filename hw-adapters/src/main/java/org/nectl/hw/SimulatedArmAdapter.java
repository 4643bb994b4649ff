package org.nectl.hw;

import org.agrona.concurrent.NanoClock;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.HeartbeatSample;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.MotorCommandSample;
import org.nectl.transport.sbe.AdapterState;

/**
 * The {@link HardwareAdapter} of a {@link SimulatedArm}: connects it to the controller over the
 * hardware link in one of two modes (docs/ADAPTERS.md).
 *
 * <p><b>Realtime:</b> one period of physics per period of the clock, the elapsed periods integrated
 * when the process ran a little late, the simulation frozen when it ran later; the newest encoder
 * sample is published with its time on the arm's clock as timestamp and the period number as
 * sequence (a gap in sequences is a lost or skipped sample). The watchdog runs on the clock, as a
 * drive's runs on its own, and decides per period: a period that ends more than the watchdog timeout
 * after the last MotorCommand's arrival runs at zero torque, one that ends more than the brake
 * timeout after it braked, so zero torque begins no later than the watchdog timeout and the brakes
 * no later than the brake timeout after the last command, also when a descheduled simulator
 * integrates the periods afterwards. Heartbeats at their
 * period of clock time. Synchronised (a {@link AdapterSettings#syncShiftNs} of 0 or more), the
 * period schedule locks to the controller's ticks as drives on a distributed-clock fieldbus do:
 * each fresh MotorCommand (stamped with the start of its tick, at most half a period old) moves the
 * end of the arm's period 1/{@value #SYNC_GAIN} of the way towards tick start + shift. With the
 * shift at half a period each sample is published mid-way between two ticks, so the controller
 * sees exactly one new state per tick unless the simulator is half a period late; free running,
 * the two schedules drift into phase now and then, and jitter alone leaves ticks without a state.
 * The arm's clock is not moved: every sample still lies exactly one period after the last.
 *
 * <p><b>Lockstep</b> (the contract with the controller): at start JointState sequence 0 (simulated
 * time 0) is published, and re-published every {@value #LOCKSTEP_REPUBLISH_NS} ns of clock time
 * until the first MotorCommand arrives. Each MotorCommand whose jointStateSequence equals the
 * latest JointState's sequence applies its torques for exactly one control period; simulated time
 * advances by the period and JointState sequence + 1 is published with timestamp = simulated time in
 * ns. Other commands are ignored and counted. Heartbeats are sent every heartbeat period of
 * simulated time and, for liveness whatever the pace of the run, at least every heartbeat period of
 * clock time; they are stamped with simulated time. The clock only paces re-publishing and
 * heartbeats, so every JointState is a function of the configuration and the commands alone. No
 * watchdog: the arm does not move between commands.
 *
 * <p>Faults: STALL stops all publishing and command reading (in realtime the drives keep
 * integrating under the watchdog); CRASH runs the crash action (the CLI halts the process) and
 * stops everything. Both take effect in place of the publication of the first affected sample.
 *
 * <p>Link loss: once the link is closed under it (the Aeron client lost its media driver) the
 * adapter unpowers the drives and engages the brakes ({@link SimulatedArm#disableDrives}) at once,
 * never touches the link again ({@link #linkReleased}), and in realtime keeps integrating the
 * braked arm. Commands stop arriving as soon as the controller's end closes, whichever end loses
 * the driver first, so the watchdog has zeroed the torque before unless this end lost it first.
 *
 * <p>{@link #doWork} is real-time safe. Not thread safe: one thread runs the adapter.
 */
public final class SimulatedArmAdapter implements HardwareAdapter
{
    /** Lockstep: wall-clock period of re-publishing JointState 0 while no command has arrived, ns. */
    public static final long LOCKSTEP_REPUBLISH_NS = 100_000_000L;
    /** Realtime: most elapsed periods integrated at once; further behind, the simulation freezes. */
    static final int MAX_LAG_PERIODS = 10;
    /** Realtime, synchronised: the fraction 1/SYNC_GAIN of the phase error corrected per command. */
    static final int SYNC_GAIN = 16;

    private final SimulatedArm arm;
    private final AdapterLink link;
    private final SimulationMode mode;
    private final NanoClock clock;
    private final Runnable crashAction;
    private final AdapterWatchdog watchdog;
    private final long periodNs;
    private final long heartbeatPeriodNs;
    private final long syncShiftNs;
    private final JointStateSample state;
    private final MotorCommandSample command;
    private final HeartbeatSample heartbeat = new HeartbeatSample();
    private boolean started;
    private boolean commanded;
    private boolean crashed;
    private boolean statePending;
    private boolean linkLost;
    private volatile boolean linkReleased;
    private volatile long linkLostNs;
    private volatile long zeroTorqueFromNs;
    private volatile long brakedFromNs;
    private volatile long stopCommandNs;
    private volatile long watchdogStops;
    private boolean zeroTorqueReported;
    private boolean brakeReported;
    private long nextPeriodNs;
    /**
     * Clock time minus the arm's time at a period end: the time the simulation was frozen for while
     * the process lagged, plus the phase corrections of synchronisation.
     */
    private long frozenNs;
    private long nextHeartbeatNs;
    private long nextClockHeartbeatNs;
    private long nextRepublishNs;
    private long lastCommandSequence;
    private long staleCommandCount;
    private long droppedStateCount;
    private long lagRestartCount;
    private long heartbeatCount;

    /**
     * Not real-time safe.
     *
     * @param arm the simulated arm, at its start state.
     * @param link the adapter end of the hardware link.
     * @param settings adapter id, watchdog timeout, heartbeat period.
     * @param mode realtime or lockstep.
     * @param clock monotonic clock: the wall clock in service, a settable one in tests.
     * @param crashAction what a CRASH fault does: halt the process in service.
     */
    public SimulatedArmAdapter(
        final SimulatedArm arm,
        final AdapterLink link,
        final AdapterSettings settings,
        final SimulationMode mode,
        final NanoClock clock,
        final Runnable crashAction)
    {
        this.arm = arm;
        this.link = link;
        this.mode = mode;
        this.clock = clock;
        this.crashAction = crashAction;
        watchdog = new AdapterWatchdog(settings.watchdogTimeoutNs(), settings.brakeTimeoutNs());
        periodNs = arm.periodNs();
        heartbeatPeriodNs = settings.heartbeatPeriodNs();
        if (settings.syncShiftNs() >= periodNs)
        {
            throw new IllegalArgumentException("sync shift " + settings.syncShiftNs() + " ns is not within the period of "
                + periodNs + " ns");
        }
        syncShiftNs = settings.syncShiftNs();
        state = new JointStateSample(arm.dof());
        command = new MotorCommandSample(arm.dof());
        heartbeat.adapterId(settings.adapterId());
    }

    @Override
    public int doWork()
    {
        if (crashed)
        {
            return 0;
        }
        final long nowNs = clock.nanoTime();
        if (!linkLost && link.isClosed())
        {
            // From now on the link's buffers may be unmapped: never touch it again.
            linkLost = true;
            linkLostNs = nowNs;
            arm.disableDrives();
            linkReleased = true;
        }
        if (linkLost)
        {
            return mode == SimulationMode.REALTIME && started ? realtimeWork(nowNs) : 0;
        }
        if (!started)
        {
            start(nowNs);
            return 1;
        }
        return mode == SimulationMode.LOCKSTEP ? lockstepWork(nowNs) : realtimeWork(nowNs);
    }

    @Override
    public String roleName()
    {
        return "simulated-arm";
    }

    @Override
    public AdapterState state()
    {
        if (arm.driveFault())
        {
            return AdapterState.FAULT;
        }
        if (watchdog.tripped())
        {
            return AdapterState.WATCHDOG_TRIPPED;
        }
        return commanded ? AdapterState.RUNNING : AdapterState.STARTING;
    }

    /** @return the adapter watchdog, for its trip count. */
    public AdapterWatchdog watchdog()
    {
        return watchdog;
    }

    /**
     * @return how often the watchdog has zeroed the torque after a command; {@link #zeroTorqueFromNs},
     *     {@link #brakedFromNs} and {@link #stopCommandNs} describe the last time, and are written
     *     before this count. Any thread.
     */
    public long watchdogStopCount()
    {
        return watchdogStops;
    }

    /** @return clock time at which the first zero-torque period of the last watchdog stop began, ns, or 0. Any thread. */
    public long zeroTorqueFromNs()
    {
        return zeroTorqueFromNs;
    }

    /** @return clock time at which the first braked period of the last watchdog stop began, ns, or 0 (not braked yet). Any thread. */
    public long brakedFromNs()
    {
        return brakedFromNs;
    }

    /** @return arrival time of the MotorCommand the last watchdog stop followed, ns. Any thread. */
    public long stopCommandNs()
    {
        return stopCommandNs;
    }

    /** @return lockstep commands ignored because they did not acknowledge the latest JointState. */
    public long staleCommandCount()
    {
        return staleCommandCount;
    }

    /** @return realtime samples the link could not take (back pressure, no controller). */
    public long droppedStateCount()
    {
        return droppedStateCount;
    }

    /** @return realtime schedule restarts after lagging more than {@value #MAX_LAG_PERIODS} periods. */
    public long lagRestartCount()
    {
        return lagRestartCount;
    }

    /**
     * @return true once the adapter has seen its link closed and no longer touches it; the drives
     *     are then unpowered and braked. Any thread.
     */
    public boolean linkReleased()
    {
        return linkReleased;
    }

    /** @return the clock time at which the adapter saw its link closed, ns, or 0. Any thread. */
    public long linkLostNs()
    {
        return linkLostNs;
    }

    /** @return true once a CRASH fault has fired. */
    public boolean crashed()
    {
        return crashed;
    }

    private void start(final long nowNs)
    {
        started = true;
        nextPeriodNs = nowNs + periodNs;
        nextRepublishNs = nowNs + LOCKSTEP_REPUBLISH_NS;
        final long timestampNs = mode == SimulationMode.LOCKSTEP ? 0L : nowNs;
        nextHeartbeatNs = timestampNs + heartbeatPeriodNs;
        publishState(timestampNs);
        publishHeartbeat(timestampNs, nowNs);
    }

    private int realtimeWork(final long nowNs)
    {
        int work = 0;
        if (!linkLost && !arm.stalled() && link.pollMotorCommand(command) > 0)
        {
            accept(nowNs);
            synchronise(nowNs);
            work++;
        }
        if (nowNs - nextPeriodNs >= 0)
        {
            final long sampleNs = integrateElapsedPeriods(nowNs);
            if (!faultStopsPublishing() && !linkLost)
            {
                publishState(sampleNs);
            }
            work++;
        }
        if (!linkLost && !arm.stalled() && nowNs - nextHeartbeatNs >= 0)
        {
            publishHeartbeat(nowNs, nowNs);
            nextHeartbeatNs = Math.max(nextHeartbeatNs + heartbeatPeriodNs, nowNs);
            work++;
        }
        return work;
    }

    private int lockstepWork(final long nowNs)
    {
        if (arm.stalled())
        {
            return 0;
        }
        if (statePending)
        {
            publishState(arm.timeNs());
            return 1;
        }
        if (link.pollMotorCommand(command) > 0)
        {
            if (command.jointStateSequence() == arm.stepCount())
            {
                accept(nowNs);
                lockstepPeriod(nowNs);
                return 1;
            }
            staleCommandCount++;
        }
        int work = 0;
        if (!commanded && nowNs - nextRepublishNs >= 0)
        {
            publishState(0L);
            nextRepublishNs += LOCKSTEP_REPUBLISH_NS;
            work++;
        }
        if (nowNs - nextClockHeartbeatNs >= 0)
        {
            publishHeartbeat(arm.timeNs(), nowNs);
            work++;
        }
        return work;
    }

    private void lockstepPeriod(final long nowNs)
    {
        arm.step();
        if (faultStopsPublishing())
        {
            return;
        }
        final long simulatedNs = arm.timeNs();
        publishState(simulatedNs);
        if (simulatedNs - nextHeartbeatNs >= 0)
        {
            publishHeartbeat(simulatedNs, nowNs);
            nextHeartbeatNs += heartbeatPeriodNs;
        }
    }

    private void accept(final long nowNs)
    {
        commanded = true;
        lastCommandSequence = command.sequence();
        watchdog.commandReceived(nowNs);
        arm.command(command.tau(), command.mode(), command.enable());
    }

    /** Moves the next period end towards the command's tick start + shift; see the class comment. */
    private void synchronise(final long nowNs)
    {
        final long tickNs = command.timestampNs();
        if (syncShiftNs == AdapterSettings.FREE_RUNNING || nowNs - tickNs < 0 || nowNs - tickNs > periodNs / 2)
        {
            return;
        }
        long errorNs = Math.floorMod(nextPeriodNs - tickNs - syncShiftNs, periodNs);
        if (errorNs > periodNs / 2)
        {
            errorNs -= periodNs;
        }
        final long correctionNs = errorNs / SYNC_GAIN;
        nextPeriodNs -= correctionNs;
        frozenNs -= correctionNs;
    }

    /**
     * Integrates every period elapsed since the last one, up to {@value #MAX_LAG_PERIODS} (a
     * process that ran a little late catches up, the newest torque held), and returns the newest
     * sample's time on the simulated arm's clock. Further behind, the simulation freezes: the
     * schedule restarts from now and the arm's clock loses the skipped time, because a descheduled
     * simulator is an artefact of the host, not something the arm does. Either way consecutive
     * timestamps and states agree, which the controller's state-jump check relies on.
     */
    private long integrateElapsedPeriods(final long nowNs)
    {
        long sampleNs;
        int periods = 0;
        do
        {
            sampleNs = nextPeriodNs - frozenNs;
            superviseCommands(nextPeriodNs);
            arm.step();
            nextPeriodNs += periodNs;
            periods++;
        }
        while (nowNs - nextPeriodNs >= 0 && periods < MAX_LAG_PERIODS && !arm.crashed() && !arm.stalled());
        if (nowNs - nextPeriodNs >= 0)
        {
            frozenNs += nowNs + periodNs - nextPeriodNs;
            nextPeriodNs = nowNs + periodNs;
            lagRestartCount++;
        }
        return sampleNs;
    }

    /** The watchdog's decision for the period ending at {@code periodEndNs} (clock time). */
    private void superviseCommands(final long periodEndNs)
    {
        final boolean tripped = watchdog.check(periodEndNs);
        final boolean braked = watchdog.checkBrake(periodEndNs);
        arm.watchdogTripped(tripped);
        arm.watchdogBraked(braked);
        if (!tripped)
        {
            zeroTorqueReported = false;
            brakeReported = false;
            return;
        }
        if (!zeroTorqueReported)
        {
            zeroTorqueReported = true;
            brakedFromNs = 0;
            stopCommandNs = watchdog.lastCommandNs();
            zeroTorqueFromNs = periodEndNs - periodNs;
            watchdogStops++;
        }
        if (braked && !brakeReported)
        {
            brakeReported = true;
            brakedFromNs = periodEndNs - periodNs;
        }
    }

    /** Fires a due CRASH; @return true if a stall or crash suppresses the sample. */
    private boolean faultStopsPublishing()
    {
        if (arm.crashed())
        {
            crashed = true;
            crashAction.run();
            return true;
        }
        return arm.stalled();
    }

    private void publishState(final long timestampNs)
    {
        arm.sample(state);
        state.sequence(arm.stepCount()).timestampNs(timestampNs);
        final boolean published = link.publishJointState(state) > 0;
        if (mode == SimulationMode.LOCKSTEP)
        {
            statePending = !published;
        }
        else if (!published)
        {
            droppedStateCount++;
        }
    }

    private void publishHeartbeat(final long timestampNs, final long nowNs)
    {
        nextClockHeartbeatNs = nowNs + heartbeatPeriodNs;
        heartbeat.sequence(heartbeatCount++).timestampNs(timestampNs).lastMotorCommandSequence(lastCommandSequence).state(state());
        link.publishHeartbeat(heartbeat);
    }
}
