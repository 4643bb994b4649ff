package org.nectl.service.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.agrona.concurrent.ShutdownSignalBarrier;
import org.nectl.config.DescriptionException;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.loop.ServiceSettings;
import org.nectl.service.loop.ThreadPinning;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.DriverDirectoryException;
import org.nectl.transport.SetupException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl run --config FILE}: the controller service, until SIGINT or SIGTERM (exit status 0),
 * or until its Aeron client loses the media driver (exit status {@value #DRIVER_LOST_EXIT_STATUS}):
 * the loop has then latched LINK_LOST, and the service stops, printing the loss with its time, the
 * summary and every controller event it could not publish. Not real-time safe (it starts and stops
 * the service; the loop runs on its own thread).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
        "Run the controller service with a deployment configuration (config/deploy/*.yaml) until interrupted.",
        "Exit status: 0 stopped by SIGINT/SIGTERM, 2 bad configuration (including an aeron dir holding anything but a",
        "dead media driver's files, or used by a live driver), 3 media driver lost (the arm in FAULT)."
    })
final class RunCommand implements Callable<Integer>
{
    /** Exit status when the Aeron client lost the media driver. */
    static final int DRIVER_LOST_EXIT_STATUS = 3;

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
        ThreadPinning.refusal(settings.loopThread(), "core", "realtime_priority").ifPresent(reason ->
        {
            throw new SetupException(configFile + ": " + reason);
        });
        try (ShutdownSignalBarrier barrier = new ShutdownSignalBarrier())
        {
            final ControllerService service;
            try
            {
                service = ControllerService.start(settings);
            }
            catch (final DriverDirectoryException e)
            {
                System.err.println("nectl run: " + configFile + ": " + e.getMessage());
                return 2;
            }
            service.onTransportLoss(barrier::signal);
            System.out.printf("nectl run: %d-dof %s, %s at %d us, law %s; planner udp %s; aeron dir %s (adapters and "
                + "monitors connect there); stop with Ctrl-C%n",
                settings.model().dof(), settings.model().name(), settings.mode(), settings.cycle().periodNs() / 1000,
                settings.law(), service.plannerAddress(), service.aeronDirectory());
            barrier.await();
            service.close();
            final AeronTransport.Loss loss = service.transportLoss();
            if (loss != null)
            {
                System.err.println("nectl run: " + loss.describe() + "; the control loop saw the hardware link closed at nanoTime "
                    + service.loop().linkLostNs() + " and latched LINK_LOST (FAULT, zero torque); stopping the service");
            }
            ServiceSummary.print(service, "nectl run summary", Double.POSITIVE_INFINITY);
            final int undelivered = service.drainUndeliveredEvents(
                event -> System.out.println("  not published: " + ControllerEventText.line(event)));
            System.out.printf(Locale.ROOT, "  controller events: %d raised, %d published, %d dropped (ring full), %d not published%n",
                service.loop().eventCount(), service.telemetryPublisher().publishedEventCount(),
                service.loop().droppedEventCount(), service.telemetryPublisher().unpublishedEventCount() + undelivered);
            if (loss != null)
            {
                System.err.println("nectl run: exiting with status " + DRIVER_LOST_EXIT_STATUS + " (media driver lost)");
                return DRIVER_LOST_EXIT_STATUS;
            }
        }
        return 0;
    }
}
