package org.nectl.service.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import io.aeron.CommonContext;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.ShutdownSignalBarrier;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.config.DescriptionException;
import org.nectl.config.ElasticDescriptions;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.hw.AdapterSettings;
import org.nectl.hw.InjectedFault;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
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
 * and its links, and the JVM exits with the signal's status), or until a CRASH fault halts it with
 * exit status {@value #CRASH_EXIT_STATUS}. Not real-time safe (set-up); the adapter
 * thread it starts is.
 */
@Command(
    name = "sim",
    mixinStandardHelpOptions = true,
    description = {
        "Runs the simulated arm: a hardware adapter publishing JointState and AdapterHeartbeat and",
        "applying MotorCommand over Aeron IPC, against the media driver of a running service.",
        "Stops cleanly on SIGINT/SIGTERM. Exit status: 1 no media driver, 2 bad description or option,",
        "70 halted by an injected crash fault."
    })
final class SimCommand implements Callable<Integer>
{
    /** Exit status of a process halted by an injected CRASH fault. */
    static final int CRASH_EXIT_STATUS = 70;

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
        description = "Inject a fault at simulated time S seconds (repeatable): stall@2, crash@1.5, nan@0.5:3, jump@0.5:2:0.1.")
    private List<String> faults = new ArrayList<>();

    @Option(names = "--initial-q", paramLabel = "Q", split = ",",
        description = "Initial joint positions, comma separated, rad or m, coordinate order; default all 0.")
    private double[] initialQ;

    @Option(names = "--watchdog-ms", paramLabel = "MS", defaultValue = "20",
        description = "Adapter watchdog: no MotorCommand for this long drives the motors to zero torque; default ${DEFAULT-VALUE}.")
    private double watchdogMs;

    @Option(names = "--heartbeat-ms", paramLabel = "MS", defaultValue = "10",
        description = "AdapterHeartbeat period; default ${DEFAULT-VALUE}.")
    private double heartbeatMs;

    @Option(names = "--adapter-id", paramLabel = "ID", defaultValue = "1", description = "Adapter id in heartbeats; default ${DEFAULT-VALUE}.")
    private long adapterId;

    @Option(names = "--idle", paramLabel = "KIND", defaultValue = "YIELDING",
        description = "How the adapter thread waits: ${COMPLETION-CANDIDATES}; default ${DEFAULT-VALUE}.")
    private IdleStrategyKind idle;

    // No real-time priority option: with the control loop owning one of two CPUs, a SCHED_FIFO
    // simulator on the other starved the embedded media driver past its 10 s keepalive, with or
    // without a warm-up of its physics first. Give the process a high time-sharing weight instead
    // (nice -n -20) and a quiet host.
    @Option(names = "--core", paramLabel = "CPU", defaultValue = "-1", description = "CPU to pin the adapter thread to; default none.")
    private int core;

    @Override
    public Integer call()
    {
        final RobotModel model;
        final SimulatedArm arm;
        final AdapterSettings settings;
        final SimulationMode simulationMode;
        final ThreadPlacement placement;
        try
        {
            final ElasticRobotModel robot = ElasticDescriptions.load(modelFile);
            model = robot.links();
            simulationMode = mode();
            arm = new SimulatedArm(robot, armConfig(model));
            settings = new AdapterSettings(adapterId, Math.round(watchdogMs * 1e6), Math.round(heartbeatMs * 1e6));
            placement = new ThreadPlacement(core, 0);
        }
        catch (final DescriptionException | IllegalArgumentException e)
        {
            System.err.println("nectl sim: " + e.getMessage());
            return 2;
        }
        return run(model, arm, settings, simulationMode, placement);
    }

    private int run(final RobotModel model, final SimulatedArm arm, final AdapterSettings settings, final SimulationMode simulationMode,
        final ThreadPlacement placement)
    {
        final String directory = aeronDirectory != null ? aeronDirectory : CommonContext.getAeronDirectoryName();
        final AeronTransport transport;
        try
        {
            transport = AeronTransport.launch(AeronConfig.external(directory));
        }
        catch (final RuntimeException e)
        {
            System.err.println("nectl sim: no media driver at " + directory + " (start the service first, or pass --aeron-dir): " + e);
            return 1;
        }
        // The barrier closes last: its shutdown hook holds the JVM until the adapter and links are closed.
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier();
            transport;
            AdapterLink link = new AdapterLink(transport.aeron(), LinkConfig.ipcDefaults(), model.dof()))
        {
            final SimulatedArmAdapter adapter = new SimulatedArmAdapter(arm, link, settings, simulationMode,
                SystemNanoClock.INSTANCE, () -> Runtime.getRuntime().halt(CRASH_EXIT_STATUS));
            try (AgentRunner runner = new AgentRunner(idle.create(), Throwable::printStackTrace, null, adapter))
            {
                System.err.printf(Locale.ROOT, "nectl sim: %s, %d joints, %s, period %d us, %d substeps, aeron dir %s%n",
                    model.name(), model.dof(), simulationMode.name().toLowerCase(Locale.ROOT), periodUs, substeps, directory);
                AgentRunner.startOnThread(runner, task -> new Thread(() ->
                {
                    System.err.println("nectl sim: " + ThreadPinning.placeCurrentThread(placement, "adapter thread"));
                    task.run();
                }, "nectl-sim-adapter"));
                barrier.await();
            }
            System.err.printf(Locale.ROOT, "nectl sim: stopped after %d periods; %d realtime schedule restarts after lag, "
                + "%d states dropped, %d stale lockstep commands, %d watchdog trips, %d saturated periods%n",
                arm.stepCount(), adapter.lagRestartCount(), adapter.droppedStateCount(), adapter.staleCommandCount(),
                adapter.watchdog().tripCount(), arm.saturationCount());
        }
        return 0;
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
            config.fault(InjectedFault.parse(fault));
        }
        return config;
    }
}
