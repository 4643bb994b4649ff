package org.nectl.hw;

import java.util.List;

/**
 * The injected faults of a simulated arm, indexed by control period: a fault at time t is active
 * from the first period boundary at or after t on.
 *
 * <p>Real-time safe queries after construction. Immutable.
 */
final class FaultSchedule
{
    private final FaultKind[] kinds;
    private final long[] steps;
    private final int[] joints;
    private final double[] jumps;

    FaultSchedule(final List<InjectedFault> faults, final long periodNs)
    {
        kinds = new FaultKind[faults.size()];
        steps = new long[faults.size()];
        joints = new int[faults.size()];
        jumps = new double[faults.size()];
        for (int f = 0; f < faults.size(); f++)
        {
            final InjectedFault fault = faults.get(f);
            kinds[f] = fault.kind();
            steps[f] = (fault.atNs() + periodNs - 1) / periodNs;
            joints[f] = fault.joint();
            jumps[f] = fault.jump();
        }
    }

    /** @return true if some fault of the kind is active at the step (any joint). */
    boolean active(final long step, final FaultKind kind)
    {
        for (int f = 0; f < kinds.length; f++)
        {
            if (kinds[f] == kind && step >= steps[f])
            {
                return true;
            }
        }
        return false;
    }

    /** @return true if a NAN fault of the joint is active at the step. */
    boolean encoderFailed(final long step, final int joint)
    {
        for (int f = 0; f < kinds.length; f++)
        {
            if (kinds[f] == FaultKind.NAN && joints[f] == joint && step >= steps[f])
            {
                return true;
            }
        }
        return false;
    }

    /** @return the sum of the joint's JUMP offsets active at the step, rad or m. */
    double slip(final long step, final int joint)
    {
        double offset = 0.0;
        for (int f = 0; f < kinds.length; f++)
        {
            if (kinds[f] == FaultKind.JUMP && joints[f] == joint && step >= steps[f])
            {
                offset += jumps[f];
            }
        }
        return offset;
    }
}
