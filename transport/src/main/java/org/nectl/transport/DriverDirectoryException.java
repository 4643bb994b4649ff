package org.nectl.transport;

/**
 * A media driver directory that cannot be proved to be an unused media driver's, refused before
 * anything in it is deleted (see {@link DriverDirectory}); or one whose clean-up failed. The
 * message names the directory, the entry and the reason, for the user.
 */
public final class DriverDirectoryException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    /**
     * @param message the directory, the entry and the reason.
     */
    public DriverDirectoryException(final String message)
    {
        super(message);
    }

    /**
     * @param message the directory and what failed.
     * @param cause the failure.
     */
    public DriverDirectoryException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
