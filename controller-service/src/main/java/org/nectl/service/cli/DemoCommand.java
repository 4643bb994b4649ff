package org.nectl.service.cli;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

import org.nectl.config.ClosedChains;
import org.nectl.config.DescriptionException;
import org.nectl.config.ElasticDescriptions;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.MixedLawSettings;
import org.nectl.service.loop.ControlLoop;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.loop.LoopMode;
import org.nectl.service.loop.ServiceSettings;
import org.nectl.service.loop.ThreadPinning;
import org.nectl.service.loop.ThreadPlacement;
import org.nectl.service.planner.CommandResult;
import org.nectl.service.planner.DemoTrajectory;
import org.nectl.service.planner.PlannerClient;
import org.nectl.transport.SetupException;
import org.nectl.transport.sbe.ControllerKind;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code nectl demo}: the whole system on one machine — embedded media driver and controller
 * service in this process, the simulated arm as a separate process, and a demo planner that
 * enables the arm and sends a trajectory over UDP; then a summary. Not real-time safe (it
 * orchestrates; the control loop runs on its own thread).
 */
@Command(
    name = "demo",
    mixinStandardHelpOptions = true,
    description = "Run the media driver, the service, the simulated arm (separate process) and a demo planner; print a summary.")
final class DemoCommand implements Callable<Integer>
{
    /** Most consecutive missing states tolerated, as a deployment's supervision.max_missing_states. */
    private static final int MAX_MISSING_STATES = 1_000;
    /** A ready pose of the Franka Panda, away from singularities and limits, rad. */
    /** Lockstep: wall time without a tick after which the demo gives up on the run, ms; beyond the default liveness timeout. */
    private static final long LOCKSTEP_STALL_MS = 20_000;
    private static final double[] PANDA_READY = {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785};

    @Option(names = "--model", paramLabel = "FILE", defaultValue = "config/robots/panda.yaml",
        description = "Robot description; with elastic joints (a drives section) the arm is simulated with them and "
            + "controlled by the mixed rigid/elastic law; default ${DEFAULT-VALUE}.")
    private Path modelFile;

    @Option(names = "--period-us", paramLabel = "US", defaultValue = "1000", description = "Control period, us; default ${DEFAULT-VALUE}.")
    private long periodUs;

    @Option(names = "--mode", paramLabel = "MODE", defaultValue = "realtime",
        description = "realtime (wall clock) or lockstep (the simulator advances one period per command; deterministic); "
            + "default ${DEFAULT-VALUE}.")
    private String mode;

    @Option(names = "--duration", paramLabel = "S", defaultValue = "6", description = "Trajectory duration, s; default ${DEFAULT-VALUE}.")
    private double durationS;

    @Option(names = "--amplitude", paramLabel = "RAD", defaultValue = "0.3",
        description = "Joint excursion of the demo move, rad (m); default ${DEFAULT-VALUE}.")
    private double amplitude;

    @Option(names = "--core", paramLabel = "CPU", defaultValue = "-1", description = "CPU to pin the control loop to; default none.")
    private int core;

    @Option(names = "--priority", paramLabel = "P", defaultValue = "0",
        description = "SCHED_FIFO priority of the control loop, 1..99; default 0 (time-sharing). Needs root or CAP_SYS_NICE.")
    private int priority;

    @Option(names = "--max-missing-states", paramLabel = "N", defaultValue = "50",
        description = "Consecutive ticks without a new JointState before FAULT; default ${DEFAULT-VALUE}. The demo runs "
            + "driver, service, simulator and planner on one (often 2-core) host with nothing pinned, so the simulator is "
            + "preempted for milliseconds now and then; a deployment with isolated cores uses 3.")
    private int maxMissingStates;

    @Option(names = "--lockstep-liveness-ms", paramLabel = "MS", defaultValue = "10000",
        description = "Lockstep: wall time without a JointState before the simulator counts as dead (FAULT); default "
            + "${DEFAULT-VALUE}, above the service's 2000 because on a shared 2-core host under load a simulator "
            + "process was seen without a step for more than 2 s.")
    private long lockstepLivenessMs;

    @Option(names = "--max-rms", paramLabel = "RAD", defaultValue = "0.01",
        description = "Largest per-joint RMS tracking error counted as success, rad; default ${DEFAULT-VALUE}.")
    private double maxRms;

    @Option(names = "--engine", paramLabel = "ENGINE", defaultValue = "nectl",
        description = "Physics of the simulated arm (nectl sim --engine): nectl or mujoco; default ${DEFAULT-VALUE}.")
    private String engine;

    @Option(names = "--scene", paramLabel = "FILE", description = "With --engine mujoco: the simulated arm's scene (nectl sim --scene).")
    private Path sceneFile;

    @Spec
    private CommandSpec spec;

    @Override
    public Integer call() throws IOException
    {
        checkOptions();
        if (lockstepLivenessMs <= 0)
        {
            System.err.println("nectl demo: --lockstep-liveness-ms must be positive, got " + lockstepLivenessMs);
            return 2;
        }
        if (ClosedChains.isClosedChain(modelFile))
        {
            System.err.println("nectl demo: " + modelFile + " describes a closed-loop robot; the demo runs tree robots."
                + " Serve it with nectl run --config DEPLOYMENT (e.g. config/deploy/lockstep-palletiser.yaml,"
                + " lockstep-hexapod.yaml) and nectl sim --model " + modelFile + " (docs/ROBOT_DESCRIPTIONS.md)");
            return 2;
        }
        final ElasticRobotModel robot;
        try
        {
            robot = ElasticDescriptions.load(modelFile);
        }
        catch (final DescriptionException e)
        {
            System.err.println("nectl demo: " + e.getMessage());
            return 2;
        }
        final RobotModel model = robot.links();
        final double[] initialQ = DemoTrajectory.startPose(model);
        final ServiceSettings settings = ServiceSettings.defaults(model, periodUs * 1_000L, new InetSocketAddress("127.0.0.1", 0))
            .withLoopThread(new ThreadPlacement(core, priority))
            .withMode(loopMode())
            .withMixedLaw(MixedLawSettings.defaults(robot));
        final ServiceSettings tolerant = settings.withCycle(settings.cycle().withSupervision(
            Math.max(settings.cycle().heartbeatTimeoutNs(), 4 * maxMissingStates * periodUs * 1_000L), maxMissingStates))
            .withLockstepLiveness(TimeUnit.MILLISECONDS.toNanos(lockstepLivenessMs));
        final Path simLog = Files.createTempFile("nectl-demo-sim", ".log");
        Process sim = null;
        final ControllerService service = ControllerService.start(tolerant);
        try
        {
            say("service up: %d-dof %s at %d Hz, planner udp %s, aeron dir %s", model.dof(), model.name(),
                1_000_000 / periodUs, service.plannerAddress(), service.aeronDirectory());
            sim = startSimulator(service.aeronDirectory(), initialQ, simLog);
            final ControlLoop loop = service.loop();
            if (!await(() -> loop.statesSeen() > 0, 30_000))
            {
                say("no JointState from the simulated arm within 30 s; its log: %s", simLog);
                return 1;
            }
            say("simulated arm connected (separate process, pid %d)", sim.pid());
            final boolean moved = runPlanner(service, model, initialQ);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(200));
            service.close();
            return ServiceSummary.print(service, "nectl demo summary", maxRms) && moved ? 0 : 1;
        }
        finally
        {
            service.close();
            stop(sim);
        }
    }

    /** Refuses options the service or this host cannot run with before anything starts (exit status 2). */
    private void checkOptions()
    {
        if (periodUs < DeploymentConfigs.MIN_PERIOD_US || periodUs > DeploymentConfigs.MAX_PERIOD_US)
        {
            throw new ParameterException(spec.commandLine(), "--period-us must be in " + DeploymentConfigs.MIN_PERIOD_US + ".."
                + DeploymentConfigs.MAX_PERIOD_US + " (as a deployment's period_us), got " + periodUs);
        }
        if (!(durationS > 0.0 && durationS <= PlanCommand.MAX_DURATION_S))
        {
            throw new ParameterException(spec.commandLine(), "--duration must be in (0, " + (int)PlanCommand.MAX_DURATION_S
                + "] s, got " + durationS);
        }
        if (!Double.isFinite(amplitude))
        {
            throw new ParameterException(spec.commandLine(), "--amplitude must be finite, got " + amplitude);
        }
        if (maxMissingStates < 1 || maxMissingStates > MAX_MISSING_STATES)
        {
            throw new ParameterException(spec.commandLine(), "--max-missing-states must be in 1.." + MAX_MISSING_STATES + ", got "
                + maxMissingStates);
        }
        if (!(maxRms > 0.0) || !Double.isFinite(maxRms))
        {
            throw new ParameterException(spec.commandLine(), "--max-rms must be > 0, got " + maxRms);
        }
        if (core < -1)
        {
            throw new ParameterException(spec.commandLine(), "--core must be a CPU number (-1: none), got " + core);
        }
        if (priority < 0 || priority > ThreadPlacement.MAX_FIFO_PRIORITY)
        {
            throw new ParameterException(spec.commandLine(), "--priority must be in 0.." + ThreadPlacement.MAX_FIFO_PRIORITY
                + " (0: time-sharing), got " + priority);
        }
        ThreadPinning.refusal(new ThreadPlacement(core, priority), "--core", "--priority").ifPresent(reason ->
        {
            throw new SetupException(reason);
        });
        loopMode();
        if (!engine.equals("nectl") && !engine.equals("mujoco"))
        {
            throw new ParameterException(spec.commandLine(), "--engine must be nectl or mujoco, got '" + engine + "'");
        }
    }

    private LoopMode loopMode()
    {
        switch (mode)
        {
            case "realtime":
                return LoopMode.REALTIME;
            case "lockstep":
                return LoopMode.LOCKSTEP;
            default:
                throw new ParameterException(spec.commandLine(), "--mode must be realtime or lockstep, got '" + mode + "'");
        }
    }

    private boolean runPlanner(final ControllerService service, final RobotModel model, final double[] initialQ)
    {
        final ControlLoop loop = service.loop();
        try (PlannerClient planner = new PlannerClient(service.plannerAddress(), ServiceSettings.DEFAULT_PLANNER_ID,
            service.settings().planner().authentication().keys(), Duration.ofSeconds(2), service.settings().planner().maxDatagramLength()))
        {
            final ControllerKind controller = service.settings().mixedLaw().available()
                ? ControllerKind.MIXED_ELASTIC : ControllerKind.COMPUTED_TORQUE;
            final CommandResult enabled = planner.enable(controller);
            say("planner: enable %s -> %s", controller, enabled.describe());
            if (!enabled.accepted() || !await(() -> loop.mode() == ControllerMode.ENABLED, 5_000))
            {
                say("the arm did not reach ENABLED (mode %s, faults %s)", loop.mode(), Faults.describe(loop.faults()));
                return false;
            }
            // Let the torque ramp (rate-limited from zero) settle before moving.
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(300));
            final CommandResult sent = planner.sendTrajectory(DemoTrajectory.move(model, initialQ, amplitude, durationS));
            say("planner: %.1f s trajectory -> %s", durationS, sent.describe());
            final BooleanSupplier ended = () -> loop.completedTrajectories() > 0 || loop.mode().latched();
            final long budgetMs = (long)(durationS * 1000) + 10_000;
            if (!sent.accepted() || !(service.settings().mode() == LoopMode.LOCKSTEP
                ? awaitInSimulatedTime(ended, loop, budgetMs * 1000 / periodUs) : await(ended, budgetMs)))
            {
                say("the trajectory did not complete (mode %s, faults %s)", loop.mode(), Faults.describe(loop.faults()));
                return false;
            }
            say("planner: disable -> %s", planner.disable(ControllerKind.UNCHANGED).describe());
            return loop.completedTrajectories() > 0;
        }
    }

    private Process startSimulator(final String aeronDirectory, final double[] initialQ, final Path log) throws IOException
    {
        final List<String> command = NectlProcess.command(
            "sim", "--model", modelFile.toString(), "--mode", mode, "--period-us", Long.toString(periodUs),
            "--aeron-dir", aeronDirectory, "--engine", engine);
        if (sceneFile != null)
        {
            command.add("--scene=" + sceneFile);
        }
        final StringBuilder q = new StringBuilder();
        for (final double v : initialQ)
        {
            q.append(q.length() == 0 ? "" : ",").append(v);
        }
        command.add("--initial-q=" + q);
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void stop(final Process sim)
    {
        if (sim == null)
        {
            return;
        }
        sim.destroy();
        try
        {
            if (!sim.waitFor(5, TimeUnit.SECONDS))
            {
                sim.destroyForcibly();
            }
        }
        catch (final InterruptedException e)
        {
            Thread.currentThread().interrupt();
            sim.destroyForcibly();
        }
    }

    private static boolean await(final BooleanSupplier condition, final long timeoutMs)
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() > deadline)
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return true;
    }

    /**
     * Lockstep runs at whatever pace the host gives the two processes, so its budget is in ticks of
     * simulated time; the wall clock only tells a run that no longer advances (no tick for
     * {@value #LOCKSTEP_STALL_MS} ms, longer than the loop's own liveness timeout).
     */
    private static boolean awaitInSimulatedTime(final BooleanSupplier condition, final ControlLoop loop, final long budgetTicks)
    {
        final long endTick = loop.tickCount() + budgetTicks;
        long lastTick = loop.tickCount();
        long lastProgressNs = System.nanoTime();
        while (!condition.getAsBoolean())
        {
            final long tick = loop.tickCount();
            if (tick != lastTick)
            {
                lastTick = tick;
                lastProgressNs = System.nanoTime();
            }
            if (tick > endTick || System.nanoTime() - lastProgressNs > TimeUnit.MILLISECONDS.toNanos(LOCKSTEP_STALL_MS))
            {
                return false;
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
        return true;
    }

    private static void say(final String format, final Object... args)
    {
        System.out.printf(Locale.ROOT, "nectl demo: " + format + "%n", args);
    }
}
