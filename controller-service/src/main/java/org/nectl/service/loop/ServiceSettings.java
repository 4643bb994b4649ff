package org.nectl.service.loop;

import java.net.InetSocketAddress;

import org.nectl.config.deploy.AeronSettings;
import org.nectl.config.deploy.DeploymentConfig;
import org.nectl.config.deploy.DeploymentMode;
import org.nectl.config.deploy.HardwareSettings;
import org.nectl.config.deploy.TelemetrySettings;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.transport.AeronConfig;
import org.nectl.transport.LinkConfig;
import org.nectl.transport.PlannerGatewayConfig;
import org.nectl.transport.TelemetryConfig;

/**
 * Everything a {@link ControllerService} needs, resolved and validated. Immutable.
 *
 * @param model the controlled robot.
 * @param cycle control-cycle settings (period, gains, supervision).
 * @param mode realtime or lockstep.
 * @param core CPU to pin the control loop to, or -1.
 * @param aeron media driver (embedded or external).
 * @param link hardware link channel and streams.
 * @param planner planner gateway UDP settings.
 * @param telemetry telemetry publication settings.
 * @param law the control law selected at start (planners may switch it when enabling).
 * @param safety stop categories per fault and the supervisor's reflex limits.
 */
public record ServiceSettings(
    RobotModel model,
    CycleSettings cycle,
    LoopMode mode,
    int core,
    AeronConfig aeron,
    LinkConfig link,
    PlannerGatewayConfig planner,
    TelemetryConfig telemetry,
    ControlLaw law,
    SafetySettings safety)
{
    /**
     * Defaults around a model: realtime at the given period, embedded driver in a fresh directory,
     * IPC hardware link and telemetry, planner gateway on the given address.
     *
     * @param model the robot.
     * @param periodNs control period, ns.
     * @param plannerAddress UDP address of the planner gateway.
     * @return the settings.
     */
    public static ServiceSettings defaults(final RobotModel model, final long periodNs, final InetSocketAddress plannerAddress)
    {
        return new ServiceSettings(
            model,
            CycleSettings.defaults(model.dof(), periodNs),
            LoopMode.REALTIME,
            -1,
            AeronConfig.embeddedDefaults(),
            LinkConfig.ipcDefaults(),
            PlannerGatewayConfig.defaults(plannerAddress),
            TelemetryConfig.ipcDefaults(),
            ControlLaw.COMPUTED_TORQUE,
            SafetySettings.defaults(model.dof()));
    }

    /**
     * Resolves a validated deployment configuration into service settings.
     *
     * @param config the loaded deployment file.
     * @return the settings.
     */
    public static ServiceSettings from(final DeploymentConfig config)
    {
        final AeronSettings aeronSettings = config.aeron();
        final AeronConfig aeronConfig;
        if (aeronSettings.embeddedDriver())
        {
            final AeronConfig defaults = AeronConfig.embeddedDefaults();
            // Aeron's standard directory by default, so `nectl sim` and `nectl monitor` find the driver unasked.
            aeronConfig = new AeronConfig(true, aeronSettings.directory().orElse(io.aeron.CommonContext.getAeronDirectoryName()),
                defaults.threadingMode(), defaults.driverIdleStrategy());
        }
        else
        {
            aeronConfig = AeronConfig.external(aeronSettings.directory().orElse(io.aeron.CommonContext.getAeronDirectoryName()));
        }
        final HardwareSettings hardware = config.hardware();
        final TelemetrySettings telemetrySettings = config.telemetry();
        final TelemetryConfig telemetryDefaults = TelemetryConfig.ipcDefaults();
        return new ServiceSettings(
            config.model(),
            config.cycleSettings(),
            config.mode() == DeploymentMode.LOCKSTEP ? LoopMode.LOCKSTEP : LoopMode.REALTIME,
            config.core().orElse(-1),
            aeronConfig,
            new LinkConfig(hardware.channel(), hardware.jointStateStreamId(), hardware.motorCommandStreamId(), hardware.heartbeatStreamId()),
            PlannerGatewayConfig.defaults(new InetSocketAddress(config.planner().host(), config.planner().port())),
            new TelemetryConfig(telemetrySettings.channel(), telemetrySettings.streamId(), telemetrySettings.decimation(),
                telemetryDefaults.ringCapacityBytes()),
            config.law(),
            config.safetySettings());
    }

    /** @return a copy in the given loop mode. */
    public ServiceSettings withMode(final LoopMode loopMode)
    {
        return new ServiceSettings(model, cycle, loopMode, core, aeron, link, planner, telemetry, law, safety);
    }

    /** @return a copy whose control loop is pinned to {@code cpu} (negative: not pinned). */
    public ServiceSettings withCore(final int cpu)
    {
        return new ServiceSettings(model, cycle, mode, cpu, aeron, link, planner, telemetry, law, safety);
    }

    /** @return a copy with other cycle settings. */
    public ServiceSettings withCycle(final CycleSettings cycleSettings)
    {
        return new ServiceSettings(model, cycleSettings, mode, core, aeron, link, planner, telemetry, law, safety);
    }

    /** @return a copy with other safety settings. */
    public ServiceSettings withSafety(final SafetySettings safetySettings)
    {
        return new ServiceSettings(model, cycle, mode, core, aeron, link, planner, telemetry, law, safetySettings);
    }
}
