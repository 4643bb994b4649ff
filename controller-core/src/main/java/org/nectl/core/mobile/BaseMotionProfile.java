package org.nectl.core.mobile;

import org.nectl.core.dynamics.BaseMotion;

/**
 * A prescribed motion of a carried base over time, for simulation: the base a simulated arm rides
 * on (a ship's deck, a mobile platform). Implementations are immutable and real-time safe.
 */
public interface BaseMotionProfile
{
    /**
     * Fills the base's motion at a time, in the conventions of {@link BaseMotion} (base coordinates,
     * specific force under the given gravity). Real-time safe: allocates nothing.
     *
     * @param timeS time since the start of the motion, s.
     * @param gravity world gravity, m/s^2, 3 components.
     * @param out receives the motion.
     */
    void at(double timeS, double[] gravity, BaseMotion out);
}
