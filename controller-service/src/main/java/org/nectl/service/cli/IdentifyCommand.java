package org.nectl.service.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nectl identify}: identification of model parameters from motion. */
@Command(
    name = "identify",
    mixinStandardHelpOptions = true,
    description = "Identifies model parameters from motion.",
    subcommands = {IdentifyPayloadCommand.class})
final class IdentifyCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "what to identify is required (payload)");
    }
}
