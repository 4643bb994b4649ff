package org.nectl.config.deploy;

import java.nio.file.Path;
import java.util.Optional;
import java.util.OptionalInt;

import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.MixedLawSettings;
import org.nectl.core.runtime.SafetySettings;

/**
 * A validated deployment of the controller service: the robot, how the loop is clocked, the
 * control law with its gains and supervision, the stop categories, and the transport's channels
 * (docs/DEPLOYMENT.md).
 * Read with {@link DeploymentConfigs#load}. Immutable; thread safe.
 */
public final class DeploymentConfig
{
    private final Path file;
    private final Path modelFile;
    private final RobotModel model;
    private final DeploymentMode mode;
    private final OptionalInt core;
    private final OptionalInt realtimePriority;
    private final ControlLaw law;
    private final CycleSettings cycle;
    private final SafetySettings safety;
    private final AeronSettings aeron;
    private final PlannerEndpoint planner;
    private final PlannerAuthenticationSettings plannerAuthentication;
    private final TelemetrySettings telemetry;
    private final HardwareSettings hardware;
    private final MixedLawSettings mixedLaw;
    private final long lockstepLivenessNs;
    private final ReferenceBlend.Settings referenceBlend;
    private final CollisionSettings collision;
    private final RecordingSettings recording;
    private final CarriedBaseSettings base;
    private final ClosedLoopModel closedLoop;

    DeploymentConfig(
        final Path file, final Path modelFile, final RobotModel model, final DeploymentMode mode, final OptionalInt core,
        final OptionalInt realtimePriority,
        final ControlLaw law, final CycleSettings cycle, final SafetySettings safety, final AeronSettings aeron,
        final PlannerEndpoint planner, final PlannerAuthenticationSettings plannerAuthentication,
        final TelemetrySettings telemetry, final HardwareSettings hardware, final MixedLawSettings mixedLaw,
        final long lockstepLivenessNs, final ReferenceBlend.Settings referenceBlend, final CollisionSettings collision,
        final RecordingSettings recording, final CarriedBaseSettings base,
        final ClosedLoopModel closedLoop)
    {
        this.recording = recording;
        this.base = base;
        this.closedLoop = closedLoop;
        this.file = file;
        this.modelFile = modelFile;
        this.model = model;
        this.mode = mode;
        this.core = core;
        this.realtimePriority = realtimePriority;
        this.law = law;
        this.cycle = copy(cycle);
        this.safety = safety;
        this.aeron = aeron;
        this.planner = planner;
        this.plannerAuthentication = plannerAuthentication;
        this.telemetry = telemetry;
        this.hardware = hardware;
        this.mixedLaw = mixedLaw;
        this.lockstepLivenessNs = lockstepLivenessNs;
        this.referenceBlend = referenceBlend;
        this.collision = collision;
    }

    /** @return the deployment file this was read from. */
    public Path file()
    {
        return file;
    }

    /** @return the robot description file, resolved against the deployment file's directory. */
    public Path modelFile()
    {
        return modelFile;
    }

    /**
     * @return the closed-loop robot (or the Gough-Stewart platform as its closed chain) read from
     *     {@link #modelFile()}, whose active joints {@link #model()} then holds; empty for a tree.
     */
    public Optional<ClosedLoopModel> closedLoop()
    {
        return Optional.ofNullable(closedLoop);
    }

    /** @return the robot model read from {@link #modelFile()}: the controlled joints. */
    public RobotModel model()
    {
        return model;
    }

    /**
     * @return true if the arm's base is carried (section {@code base}): the controller takes the base's
     *     measured motion from each JointState into its feedforward and its observer (docs/CONTROL.md).
     */
    public boolean carriedBase()
    {
        return base.carried();
    }

    /** @return whether the arm's base is carried and how old its measured motion may grow (section {@code base}). */
    public CarriedBaseSettings base()
    {
        return base;
    }

    /** @return how the loop is clocked. */
    public DeploymentMode mode()
    {
        return mode;
    }

    /** @return the control period, ns. */
    public long periodNs()
    {
        return cycle.periodNs();
    }

    /** @return the CPU to pin the control loop to, if configured. */
    public OptionalInt core()
    {
        return core;
    }

    /** @return the SCHED_FIFO priority of the control loop thread, if configured. */
    public OptionalInt realtimePriority()
    {
        return realtimePriority;
    }

    /** @return the control law used when the drives are enabled. */
    public ControlLaw law()
    {
        return law;
    }

    /** @return the control cycle's gains, gravity and supervision limits; a fresh copy on every call. */
    public CycleSettings cycleSettings()
    {
        return copy(cycle);
    }

    /** @return the stop categories per fault and the supervisor's reflex limits (immutable). */
    public SafetySettings safetySettings()
    {
        return safety;
    }

    /** @return the media driver settings. */
    public AeronSettings aeron()
    {
        return aeron;
    }

    /** @return the planner gateway's UDP bind address. */
    public PlannerEndpoint planner()
    {
        return planner;
    }

    /** @return the planner key file, allowed source addresses and time window. */
    public PlannerAuthenticationSettings plannerAuthentication()
    {
        return plannerAuthentication;
    }

    /** @return the telemetry channel, stream and decimation. */
    public TelemetrySettings telemetry()
    {
        return telemetry;
    }

    /** @return the hardware link's channel and streams. */
    public HardwareSettings hardware()
    {
        return hardware;
    }

    /** @return the robot with its drives and the gains of the mixed rigid/elastic law. */
    public MixedLawSettings mixedLaw()
    {
        return mixedLaw;
    }

    /**
     * @return lockstep only: wall time without a JointState after which the simulator counts as dead
     *     ({@code supervision.lockstep_liveness_ms}), ns.
     */
    public long lockstepLivenessNs()
    {
        return lockstepLivenessNs;
    }

    /** @return how the position step of a streamed setpoint or a new trajectory decays (arrays not copied). */
    public ReferenceBlend.Settings referenceBlend()
    {
        return referenceBlend;
    }

    /** @return the flight recorder's settings; disabled unless the file has a {@code recording} section. */
    public RecordingSettings recording()
    {
        return recording;
    }

    private static CycleSettings copy(final CycleSettings s)
    {
        return new CycleSettings(s.periodNs(), s.kp().clone(), s.kd().clone(), s.pdKp().clone(), s.pdKd().clone(),
            s.gravity().clone(), s.heartbeatTimeoutNs(), s.maxMissingStates(), s.commandTimeoutNs(), s.positionMargin(),
            s.maxSaturatedTicks(), s.frictionFeedforward());
    }

    /** @return the momentum observer's tuning, the collision thresholds and the reaction (section {@code collision}). */
    public CollisionSettings collisionSettings()
    {
        return collision;
    }
}
