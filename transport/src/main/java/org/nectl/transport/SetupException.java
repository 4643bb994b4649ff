package org.nectl.transport;

/**
 * A setting this host cannot work with: a planner key file that is refused (missing, unreadable,
 * too open, malformed), a gateway address that does not resolve or cannot be bound, a thread
 * placement the host does not grant. The message names the file or setting and says what is
 * wrong; it never contains key material. The command line reports it as bad input (exit status
 * 2), without a stack trace.
 */
public final class SetupException extends IllegalArgumentException
{
    /**
     * @param message what is wrong and with which file or setting.
     */
    public SetupException(final String message)
    {
        super(message);
    }

    /**
     * @param message what is wrong and with which file or setting.
     * @param cause the underlying I/O failure.
     */
    public SetupException(final String message, final Throwable cause)
    {
        super(message, cause);
    }
}
