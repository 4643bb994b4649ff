package org.nectl.core.control;

/**
 * Result codes of the control laws' per-tick compute methods (codes, not exceptions, on the
 * real-time path).
 */
public final class ControlStatus
{
    /** Every output is finite. */
    public static final int OK = 0;
    /** At least one output is NaN or infinite (a non-finite input or gain); do not send it. */
    public static final int NON_FINITE_OUTPUT = 1;
    /** The model's equations had no solution at this state (a singular matrix); do not send the output. */
    public static final int SINGULAR_MODEL = 2;

    private ControlStatus()
    {
    }

    /**
     * Real-time safe.
     *
     * @param values outputs of one tick.
     * @return {@link #OK} if every element is finite, else {@link #NON_FINITE_OUTPUT}.
     */
    static int of(final double[] values)
    {
        for (final double v : values)
        {
            if (!Double.isFinite(v))
            {
                return NON_FINITE_OUTPUT;
            }
        }
        return OK;
    }
}
