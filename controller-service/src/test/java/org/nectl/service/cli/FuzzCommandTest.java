package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.planner.GatewayRig;
import org.nectl.transport.PlannerKeys;
import org.nectl.transport.sbe.RejectReason;

import picocli.CommandLine;

/**
 * {@code nectl fuzz} against a real gateway with the Panda's limits and the shipped development
 * keys: every reply as the protocol requires (exit 0), the valid probes accepted and nothing else,
 * the table printed; a key file without the planner's key is a usage error.
 */
final class FuzzCommandTest
{
    private static final Path PANDA_FILE = Path.of("../config/robots/panda.yaml");

    @TempDir
    Path temp;

    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @Test
    void fuzzingAGatewayFindsNoProblemAndOnlyTheProbesAreAccepted()
    {
        final RobotModel panda = RobotDescriptions.load(PANDA_FILE);
        try (GatewayRig rig = new GatewayRig(PlannerKeys.read(GatewayRig.developmentKeys(temp)), ControllerService.commandLimits(panda)))
        {
            final int status = fuzz("--target", "127.0.0.1:" + rig.address().getPort(), "--count", "4000", "--probe-every", "40",
                "--seed", "7");
            assertEquals(0, status, out + " " + err);
            assertTrue(out.toString().contains("total 4000 datagrams") && out.toString().contains("problems 0"), out.toString());
            assertEquals(100L, rig.gateway().acceptedCount(), "the 100 probes only");
            assertEquals(100, rig.drain().events().size());
            assertTrue(rig.gateway().rejectCount(RejectReason.DISALLOWED_SOURCE) > 0, out.toString());
        }
    }

    @Test
    void aPlannerWithoutAKeyIsAUsageError()
    {
        assertEquals(FuzzCommand.USAGE_EXIT_STATUS, fuzz("--planner-id", "9", "--count", "1"));
        assertTrue(err.toString().contains("no key for planner 9"), err.toString());
    }

    private int fuzz(final String... options)
    {
        final CommandLine command = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        final String[] args = new String[options.length + 5];
        args[0] = "fuzz";
        args[1] = "--key-file";
        args[2] = GatewayRig.developmentKeys(temp).toString();
        args[3] = "--model";
        args[4] = PANDA_FILE.toString();
        System.arraycopy(options, 0, args, 5, options.length);
        final int status = command.execute(args);
        command.getOut().flush();
        command.getErr().flush();
        return status;
    }
}
