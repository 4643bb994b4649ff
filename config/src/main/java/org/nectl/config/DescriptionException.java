package org.nectl.config;

/**
 * A robot description or deployment configuration that cannot be read or breaks a rule. The
 * message names the file, the line and column (1-based; 0 when unknown), the field and the rule
 * broken, for example
 * {@code stanford.yaml:14:7: links.link3.inertia: ... violates the triangle inequality}.
 */
public final class DescriptionException extends RuntimeException
{
    private final String file;
    private final int line;
    private final int column;
    private final String field;
    private final String reason;

    /**
     * @param file file name as the user gave it.
     * @param line 1-based line, 0 if unknown.
     * @param column 1-based column, 0 if unknown.
     * @param field dotted path of the offending field, e.g. {@code links.link3.mass}.
     * @param reason the value and the rule it breaks.
     */
    public DescriptionException(
        final String file, final int line, final int column, final String field, final String reason)
    {
        super(format(file, line, column, field, reason));
        this.file = file;
        this.line = line;
        this.column = column;
        this.field = field;
        this.reason = reason;
    }

    private static String format(
        final String file, final int line, final int column, final String field, final String reason)
    {
        final StringBuilder sb = new StringBuilder(file);
        if (line > 0)
        {
            sb.append(':').append(line);
            if (column > 0)
            {
                sb.append(':').append(column);
            }
        }
        sb.append(": ");
        if (!field.isEmpty())
        {
            sb.append(field).append(": ");
        }
        return sb.append(reason).toString();
    }

    /** @return the file name. */
    public String file()
    {
        return file;
    }

    /** @return the 1-based line, 0 if unknown. */
    public int line()
    {
        return line;
    }

    /** @return the 1-based column, 0 if unknown. */
    public int column()
    {
        return column;
    }

    /** @return the dotted path of the offending field; empty for the whole file. */
    public String field()
    {
        return field;
    }

    /** @return the value and the rule broken, without the location prefix. */
    public String reason()
    {
        return reason;
    }
}
