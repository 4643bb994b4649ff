package org.nectl.service.cli;

import java.io.PrintWriter;
import java.util.Locale;

import io.aeron.exceptions.DriverTimeoutException;

import org.nectl.config.DescriptionException;
import org.nectl.service.planner.TrajectoryFormatException;
import org.nectl.transport.SetupException;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code nectl} command line: one entry point for the service, the simulator, planners,
 * monitors and the offline dynamics tools.
 *
 * <p>Every subcommand ends the same way on an error that escapes it: bad input (an option, a
 * robot description or deployment file, a trajectory file, a planner key file, an address or a
 * thread placement the host refuses) prints {@code nectl <command>: <message>} and exits with
 * status {@value #USAGE_EXIT_STATUS}; no media driver at the Aeron directory is one line and status
 * {@value #NO_DRIVER_EXIT_STATUS}; anything else prints one line naming the exception and
 * exits with status {@value #INTERNAL_ERROR_EXIT_STATUS}. Neither prints a stack trace unless the
 * environment variable {@value #DEBUG_VARIABLE} is {@code 1} (docs/DEPLOYMENT.md, "Exit status").
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
        OptimizeCommand.class,
        FuzzCommand.class,
        MonitorCommand.class,
        StatCommand.class,
        RecordingsCommand.class,
        ReplayCommand.class,
        ExportCommand.class,
        DashboardCommand.class,
        DemoCommand.class,
        RunCommand.class,
        StudyCommand.class,
        IdentifyCommand.class,
        CommandLine.HelpCommand.class
    })
public final class NectlCommand implements Runnable
{
    /** Exit status of every subcommand for bad input: an option, a file, a setting the host refuses. */
    static final int USAGE_EXIT_STATUS = 2;
    /** Exit status of every subcommand for an error that is not the user's input (a defect or the host failing). */
    static final int INTERNAL_ERROR_EXIT_STATUS = 1;
    /** Exit status when no media driver answers at the Aeron directory (an external driver not started). */
    static final int NO_DRIVER_EXIT_STATUS = 1;
    /** Environment variable that, set to 1, adds the stack trace to an error's one-line message. */
    static final String DEBUG_VARIABLE = "NECTL_DEBUG";

    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    /**
     * @param args command-line arguments.
     */
    public static void main(final String[] args)
    {
        int status;
        try
        {
            status = newCommandLine().execute(args);
        }
        catch (final StackOverflowError | OutOfMemoryError e)
        {
            // picocli hands Exceptions to the handler below; these Errors pass it.
            final PrintWriter err = new PrintWriter(System.err, true);
            status = reportUnexpected(e, args.length > 0 && !args[0].startsWith("-") ? "nectl " + args[0] : "nectl", err);
        }
        System.exit(status);
    }

    /** @return the configured command line, for tests and for {@link #main}. */
    public static CommandLine newCommandLine()
    {
        return new CommandLine(new NectlCommand())
            .setExecutionExceptionHandler((failure, commandLine, parseResult) ->
                report(failure, commandLine.getCommandSpec().qualifiedName(), commandLine.getErr()))
            .setParameterExceptionHandler((failure, args) ->
                reportBadOption(failure, failure.getCommandLine().getCommandSpec().qualifiedName(), failure.getCommandLine().getErr()));
    }

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a subcommand is required");
    }

    /** Bad input as one line, else {@link #reportUnexpected}. */
    static int report(final Throwable failure, final String command, final PrintWriter err)
    {
        if (failure instanceof SetupException || failure instanceof DescriptionException || failure instanceof TrajectoryFormatException)
        {
            err.println(command + ": " + failure.getMessage());
            printStackTraceIfDebugging(failure, err);
            err.flush();
            return USAGE_EXIT_STATUS;
        }
        if (failure instanceof DriverTimeoutException)
        {
            err.println(command + ": no media driver answered (" + failure.getMessage() + "): start the media driver first,"
                + " or check the Aeron directory");
            printStackTraceIfDebugging(failure, err);
            err.flush();
            return NO_DRIVER_EXIT_STATUS;
        }
        return reportUnexpected(failure, command, err);
    }

    private static int reportBadOption(final CommandLine.ParameterException failure, final String command, final PrintWriter err)
    {
        err.println(command + ": " + failure.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(failure, err);
        err.println("(" + command + " --help lists the options)");
        printStackTraceIfDebugging(failure, err);
        err.flush();
        return USAGE_EXIT_STATUS;
    }

    private static int reportUnexpected(final Throwable failure, final String command, final PrintWriter err)
    {
        final Throwable cause = failure.getCause();
        err.println(String.format(Locale.ROOT, "%s: unexpected %s%s%s%s", command, failure.getClass().getName(),
            failure.getMessage() != null ? ": " + failure.getMessage() : "",
            cause != null && cause != failure ? " (caused by " + cause + ")" : "",
            debugging() ? "" : "; " + DEBUG_VARIABLE + "=1 prints the stack trace"));
        printStackTraceIfDebugging(failure, err);
        err.flush();
        return INTERNAL_ERROR_EXIT_STATUS;
    }

    private static void printStackTraceIfDebugging(final Throwable failure, final PrintWriter err)
    {
        if (debugging())
        {
            failure.printStackTrace(err);
        }
    }

    private static boolean debugging()
    {
        return "1".equals(System.getenv(DEBUG_VARIABLE));
    }
}
