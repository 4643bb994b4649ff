package org.nectl.service.loop;

import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import org.nectl.config.deploy.AeronSettings;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentMode;
import org.nectl.config.deploy.HardwareSettings;
import org.nectl.config.deploy.PlannerAuthenticationSettings;
import org.nectl.config.deploy.TelemetrySettings;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.MixedLawSettings;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.PlannerAuthentication;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.SetupException;
import org.nectl.transport.TelemetryConfig;

/**
 * Everything a {@link ControllerService} needs, resolved and validated. Immutable.
 *
 * @param model the controlled robot.
 * @param cycle control-cycle settings (period, gains, supervision).
 * @param mode realtime or lockstep.
 * @param loopThread CPU and SCHED_FIFO priority of the control loop thread.
 * @param aeron media driver (embedded or external).
 * @param link hardware link channel and streams.
 * @param planner planner gateway UDP settings.
 * @param telemetry telemetry publication settings.
 * @param law the control law selected at start (planners may switch it when enabling).
 * @param safety stop categories per fault and the supervisor's reflex limits.
 * @param mixedLaw the robot with its drives and the gains of the mixed rigid/elastic law (available
 *     only if the robot has elastic joints).
 * @param lockstepLivenessNs lockstep only: wall time without a JointState after which the simulator
 *     counts as dead (STATE_MISSING), ns; supervision otherwise runs on simulated time.
 * @param referenceBlend how the position step of a streamed setpoint or a new trajectory decays.
 * @param collision the momentum observer's tuning, the collision thresholds and the reaction.
 * @param carriedBase whether the arm's base is carried: JointStates carry the base's motion, which
 *     the feedforward and the momentum observer take in (docs/CONTROL.md, "Carried base"), and how
 *     old it may grow before the supervisor stops the arm (fault base_motion_lost).
 * @param closedLoop a closed-loop robot (or a Gough-Stewart platform as its closed chain) whose
 *     active joints {@code model} holds, controlled on its projected dynamics; null for a tree.
 */
public record ServiceSettings(
    RobotModel model,
    CycleSettings cycle,
    LoopMode mode,
    ThreadPlacement loopThread,
    AeronConfig aeron,
    LinkConfig link,
    PlannerGatewayConfig planner,
    TelemetryConfig telemetry,
    ControlLaw law,
    SafetySettings safety,
    MixedLawSettings mixedLaw,
    long lockstepLivenessNs,
    ReferenceBlend.Settings referenceBlend,
    CollisionSettings collision,
    CarriedBaseSettings carriedBase,
    ClosedLoopModel closedLoop)
{
    /** Default {@link #lockstepLivenessNs}: 2 s, far beyond a simulator descheduled on a loaded host. */
    public static final long DEFAULT_LOCKSTEP_LIVENESS_NS = 2_000_000_000L;

    /** Planner id that {@link #defaults} generates a key for. */
    public static final long DEFAULT_PLANNER_ID = 1;
    /** Largest default kd T / M_jj: below 0.618, the bound with a state two periods old. */
    static final double MAX_DAMPING_RATIO = 0.45;
    private static final int DAMPING_POSES = 500;
    private static final long DAMPING_POSE_SEED = 20_261_125L;

    /** Validates the lockstep liveness timeout. */
    public ServiceSettings
    {
        if (lockstepLivenessNs <= 0)
        {
            throw new IllegalArgumentException("lockstep liveness timeout must be positive, got " + lockstepLivenessNs + " ns");
        }
    }

    /**
     * As the canonical constructor, for a carried (true) or fixed (false) base whose motion may grow
     * {@value CarriedBaseSettings#DEFAULT_MAX_AGE_PERIODS} periods old.
     */
    public ServiceSettings(final RobotModel model, final CycleSettings cycle, final LoopMode mode, final ThreadPlacement loopThread,
        final AeronConfig aeron, final LinkConfig link, final PlannerGatewayConfig planner, final TelemetryConfig telemetry,
        final ControlLaw law, final SafetySettings safety, final MixedLawSettings mixedLaw, final long lockstepLivenessNs,
        final ReferenceBlend.Settings referenceBlend, final CollisionSettings collision, final boolean carriedBase,
        final ClosedLoopModel closedLoop)
    {
        this(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law, safety, mixedLaw, lockstepLivenessNs,
            referenceBlend, collision, CarriedBaseSettings.defaults(carriedBase, cycle.periodNs()), closedLoop);
    }

    /**
     * Settings for a fixed base.
     *
     * @param model the controlled robot.
     * @param cycle control-cycle settings.
     * @param mode realtime or lockstep.
     * @param loopThread CPU and SCHED_FIFO priority of the control loop thread.
     * @param aeron media driver.
     * @param link hardware link channel and streams.
     * @param planner planner gateway UDP settings.
     * @param telemetry telemetry publication settings.
     * @param law the control law selected at start.
     * @param safety stop categories per fault and the supervisor's reflex limits.
     * @param mixedLaw the robot with its drives and the gains of the mixed rigid/elastic law.
     * @param lockstepLivenessNs lockstep only: wall time without a JointState before STATE_MISSING, ns.
     * @param referenceBlend how the position step of a streamed setpoint or a new trajectory decays.
     * @param collision the momentum observer's tuning, the collision thresholds and the reaction.
     */
    public ServiceSettings(final RobotModel model, final CycleSettings cycle, final LoopMode mode, final ThreadPlacement loopThread,
        final AeronConfig aeron, final LinkConfig link, final PlannerGatewayConfig planner, final TelemetryConfig telemetry,
        final ControlLaw law, final SafetySettings safety, final MixedLawSettings mixedLaw, final long lockstepLivenessNs,
        final ReferenceBlend.Settings referenceBlend, final CollisionSettings collision)
    {
        this(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law, safety, mixedLaw, lockstepLivenessNs,
            referenceBlend, collision, CarriedBaseSettings.defaults(false, cycle.periodNs()), null);
    }

    /**
     * Settings with the default collision settings (the observer on, nothing monitored).
     *
     * @param model the controlled robot.
     * @param cycle control-cycle settings.
     * @param mode realtime or lockstep.
     * @param loopThread CPU and SCHED_FIFO priority of the control loop thread.
     * @param aeron media driver.
     * @param link hardware link channel and streams.
     * @param planner planner gateway UDP settings.
     * @param telemetry telemetry publication settings.
     * @param law the control law selected at start.
     * @param safety stop categories per fault and the supervisor's reflex limits.
     * @param mixedLaw the robot with its drives and the gains of the mixed rigid/elastic law.
     * @param lockstepLivenessNs lockstep only: wall time without a JointState before STATE_MISSING, ns.
     * @param referenceBlend how the position step of a streamed setpoint or a new trajectory decays.
     */
    public ServiceSettings(final RobotModel model, final CycleSettings cycle, final LoopMode mode, final ThreadPlacement loopThread,
        final AeronConfig aeron, final LinkConfig link, final PlannerGatewayConfig planner, final TelemetryConfig telemetry,
        final ControlLaw law, final SafetySettings safety, final MixedLawSettings mixedLaw, final long lockstepLivenessNs,
        final ReferenceBlend.Settings referenceBlend)
    {
        this(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law, safety, mixedLaw, lockstepLivenessNs,
            referenceBlend, CollisionSettings.defaults(model.dof()), CarriedBaseSettings.defaults(false, cycle.periodNs()), null);
    }

    /**
     * Settings with the default lockstep liveness timeout.
     *
     * @param model the controlled robot.
     * @param cycle control-cycle settings.
     * @param mode realtime or lockstep.
     * @param loopThread CPU and SCHED_FIFO priority of the control loop thread.
     * @param aeron media driver.
     * @param link hardware link channel and streams.
     * @param planner planner gateway UDP settings.
     * @param telemetry telemetry publication settings.
     * @param law the control law selected at start.
     * @param safety stop categories per fault and the supervisor's reflex limits.
     * @param mixedLaw the robot with its drives and the gains of the mixed rigid/elastic law.
     */
    public ServiceSettings(final RobotModel model, final CycleSettings cycle, final LoopMode mode, final ThreadPlacement loopThread,
        final AeronConfig aeron, final LinkConfig link, final PlannerGatewayConfig planner, final TelemetryConfig telemetry,
        final ControlLaw law, final SafetySettings safety, final MixedLawSettings mixedLaw)
    {
        this(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law, safety,
            mixedLaw, DEFAULT_LOCKSTEP_LIVENESS_NS, ReferenceBlend.Settings.defaults(CompiledModel.of(model), cycle.periodNs()));
    }

    /**
     * Settings for a rigid robot: the mixed rigid/elastic law is not available.
     *
     * @param model the controlled robot.
     * @param cycle control-cycle settings.
     * @param mode realtime or lockstep.
     * @param loopThread CPU and SCHED_FIFO priority of the control loop thread.
     * @param aeron media driver.
     * @param link hardware link channel and streams.
     * @param planner planner gateway UDP settings.
     * @param telemetry telemetry publication settings.
     * @param law the control law selected at start.
     * @param safety stop categories per fault and the supervisor's reflex limits.
     */
    public ServiceSettings(final RobotModel model, final CycleSettings cycle, final LoopMode mode, final ThreadPlacement loopThread,
        final AeronConfig aeron, final LinkConfig link, final PlannerGatewayConfig planner, final TelemetryConfig telemetry,
        final ControlLaw law, final SafetySettings safety)
    {
        this(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law, safety,
            MixedLawSettings.defaults(ElasticRobotModel.rigid(model)));
    }

    /**
     * Builds the control cycle these settings describe, with its law selected. Not real-time safe.
     *
     * @return the cycle.
     * @throws IllegalArgumentException if the law needs elastic joints the robot does not have.
     */
    public ControlCycle controlCycle()
    {
        final ControlCycle cycle = new ControlCycle(model, this.cycle, safety, ReferenceTimeScaling.Settings.defaults(), mixedLaw,
            referenceBlend, collision, closedLoop);
        cycle.carriedBase().settings(carriedBase);
        if (cycle.selectLaw(law) != ControlCycle.ACCEPTED)
        {
            throw new IllegalArgumentException("control law " + law + " needs a robot with elastic joints; "
                + model.name() + " has none");
        }
        return cycle;
    }

    /**
     * Defaults around a model: realtime at the given period, embedded driver in a fresh directory,
     * IPC hardware link and telemetry, planner gateway on the given address accepting loopback
     * planners with a fresh random key for planner {@value #DEFAULT_PLANNER_ID}, which only this
     * process knows ({@code planner().authentication().keys()}): for planners in the same process.
     *
     * @param model the robot.
     * @param periodNs control period, ns.
     * @param plannerAddress UDP address of the planner gateway.
     * @return the settings.
     */
    public static ServiceSettings defaults(final RobotModel model, final long periodNs, final InetSocketAddress plannerAddress)
    {
        return new ServiceSettings(
            model,
            sampledDampingDefaults(model, periodNs),
            LoopMode.REALTIME,
            ThreadPlacement.NONE,
            AeronConfig.embeddedDefaults(),
            LinkConfig.ipcDefaults(),
            PlannerGatewayConfig.defaults(plannerAddress,
                PlannerAuthentication.loopback(PlannerKeys.generate(new SecureRandom(), DEFAULT_PLANNER_ID))),
            TelemetryConfig.ipcDefaults(),
            ControlLaw.COMPUTED_TORQUE,
            SafetySettings.defaults(model.dof()));
    }

    /**
     * {@link CycleSettings#defaults} with each joint's PD damping capped so that the sampled
     * velocity loop stays stable with a state two periods old: kd T / M_jj below 0.5 against the
     * bound 0.618 (docs/DEPLOYMENT.md, "The shipped Panda gains"), M_jj taken at its smallest over
     * seeded random poses within the joint limits. The flat default damping of 10 N m s/rad gives
     * 2.04 on the Panda's wrist. Not real-time safe.
     */
    static CycleSettings sampledDampingDefaults(final RobotModel model, final long periodNs)
    {
        final CycleSettings defaults = CycleSettings.defaults(model.dof(), periodNs);
        final int n = model.dof();
        final double[] smallest = new double[n];
        Arrays.fill(smallest, Double.POSITIVE_INFINITY);
        final MassMatrix massMatrix = new MassMatrix(CompiledModel.of(model));
        final double[] m = new double[n * n];
        final double[] q = new double[n];
        final SplittableRandom random = new SplittableRandom(DAMPING_POSE_SEED);
        for (int pose = 0; pose < DAMPING_POSES; pose++)
        {
            for (int j = 0; j < n; j++)
            {
                final double low = Math.max(model.limits(j).positionMin(), -Math.PI);
                final double high = Math.min(model.limits(j).positionMax(), Math.PI);
                q[j] = low + (high - low) * random.nextDouble();
            }
            massMatrix.compute(q, m);
            for (int j = 0; j < n; j++)
            {
                smallest[j] = Math.min(smallest[j], m[j * n + j]);
            }
        }
        final double periodS = periodNs * 1e-9;
        final double[] pdKd = defaults.pdKd().clone();
        for (int j = 0; j < n; j++)
        {
            pdKd[j] = Math.min(pdKd[j], MAX_DAMPING_RATIO * smallest[j] / periodS);
        }
        return new CycleSettings(periodNs, defaults.kp(), defaults.kd(), defaults.pdKp(), pdKd, defaults.gravity(),
            defaults.heartbeatTimeoutNs(), defaults.maxMissingStates(), defaults.commandTimeoutNs(), defaults.positionMargin(),
            defaults.maxSaturatedTicks(), defaults.frictionFeedforward());
    }

    /**
     * Resolves a validated deployment configuration into service settings.
     *
     * @param config the loaded deployment file.
     * @return the settings.
     * @throws SetupException if the planner key file is refused or the gateway's host does not resolve.
     */
    public static ServiceSettings from(final DeploymentConfig config)
    {
        final AeronSettings aeronSettings = config.aeron();
        final AeronConfig driverPlace;
        if (aeronSettings.embeddedDriver())
        {
            final AeronConfig defaults = AeronConfig.embeddedDefaults();
            // Aeron's standard directory by default, so `nectl sim` and `nectl monitor` find the driver unasked.
            driverPlace = new AeronConfig(true, aeronSettings.directory().orElse(io.aeron.CommonContext.getAeronDirectoryName()),
                defaults.threadingMode(), defaults.driverIdleStrategy());
        }
        else
        {
            driverPlace = AeronConfig.external(aeronSettings.directory().orElse(io.aeron.CommonContext.getAeronDirectoryName()));
        }
        final AeronConfig aeronConfig = driverPlace.withDriverTimeoutMs(aeronSettings.driverTimeoutMs());
        final HardwareSettings hardware = config.hardware();
        final TelemetrySettings telemetrySettings = config.telemetry();
        final TelemetryConfig telemetryDefaults = TelemetryConfig.ipcDefaults();
        return new ServiceSettings(
            config.model(),
            config.cycleSettings(),
            config.mode() == DeploymentMode.LOCKSTEP ? LoopMode.LOCKSTEP : LoopMode.REALTIME,
            new ThreadPlacement(config.core().orElse(-1), config.realtimePriority().orElse(0)),
            aeronConfig,
            new LinkConfig(hardware.channel(), hardware.jointStateStreamId(), hardware.motorCommandStreamId(), hardware.heartbeatStreamId()),
            PlannerGatewayConfig.defaults(plannerAddress(config), authentication(config.plannerAuthentication())),
            new TelemetryConfig(telemetrySettings.channel(), telemetrySettings.streamId(), telemetrySettings.decimation(),
                telemetryDefaults.ringCapacityBytes()),
            config.law(),
            config.safetySettings(),
            config.mixedLaw(),
            config.lockstepLivenessNs(),
            config.referenceBlend(),
            config.collisionSettings(),
            config.base(),

            config.closedLoop().orElse(null));
    }

    /** The gateway's address, its host resolved now so that a name that does not resolve is refused before anything starts. */
    private static InetSocketAddress plannerAddress(final DeploymentConfig config)
    {
        final InetSocketAddress address = new InetSocketAddress(config.planner().host(), config.planner().port());
        if (address.isUnresolved())
        {
            throw new SetupException(config.file() + ": planner.bind: host '" + config.planner().host()
                + "' does not resolve to an address");
        }
        return address;
    }

    /** Reads the key file (if any) into the gateway's authentication; no key file: no planner is accepted. */
    private static PlannerAuthentication authentication(final PlannerAuthenticationSettings settings)
    {
        final PlannerKeys keys = settings.keyFile().map(PlannerKeys::read).orElse(PlannerKeys.none());
        return new PlannerAuthentication(keys, settings.allowedSources(), TimeUnit.MILLISECONDS.toNanos(settings.timeWindowMs()));
    }

    /** @return a copy whose gateway authenticates with {@code authentication}. */
    public ServiceSettings withPlannerAuthentication(final PlannerAuthentication authentication)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner.withAuthentication(authentication), telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy whose arm is carried (true) or on a fixed base (false), with the default maximum age of its motion. */
    public ServiceSettings withCarriedBase(final boolean carried)
    {
        return withCarriedBase(CarriedBaseSettings.defaults(carried, cycle.periodNs()));
    }

    /** @return a copy with these carried-base settings. */
    public ServiceSettings withCarriedBase(final CarriedBaseSettings carried)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carried, closedLoop);
    }

    /** @return a copy in the given loop mode. */
    public ServiceSettings withMode(final LoopMode loopMode)
    {
        return new ServiceSettings(model, cycle, loopMode, loopThread, aeron, link, planner, telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy whose control loop thread is placed as given. */
    public ServiceSettings withLoopThread(final ThreadPlacement placement)
    {
        return new ServiceSettings(model, cycle, mode, placement, aeron, link, planner, telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy with other cycle settings. */
    public ServiceSettings withCycle(final CycleSettings cycleSettings)
    {
        return new ServiceSettings(model, cycleSettings, mode, loopThread, aeron, link, planner, telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy whose robot has these drives and mixed-law gains (the same links). */
    public ServiceSettings withMixedLaw(final MixedLawSettings settings)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law,
            safety, settings, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy whose lockstep loop declares the simulator dead after this long without a state, ns. */
    public ServiceSettings withLockstepLiveness(final long livenessNs)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law,
            safety, mixedLaw, livenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }

    /** @return a copy with other collision settings. */
    public ServiceSettings withCollision(final CollisionSettings collisionSettings)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law,
            safety, mixedLaw, lockstepLivenessNs, referenceBlend, collisionSettings, carriedBase, closedLoop);
    }

    /** @return a copy with other safety settings. */
    public ServiceSettings withSafety(final SafetySettings safetySettings)
    {
        return new ServiceSettings(model, cycle, mode, loopThread, aeron, link, planner, telemetry, law,
            safetySettings, mixedLaw, lockstepLivenessNs, referenceBlend, collision, carriedBase, closedLoop);
    }
}
