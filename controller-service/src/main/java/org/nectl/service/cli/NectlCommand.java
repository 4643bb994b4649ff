package org.nectl.service.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code nectl} command line: one entry point for the service, the simulator, planners,
 * monitors and the offline dynamics tools.
 */
@Command(
    name = "nectl",
    mixinStandardHelpOptions = true,
    version = "nectl 0.1.0",
    description = "Newton-Euler control: a real-time controller for torque-controlled robot arms.",
    subcommands = {
        DynamicsCommand.class,
        ModelCommand.class,
        SimCommand.class,
        PlanCommand.class,
        FuzzCommand.class,
        MonitorCommand.class,
        DemoCommand.class,
        RunCommand.class,
        StudyCommand.class,
        CommandLine.HelpCommand.class
    })
public final class NectlCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        System.exit(newCommandLine().execute(args));
    }

    /** @return the configured command line, for tests and for {@link #main}. */
    public static CommandLine newCommandLine()
    {
        return new CommandLine(new NectlCommand());
    }

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }
}
