package org.nectl.core.runtime;

import java.util.Arrays;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.ComputedTorqueController;
import org.nectl.core.control.ControlStatus;
import org.nectl.core.control.ExternalTorqueObserver;
import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.PdGravityController;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.UnifiedBodies;
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
    /** Request needs a valid measured state first (for a carried arm: with a base block within its maximum age). */
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
    private ComputedTorqueController computedTorque;
    private PdGravityController pdGravity;
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
    /** False for a closed-loop robot: its laws run on projected dynamics, which a model change would not rebuild. */
    private final boolean treeLaws;

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
    /** The base's motion in the feedforward and the observer; adds nothing for a fixed base. */
    private final CarriedBaseCompensation carriedBase;
    /** The momentum observer, or null for a robot with elastic joints (its links are driven by springs, not by tau). */
    private ExternalTorqueObserver observer;
    private final CollisionSettings collision;
    private double[] externalTorque;
    /** The control laws of a new model (a payload set) while the command ramps over to them; null otherwise. */
    private PreparedModel incoming;
    private long rampTicks;
    private long rampTick;
    private final double[] tauIncoming;
    private final double[] feedforwardIncoming;
    private final double[] feedforwardRateIncoming;
    private long modelChanges;
    /** Sum of the commands published since the observer's last update, one per period. */
    private final double[] appliedTorqueSum;
    private final double[] reflexTarget;
    private final double[] collisionThresholds;
    private int appliedPeriods;
    /** False from a detection until every estimate has fallen below half its threshold. */
    private boolean collisionArmed = true;
    private long collisionCount;
    private int collisionJoint = -1;
    private double collisionTorque;
    private long collisionTimeNs;

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
        this(model, settings, safety, timeScalingSettings, mixedLaw, null, CollisionSettings.defaults(model.dof()), null);
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
        this(model, settings, safety, timeScalingSettings, mixedLaw, blendSettings, CollisionSettings.defaults(model.dof()));
    }

    /**
     * Not real-time safe: builds the controllers and sizes every array from the model; the mixed
     * rigid/elastic law only if the robot has elastic joints, the momentum observer only if it has none.
     *
     * @param model the robot's links.
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     * @param timeScalingSettings the trajectory clock's tuning ({@link ReferenceTimeScaling}).
     * @param mixedLaw the robot with its drives and the gains of {@link ControlLaw#MIXED_ELASTIC}.
     * @param blendSettings how the position step of a new setpoint or trajectory decays ({@link ReferenceBlend}).
     * @param collisionSettings the momentum observer's gains, the detection thresholds and the reaction.
     * @throws IllegalArgumentException if the drives' robot has other joints than {@code model}, a
     *     blend setting is out of range or an observer gain is not below 1/period.
     */
    public ControlCycle(
        final RobotModel model,
        final CycleSettings settings,
        final SafetySettings safety,
        final ReferenceTimeScaling.Settings timeScalingSettings,
        final MixedLawSettings mixedLaw,
        final ReferenceBlend.Settings blendSettings,
        final CollisionSettings collisionSettings)
    {
        this(model, settings, safety, timeScalingSettings, mixedLaw, blendSettings, collisionSettings, null);
    }

    /**
     * Not real-time safe: builds the controllers and sizes every array from the model, compiled
     * once under the configured gravity for every rigid-body algorithm and law of the cycle; for a
     * closed-loop robot the laws run in its active coordinates on its projected dynamics
     * ({@link LawDynamicsSource}), without the momentum observer and model changes.
     *
     * @param model the controlled joints: the robot's links, or a closed-loop robot's active joints
     *     ({@link org.nectl.core.closedloop.ActiveJoints}).
     * @param settings gains, timeouts and limits.
     * @param safety stop categories per fault and the reflexes' limits.
     * @param timeScalingSettings the trajectory clock's tuning ({@link ReferenceTimeScaling}).
     * @param mixedLaw the robot with its drives and the gains of {@link ControlLaw#MIXED_ELASTIC}.
     * @param blendSettings how the position step of a new setpoint or trajectory decays
     *     ({@link ReferenceBlend}), or null for {@link ReferenceBlend.Settings#defaults} of the compiled model.
     * @param collisionSettings the momentum observer's gains, the detection thresholds and the reaction.
     * @param closedLoop the closed-loop robot whose active joints {@code model} holds, or null for a tree.
     * @throws IllegalArgumentException as the other constructors, or if {@code model} is not the
     *     closed-loop robot's active joints.
     */
    public ControlCycle(
        final RobotModel model,
        final CycleSettings settings,
        final SafetySettings safety,
        final ReferenceTimeScaling.Settings timeScalingSettings,
        final MixedLawSettings mixedLaw,
        final ReferenceBlend.Settings blendSettings,
        final CollisionSettings collisionSettings,
        final ClosedLoopModel closedLoop)
    {
        final CompiledModel dynamics = compile(model, settings);
        dof = model.dof();
        if (mixedLaw.model().dof() != dof)
        {
            throw new IllegalArgumentException("the drives' robot has " + mixedLaw.model().dof() + " joints, the robot " + dof);
        }
        this.settings = settings;
        final double[] g = settings.gravity();
        final LawDynamicsSource laws = new LawDynamicsSource(dynamics, closedLoop, g);
        treeLaws = closedLoop == null;
        computedTorque = new ComputedTorqueController(laws.create(), settings.kp(), settings.kd());
        pdGravity = new PdGravityController(laws.create(), settings.pdKp(), settings.pdKd());
        computedTorque.frictionFeedforward(settings.frictionFeedforward());
        carriedBase = new CarriedBaseCompensation(dynamics, g, settings.periodNs());
        limiter = new TorqueLimiter(model, settings.periodNs());
        timeScaling = new ReferenceTimeScaling(model, laws.create(), timeScalingSettings);
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
        blend = new ReferenceBlend(model, blendSettings != null ? blendSettings
            : ReferenceBlend.Settings.defaults(dynamics, settings.periodNs()), settings.periodNs());
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
        collision = collisionSettings;
        if (collisionSettings.thresholdNm().length != dof)
        {
            throw new IllegalArgumentException("need " + dof + " collision thresholds, got " + collisionSettings.thresholdNm().length);
        }
        observer = mixed == null && treeLaws
            ? new ExternalTorqueObserver(dynamics, collisionSettings.observerGain(), settings.periodNs(), collisionSettings.modelFriction())
            : null;
        externalTorque = observer == null ? new double[dof] : observer.externalTorque();
        appliedTorqueSum = new double[dof];
        reflexTarget = new double[dof];
        collisionThresholds = collisionSettings.thresholdNm();
        tauIncoming = new double[dof];
        feedforwardIncoming = new double[dof];
        feedforwardRateIncoming = new double[dof];
    }

    /**
     * The control laws and the observer of another model of the same robot (the same joints, other
     * inertial parameters: a payload set or removed), built off the loop for {@link #changeModel}.
     * Immutable once built; its objects are handed to the loop thread through whatever queue carries
     * the request (a safe publication).
     */
    public static final class PreparedModel
    {
        final RobotModel model;
        final ComputedTorqueController computedTorque;
        final PdGravityController pdGravity;
        final ExternalTorqueObserver observer;
        final CarriedBaseCompensation.Dynamics carriedBase;

        private PreparedModel(final RobotModel model, final CycleSettings settings, final CollisionSettings collision)
        {
            this.model = model;
            final CompiledModel dynamics = compile(model, settings);
            computedTorque = new ComputedTorqueController(dynamics, settings.kp(), settings.kd());
            pdGravity = new PdGravityController(dynamics, settings.pdKp(), settings.pdKd());
            computedTorque.frictionFeedforward(settings.frictionFeedforward());
            observer = new ExternalTorqueObserver(dynamics, collision.observerGain(), settings.periodNs(), collision.modelFriction());
            carriedBase = new CarriedBaseCompensation.Dynamics(dynamics);
        }

        /** @return the model the laws use. */
        public RobotModel model()
        {
            return model;
        }
    }

    /**
     * Not real-time safe (allocates the laws); safe to call from any thread, it reads only the
     * cycle's immutable settings.
     *
     * @param model the robot with its new inertial parameters.
     * @return the prepared laws.
     * @throws IllegalArgumentException if the model has other joints than the cycle's.
     */
    public PreparedModel prepareModel(final RobotModel model)
    {
        if (model.dof() != dof)
        {
            throw new IllegalArgumentException("the new model has " + model.dof() + " joints, the controller " + dof);
        }
        return new PreparedModel(model, settings, collision);
    }

    /**
     * Starts using another model (the perform phase of a model change; {@link #prepareModel} was the
     * prepare phase): over {@code rampNs} the commanded torque moves from the current laws' to the
     * new laws' along a smooth step, 3 s^2 - 2 s^3, both laws running; at the end of the ramp the new
     * laws replace the old and the momentum observer restarts on the new model; with the drives
     * unpowered the new laws take over at once. The trajectory
     * clock's torque prediction keeps the model it was built with. Real-time safe.
     *
     * @param prepared from {@link #prepareModel}.
     * @param rampNs ramp duration, ns; at least one period.
     * @return {@link #ACCEPTED}, or {@link #REJECTED_LAW} for a robot with elastic joints (the mixed
     *     law's model is not changed this way) or a closed-loop robot, or {@link #REJECTED_MODE} while
     *     a change ramps.
     */
    public int changeModel(final PreparedModel prepared, final long rampNs)
    {
        if (mixed != null || !treeLaws)
        {
            return REJECTED_LAW;
        }
        if (incoming != null)
        {
            return REJECTED_MODE;
        }
        incoming = prepared;
        rampTicks = Math.max(1, rampNs / settings.periodNs());
        rampTick = 0;
        if (!mode().drivesPowered())
        {
            // No torque to ramp: the new laws take over at once.
            completeModelChange();
        }
        return ACCEPTED;
    }

    /** @return model changes completed since construction. */
    public long modelChanges()
    {
        return modelChanges;
    }

    /** @return true while a model change ramps. */
    public boolean modelChanging()
    {
        return incoming != null;
    }

    /**
     * The one compilation of a model for a cycle: under the configured gravity, shared by the laws,
     * the trajectory clock, the observer, the base compensation and the blend's default bounds.
     */
    private static CompiledModel compile(final RobotModel model, final CycleSettings settings)
    {
        final double[] g = settings.gravity();
        return CompiledModel.of(model, g[0], g[1], g[2]);
    }

    /**
     * The mixed law's own limiter has no limits: the cycle's {@link TorqueLimiter} limits every law's
     * command alike, once. The drives' robot is unified and compiled once for all of the law's
     * algorithms.
     */
    private static MixedInverseDynamicsController mixedController(final MixedLawSettings law, final CycleSettings settings)
    {
        final int dof = law.model().dof();
        final double[] unlimited = CycleSettings.filled(dof, Double.POSITIVE_INFINITY);
        final MixedInverseDynamicsController controller = new MixedInverseDynamicsController(UnifiedBodies.of(law.model()),
            law.kpQ(), law.kdQ(), law.kpTheta(), law.kdTheta(), new TorqueLimiter(unlimited, unlimited, settings.periodNs()));
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
     * @return the carried-base compensation: declare the arm carried before the loop starts, feed it
     *     each JointState's base block before {@link #tick}.
     */
    public CarriedBaseCompensation carriedBase()
    {
        return carriedBase;
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
        final int baseLost = carriedBase.supervise(timeNs);
        if (mode().drivesPowered())
        {
            final int detected = stateMonitor.check(stateTimeNs, newState, missingStates, heartbeatAgeNs, adapterFault, q, qd)
                | (newState && !motorStateFinite() ? Faults.NON_FINITE_STATE : 0) | baseLost;
            if (detected != 0)
            {
                fault(detected);
            }
        }
        stateMonitor.advance(stateTimeNs, newState, q, qd);
        observeExternalTorque(newState);
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
            if (incoming != null)
            {
                // No torque left to ramp: a change still ramping completes now.
                completeModelChange();
            }
            zeroCommand();
            return;
        }
        if ((runControlLaw() | carriedBase.compensate(law, q, qd, tauLaw)) != ControlStatus.OK)
        {
            fault(Faults.NON_FINITE_COMMAND);
            zeroCommand();
            return;
        }
        limiterFlags = limiter.limit(tauLaw, tauCommand);
        checkSaturation();
        recordTracking();
        recordAppliedTorque();
    }

    /**
     * Step 2b of a tick: the momentum observer takes the new state with the commands held since its
     * last one; with the drives off (brakes holding, zero torque) it restarts, so that it starts
     * afresh from the first powered state. A detection reacts before the reference is updated.
     */
    private void observeExternalTorque(final boolean newState)
    {
        if (observer == null)
        {
            return;
        }
        if (!mode().drivesPowered())
        {
            observer.restart();
            appliedPeriods = 0;
            Arrays.fill(appliedTorqueSum, 0.0);
            collisionArmed = true;
            return;
        }
        if (!newState || !StateMonitor.finite(q) || !StateMonitor.finite(qd))
        {
            return;
        }
        final int periods = Math.max(1, appliedPeriods);
        for (int j = 0; j < dof; j++)
        {
            appliedTorqueSum[j] /= periods;
        }
        observer.update(q, qd, appliedTorqueSum, periods);
        appliedPeriods = 0;
        Arrays.fill(appliedTorqueSum, 0.0);
        detectCollision();
    }

    /** Counts the command of this tick into the torque the observer integrates next. */
    private void recordAppliedTorque()
    {
        if (observer != null && mode().drivesPowered())
        {
            for (int j = 0; j < dof; j++)
            {
                // the base's share drives the base's motion, not the links as the observer's fixed-base model sees them
                appliedTorqueSum[j] += tauCommand[j] - carriedBase.baseTorque()[j];
            }
            appliedPeriods++;
        }
    }

    /** A joint whose estimate exceeds its threshold is a collision, once until every estimate is back below half. */
    private void detectCollision()
    {
        final double[] threshold = collisionThresholds;
        int worst = -1;
        double worstRatio = 0.0;
        boolean quiet = true;
        for (int j = 0; j < dof; j++)
        {
            final double ratio = Math.abs(externalTorque[j]) / threshold[j];
            quiet &= ratio < 0.5;
            if (ratio > 1.0 && ratio > worstRatio)
            {
                worstRatio = ratio;
                worst = j;
            }
        }
        if (!collisionArmed)
        {
            collisionArmed = quiet;
            return;
        }
        if (worst < 0 || !supervisor.operational())
        {
            return;
        }
        collisionArmed = false;
        collisionCount++;
        collisionJoint = worst;
        collisionTorque = externalTorque[worst];
        collisionTimeNs = nowNs;
        react();
    }

    /** The configured reaction to a detection: a stop with the collision fault's category, or a reflex into HOLD. */
    private void react()
    {
        if (collision.reaction() == CollisionSettings.Reaction.STOP)
        {
            fault(Faults.COLLISION);
            return;
        }
        double largest = 0.0;
        for (int j = 0; j < dof; j++)
        {
            largest = Math.max(largest, Math.abs(externalTorque[j]) / collisionThresholds[j]);
        }
        final double step = collision.reaction() == CollisionSettings.Reaction.RETRACT ? collision.retractDistance() : 0.0;
        for (int j = 0; j < dof; j++)
        {
            // A joint pushed towards +q yields towards +q: away from what pushes it.
            final double share = Double.isFinite(collisionThresholds[j]) ? externalTorque[j] / collisionThresholds[j] / largest : 0.0;
            reflexTarget[j] = q[j] + step * share;
        }
        // The blend takes the reference from where it is, moving, to the target at rest, without a step.
        startBlend(reflexTarget, zeros, zeros, true);
        System.arraycopy(reflexTarget, 0, pose, 0, dof);
        holdPose();
        transition(ControllerMode.HOLD);
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
        if (!hasState || !StateMonitor.finite(q) || !StateMonitor.finite(qd) || !motorStateFinite()
            || !carriedBase.fresh(nowNs))
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
        // so the released arm does not sag while the torque ramps up from zero (a carried arm's included).
        if ((runControlLaw() | carriedBase.compensate(law, q, qd, tauLaw)) == ControlStatus.OK)
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

    /** Control law (steps 4-5 of a tick), ramping over to a new model's laws while a model change runs. */
    private int runControlLaw()
    {
        final int status = runControlLaw(computedTorque, pdGravity, tauLaw, tauFeedforward, tauFeedforwardRate);
        if (incoming == null || law == ControlLaw.MIXED_ELASTIC || !mode().drivesPowered())
        {
            return status;
        }
        final int incomingStatus = runControlLaw(incoming.computedTorque, incoming.pdGravity, tauIncoming, feedforwardIncoming,
            feedforwardRateIncoming);
        rampTick++;
        final double s = Math.min(1.0, (double)rampTick / rampTicks);
        final double share = s * s * (3.0 - 2.0 * s);
        for (int j = 0; j < dof; j++)
        {
            tauLaw[j] += share * (tauIncoming[j] - tauLaw[j]);
            tauFeedforward[j] += share * (feedforwardIncoming[j] - tauFeedforward[j]);
            tauFeedforwardRate[j] += share * (feedforwardRateIncoming[j] - tauFeedforwardRate[j]);
        }
        if (rampTick >= rampTicks)
        {
            completeModelChange();
        }
        return status != ControlStatus.OK ? status : incomingStatus;
    }

    /** The new laws take over; the observer restarts from the next state on the new model. */
    private void completeModelChange()
    {
        computedTorque = incoming.computedTorque;
        pdGravity = incoming.pdGravity;
        carriedBase.use(incoming.carriedBase);
        if (observer != null)
        {
            observer = incoming.observer;
            observer.restart();
            externalTorque = observer.externalTorque();
            appliedPeriods = 0;
            Arrays.fill(appliedTorqueSum, 0.0);
        }
        incoming = null;
        modelChanges++;
    }

    /** Control law (steps 4-5 of a tick): RNEA and tau-dot along the reference, then feedback. */
    private int runControlLaw(final ComputedTorqueController computedTorque, final PdGravityController pdGravity,
        final double[] tauLaw, final double[] tauFeedforward, final double[] tauFeedforwardRate)
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
            return mixed.compute(q, theta, qd, thetaDot, reference, carriedBase.carried() ? carriedBase.baseMotion() : null,
                carriedBase.baseRates(), tauLaw);
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
        Arrays.fill(tauLaw, 0.0);
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

    /** @return the torques the control law asked for this tick, before the limits, N m (N); zero unless powered. */
    public double[] tauLaw()
    {
        return tauLaw;
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

    /**
     * @return the momentum observer's estimate of the external joint torques after this tick, N m
     *     (N); zero while the drives are off and for a robot with elastic joints. Real-time safe.
     */
    public double[] externalTorque()
    {
        return externalTorque;
    }

    /** @return collisions detected since construction. */
    public long collisionCount()
    {
        return collisionCount;
    }

    /** @return the joint of the last detection (the one furthest over its threshold), -1 before any. */
    public int lastCollisionJoint()
    {
        return collisionJoint;
    }

    /** @return that joint's external torque estimate at the last detection, N m (N). */
    public double lastCollisionTorque()
    {
        return collisionTorque;
    }

    /** @return controller time of the last detection, ns. */
    public long lastCollisionTimeNs()
    {
        return collisionTimeNs;
    }
}
