package org.nectl.hw;

import java.util.Arrays;

import org.nectl.transport.sbe.DriveMode;

/**
 * Transport and drive latency of whole control periods: the command written in period n reaches
 * the drives in period n + latency; before the first command has travelled through, the drives see
 * "disabled". With zero latency a command acts in the period it arrives.
 *
 * <p>Real-time safe after construction. Not thread safe.
 */
final class CommandDelayLine
{
    private final int dof;
    private final int slots;
    private final double[] tauNm;
    private final DriveMode[] modes;
    private final boolean[] enables;
    private long writeCount;

    CommandDelayLine(final int dof, final int latencyPeriods)
    {
        this.dof = dof;
        slots = latencyPeriods + 1;
        tauNm = new double[slots * dof];
        modes = new DriveMode[slots];
        enables = new boolean[slots];
        Arrays.fill(modes, DriveMode.ZERO_TORQUE);
    }

    /** Enters this period's command and returns the slot of the command the drives apply now. */
    int advance(final double[] commandTauNm, final DriveMode mode, final boolean enable)
    {
        final int write = (int)(writeCount % slots);
        System.arraycopy(commandTauNm, 0, tauNm, write * dof, dof);
        modes[write] = mode;
        enables[write] = enable;
        writeCount++;
        return (int)(writeCount % slots);
    }

    double tauNm(final int slot, final int joint)
    {
        return tauNm[slot * dof + joint];
    }

    DriveMode mode(final int slot)
    {
        return modes[slot];
    }

    boolean enable(final int slot)
    {
        return enables[slot];
    }
}
