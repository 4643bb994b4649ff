package org.nectl.core.runtime;

import org.nectl.core.model.RobotModel;

/**
 * Discontinuity check of the reference the control law is about to follow: every value finite,
 * and no position step between consecutive ticks larger than a new reference may start away from
 * the current one ({@link ControlCycle#MAX_REFERENCE_JUMP}) plus one period at the velocity limit.
 * Steps across a mode transition are the transition's own business (each checks its start).
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
final class ReferenceMonitor
{
    private final int dof;
    private final double[] maxStep;
    private final double[] previousQ;
    private boolean hasPrevious;

    ReferenceMonitor(final RobotModel model, final long periodNs)
    {
        dof = model.dof();
        maxStep = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            maxStep[j] = ControlCycle.MAX_REFERENCE_JUMP + model.limits(j).velocityMax() * periodNs * 1e-9;
        }
        previousQ = new double[dof];
    }

    /**
     * @param continuing false on the first tick of a mode: the step from the previous tick is not checked.
     * @return true if the reference is finite and continuous.
     */
    boolean accept(final boolean continuing, final double[] q, final double[] qd, final double[] qdd, final double[] qddd)
    {
        boolean ok = StateMonitor.finite(q) && StateMonitor.finite(qd) && StateMonitor.finite(qdd) && StateMonitor.finite(qddd);
        if (ok && continuing && hasPrevious)
        {
            for (int j = 0; j < dof; j++)
            {
                ok &= Math.abs(q[j] - previousQ[j]) <= maxStep[j];
            }
        }
        System.arraycopy(q, 0, previousQ, 0, dof);
        hasPrevious = ok;
        return ok;
    }
}
