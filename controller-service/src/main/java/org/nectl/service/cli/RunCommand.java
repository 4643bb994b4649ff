package org.nectl.service.cli;

import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

import org.agrona.concurrent.ShutdownSignalBarrier;
import org.nectl.config.DescriptionException;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentConfigs;
import org.nectl.config.deploy.RecordingSettings;
import org.nectl.core.runtime.Faults;
import org.nectl.service.loop.ControllerService;
import org.nectl.service.loop.ServiceSettings;
import org.nectl.service.loop.ThreadPinning;
import org.nectl.service.monitor.ControllerEventText;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.DriverDirectoryException;
import org.nectl.transport.FlightRecorderConfig;
import org.nectl.transport.SetupException;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl run --config FILE}: the controller service, until SIGINT or SIGTERM, until its Aeron
 * client loses the media driver, or until the control loop fails.
 *
 * <p>SIGINT or SIGTERM: the gateway refuses further commands, the loop stops a powered arm with the
 * shutdown's stop category (safety.stop_category.shutdown, 1 by default: a controlled stop, then the
 * brakes), the service waits up to the stop time plus {@value #SHUTDOWN_MARGIN_MS} ms for the loop
 * to have the drives off and the adapter to report them off, closes, and exits with status 0 (the
 * JVM has begun its shutdown by then, so the status is set by halting it once everything is
 * closed and flushed). Media driver lost: the loop has latched LINK_LOST; the service stops, printing
 * the loss with its time, the summary and every controller event it could not publish (exit status
 * {@value #DRIVER_LOST_EXIT_STATUS}). Control loop error: the loop has braked the arm and latched
 * LOOP_ERROR; the service lets the brake command and the events out, stops, prints the failure with
 * its stack trace and exits with status {@value #LOOP_ERROR_EXIT_STATUS}. Not real-time safe (it
 * starts and stops the service; the loop runs on its own thread).
 */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    description = {
        "Run the controller service with a deployment configuration (config/deploy/*.yaml) until interrupted.",
        "Exit status: 0 stopped by SIGINT/SIGTERM (a powered arm stopped and braked first), 2 bad configuration",
        "(including an aeron dir holding anything but a dead media driver's files, or used by a live driver),",
        "3 media driver lost (the arm in FAULT), 4 control loop error (the arm braked, in FAULT)."
    })
final class RunCommand implements Callable<Integer>
{
    /** Exit status when the Aeron client lost the media driver. */
    static final int DRIVER_LOST_EXIT_STATUS = 3;
    /** Exit status when the control loop caught a Throwable in a tick. */
    static final int LOOP_ERROR_EXIT_STATUS = 4;
    /** Time a shutdown may take beyond the stop time: the brake command's way to the drives and their answer, ms. */
    static final long SHUTDOWN_MARGIN_MS = 500;
    /** Time the loop goes on braking after an error before the service stops, so command and events get out, ms. */
    private static final long LOOP_ERROR_DRAIN_MS = 200;

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
                service = ControllerService.start(settings, flightRecorder(config.recording()));
            }
            catch (final DriverDirectoryException e)
            {
                System.err.println("nectl run: " + configFile + ": " + e.getMessage());
                return 2;
            }
            return serve(service, barrier);
        }
    }

    /** @return the flight recorder's settings, or null when the deployment does not record. */
    static FlightRecorderConfig flightRecorder(final RecordingSettings recording)
    {
        return recording.enabled()
            ? new FlightRecorderConfig(recording.directory(), recording.maxSizeBytes(), recording.maxAgeMs(),
                recording.segmentLengthBytes(), recording.streamId())
            : null;
    }

    /**
     * Runs a started service until the barrier is signalled (SIGINT, SIGTERM), the media driver is
     * lost or the loop fails; then stops it as the class comment says. After a signal the JVM is
     * halted with the status; otherwise it is returned.
     *
     * @param service the running service.
     * @param barrier signalled by SIGINT and SIGTERM.
     * @return the exit status.
     */
    static int serve(final ControllerService service, final ShutdownSignalBarrier barrier)
    {
        final ServiceSettings settings = service.settings();
        service.onTransportLoss(barrier::signal);
        service.onLoopError(barrier::signal);
        System.out.printf("nectl run: %d-dof %s, %s at %d us, law %s; planner udp %s; aeron dir %s (adapters and "
            + "monitors connect there); stop with Ctrl-C%n",
            settings.model().dof(), settings.model().name(), settings.mode(), settings.cycle().periodNs() / 1000,
            settings.law(), service.plannerAddress(), service.aeronDirectory());
        barrier.await();
        final boolean loopError = service.loop().loopErrorCount() > 0;
        final boolean bySignal = service.transportLoss() == null && !loopError;
        if (bySignal)
        {
            reportShutdown(service.stopForShutdown(SHUTDOWN_MARGIN_MS * 1_000_000L), settings);
        }
        else if (loopError)
        {
            awaitBrakeOut(service);
        }
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
        final int status = exitStatus(service, loss);
        System.out.flush();
        if (bySignal)
        {
            // The signal began the JVM's shutdown, whose exit status would be 128 + the signal.
            System.err.println("nectl run: stopped by signal; exiting with status " + status);
            System.err.flush();
            Runtime.getRuntime().halt(status);
        }
        return status;
    }

    private static int exitStatus(final ControllerService service, final AeronTransport.Loss loss)
    {
        if (service.loop().loopErrorCount() > 0)
        {
            final Throwable failure = service.loop().firstError();
            System.err.println("nectl run: the control loop failed: " + failure + " (" + service.loop().loopErrorCount()
                + " errors caught); it published zero torque with the brakes engaged and latched LOOP_ERROR (FAULT); "
                + "exiting with status " + LOOP_ERROR_EXIT_STATUS + " (control loop error). The first error:");
            failure.printStackTrace();
            return LOOP_ERROR_EXIT_STATUS;
        }
        if (loss != null)
        {
            System.err.println("nectl run: exiting with status " + DRIVER_LOST_EXIT_STATUS + " (media driver lost)");
            return DRIVER_LOST_EXIT_STATUS;
        }
        return 0;
    }

    private static void reportShutdown(final ControllerService.ShutdownStop stop, final ServiceSettings settings)
    {
        if (!stop.modeBefore().drivesPowered())
        {
            System.out.printf(Locale.ROOT, "nectl run: shutting down; the drives were off (%s)%n", stop.modeBefore());
            return;
        }
        System.out.printf(Locale.ROOT, "nectl run: shutting down from %s with a category %d stop: %s; %s (%.1f ms in all, "
            + "stop time %d ms + margin %d ms)%n",
            stop.modeBefore(), settings.safety().category(Faults.SHUTDOWN).ordinal(),
            stop.stopNs() < 0 ? "the loop did NOT reach a state with the drives off"
                : String.format(Locale.ROOT, "drives off, brakes engaged %.1f ms after the signal", stop.stopNs() / 1e6),
            stop.drivesReportOff() ? "the adapter reports the drives off" : "the adapter has NOT reported the drives off",
            stop.elapsedNs() / 1e6, settings.safety().stopTimeNs() / 1_000_000L, SHUTDOWN_MARGIN_MS);
    }

    /** After a loop error: the loop goes on publishing brake commands while the events are published. */
    private static void awaitBrakeOut(final ControllerService service)
    {
        final long deadlineNs = System.nanoTime() + LOOP_ERROR_DRAIN_MS * 1_000_000L;
        while (System.nanoTime() - deadlineNs < 0)
        {
            LockSupport.parkNanos(1_000_000L);
        }
    }
}
