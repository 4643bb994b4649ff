package org.nectl.service.cli;

import java.nio.file.Path;

import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.config.deploy.RecordingSettings;
import org.nectl.transport.SetupException;

import picocli.CommandLine.Option;

/**
 * The flight recorder's directory for {@code nectl recordings}, {@code replay} and {@code export}:
 * given as {@code --dir}, or read from the {@code recording} section of a deployment file.
 */
final class RecordingDirectoryOption
{
    @Option(names = "--dir", paramLabel = "DIR", description = "The flight recorder's directory (recording.directory).")
    private Path directory;

    @Option(names = "--config", paramLabel = "FILE", defaultValue = "config/deploy/sim-panda.yaml",
        description = "Deployment file whose recording.directory to read, when --dir is not given; default ${DEFAULT-VALUE}.")
    private Path configFile;

    /** @return the directory. @throws SetupException if neither option names one. */
    Path directory()
    {
        if (directory != null)
        {
            return directory;
        }
        final RecordingSettings recording = DeploymentConfigs.load(configFile).recording();
        if (!recording.enabled())
        {
            throw new SetupException(configFile + " has no enabled recording section; pass --dir");
        }
        return recording.directory();
    }
}
