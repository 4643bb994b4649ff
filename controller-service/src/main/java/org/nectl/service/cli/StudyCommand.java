package org.nectl.service.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code nectl study}: reproducible simulation studies from the source papers. */
@Command(
    name = "study",
    mixinStandardHelpOptions = true,
    description = "Runs a simulation study and prints its measurements.",
    subcommands = {MixedElasticStudyCommand.class})
final class StudyCommand implements Runnable
{
    @CommandLine.Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public void run()
    {
        throw new CommandLine.ParameterException(spec.commandLine(), "a study name is required");
    }
}
