package org.nectl.config.urdf;

/**
 * A URDF description that cannot be turned into a robot model: names the file, the line, the
 * element path (e.g. {@code /robot/joint[@name='elbow']/axis}) and what was expected there.
 */
public final class UrdfException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;
    private final String elementPath;

    /**
     * @param source file name (or other source label) of the description.
     * @param line 1-based line of the offending element, or 0 if unknown.
     * @param elementPath path of the offending element.
     * @param problem what is wrong and what was expected.
     */
    public UrdfException(final String source, final int line, final String elementPath, final String problem)
    {
        super(source + ":" + line + ": " + elementPath + ": " + problem);
        this.source = source;
        this.line = line;
        this.elementPath = elementPath;
    }

    /** @return the file name or source label of the description. */
    public String source()
    {
        return source;
    }

    /** @return the 1-based line of the offending element, or 0 if unknown. */
    public int line()
    {
        return line;
    }

    /** @return the path of the offending element, e.g. {@code /robot/link[@name='hand']/inertial}. */
    public String elementPath()
    {
        return elementPath;
    }
}
