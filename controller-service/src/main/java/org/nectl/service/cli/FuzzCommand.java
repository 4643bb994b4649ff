package org.nectl.service.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;

import org.nectl.config.DescriptionException;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.RobotModel;
import org.nectl.service.fuzz.FuzzReport;
import org.nectl.service.fuzz.PlannerFuzzer;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.PlannerKeys;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code nectl fuzz}: sends generated datagrams at a running service's planner gateway and checks
 * every reply ({@link PlannerFuzzer}; docs/PROTOCOL.md). Not real-time safe.
 */
@Command(
    name = "fuzz",
    mixinStandardHelpOptions = true,
    description = {
        "Sends fuzzed planner datagrams (random bytes, bit flips, truncations, oversized, wrong header fields,",
        "non-finite and out-of-range values, wrong joint counts, bad enums, chunks and groups, unsigned, badly",
        "signed, wrong-key, unknown-planner, stale, replayed and disallowed-source commands) at a running gateway,",
        "interleaved with valid signed setpoints, and checks every reply. Valid setpoints move an enabled arm:",
        "fuzz a disabled (IDLE) arm unless --probe-q is where the arm stands.",
        "Exit status: 0 every reply as the protocol requires, 1 a problem (printed), 2 bad option or file."
    })
final class FuzzCommand implements Callable<Integer>
{
    /** Exit status when a reply departed from the protocol. */
    static final int PROBLEM_EXIT_STATUS = 1;
    /** Exit status for a bad option or file. */
    static final int USAGE_EXIT_STATUS = 2;

    @Spec
    private CommandSpec spec;

    @Option(names = "--target", paramLabel = "HOST:PORT", defaultValue = "127.0.0.1:" + PlannerGatewayConfig.DEFAULT_PORT,
        description = "Planner gateway address; default ${DEFAULT-VALUE}.")
    private String target;

    @Option(names = "--key-file", paramLabel = "FILE", defaultValue = "config/deploy/keys/development.keys",
        description = "Key file with the fuzzing planner's key; default ${DEFAULT-VALUE}.")
    private Path keyFile;

    @Option(names = "--planner-id", paramLabel = "ID", defaultValue = "1",
        description = "Planner id the valid datagrams are signed as; no other planner may use it meanwhile; default ${DEFAULT-VALUE}.")
    private long plannerId;

    @Option(names = "--model", paramLabel = "FILE", defaultValue = "config/robots/panda.yaml",
        description = "Robot description of the service (joint count and limits); default ${DEFAULT-VALUE}.")
    private Path modelFile;

    @Option(names = "--count", paramLabel = "N", defaultValue = "1000000", description = "Datagrams to send; default ${DEFAULT-VALUE}.")
    private long count;

    @Option(names = "--probe-every", paramLabel = "N", defaultValue = "100",
        description = "Every N-th datagram is a valid signed setpoint that must be accepted; default ${DEFAULT-VALUE}.")
    private int probeEvery;

    @Option(names = "--probe-q", paramLabel = "Q,...", split = ",",
        description = "Position of the valid setpoints, rad or m per joint; default the middle of each joint's range.")
    private double[] probeQ;

    @Option(names = "--window", paramLabel = "N", defaultValue = "16",
        description = "Datagrams sent before their replies are read; default ${DEFAULT-VALUE}.")
    private int window;

    @Option(names = "--seed", paramLabel = "SEED", defaultValue = "1", description = "Seed of the damage; default ${DEFAULT-VALUE}.")
    private long seed;

    @Option(names = "--disallowed-source", paramLabel = "ADDRESS", defaultValue = "127.0.0.2",
        description = "Local address outside the gateway's allow-list to send from, or 'none'; default ${DEFAULT-VALUE}.")
    private String disallowedSource;

    @Option(names = "--time-window-ms", paramLabel = "MS", defaultValue = "2000",
        description = "The gateway's planner.time_window_ms: a reply later than this may rightly be STALE; default ${DEFAULT-VALUE}.")
    private long timeWindowMs;

    @Option(names = "--timeout-ms", paramLabel = "MS", defaultValue = "2000",
        description = "How long to wait for each reply; default ${DEFAULT-VALUE}.")
    private long timeoutMs;

    @Override
    public Integer call()
    {
        final PrintWriter out = spec.commandLine().getOut();
        final PrintWriter err = spec.commandLine().getErr();
        final PlannerFuzzer fuzzer;
        try
        {
            if (count < 1 || probeEvery < 2 || window < 1 || timeoutMs < 1 || timeWindowMs < 1)
            {
                throw new IllegalArgumentException("--count, --window, --timeout-ms and --time-window-ms must be >= 1, --probe-every >= 2");
            }
            final InetSocketAddress gateway = PlanCommand.parseTarget(target);
            final PlannerKeys keys = PlannerKeys.read(keyFile);
            final RobotModel model = RobotDescriptions.load(modelFile);
            fuzzer = new PlannerFuzzer(gateway, keys, plannerId, model, probeQ != null ? probeQ : middle(model), source(),
                Duration.ofMillis(timeoutMs), Duration.ofMillis(timeWindowMs), PlannerGatewayConfig.DEFAULT_MAX_DATAGRAM_LENGTH, seed);
        }
        catch (final IllegalArgumentException | DescriptionException | UncheckedIOException | UnknownHostException e)
        {
            err.println("nectl fuzz: " + e.getMessage());
            return USAGE_EXIT_STATUS;
        }
        try (fuzzer)
        {
            out.printf("fuzzing %s with %d datagrams, seed %d%n", target, count, seed);
            out.flush();
            final FuzzReport report = fuzzer.run(count, probeEvery, window);
            out.print(report.table());
            out.flush();
            return report.problemCount() == 0 ? 0 : PROBLEM_EXIT_STATUS;
        }
    }

    private InetAddress source() throws UnknownHostException
    {
        return "none".equals(disallowedSource) ? null : InetAddress.getByName(disallowedSource);
    }

    private static double[] middle(final RobotModel model)
    {
        final double[] q = new double[model.dof()];
        for (int k = 0; k < q.length; k++)
        {
            final JointLimits limits = model.limits(k);
            q[k] = 0.5 * (limits.positionMin() + limits.positionMax());
        }
        return q;
    }
}
