package org.nectl.service.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;
import org.nectl.config.DescriptionException;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.loop.ServiceSettings;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl run --config FILE}: the controller service, until SIGINT or SIGTERM. Not real-time
 * safe (it starts and stops the service; the loop runs on its own thread).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = "Run the controller service with a deployment configuration (config/deploy/*.yaml) until interrupted.")
final class RunCommand implements Callable<Integer>
{
    @Option(names = "--config", paramLabel = "FILE", defaultValue = "config/deploy/sim-panda.yaml",
        description = "Deployment configuration; default ${DEFAULT-VALUE}.")
    private Path configFile;

    @Override
    public Integer call()
    {
        final DeploymentConfig config;
        try
        {
            config = DeploymentConfigs.load(configFile);
        }
        catch (final DescriptionException e)
        {
            System.err.println("nectl run: " + e.getMessage());
            return 2;
        }
        final ServiceSettings settings = ServiceSettings.from(config);
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            final ControllerService service = ControllerService.start(settings);
            System.out.printf("nectl run: %d-dof %s, %s at %d us, law %s; planner udp %s; aeron dir %s (adapters and "
                + "monitors connect there); stop with Ctrl-C%n",
                settings.model().dof(), settings.model().name(), settings.mode(), settings.cycle().periodNs() / 1000,
                settings.law(), service.plannerAddress(), service.aeronDirectory());
            barrier.await();
            service.close();
            ServiceSummary.print(service, "nectl run summary", Double.POSITIVE_INFINITY);
        }
        return 0;
    }
}
