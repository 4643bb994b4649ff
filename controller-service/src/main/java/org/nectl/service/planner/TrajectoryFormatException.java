package org.nectl.service.planner;

/** A trajectory file that does not follow the format; the message names file, line, column and value. */
public final class TrajectoryFormatException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    /** @param message file:line: column (name): what is wrong. */
    public TrajectoryFormatException(final String message)
    {
        super(message);
    }
}
