package org.nectl.config.urdf;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import org.nectl.config.DescriptionException;

/**
 * One XML element of a URDF file with the line and column its start tag begins on and its path
 * from the root, so that every rejection can name them. The path is built only when a message needs
 * it, from the parent links: storing it in every element would take memory quadratic in the nesting
 * depth. Attribute values are read strictly: numbers must be finite decimal literals. Not thread
 * safe while being built; immutable afterwards by convention.
 */
final class UrdfElement
{
    private static final Pattern DECIMAL = Pattern.compile("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?");
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");

    private final String source;
    private final String name;
    private final int line;
    private final int column;
    private final UrdfElement parent;
    private final Map<String, String> attributes;
    private final List<UrdfElement> children = new ArrayList<>();

    /**
     * @param parent the enclosing element, null for the root.
     * @param attributes the element's attributes, owned by this element from now on.
     */
    UrdfElement(
        final String source, final String name, final int line, final int column, final UrdfElement parent,
        final Map<String, String> attributes)
    {
        this.source = source;
        this.name = name;
        this.line = line;
        this.column = column;
        this.parent = parent;
        this.attributes = attributes;
    }

    void addChild(final UrdfElement child)
    {
        children.add(child);
    }

    /** @return the element's tag name (with its prefix, e.g. {@code drake:gear_ratio}). */
    String name()
    {
        return name;
    }

    /** @return the 1-based line the element's start tag begins on. */
    int line()
    {
        return line;
    }

    /** @return the element's path from the document root, e.g. {@code /robot/joint[@name='j2']/axis}. */
    String path()
    {
        final StringBuilder sb = new StringBuilder();
        appendPath(sb);
        return sb.toString();
    }

    private void appendPath(final StringBuilder sb)
    {
        if (parent != null)
        {
            parent.appendPath(sb);
        }
        sb.append('/').append(name);
        final String nameAttribute = attributes.get("name");
        // The root is unique, so only elements below it are told apart by their name attribute.
        if (nameAttribute != null && parent != null)
        {
            sb.append("[@name='").append(nameAttribute).append("']");
        }
    }

    /** @return the child elements with that tag name, in document order. */
    List<UrdfElement> children(final String tag)
    {
        final List<UrdfElement> result = new ArrayList<>();
        for (final UrdfElement child : children)
        {
            if (child.name.equals(tag))
            {
                result.add(child);
            }
        }
        return result;
    }

    /** @return the only child with that tag, or null if there is none; more than one is an error. */
    UrdfElement optionalChild(final String tag)
    {
        final List<UrdfElement> found = children(tag);
        if (found.size() > 1)
        {
            throw found.get(1).error("a second <" + tag + ">; expected at most one in <" + name + ">");
        }
        return found.isEmpty() ? null : found.get(0);
    }

    /** @return the only child with that tag; none or several is an error. */
    UrdfElement requiredChild(final String tag, final String expected)
    {
        final UrdfElement child = optionalChild(tag);
        if (child == null)
        {
            throw error("missing <" + tag + ">; expected " + expected);
        }
        return child;
    }

    /** @return the attribute's value, or null if absent. */
    String attribute(final String attribute)
    {
        return attributes.get(attribute);
    }

    /** @return the attribute's value; absent or empty is an error. */
    String requiredAttribute(final String attribute, final String expected)
    {
        final String value = attributes.get(attribute);
        if (value == null || value.isBlank())
        {
            throw error("missing attribute '" + attribute + "'; expected " + expected);
        }
        return value.strip();
    }

    /** @return the attribute as a finite number, or {@code defaultValue} if absent. */
    double number(final String attribute, final double defaultValue)
    {
        final String value = attributes.get(attribute);
        return value == null ? defaultValue : parseNumber(attribute, value.strip());
    }

    /** @return the attribute as a finite number; absent is an error. */
    double requiredNumber(final String attribute)
    {
        return parseNumber(attribute, requiredAttribute(attribute, "a finite decimal number"));
    }

    /** @return the attribute as three finite numbers separated by spaces, or a copy of the default. */
    double[] vector3(final String attribute, final double[] defaultValue)
    {
        final String value = attributes.get(attribute);
        if (value == null)
        {
            return defaultValue.clone();
        }
        final String[] parts = WHITESPACE.split(value.strip());
        if (parts.length != 3)
        {
            throw error("attribute " + attribute + "=\"" + value + "\" has " + parts.length
                + " values; expected three finite decimal numbers separated by spaces");
        }
        final double[] v = new double[3];
        for (int i = 0; i < 3; i++)
        {
            v[i] = parseNumber(attribute, parts[i]);
        }
        return v;
    }

    /** @return an exception locating this element (field = element path), with the problem and what was expected. */
    DescriptionException error(final String problem)
    {
        return new DescriptionException(source, line, column, path(), problem);
    }

    private double parseNumber(final String attribute, final String text)
    {
        if (!DECIMAL.matcher(text).matches())
        {
            throw error("attribute " + attribute + ": '" + text + "' is not a number; expected a finite decimal number");
        }
        final double value = Double.parseDouble(text);
        if (!Double.isFinite(value))
        {
            throw error("attribute " + attribute + ": '" + text + "' overflows; expected a finite decimal number");
        }
        return value;
    }
}
