package org.nectl.core.runtime;

import java.util.Arrays;

import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.ControlStatus;
import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.PdGravityController;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;

/**
 * One control tick as a pure function of (model, settings, controller state, inputs): supervision,
 * reference sampling, RNEA with its time derivative, the control law and torque/torque-rate limits.
 * The same object is driven by the real-time loop, a lockstep harness or a test.
 *
 * <p>The life cycle is the {@link Supervisor}'s state machine ({@link ControllerMode}): a fault that
 * {@link StateMonitor}, {@link ReferenceMonitor}, the control law or the torque limiter detects latches
 * and stops the arm with its {@link StopCategory}; only {@link #reset} clears it.
 *
 * <p>Per tick the caller writes the measured state into {@link #measuredQ()} and {@link #measuredQd()}
 * (for a robot with elastic joints also {@link #measuredTheta()} and {@link #measuredThetaDot()})
 * and calls {@link #tick}; it then reads {@link #tauCommand()}, {@link #drivesEnabled()} and the
 * telemetry accessors. Planner requests ({@link #enable}, {@link #startTrajectory}, ...) are applied
 * between ticks on the same thread; each returns a result code.
 *
 * <p>Every method except the constructor is real-time safe: no allocation, locks or exceptions.
 * Not thread safe: owned by the control-loop thread.
 */
public final class ControlCycle
{
    /** Request accepted. */
    public static final int ACCEPTED = 0;
    /** Request not allowed in the current mode. */
    public static final int REJECTED_MODE = 1;
    /** Request needs a valid measured state first. */
    public static final int REJECTED_NO_STATE = 2;
    /** Reference starts too far from the current reference: it would jump. */
    public static final int REJECTED_DISCONTINUOUS = 3;
    /** Reference has the wrong number of joints. */
    public static final int REJECTED_JOINT_COUNT = 4;
    /** The control law cannot run on this robot ({@link ControlLaw#MIXED_ELASTIC} without elastic joints). */
    public static final int REJECTED_LAW = 5;

    /**
     * Largest start offset of a new trajectory from the current reference, rad or m; a streamed
     * setpoint is held to {@link #streamStepLimit(int)}, at most this.
     */
    public static final double MAX_REFERENCE_JUMP = 0.02;

    private static final int SOURCE_POSE = 0;
    private static final int SOURCE_TRAJECTORY = 1;
    private static final int SOURCE_STREAM = 2;

    private final int dof;
    private final CycleSettings settings;
    private final ComputedTorqueController computedTorque;
    private final PdGravityController pdGravity;
    private final TorqueLimiter limiter;
    private final Supervisor supervisor;
    private final StateMonitor stateMonitor;
    private final ReferenceMonitor referenceMonitor;
    /** Checks the stream itself, before the blend's offset is added: a runaway extrapolation is still a jump. */
    private final ReferenceMonitor streamMonitor;
    /** Takes the step out of a new setpoint or trajectory: the reference is its source plus a decaying offset. */
    private final ReferenceBlend blend;
    private final double[] streamStepLimit;
    private final ReferenceTimeScaling timeScaling;
    /** The mixed rigid/elastic law, or null for a robot without elastic joints. */
    private final MixedInverseDynamicsController mixed;
    private final int[] elasticCoordinates;

    private final double[] q;
    private final double[] qd;
    private final double[] qRef;
    private final double[] qdRef;
    private final double[] qddRef;
    private final double[] qdddRef;
    private final double[] qddddRef;
    private final double[] startQ;
    private final double[] startScratch;
    private final double[] startQd;
    private final double[] startQdd;
    private final double[] zeros;
    /** q_d and its derivatives up to the 4th, [n][k]: views of qRef .. qddddRef. */
    private final double[][] reference;
    private final double[] thetaByCoordinate;
    private final double[] thetaDotByCoordinate;
    private final double[] theta;
    private final double[] thetaDot;
    private final double[] pose;
    private final double[] stream;
    private final double[] targetQ;
    private final double[] targetQd;
    private final double[] targetQdd;
    private final double[] targetQddd;
    private final double[] tauLaw;
    private final double[] tauCommand;
    private final double[] tauFeedforward;
    private final double[] tauFeedforwardRate;
    private final double[] trackingError;
    private final double[] trackingSquareSum;
    private final int[] saturatedTicks;

    private ControlLaw law = ControlLaw.COMPUTED_TORQUE;
    private int source = SOURCE_POSE;
    private long referenceTimeNs;
    private long setpointTimeNs;
    private long blendTimeNs;
    private boolean freshSetpoint;
    private boolean streamStopped;
    private long nowNs;
    private long measuredStateTimeNs;
    private boolean measuredStateTimeSet;
    private boolean hasState;
    private int missingStates;
    private long checkedTransitions;
    private long limiterFlags;
    private long tickCount;
    private long trackingTicks;
    private long completedTrajectories;

    /**
     * Not real-time safe: a cycle with {@link SafetySettings#defaults}.
     *
     * @param model the robot.
     * @param settings gains, timeouts and limits.
     */
    public ControlCycle(final RobotModel model, final CycleSettings settings)
    {
        this(model, settings, SafetySettings.defaults(model.dof()));
    }

    /**
     * Not real-time safe: builds the controllers and sizes every array from the model.
     *
     * @param model the robot.
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     */
    public ControlCycle(final RobotModel model, final CycleSettings settings, final SafetySettings safety)
    {
        this(model, settings, safety, ReferenceTimeScaling.Settings.defaults());
    }

    /**
     * Not real-time safe: builds the controllers and sizes every array from the model.
     *
     * @param model the robot.
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     * @param timeScalingSettings the trajectory clock's tuning ({@link ReferenceTimeScaling}).
     */
    public ControlCycle(
        final RobotModel model,
        final CycleSettings settings,
        final SafetySettings safety,
        final ReferenceTimeScaling.Settings timeScalingSettings)
    {
        this(model, settings, safety, timeScalingSettings, MixedLawSettings.defaults(ElasticRobotModel.rigid(model)));
    }

    /**
     * Not real-time safe: as the full constructor, with {@link ReferenceBlend.Settings#defaults}.
     *
     * @param model the robot's links.
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     * @param timeScalingSettings the trajectory clock's tuning ({@link ReferenceTimeScaling}).
     * @param mixedLaw the robot with its drives and the gains of {@link ControlLaw#MIXED_ELASTIC}.
     * @throws IllegalArgumentException if the drives' robot has other joints than {@code model}.
     */
    public ControlCycle(
        final RobotModel model,
        final CycleSettings settings,
        final SafetySettings safety,
        final ReferenceTimeScaling.Settings timeScalingSettings,
        final MixedLawSettings mixedLaw)
    {
        this(model, settings, safety, timeScalingSettings, mixedLaw,
            ReferenceBlend.Settings.defaults(model, settings.periodNs()));
    }

    /**
     * Not real-time safe: builds the controllers and sizes every array from the model; the mixed
     * rigid/elastic law only if the robot has elastic joints.
     *
     * @param model the robot's links.
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     * @param timeScalingSettings the trajectory clock's tuning ({@link ReferenceTimeScaling}).
     * @param mixedLaw the robot with its drives and the gains of {@link ControlLaw#MIXED_ELASTIC}.
     * @param blendSettings how the position step of a new setpoint or trajectory decays ({@link ReferenceBlend}).
     * @throws IllegalArgumentException if the drives' robot has other joints than {@code model}, or
     *     a blend setting is out of range.
     */
    public ControlCycle(
        final RobotModel model,
        final CycleSettings settings,
        final SafetySettings safety,
        final ReferenceTimeScaling.Settings timeScalingSettings,
        final MixedLawSettings mixedLaw,
        final ReferenceBlend.Settings blendSettings)
    {
        dof = model.dof();
        if (mixedLaw.model().dof() != dof)
        {
            throw new IllegalArgumentException("the drives' robot has " + mixedLaw.model().dof() + " joints, the robot " + dof);
        }
        this.settings = settings;
        // one compiled model, under the configured gravity, for every rigid-body algorithm of the cycle
        final double[] g = settings.gravity();
        final CompiledModel dynamics = CompiledModel.of(model).withGravity(g[0], g[1], g[2]);
        computedTorque = new ComputedTorqueController(dynamics, settings.kp(), settings.kd());
        pdGravity = new PdGravityController(dynamics, settings.pdKp(), settings.pdKd());
        computedTorque.frictionFeedforward(settings.frictionFeedforward());
        limiter = new TorqueLimiter(model, settings.periodNs());
        timeScaling = new ReferenceTimeScaling(dynamics, timeScalingSettings);
        timeScaling.frictionFeedforward(settings.frictionFeedforward());
        final double[] positionMin = new double[dof];
        final double[] positionMax = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            positionMin[j] = model.limits(j).positionMin();
            positionMax[j] = model.limits(j).positionMax();
        }
        supervisor = new Supervisor(positionMin, positionMax, settings.periodNs(), safety);
        stateMonitor = new StateMonitor(model, settings, safety);
        referenceMonitor = new ReferenceMonitor(model, settings.periodNs());
        streamMonitor = new ReferenceMonitor(model, settings.periodNs());
        blend = new ReferenceBlend(model, blendSettings, settings.periodNs());
        streamStepLimit = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            streamStepLimit[j] = Math.min(MAX_REFERENCE_JUMP, blend.linearStep(j));
        }
        q = new double[dof];
        qd = new double[dof];
        qRef = new double[dof];
        qdRef = new double[dof];
        qddRef = new double[dof];
        qdddRef = new double[dof];
        qddddRef = new double[dof];
        startQ = new double[dof];
        startScratch = new double[dof];
        startQd = new double[dof];
        startQdd = new double[dof];
        zeros = new double[dof];
        reference = new double[][] {qRef, qdRef, qddRef, qdddRef, qddddRef};
        mixed = mixedLaw.available() ? mixedController(mixedLaw, settings) : null;
        final int elastic = mixedLaw.model().elasticCount();
        elasticCoordinates = new int[elastic];
        for (int e = 0; e < elastic; e++)
        {
            elasticCoordinates[e] = mixedLaw.model().coordinateOfElastic(e);
        }
        thetaByCoordinate = new double[dof];
        thetaDotByCoordinate = new double[dof];
        theta = new double[elastic];
        thetaDot = new double[elastic];
        pose = new double[dof];
        stream = new double[4 * dof];
        targetQ = new double[dof];
        targetQd = new double[dof];
        targetQdd = new double[dof];
        targetQddd = new double[dof];
        tauLaw = new double[dof];
        tauCommand = new double[dof];
        tauFeedforward = new double[dof];
        tauFeedforwardRate = new double[dof];
        trackingError = new double[dof];
        trackingSquareSum = new double[dof];
        saturatedTicks = new int[dof];
    }

    /**
     * The mixed law's own limiter has no limits: the cycle's {@link TorqueLimiter} limits every law's
     * command alike, once.
     */
    private static MixedInverseDynamicsController mixedController(final MixedLawSettings law, final CycleSettings settings)
    {
        final int dof = law.model().dof();
        final double[] unlimited = CycleSettings.filled(dof, Double.POSITIVE_INFINITY);
        final MixedInverseDynamicsController controller = new MixedInverseDynamicsController(law.model(), law.kpQ(),
            law.kdQ(), law.kpTheta(), law.kdTheta(), new TorqueLimiter(unlimited, unlimited, settings.periodNs()));
        final double[] g = settings.gravity();
        controller.gravity(g[0], g[1], g[2]);
        return controller;
    }

    /** @return the array the caller fills with measured positions before {@link #tick}, rad or m. */
    public double[] measuredQ()
    {
        return q;
    }

    /** @return the array the caller fills with measured velocities before {@link #tick}. */
    public double[] measuredQd()
    {
        return qd;
    }

    /**
     * @return the array the caller fills with measured motor positions reflected to the link side, by
     *     coordinate, before {@link #tick}, rad or m; read for elastic joints only.
     */
    public double[] measuredTheta()
    {
        return thetaByCoordinate;
    }

    /** @return the array the caller fills with measured motor velocities by coordinate; elastic joints only. */
    public double[] measuredThetaDot()
    {
        return thetaDotByCoordinate;
    }

    /**
     * Sets the sampling time of the measured state (the JointState's timestamp) for the next
     * {@link #tick} only.
     * The state-jump check predicts each new state from the previous one over the interval between
     * their sampling times, so a state that reached the loop late or early is not read as a jump.
     * Not set before a tick: the tick time stands in for it (as in lockstep, where the two are equal).
     *
     * @param timeNs sampling time of the state in {@link #measuredQ()}, ns; only differences are used.
     */
    public void measuredStateTimeNs(final long timeNs)
    {
        measuredStateTimeNs = timeNs;
        measuredStateTimeSet = true;
    }

    /** @return true if the robot has elastic joints and {@link ControlLaw#MIXED_ELASTIC} can run. */
    public boolean elastic()
    {
        return mixed != null;
    }

    /**
     * Runs one control tick.
     *
     * @param timeNs the controller clock at this tick, ns (wall clock, or simulated time in lockstep).
     * @param newState true if {@link #measuredQ()}/{@link #measuredQd()} hold a JointState not seen before.
     * @param heartbeatAgeNs time since the last adapter heartbeat, ns.
     * @param adapterFault true if the adapter reports a drive or encoder fault or a tripped watchdog.
     */
    public void tick(final long timeNs, final boolean newState, final long heartbeatAgeNs, final boolean adapterFault)
    {
        nowNs = timeNs;
        final long stateTimeNs = measuredStateTimeSet ? measuredStateTimeNs : timeNs;
        measuredStateTimeSet = false;
        tickCount++;
        missingStates = newState ? 0 : missingStates + 1;
        if (newState)
        {
            hasState = true;
        }
        if (mode().drivesPowered())
        {
            final int detected = stateMonitor.check(stateTimeNs, newState, missingStates, heartbeatAgeNs, adapterFault, q, qd)
                | (newState && !motorStateFinite() ? Faults.NON_FINITE_STATE : 0);
            if (detected != 0)
            {
                fault(detected);
            }
        }
        stateMonitor.advance(stateTimeNs, newState, q, qd);
        if (mode().drivesPowered() && mode() != ControllerMode.STOPPING)
        {
            updateReference();
            checkReference();
        }
        if (mode() == ControllerMode.STOPPING
            && supervisor.followStop(nowNs, qd, qRef, qdRef, qddRef, qdddRef, qddddRef) == Supervisor.STOP_HOLDING)
        {
            holdReference();
        }
        if (!mode().drivesPowered())
        {
            zeroCommand();
            return;
        }
        if (runControlLaw() != ControlStatus.OK)
        {
            fault(Faults.NON_FINITE_COMMAND);
            zeroCommand();
            return;
        }
        limiterFlags = limiter.limit(tauLaw, tauCommand);
        checkSaturation();
        recordTracking();
    }

    /**
     * IDLE to ENABLED: power the drives and hold the measured pose with gravity compensation.
     *
     * @param controlLaw the law to run, or null to keep the current one.
     * @return {@link #ACCEPTED}, {@link #REJECTED_MODE}, {@link #REJECTED_LAW} or {@link #REJECTED_NO_STATE}.
     */
    public int enable(final ControlLaw controlLaw)
    {
        if (mode() != ControllerMode.IDLE)
        {
            return REJECTED_MODE;
        }
        if (!available(controlLaw))
        {
            return REJECTED_LAW;
        }
        if (!hasState || !StateMonitor.finite(q) || !StateMonitor.finite(qd) || !motorStateFinite())
        {
            return REJECTED_NO_STATE;
        }
        if (controlLaw != null)
        {
            law = controlLaw;
        }
        System.arraycopy(q, 0, pose, 0, dof);
        blend.reset();
        holdPose();
        // The brakes carried the arm until now: start the torque-rate window at the holding torque,
        // so the released arm does not sag while the torque ramps up from zero.
        if (runControlLaw() == ControlStatus.OK)
        {
            limiter.clampToTorqueLimits(tauLaw, tauCommand);
        }
        else
        {
            Arrays.fill(tauCommand, 0.0);
        }
        limiter.reset(tauCommand);
        Arrays.fill(saturatedTicks, 0);
        transition(ControllerMode.ENABLED);
        return ACCEPTED;
    }

    /**
     * Selects the control law used from the next enable on, while IDLE.
     *
     * @param controlLaw the law.
     * @return {@link #ACCEPTED}, {@link #REJECTED_MODE} when not IDLE or {@link #REJECTED_LAW}.
     */
    public int selectLaw(final ControlLaw controlLaw)
    {
        if (mode() != ControllerMode.IDLE)
        {
            return REJECTED_MODE;
        }
        if (!available(controlLaw))
        {
            return REJECTED_LAW;
        }
        law = controlLaw;
        return ACCEPTED;
    }

    /**
     * IDLE, ENABLED, TRACKING or HOLD to IDLE, STANDSTILL to FAULT (the fault stays latched): zero
     * torque, drives disabled, brakes engaged. Refused while STOPPING and in FAULT or ESTOP.
     *
     * @return {@link #ACCEPTED} or {@link #REJECTED_MODE}.
     */
    public int disable()
    {
        if (!supervisor.disable(nowNs))
        {
            return REJECTED_MODE;
        }
        zeroCommand();
        return ACCEPTED;
    }

    /**
     * Operator reset: clears the latched faults; FAULT or ESTOP to IDLE (drives stay disabled until
     * an enable), STANDSTILL to ENABLED (drives stay powered, holding the stop pose). Refused in
     * any other state, including STOPPING: a stop always completes.
     *
     * @return {@link #ACCEPTED} or {@link #REJECTED_MODE}.
     */
    public int reset()
    {
        return supervisor.reset(nowNs) ? ACCEPTED : REJECTED_MODE;
    }

    /**
     * ENABLED, TRACKING or HOLD to HOLD: stop where the reference is now and hold it. A law switch
     * here is the perform phase of a two-phase switch: the law was resolved and checked off the loop,
     * both laws are built at construction, and the torque-rate limit carries over, so the command
     * moves from the old law's torque to the new one's no faster than the rate limit.
     *
     * @param controlLaw the law to run, or null to keep the current one.
     * @return {@link #ACCEPTED}, {@link #REJECTED_MODE} or {@link #REJECTED_LAW}.
     */
    public int hold(final ControlLaw controlLaw)
    {
        if (!supervisor.operational())
        {
            return REJECTED_MODE;
        }
        if (!available(controlLaw))
        {
            return REJECTED_LAW;
        }
        if (controlLaw != null)
        {
            law = controlLaw;
        }
        holdReference();
        transition(ControllerMode.HOLD);
        return ACCEPTED;
    }

    /**
     * Emergency stop, in any state: latches ESTOP with the emergency stop's category, category 0
     * at once (zero torque, drives disabled), category 1 after a controlled stop.
     */
    public void emergencyStop()
    {
        fault(Faults.EMERGENCY_STOP);
        if (!mode().drivesPowered())
        {
            zeroCommand();
        }
    }

    /**
     * The hardware link is gone (the transport lost its media driver), in any state: latches
     * {@link Faults#LINK_LOST}, whose stop category is always 0 (FAULT, zero torque, drives
     * disabled): no command can reach the drives and no state the controller. Real-time safe.
     */
    public void linkLost()
    {
        fault(Faults.LINK_LOST);
        zeroCommand();
    }

    /**
     * A tick threw, in any state: latches {@link Faults#LOOP_ERROR}, always category 0 (FAULT, zero
     * torque, drives disabled). Real-time safe.
     */
    public void loopError()
    {
        fault(Faults.LOOP_ERROR);
        zeroCommand();
    }

    /**
     * The service is shutting down: while the drives are powered latches {@link Faults#SHUTDOWN},
     * which stops the arm with its category (0: FAULT at once; 1: STOPPING, then FAULT at
     * standstill); with the drives off it changes nothing. Real-time safe.
     */
    public void shutdown()
    {
        if (mode().drivesPowered())
        {
            fault(Faults.SHUTDOWN);
            if (!mode().drivesPowered())
            {
                zeroCommand();
            }
        }
    }

    /**
     * The source of states went silent for longer than its liveness timeout (a lockstep simulator
     * that no longer answers): while the drives are powered latches {@link Faults#STATE_MISSING} at
     * once, category 0, without waiting for more missing ticks. Real-time safe.
     */
    public void stateLost()
    {
        if (mode().drivesPowered())
        {
            fault(Faults.STATE_MISSING);
            zeroCommand();
        }
    }

    /**
     * Starts following a trajectory prepared off the loop, from its first waypoint at the next tick.
     *
     * @param sampler the trajectory; its first waypoint must be within {@link #MAX_REFERENCE_JUMP} of
     *     the current reference.
     * @return {@link #ACCEPTED}, {@link #REJECTED_MODE}, {@link #REJECTED_JOINT_COUNT} or
     *     {@link #REJECTED_DISCONTINUOUS}.
     */
    public int startTrajectory(final TrajectorySampler sampler)
    {
        if (!supervisor.operational())
        {
            return REJECTED_MODE;
        }
        if (sampler.dof() != dof)
        {
            return REJECTED_JOINT_COUNT;
        }
        // Sampled into scratch arrays: the live reference must stay untouched if the start is refused.
        sampler.sample(sampler.startTimeS(), startQ, startQd, startQdd, startScratch, startScratch);
        if (!within(startQ, 0, qRef, MAX_REFERENCE_JUMP))
        {
            return REJECTED_DISCONTINUOUS;
        }
        timeScaling.start(sampler);
        referenceTimeNs = nowNs;
        startBlend(startQ, startQd, startQdd, true);
        source = SOURCE_TRAJECTORY;
        transition(ControllerMode.TRACKING);
        return ACCEPTED;
    }

    /**
     * Applies one streamed setpoint. The stream, each setpoint extrapolated with its own derivatives
     * until the next one, is the source of the reference; the position step a setpoint makes (against
     * the stream's extrapolation, or against the reference for the first setpoint of a stream) is
     * taken out by the {@link ReferenceBlend} and decays smoothly, while the setpoint's derivatives
     * are followed as sent: a stream whose positions and derivatives agree is followed exactly. After
     * {@link CycleSettings#commandTimeoutNs()} without a setpoint the controller holds where the
     * extrapolation has got to, at rest. Setpoints applied between two ticks all count from the
     * same time; the last one accepted wins.
     *
     * @param qDesired position, rad or m.
     * @param qdDesired velocity.
     * @param qddDesired acceleration.
     * @param qdddDesired jerk.
     * @return {@link #ACCEPTED}, {@link #REJECTED_MODE}, or {@link #REJECTED_DISCONTINUOUS} if a joint's
     *     position steps the stream by more than {@link #streamStepLimit(int)}, or lies further than
     *     that from the current reference (so that the blend's offset never leaves its linear range).
     */
    public int streamSetpoint(
        final double[] qDesired, final double[] qdDesired, final double[] qddDesired, final double[] qdddDesired)
    {
        if (!supervisor.operational())
        {
            return REJECTED_MODE;
        }
        final boolean starting = source != SOURCE_STREAM;
        if (!starting)
        {
            // Where the stream's target is now: a new setpoint steps the target by no more than a new stream may.
            extrapolateStream((nowNs - setpointTimeNs) * 1e-9);
        }
        for (int j = 0; j < dof; j++)
        {
            final double step = qDesired[j] - (starting ? qRef[j] : targetQ[j]);
            if (!(Math.abs(step) <= streamStepLimit[j]) || !(Math.abs(qDesired[j] - qRef[j]) <= streamStepLimit[j]))
            {
                return REJECTED_DISCONTINUOUS;
            }
        }
        // Setpoints applied together (queued while the loop waited) blend their velocity and acceleration
        // steps as well; one a period or more after the last is followed in its derivatives at once.
        startBlend(qDesired, qdDesired, qddDesired, !starting && nowNs == setpointTimeNs);
        freshSetpoint = true;
        streamStopped = false;
        System.arraycopy(qDesired, 0, stream, 0, dof);
        System.arraycopy(qdDesired, 0, stream, dof, dof);
        System.arraycopy(qddDesired, 0, stream, 2 * dof, dof);
        System.arraycopy(qdddDesired, 0, stream, 3 * dof, dof);
        setpointTimeNs = nowNs;
        source = SOURCE_STREAM;
        if (mode() != ControllerMode.TRACKING)
        {
            transition(ControllerMode.TRACKING);
        }
        return ACCEPTED;
    }

    /** Reference sample at the current time (step 3 of a tick). */
    private void updateReference()
    {
        if (source == SOURCE_TRAJECTORY)
        {
            final double elapsedS = (nowNs - referenceTimeNs) * 1e-9;
            referenceTimeNs = nowNs;
            final int status = timeScaling.advance(elapsedS, qRef, qdRef, qddRef, qdddRef, qddddRef);
            if (status == TrajectorySampler.FINISHED)
            {
                completedTrajectories++;
                System.arraycopy(qRef, 0, pose, 0, dof);
                holdPose();
                transition(ControllerMode.ENABLED);
            }
        }
        else if (source == SOURCE_STREAM)
        {
            followStream();
        }
        else
        {
            holdPose();
        }
        final double blendElapsedS = (nowNs - blendTimeNs) * 1e-9;
        blendTimeNs = nowNs;
        blend.advance(blendElapsedS, qRef, qdRef, qddRef, qdddRef, qddddRef);
        if (source == SOURCE_STREAM && !streamStopped && nowNs - setpointTimeNs > settings.commandTimeoutNs())
        {
            stopStream();
        }
    }

    /**
     * The stream has been silent for longer than the command timeout: from the next tick it stands
     * where its extrapolation is now, at rest, and the blend takes up the velocity it had, so the
     * reference comes to rest smoothly (HOLD).
     */
    private void stopStream()
    {
        System.arraycopy(targetQ, 0, stream, 0, dof);
        Arrays.fill(stream, dof, 4 * dof, 0.0);
        startBlend(targetQ, zeros, zeros, true);
        streamStopped = true;
        transition(ControllerMode.HOLD);
    }

    /**
     * A new source starts now: the blend takes up its position step, with {@code derivatives} also
     * its velocity and acceleration steps.
     */
    private void startBlend(final double[] sourceQ, final double[] sourceQd, final double[] sourceQdd, final boolean derivatives)
    {
        blend.absorb(qRef, qdRef, qddRef, sourceQ, sourceQd, sourceQdd, derivatives);
        blendTimeNs = nowNs;
    }

    /** Holds the reference where it is now, its decaying offset included. */
    private void holdReference()
    {
        System.arraycopy(qRef, 0, pose, 0, dof);
        blend.reset();
        holdPose();
    }

    /** The stream's extrapolation now, checked like a reference, is the source of the reference. */
    private void followStream()
    {
        final long ageNs = nowNs - setpointTimeNs;
        final boolean continuing = !freshSetpoint;
        freshSetpoint = false;
        extrapolateStream(ageNs * 1e-9);
        if (!streamMonitor.accept(continuing, targetQ, targetQd, targetQdd, targetQddd))
        {
            fault(Faults.REFERENCE_DISCONTINUITY);
        }
        System.arraycopy(targetQ, 0, qRef, 0, dof);
        System.arraycopy(targetQd, 0, qdRef, 0, dof);
        System.arraycopy(targetQdd, 0, qddRef, 0, dof);
        System.arraycopy(targetQddd, 0, qdddRef, 0, dof);
        Arrays.fill(qddddRef, 0.0);
    }

    private void extrapolateStream(final double dt)
    {
        for (int j = 0; j < dof; j++)
        {
            final double v = stream[dof + j];
            final double a = stream[2 * dof + j];
            final double jerk = stream[3 * dof + j];
            targetQ[j] = stream[j] + dt * (v + dt * (a / 2.0 + dt * jerk / 6.0));
            targetQd[j] = v + dt * (a + dt * jerk / 2.0);
            targetQdd[j] = a + dt * jerk;
            targetQddd[j] = jerk;
        }
    }

    /** Control law (steps 4-5 of a tick): RNEA and tau-dot along the reference, then feedback. */
    private int runControlLaw()
    {
        if (law == ControlLaw.COMPUTED_TORQUE)
        {
            return computedTorque.compute(q, qd, qRef, qdRef, qddRef, qdddRef, tauLaw, tauFeedforward, tauFeedforwardRate);
        }
        Arrays.fill(tauFeedforward, 0.0);
        Arrays.fill(tauFeedforwardRate, 0.0);
        if (law == ControlLaw.MIXED_ELASTIC)
        {
            gatherMotorState();
            return mixed.compute(q, theta, qd, thetaDot, reference, tauLaw);
        }
        return pdGravity.compute(q, qd, qRef, qdRef, tauLaw);
    }

    private void gatherMotorState()
    {
        for (int e = 0; e < theta.length; e++)
        {
            theta[e] = thetaByCoordinate[elasticCoordinates[e]];
            thetaDot[e] = thetaDotByCoordinate[elasticCoordinates[e]];
        }
    }

    /** @return true if every elastic joint's measured motor position and velocity is finite. */
    private boolean motorStateFinite()
    {
        for (final int k : elasticCoordinates)
        {
            if (!Double.isFinite(thetaByCoordinate[k]) || !Double.isFinite(thetaDotByCoordinate[k]))
            {
                return false;
            }
        }
        return true;
    }

    /** @return false for {@link ControlLaw#MIXED_ELASTIC} on a robot without elastic joints. */
    private boolean available(final ControlLaw controlLaw)
    {
        return controlLaw != ControlLaw.MIXED_ELASTIC || mixed != null;
    }

    private void checkSaturation()
    {
        int saturated = 0;
        for (int j = 0; j < dof; j++)
        {
            if ((limiterFlags & TorqueLimiter.torqueFlag(j)) != 0)
            {
                saturatedTicks[j]++;
                if (saturatedTicks[j] >= settings.maxSaturatedTicks())
                {
                    saturated = Faults.TORQUE_LIMIT;
                }
            }
            else
            {
                saturatedTicks[j] = 0;
            }
        }
        if (saturated != 0)
        {
            fault(saturated);
            if (!mode().drivesPowered())
            {
                zeroCommand();
            }
        }
    }

    private void recordTracking()
    {
        for (int j = 0; j < dof; j++)
        {
            trackingError[j] = qRef[j] - q[j];
        }
        if (mode() == ControllerMode.TRACKING)
        {
            trackingTicks++;
            for (int j = 0; j < dof; j++)
            {
                trackingSquareSum[j] += trackingError[j] * trackingError[j];
            }
        }
    }

    private void holdPose()
    {
        source = SOURCE_POSE;
        System.arraycopy(pose, 0, qRef, 0, dof);
        Arrays.fill(qdRef, 0.0);
        Arrays.fill(qddRef, 0.0);
        Arrays.fill(qdddRef, 0.0);
        Arrays.fill(qddddRef, 0.0);
    }

    /** Step 3b of a tick: a non-finite or jumping reference is a fault. */
    private void checkReference()
    {
        final boolean continuing = checkedTransitions == supervisor.transitionCount();
        checkedTransitions = supervisor.transitionCount();
        if (!referenceMonitor.accept(continuing, qRef, qdRef, qddRef, qdddRef))
        {
            fault(Faults.REFERENCE_DISCONTINUITY);
        }
    }

    private void fault(final int detected)
    {
        supervisor.fault(detected, nowNs, q, qd);
    }

    private void zeroCommand()
    {
        Arrays.fill(tauCommand, 0.0);
        Arrays.fill(tauFeedforward, 0.0);
        Arrays.fill(tauFeedforwardRate, 0.0);
        limiterFlags = 0L;
    }

    private void transition(final ControllerMode next)
    {
        supervisor.transition(next, nowNs);
    }

    private boolean within(final double[] a, final int offset, final double[] b, final double tolerance)
    {
        for (int j = 0; j < dof; j++)
        {
            if (!(Math.abs(a[offset + j] - b[j]) <= tolerance))
            {
                return false;
            }
        }
        return true;
    }

    /** @return the torques to command this tick after limits, N m (N); zero unless powered. */
    public double[] tauCommand()
    {
        return tauCommand;
    }

    /** @return true if the drives are to be powered this tick (brakes released), false for disabled drives and engaged brakes. */
    public boolean drivesEnabled()
    {
        return mode().drivesPowered();
    }

    /** @return the current mode. */
    public ControllerMode mode()
    {
        return supervisor.mode();
    }

    /** @return the control law in use. */
    public ControlLaw law()
    {
        return law;
    }

    /** @return the fault bits latched since start or the last {@link #reset} ({@link Faults}). */
    public int faults()
    {
        return supervisor.faults();
    }

    /**
     * @param bit fault bit number 0..{@link Faults#COUNT}-1.
     * @return how often that fault was newly latched since construction.
     */
    public long faultCount(final int bit)
    {
        return supervisor.faultCount(bit);
    }

    /** @return accepted operator resets since construction. */
    public long resetCount()
    {
        return supervisor.resetCount();
    }

    /** @return the category of the current or last controlled stop. */
    public StopCategory stopCategory()
    {
        return supervisor.stopCategory();
    }

    /** @return controller time the last controlled stop took to standstill, ns, or -1 before any. */
    public long lastStopDurationNs()
    {
        return supervisor.lastStopDurationNs();
    }

    /**
     * @param joint coordinate index.
     * @return the largest distance of a streamed setpoint's position from the stream's extrapolation
     *     (from the reference for the first setpoint of a stream) and from the current reference, rad
     *     or m: the smaller of {@link #MAX_REFERENCE_JUMP} and the largest offset the {@link ReferenceBlend}
     *     takes out within its bounds ({@link ReferenceBlend#linearStep}). Real-time safe.
     */
    public double streamStepLimit(final int joint)
    {
        return streamStepLimit[joint];
    }

    /** @return the blend that takes the position step out of a new setpoint or trajectory. Real-time safe. */
    public ReferenceBlend blend()
    {
        return blend;
    }

    /** @return the reference position this tick, rad or m. */
    public double[] referenceQ()
    {
        return qRef;
    }

    /** @return reference minus measured position this tick, rad or m. */
    public double[] trackingError()
    {
        return trackingError;
    }

    /** @return RNEA along the reference this tick, N m (computed torque only, else zero). */
    public double[] tauFeedforward()
    {
        return tauFeedforward;
    }

    /** @return the time derivative of {@link #tauFeedforward()}, N m/s. */
    public double[] tauFeedforwardRate()
    {
        return tauFeedforwardRate;
    }

    /** @return limiter flags of this tick (see {@link TorqueLimiter#limit}). */
    public long limiterFlags()
    {
        return limiterFlags;
    }

    /** @return the torque limiter, for its clip counters. */
    public TorqueLimiter limiter()
    {
        return limiter;
    }

    /** @return the trajectory clock, for its rate s' and scaled-tick count. */
    public ReferenceTimeScaling timeScaling()
    {
        return timeScaling;
    }

    /** @return ticks run since construction. */
    public long tickCount()
    {
        return tickCount;
    }

    /** @return mode transitions since construction. */
    public long transitionCount()
    {
        return supervisor.transitionCount();
    }

    /** @return controller time of the last mode transition, ns. */
    public long lastTransitionNs()
    {
        return supervisor.lastTransitionNs();
    }

    /** @return trajectories followed to their end. */
    public long completedTrajectories()
    {
        return completedTrajectories;
    }

    /**
     * @param joint coordinate index.
     * @return RMS of the tracking error over all TRACKING ticks so far, rad or m; 0 before any.
     */
    public double trackingRms(final int joint)
    {
        return trackingTicks == 0 ? 0.0 : Math.sqrt(trackingSquareSum[joint] / trackingTicks);
    }

    /** @return ticks spent in TRACKING. */
    public long trackingTicks()
    {
        return trackingTicks;
    }
}
