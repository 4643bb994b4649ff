package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.fail;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import org.agrona.CloseHelper;
import org.agrona.concurrent.SystemNanoClock;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.hw.AdapterSettings;
import org.nectl.hw.SimulatedArm;
import org.nectl.hw.SimulatedArmAdapter;
import org.nectl.hw.SimulatedArmConfig;
import org.nectl.hw.SimulationMode;
import org.nectl.service.planner.PlannerClient;
import org.nectl.transport.AdapterLink;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.AeronTransport;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.TelemetryConfig;

/**
 * The running service on its own embedded media driver (fresh directory, deleted on close), a
 * second Aeron client on that driver for the test's simulated arm and telemetry subscription, and
 * the planner client on the gateway.
 */
final class ServiceRig implements AutoCloseable
{
    /** The shipped 7-DoF robot. */
    static final RobotModel PANDA = RobotDescriptions.load(Path.of("../config/robots/panda.yaml"));
    /** Panda's "ready" pose, inside every joint range, rad. */
    static final double[] READY = {0.0, -Math.PI / 4, 0.0, -3 * Math.PI / 4, 0.0, Math.PI / 2, Math.PI / 4};
    static final long PERIOD_NS = 1_000_000L;
    private static final long PLANNER_ID = 7;
    private static final long TIMEOUT_NS = TimeUnit.SECONDS.toNanos(20);

    final ControllerService service;
    final AeronTransport client;
    final TelemetryRecorder telemetry;
    final PlannerClient planner;

    ServiceRig(final ServiceSettings settings)
    {
        service = ControllerService.start(settings);
        client = AeronTransport.launch(AeronConfig.external(service.aeronDirectory()));
        telemetry = new TelemetryRecorder(client.aeron());
        planner = new PlannerClient(service.plannerAddress(), PLANNER_ID, Duration.ofSeconds(10),
            settings.planner().maxDatagramLength());
        await(telemetry::isConnected, "telemetry subscription connected");
    }

    /** Default settings around the Panda at 1 kHz on an ephemeral loopback port, telemetry every tick. */
    static ServiceSettings settings(final LoopMode mode)
    {
        final ServiceSettings defaults = ServiceSettings.defaults(PANDA, PERIOD_NS, new InetSocketAddress("127.0.0.1", 0));
        final TelemetryConfig everyTick = new TelemetryConfig(TelemetryConfig.IPC_CHANNEL, TelemetryConfig.STREAM_ID, 1, 1 << 20);
        return new ServiceSettings(defaults.model(), defaults.cycle(), mode, defaults.core(), defaults.aeron(),
            defaults.link(), defaults.planner(), everyTick, defaults.law());
    }

    /** The ideal simulated Panda at rest in the ready pose. */
    static SimulatedArmConfig armConfig()
    {
        return new SimulatedArmConfig(PANDA).periodNs(PERIOD_NS).initialQ(READY);
    }

    /** A simulated arm adapter in this process, on the service's driver; run it with {@code doWork}. */
    SimulatedArmAdapter adapter(final SimulatedArm arm, final SimulationMode mode)
    {
        final AdapterLink link = new AdapterLink(client.aeron(), LinkConfig.ipcDefaults(), PANDA.dof());
        await(link::isConnected, "adapter link connected");
        return new SimulatedArmAdapter(arm, link, AdapterSettings.defaults(), mode, SystemNanoClock.INSTANCE, () ->
        {
            throw new AssertionError("no crash fault was configured");
        });
    }

    /** Evaluates the condition until it holds, failing after 20 s; never sleeps. */
    static void await(final BooleanSupplier condition, final String what)
    {
        final long deadlineNs = System.nanoTime() + TIMEOUT_NS;
        while (!condition.getAsBoolean())
        {
            if (System.nanoTime() - deadlineNs > 0)
            {
                fail("no " + what + " within " + TimeUnit.NANOSECONDS.toSeconds(TIMEOUT_NS) + " s");
            }
            Thread.yield();
        }
    }

    /** Waits until the loop has taken {@code count} planner commands in all. */
    void awaitApplied(final long count)
    {
        await(() -> service.loop().appliedCommandCount() >= count, count + " planner commands applied by the loop");
    }

    @Override
    public void close()
    {
        CloseHelper.closeAll(planner, telemetry, client, service);
    }
}
