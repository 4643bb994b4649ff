package org.nectl.core.closedloop;

/**
 * A closed-loop description that cannot be used: its loops do not close at the home configuration,
 * the active joints are not as many as the loops leave free, or the passive joints cannot follow the
 * active ones there. The message states the numbers.
 */
public final class ClosedLoopDefectException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** What is wrong. */
    public enum Defect
    {
        /** The closure residual at home is above {@link ClosedLoopModel#HOME_TOLERANCE}. */
        NOT_CLOSED_AT_HOME,
        /** The number of active joints differs from the mechanism's degrees of freedom. */
        WRONG_ACTIVE_COUNT,
        /** The constraint Jacobian of the passive joints is singular at home. */
        SINGULAR_AT_HOME
    }

    private final Defect defect;

    /**
     * @param defect what is wrong.
     * @param message the numbers.
     */
    public ClosedLoopDefectException(final Defect defect, final String message)
    {
        super(message);
        this.defect = defect;
    }

    /** @return what is wrong. */
    public Defect defect()
    {
        return defect;
    }
}
