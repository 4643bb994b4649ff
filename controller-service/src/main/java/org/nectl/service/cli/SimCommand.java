package org.nectl.service.cli;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.aeron.CommonContext;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.config.ClosedChains;
import org.nectl.config.DescriptionException;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.identification.Payloads;
import org.nectl.core.mobile.BaseMotionProfiles;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.RobotModel;
import org.nectl.hw.AdapterSettings;
import org.nectl.hw.AdapterWatchdog;
import org.nectl.hw.AppliedWrench;
import org.nectl.hw.FaultKind;
import org.nectl.hw.InjectedFault;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulatedArmWarmUp;
import org.nectl.hw.SimulationMode;
import org.nectl.hw.mujoco.MujocoPlant;
import org.nectl.hw.mujoco.MujocoScene;
import org.nectl.service.loop.ThreadPinning;
import org.nectl.service.loop.ThreadPlacement;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.IdleStrategyKind;
import org.nectl.transport.LinkConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl sim}: the simulated arm as its own process, a hardware adapter connected to the
 * service's media driver (docs/ADAPTERS.md). Runs until SIGINT or SIGTERM (then closes the adapter
 * and its links, and the JVM exits with the signal's status), until a CRASH fault halts it with
 * exit status {@value #CRASH_EXIT_STATUS}, or until its Aeron client loses the media driver: the
 * adapter then unpowers and brakes the drives, and the process reports the loss and the drives'
 * state with their times and exits with status {@value #DRIVER_LOST_EXIT_STATUS}. Not real-time safe
 * (set-up); the adapter thread it starts is.
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    description = {
        "Runs the simulated arm: a hardware adapter publishing JointState and AdapterHeartbeat and",
        "applying MotorCommand over Aeron IPC, against the media driver of a running service.",
        "Stops cleanly on SIGINT/SIGTERM. Exit status: 1 no media driver, 2 bad description or option,",
        "3 media driver lost while running (drives unpowered and braked), 70 halted by an injected crash fault."
    })
final class SimCommand implements Callable<Integer>
{
    /** Exit status of a process halted by an injected CRASH fault. */
    static final int CRASH_EXIT_STATUS = 70;
    /** Exit status of a process whose Aeron client lost the media driver. */
    static final int DRIVER_LOST_EXIT_STATUS = 3;
    /** Longest wait for the adapter thread to see its link closed after the client reported the loss, ms. */
    private static final long LINK_RELEASE_WAIT_MS = 1_000L;
    /** The physics of a closed-loop robot, as the start line names it. */
    private static final String CLOSED_CHAIN_PHYSICS = "closed-chain direct dynamics A_c qdd_a = Gamma_c - H_c, RK4, "
        + "passive joints re-solved by Newton at every stage";
    /** How often the main thread looks for watchdog stops to print, ms. */
    private static final long WATCH_INTERVAL_MS = 5L;

    @Option(names = "--model", paramLabel = "FILE", defaultValue = "config/robots/panda.yaml",
        description = "Robot description (.yaml, .urdf); default ${DEFAULT-VALUE}.")
    private Path modelFile;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "realtime",
        description = "realtime (wall clock, JointState every period) or lockstep (one period per command); "
            + "default ${DEFAULT-VALUE}.")
    private String mode;

    @Option(names = "--period-us", paramLabel = "US", defaultValue = "1000", description = "Control period, us; default ${DEFAULT-VALUE}.")
    private long periodUs;

    @Option(names = "--substeps", paramLabel = "N", defaultValue = "4",
        description = "Runge-Kutta 4 substeps per period; default ${DEFAULT-VALUE}.")
    private int substeps;

    @Option(names = "--aeron-dir", paramLabel = "DIR",
        description = "Media driver directory of the running service; default Aeron's (-Daeron.dir, else /dev/shm/aeron-USER).")
    private String aeronDirectory;

    @Option(names = "--noise", paramLabel = "RAD", defaultValue = "0",
        description = "Encoder position noise, standard deviation, rad (m for prismatic joints); default ${DEFAULT-VALUE}.")
    private double positionNoise;

    @Option(names = "--velocity-noise", paramLabel = "RAD_S", defaultValue = "0",
        description = "Velocity noise, standard deviation, rad/s (m/s); default ${DEFAULT-VALUE}.")
    private double velocityNoise;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Noise seed; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--quantisation", paramLabel = "COUNTS", defaultValue = "0",
        description = "Encoder counts per revolution (per metre for prismatic joints), 0 for exact; default ${DEFAULT-VALUE}.")
    private double countsPerRevolution;

    @Option(names = "--latency-periods", paramLabel = "N", defaultValue = "0",
        description = "Periods between a command's arrival and its effect at the drives; default ${DEFAULT-VALUE}.")
    private int latencyPeriods;

    @Option(names = "--fault", paramLabel = "KIND@S[:JOINT[:JUMP]]",
        description = "Inject a fault at simulated time S seconds (repeatable): stall@2, crash@1.5, nan@0.5:3, jump@0.5:2:0.1, "
            + "imu_loss@2 (no base block from then on, with --base-motion).")
    private List<String> faults = new ArrayList<>();

    @Option(names = "--external-wrench", paramLabel = "LINK,FX,FY,FZ,MX,MY,MZ@T0-T1",
        description = "Apply a wrench on a link from simulated time T0 to T1 s (repeatable; rigid robots): force N, moment "
            + "N m about the link frame's origin, both in the link frame, e.g. panda_link7,0,0,-20,0,0,0@1-1.5.")
    private List<String> externalWrenches = new ArrayList<>();

    @Option(names = "--base-motion", paramLabel = "PROFILE",
        description = "Move the arm's base (engine nectl, tree robots, rigid or with elastic joints) and publish its motion in each JointState's base block "
            + "(docs/ADAPTERS.md): a ship's deck, ship:roll=10deg@0.2Hz,pitch=3deg@0.15Hz,heave=0.5m@0.1Hz (any of the three), or a "
            + "platform driving back and forth, platform:accel=1.5m/s2,brake=3m/s2,speed=1m/s,hold=2s,jerk=20m/s3 (jerk optional: steps without).")
    private String baseMotion;

    @Option(names = "--imu-noise", paramLabel = "ACC_MPS2,GYRO_RADPS",
        description = "With --base-motion: white noise of the base's IMU, standard deviations per axis and sample of the specific "
            + "force (m/s^2, at most 1) and the angular velocity (rad/s, at most 0.1), seeded by --seed; the angular acceleration "
            + "gets the noise of the gyro's backward difference. Default: an ideal IMU. E.g. 0.01,0.001.")
    private String imuNoise;

    @Option(names = "--payload", paramLabel = "LINK,KG,CX,CY,CZ",
        description = "The simulated arm carries a point mass of KG at (CX, CY, CZ) m in LINK's frame that the controller's "
            + "model does not know (engine nectl, rigid robots), e.g. flange,1.5,0.05,0,0; set it in the controller with "
            + "nectl plan --set-payload.")
    private String payload;

    @Option(names = "--initial-q", paramLabel = "Q", split = ",",
        description = "Initial joint positions, comma separated, rad or m, coordinate order; default all 0.")
    private double[] initialQ;

    @Option(names = "--watchdog-ms", paramLabel = "MS", defaultValue = "20",
        description = "Adapter watchdog: no MotorCommand for this long drives the motors to zero torque; default ${DEFAULT-VALUE}.")
    private double watchdogMs;

    @Option(names = "--brake-after-ms", paramLabel = "MS", defaultValue = "100",
        description = "Adapter watchdog: no MotorCommand for this long (at least --watchdog-ms) unpowers the drives and "
            + "engages the brakes, until the next command; default ${DEFAULT-VALUE}.")
    private double brakeAfterMs;

    @Option(names = "--heartbeat-ms", paramLabel = "MS", defaultValue = "10",
        description = "AdapterHeartbeat period; default ${DEFAULT-VALUE}.")
    private double heartbeatMs;

    @Option(names = "--adapter-id", paramLabel = "ID", defaultValue = "1", description = "Adapter id in heartbeats; default ${DEFAULT-VALUE}.")
    private long adapterId;

    @Option(names = "--driver-timeout-ms", paramLabel = "MS", defaultValue = "10000",
        description = "Aeron client driver timeout: a media driver silent for this long is lost (2000..60000); "
            + "default ${DEFAULT-VALUE}.")
    private long driverTimeoutMs;

    @Option(names = "--idle", paramLabel = "KIND", defaultValue = "YIELDING",
        description = "How the adapter thread waits: ${COMPLETION-CANDIDATES}; default ${DEFAULT-VALUE}.")
    private IdleStrategyKind idle;

    // No real-time priority option: with the control loop owning one of two CPUs, a SCHED_FIFO
    // simulator on the other starved the embedded media driver past its 10 s keepalive, with or
    // without a warm-up of its physics first. Give the process a high time-sharing weight instead
    // (nice -n -20) and a quiet host.
    @Option(names = "--free-running",
        description = "Realtime: keep a period schedule of its own instead of locking it to the controller's ticks "
            + "(by default each period ends half a period after a tick starts, as drives on a distributed-clock bus do).")
    private boolean freeRunning;

    @Option(names = "--warmup-periods", paramLabel = "N", defaultValue = "" + SimulatedArmWarmUp.DEFAULT_PERIODS,
        description = "Powered periods a throwaway copy of the arm is stepped before the link opens, so the physics is "
            + "compiled before the controller's ENABLE; 0 for none; default ${DEFAULT-VALUE}.")
    private int warmupPeriods;

    @Option(names = "--core", paramLabel = "CPU", defaultValue = "-1", description = "CPU to pin the adapter thread to; default none.")
    private int core;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "nectl",
        description = "Physics of the arm: nectl (nectl's own forward dynamics) or mujoco (MuJoCo, the robot loaded by its URDF "
            + "importer, RK4 at period/substeps, contacts with --scene); default ${DEFAULT-VALUE}.")
    private String engine;

    @Option(names = "--scene", paramLabel = "FILE",
        description = "With --engine mujoco: obstacles, collision shapes on links and an external wrench profile (YAML).")
    private Path sceneFile;

    @Override
    public Integer call()
    {
        final RobotModel model;
        final SimulatedArm arm;
        final AdapterSettings settings;
        final SimulationMode simulationMode;
        final ThreadPlacement placement;
        final String physics;
        try
        {
            // A closed-loop robot (or a Gough-Stewart platform) is simulated in its active joints (leg lengths).
            final ClosedLoopModel closedLoop = ClosedChains.isClosedChain(modelFile) ? closedChain() : null;
            final ElasticRobotModel robot = closedLoop != null ? ElasticRobotModel.rigid(ActiveJoints.of(closedLoop))
                : withPayload(ElasticDescriptions.load(modelFile));
            model = robot.links();
            if (model.floatingBase())
            {
                throw new IllegalArgumentException(modelFile + ": '" + model.name() + "' has a floating base; nectl sim "
                    + "simulates fixed and carried bases (--base-motion moves a fixed-base arm's base)");
            }
            simulationMode = mode();
            final SimulatedArmConfig config = armConfig(model);
            if (closedLoop != null && initialQ == null)
            {
                config.initialQ(closedLoop.homeActive());
            }
            final boolean mujoco = mujocoEngine();
            if (sceneFile != null && !mujoco)
            {
                throw new IllegalArgumentException("--scene needs --engine mujoco (nectl's own physics has no contacts)");
            }
            if (mujoco && robot.elasticCount() > 0)
            {
                throw new IllegalArgumentException("--engine mujoco simulates rigid joints only; " + modelFile + " has "
                    + robot.elasticCount() + " elastic joints (use --engine nectl)");
            }
            if (mujoco && !externalWrenches.isEmpty())
            {
                throw new IllegalArgumentException(SimulatedArm.MUJOCO_WRENCH_REFUSAL);
            }
            final MujocoScene scene = sceneFile != null ? MujocoScene.load(sceneFile) : MujocoScene.EMPTY;
            final MujocoPlant plant = mujoco ? MujocoPlant.open(modelFile, model, scene) : null;
            // A rigid tree on nectl's physics: one compiled robot for the live arm and its warm-up copy.
            final double[] g = config.gravity();
            final CompiledModel rigid = closedLoop == null && !mujoco && robot.elasticCount() == 0
                ? CompiledModel.of(model, g[0], g[1], g[2]) : null;
            arm = closedLoop != null ? new SimulatedArm(closedLoop, config)
                : mujoco ? new SimulatedArm(model, config, plant)
                : rigid != null ? new SimulatedArm(rigid, config)
                : new SimulatedArm(robot, config);
            physics = closedLoop != null ? CLOSED_CHAIN_PHYSICS : mujoco ? describeMujoco(scene, plant) : "nectl's forward dynamics, RK4";
            if (brakeAfterMs < watchdogMs)
            {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "--brake-after-ms %s must be at least "
                    + "--watchdog-ms %s: the drives zero the torque first, then brake", brakeAfterMs, watchdogMs));
            }
            final AdapterSettings free = new AdapterSettings(adapterId, Math.round(watchdogMs * 1e6), Math.round(heartbeatMs * 1e6),
                AdapterSettings.FREE_RUNNING, Math.round(brakeAfterMs * 1e6));
            settings = freeRunning || simulationMode != SimulationMode.REALTIME ? free : free.synchronisedAt(periodUs * 1_000L / 2);
            placement = new ThreadPlacement(core, 0);
            ThreadPinning.refusal(placement, "--core", "--priority").ifPresent(reason ->
            {
                throw new IllegalArgumentException(reason);
            });
            if (warmupPeriods < 0)
            {
                throw new IllegalArgumentException("--warmup-periods must be 0 or more, got " + warmupPeriods);
            }
            if (warmupPeriods > 0)
            {
                final long startNs = System.nanoTime();
                final boolean finite = closedLoop != null ? SimulatedArmWarmUp.run(closedLoop, config, warmupPeriods)
                    : mujoco ? warmUpMujoco(model, config)
                    : rigid != null ? SimulatedArmWarmUp.run(rigid, config, warmupPeriods)
                    : SimulatedArmWarmUp.run(robot, config, warmupPeriods);
                System.err.printf(Locale.ROOT, "nectl sim: physics warmed up: %d powered periods of a copy in %.0f ms%s%n",
                    warmupPeriods, (System.nanoTime() - startNs) / 1e6, finite ? "" : " (the copy's physics failed)");
            }
        }
        catch (final DescriptionException | IllegalArgumentException | IllegalStateException | UncheckedIOException e)
        {
            System.err.println("nectl sim: " + e.getMessage());
            return 2;
        }
        return run(model, arm, settings, simulationMode, placement, physics);
    }

    /** The closed-loop robot, refusing the options that apply to tree robots only. */
    private ClosedLoopModel closedChain()
    {
        if (payload != null || !externalWrenches.isEmpty() || !engine.equals("nectl") || sceneFile != null)
        {
            throw new IllegalArgumentException(modelFile + " describes a closed-loop robot, which nectl simulates in its"
                + " active joints with its own closed-chain physics only: --payload, --external-wrench, --engine mujoco and"
                + " --scene apply to tree robots");
        }
        return ClosedChains.load(modelFile);
    }

    /** The description's robot, or with {@code --payload} the same robot carrying it. */
    private ElasticRobotModel withPayload(final ElasticRobotModel robot)
    {
        if (payload == null)
        {
            return robot;
        }
        if (mujocoEngine() || robot.elasticCount() > 0)
        {
            throw new IllegalArgumentException("--payload needs --engine nectl and a rigid robot (with MuJoCo, the scene's payload)");
        }
        final String[] parts = payload.split(",", -1);
        final RobotModel links = robot.links();
        if (parts.length != 5)
        {
            throw new IllegalArgumentException("--payload must be LINK,KG,CX,CY,CZ, got '" + payload + "'");
        }
        final int body = "flange".equals(parts[0]) && links.bodyIndex("flange") < 0 ? links.bodyCount() - 1
            : links.bodyIndex(parts[0]);
        if (body < 0)
        {
            throw new IllegalArgumentException("--payload: no link '" + parts[0] + "' in " + modelFile);
        }
        final double[] values = new double[4];
        for (int k = 0; k < 4; k++)
        {
            try
            {
                values[k] = Double.parseDouble(parts[k + 1].trim());
            }
            catch (final NumberFormatException e)
            {
                values[k] = Double.NaN;
            }
            if (!Double.isFinite(values[k]) || k == 0 && values[k] < 0.0)
            {
                throw new IllegalArgumentException("--payload: '" + parts[k + 1] + "' is not a "
                    + (k == 0 ? "non-negative mass, kg" : "finite coordinate, m"));
            }
        }
        return ElasticRobotModel.rigid(Payloads.withPayload(links, body,
            InertialParameters.ofCentreOfMass(values[0], new double[] {values[1], values[2], values[3]}, new double[9])));
    }

    private int run(final RobotModel model, final SimulatedArm arm, final AdapterSettings settings, final SimulationMode simulationMode,
        final ThreadPlacement placement, final String physics)
    {
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final AeronTransport transport;
        try
        {
            transport = AeronTransport.launch(AeronConfig.external(directory).withDriverTimeoutMs(driverTimeoutMs));
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println("nectl sim: --driver-timeout-ms: " + e.getMessage());
            return 2;
        }
        catch (final RuntimeException e)
        {
            System.err.println("nectl sim: no media driver at " + directory + " (start the service first, or pass --aeron-dir): " + e);
            return 1;
        }
        // The barrier closes last: its shutdown hook holds the JVM until the adapter and links are closed.
        final CountDownLatch stopped = new CountDownLatch(1);
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier(stopped::countDown);
            transport;
            AdapterLink link = new AdapterLink(transport.aeron(), LinkConfig.ipcDefaults(), model.dof()))
        {
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link, settings, simulationMode,
                SystemNanoClock.INSTANCE, () -> Runtime.getRuntime().halt(CRASH_EXIT_STATUS));
            try (AgentRunner runner = new AgentRunner(idle.create(), Throwable::printStackTrace, null, adapter))
            {
                transport.registerBufferUser(() -> adapter.linkReleased() || runner.isClosed());
                transport.onLoss(barrier::signal);
                System.err.printf(Locale.ROOT, "nectl sim: %s, %d joints, %s, period %d us, %d substeps, physics %s, %s, aeron dir %s%n",
                    model.name(), model.dof(), simulationMode.name().toLowerCase(Locale.ROOT), periodUs, substeps, physics,
                    settings.syncShiftNs() == AdapterSettings.FREE_RUNNING ? "own period schedule"
                        : String.format(Locale.ROOT, "periods end %d us after the controller's ticks start", settings.syncShiftNs() / 1_000),
                    directory);
                AgentRunner.startOnThread(runner, task -> new Thread(() ->
                {
                    System.err.println("nectl sim: " + ThreadPinning.placeCurrentThread(placement, "adapter thread"));
                    task.run();
                }, "nectl-sim-adapter"));
                reportWatchdogStopsUntil(stopped, adapter);
                awaitLinkReleased(transport, adapter);
            }
            final AeronTransport.Loss loss = transport.loss();
            if (loss != null)
            {
                reportLoss(loss, adapter, arm);
                return DRIVER_LOST_EXIT_STATUS;
            }
            System.err.printf(Locale.ROOT, "nectl sim: stopped after %d periods; %d realtime schedule restarts after lag, "
                + "%d states dropped, %d stale lockstep commands, %d watchdog trips, %d saturated periods%n",
                arm.stepCount(), adapter.lagRestartCount(), adapter.droppedStateCount(), adapter.staleCommandCount(),
                adapter.watchdog().tripCount(), arm.saturationCount());
            if (CLOSED_CHAIN_PHYSICS.equals(physics))
            {
                System.err.printf(Locale.ROOT, "nectl sim: loop-closure residual at the end %.3e (m or rad)%n",
                    arm.closureResidual());
            }
        }
        return 0;
    }

    /**
     * Waits for the end of the run, printing each watchdog stop (zero torque, then brakes) with its
     * times as the adapter thread records them, so that a controller's death is visible at once.
     */
    private static void reportWatchdogStopsUntil(final CountDownLatch stopped, final SimulatedArmAdapter adapter)
    {
        long reported = 0;
        boolean brakeReported = false;
        try
        {
            while (!stopped.await(WATCH_INTERVAL_MS, TimeUnit.MILLISECONDS))
            {
                final long stops = adapter.watchdogStopCount();
                if (stops != reported)
                {
                    reported = stops;
                    brakeReported = false;
                    System.err.printf(Locale.ROOT, "nectl sim: watchdog: zero torque from nanoTime %d, %.2f ms after the last "
                        + "MotorCommand (received at nanoTime %d)%n", adapter.zeroTorqueFromNs(),
                        (adapter.zeroTorqueFromNs() - adapter.stopCommandNs()) / 1e6, adapter.stopCommandNs());
                }
                final long brakedNs = adapter.brakedFromNs();
                if (reported > 0 && !brakeReported && brakedNs != 0 && adapter.watchdogStopCount() == reported)
                {
                    brakeReported = true;
                    System.err.printf(Locale.ROOT, "nectl sim: watchdog: drives unpowered, brakes engaged from nanoTime %d, "
                        + "%.2f ms after the last MotorCommand%n", brakedNs, (brakedNs - adapter.stopCommandNs()) / 1e6);
                }
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
        }
    }

    /** After a loss, lets the adapter thread see its link closed (and brake the drives) before it is stopped. */
    private static void awaitLinkReleased(final AeronTransport transport, final SimulatedArmAdapter adapter)
    {
        final long deadlineNs = System.nanoTime() + LINK_RELEASE_WAIT_MS * 1_000_000L;
        while (transport.loss() != null && !adapter.linkReleased() && System.nanoTime() - deadlineNs < 0)
        {
            Thread.onSpinWait();
        }
    }

    private static void reportLoss(final AeronTransport.Loss loss, final SimulatedArmAdapter adapter, final SimulatedArm arm)
    {
        final AdapterWatchdog watchdog = adapter.watchdog();
        final long lastCommandNs = watchdog.lastCommandNs();
        System.err.printf(Locale.ROOT, "nectl sim: %s%n", loss.describe());
        System.err.printf(Locale.ROOT, "nectl sim: link closed seen by the adapter at nanoTime %d, drives unpowered and braked "
            + "from then on; last MotorCommand received at nanoTime %d; watchdog: %d trips, the last "
            + "at nanoTime %d (%s after the last command); stopped after %d periods%n",
            adapter.linkLostNs(), lastCommandNs, watchdog.tripCount(), watchdog.lastTripNs(),
            watchdog.lastTripNs() >= lastCommandNs && watchdog.tripCount() > 0
                ? String.format(Locale.ROOT, "%.1f ms", (watchdog.lastTripNs() - lastCommandNs) / 1e6) : "none since",
            arm.stepCount());
        System.err.println("nectl sim: exiting with status " + DRIVER_LOST_EXIT_STATUS + " (media driver lost)");
    }

    private boolean mujocoEngine()
    {
        if (!engine.equals("nectl") && !engine.equals("mujoco"))
        {
            throw new IllegalArgumentException("--engine must be nectl or mujoco, got '" + engine + "'");
        }
        return engine.equals("mujoco");
    }

    private String describeMujoco(final MujocoScene scene, final MujocoPlant plant)
    {
        return String.format(Locale.ROOT, "MuJoCo %s (RK4, timestep %.1f us), scene: %d obstacles, %d collision shapes on links, %s"
            + "%s", MujocoPlant.engineVersion(), periodUs / (double)substeps, scene.obstacles().size(), scene.armShapes().size(),
            scene.wrench().map(w -> "a wrench on " + w.link()).orElse("no wrench"), plant.droppedMeshCollisions() == 0 ? ""
                : ", " + plant.droppedMeshCollisions() + " mesh collision shapes of the description left out");
    }

    /** Warms up on a MuJoCo plant of its own, closed afterwards; the live plant stays untouched. */
    private boolean warmUpMujoco(final RobotModel model, final SimulatedArmConfig config)
    {
        final MujocoScene scene = sceneFile != null ? MujocoScene.load(sceneFile) : MujocoScene.EMPTY;
        try (MujocoPlant plant = MujocoPlant.open(modelFile, model, scene))
        {
            return SimulatedArmWarmUp.run(model, config, warmupPeriods, copy -> new SimulatedArm(model, copy, plant));
        }
    }

    private SimulationMode mode()
    {
        try
        {
            return SimulationMode.valueOf(mode.toUpperCase(Locale.ROOT));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("--mode must be realtime or lockstep, got '" + mode + "'", e);
        }
    }

    private SimulatedArmConfig armConfig(final RobotModel model)
    {
        if (periodUs <= 0 || periodUs > 1_000_000)
        {
            throw new IllegalArgumentException("--period-us must be in 1..1000000, got " + periodUs);
        }
        final SimulatedArmConfig config = new SimulatedArmConfig(model)
            .periodNs(periodUs * 1_000L)
            .substeps(substeps)
            .countsPerRevolution(countsPerRevolution)
            .noise(positionNoise, velocityNoise, seed)
            .latencyPeriods(latencyPeriods);
        if (initialQ != null)
        {
            config.initialQ(initialQ);
        }
        for (final String fault : faults)
        {
            final InjectedFault parsed = InjectedFault.parse(fault);
            if (parsed.kind() == FaultKind.IMU_LOSS && baseMotion == null)
            {
                // without a moving base there is no IMU block to withdraw: the run would test nothing
                throw new IllegalArgumentException("--fault " + fault + ": imu_loss withdraws the base-motion block, "
                    + "which only an arm on a moving base publishes; add --base-motion");
            }
            config.fault(parsed);
        }
        for (final String wrench : externalWrenches)
        {
            config.externalWrench(AppliedWrench.parse(wrench, model));
        }
        if (baseMotion != null)
        {
            try
            {
                config.baseMotion(BaseMotionProfiles.parse(baseMotion));
            }
            catch (final IllegalArgumentException e)
            {
                throw new IllegalArgumentException("--base-motion " + e.getMessage(), e);
            }
        }
        if (imuNoise != null)
        {
            imuNoise(config);
        }
        return config;
    }

    private void imuNoise(final SimulatedArmConfig config)
    {
        if (baseMotion == null)
        {
            throw new IllegalArgumentException("--imu-noise " + imuNoise + ": only an arm on a moving base has an IMU; add --base-motion");
        }
        final String[] parts = imuNoise.split(",", -1);
        if (parts.length != 2)
        {
            throw new IllegalArgumentException("--imu-noise '" + imuNoise + "': expected ACC_MPS2,GYRO_RADPS, two numbers, e.g. 0.01,0.001");
        }
        try
        {
            config.imuNoise(imuNoiseValue(parts[0], "accelerometer"), imuNoiseValue(parts[1], "gyro"));
        }
        catch (final IllegalArgumentException e)
        {
            throw new IllegalArgumentException("--imu-noise '" + imuNoise + "': " + e.getMessage(), e);
        }
    }

    private double imuNoiseValue(final String text, final String sensor)
    {
        try
        {
            return Double.parseDouble(text.strip());
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException(sensor + " noise '" + text + "' is not a number", e);
        }
    }
}
