package org.nectl.service.loop;

/** A controller service whose loop throws in one tick: the error path's fault injection for tests in other packages. */
public final class FailingService
{
    private FailingService()
    {
    }

    /**
     * @param settings the service's settings.
     * @param failingTick the tick count at which a tick throws an IllegalStateException.
     * @return the running service.
     */
    public static ControllerService start(final ServiceSettings settings, final long failingTick)
    {
        return ControllerService.start(settings, tickCount ->
        {
            if (tickCount == failingTick)
            {
                throw new IllegalStateException("injected failure in tick " + failingTick);
            }
        });
    }

    /** @return the default test settings around the Panda, realtime at 1 kHz, on an ephemeral port. */
    public static ServiceSettings settings()
    {
        return ServiceRig.settings(LoopMode.REALTIME);
    }
}
