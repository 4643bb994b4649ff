package org.nectl.service.loop;

/**
 * A step the control loop runs inside every guarded iteration, after the tick: the seam through
 * which a test makes a tick throw, to exercise the loop's error path. The service runs
 * {@link #NONE}, a call the JIT inlines to nothing.
 */
@FunctionalInterface
interface TickStage
{
    /** The stage of a running service: does nothing. */
    TickStage NONE = tickCount -> { };

    /**
     * Runs on the loop thread; must be real-time safe unless it is there to fail.
     *
     * @param tickCount ticks run so far.
     */
    void afterTick(long tickCount);
}
