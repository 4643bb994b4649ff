package org.nectl.config.urdf;

import java.io.StringReader;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.stream.Location;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

import org.nectl.config.DescriptionException;

/**
 * Reads URDF text into a tree of {@link UrdfElement}s with the JDK's streaming parser (StAX), which,
 * unlike DOM, reports where every start tag is. DTDs and external entities are refused, and elements
 * nested deeper than {@link #MAX_DEPTH} are refused as they are met, so that memory stays linear in
 * the text. Not real-time safe; thread safe (no shared state).
 */
final class UrdfDocument
{
    /**
     * The deepest element nesting accepted; {@code <robot>} is level 1. URDF itself needs 4
     * ({@code robot/link/inertial/origin}); simulator extensions such as Gazebo sensor blocks reach 7.
     */
    static final int MAX_DEPTH = 64;

    /**
     * The most elements accepted in one file: an average of 20 bytes each in a file of the size
     * limit. Elements are kept in memory, so their count bounds the memory as the size limit bounds
     * the text (a file of empty elements stops at 44 MB allocated).
     */
    static final int MAX_ELEMENTS = 200_000;

    private final String text;
    private final List<Integer> lineStarts = new ArrayList<>();

    private UrdfDocument(final String text)
    {
        this.text = text;
        lineStarts.add(0);
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            // XML counts CR LF, CR and LF each as one line break.
            if (c == '\n' || (c == '\r' && (i + 1 == text.length() || text.charAt(i + 1) != '\n')))
            {
                lineStarts.add(i + 1);
            }
        }
    }

    /**
     * @param text URDF text.
     * @param source file name or label used in messages.
     * @return the {@code <robot>} element.
     * @throws DescriptionException if the text is not well-formed XML or its root is not {@code <robot>}.
     */
    static UrdfElement parse(final String text, final String source)
    {
        return new UrdfDocument(text).parse(source);
    }

    private UrdfElement parse(final String source)
    {
        final XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        // Without namespaces a prefixed extension tag such as drake:gear_ratio keeps its prefix as its name.
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        // A second guard inside the parser, one level above the check below, which names the element.
        factory.setProperty("jdk.xml.maxElementDepth", String.valueOf(MAX_DEPTH + 1));
        final Deque<UrdfElement> open = new ArrayDeque<>();
        UrdfElement root = null;
        int elements = 0;
        try
        {
            final XMLStreamReader xml = factory.createXMLStreamReader(new StringReader(text));
            while (xml.hasNext())
            {
                final int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT)
                {
                    final int start = tagStart(xml.getLocation());
                    final int line = lineOf(start);
                    final UrdfElement element = new UrdfElement(source, xml.getLocalName(), line + 1,
                        start - lineStarts.get(line) + 1, open.peek(), attributes(xml));
                    if (++elements > MAX_ELEMENTS)
                    {
                        throw element.error("the file has more than " + MAX_ELEMENTS
                            + " elements; the limit is " + MAX_ELEMENTS);
                    }
                    if (open.size() == MAX_DEPTH)
                    {
                        throw element.error("elements are nested more than " + MAX_DEPTH
                            + " levels deep here; the limit is " + MAX_DEPTH);
                    }
                    if (open.isEmpty())
                    {
                        root = element;
                    }
                    else
                    {
                        open.peek().addChild(element);
                    }
                    open.push(element);
                }
                else if (event == XMLStreamConstants.END_ELEMENT)
                {
                    open.pop();
                }
            }
            xml.close();
        }
        catch (final XMLStreamException e)
        {
            final Location at = e.getLocation();
            throw new DescriptionException(source, at == null ? 0 : at.getLineNumber(),
                at == null ? 0 : at.getColumnNumber(), open.isEmpty() ? "" : open.peek().path(),
                "not well-formed XML (" + e.getMessage() + "); expected a URDF document");
        }
        if (root == null || !root.name().equals("robot"))
        {
            throw root == null ? new DescriptionException(source, 0, 0, "", "no XML element; expected <robot>")
                : root.error("the root element must be <robot>");
        }
        return root;
    }

    /**
     * StAX locates a start-element event after its closing '>'; '<' cannot occur inside a tag (not
     * even in attribute values), so the tag begins at the last '<' before that point.
     *
     * @return the character offset of the start tag's '<'.
     */
    private int tagStart(final Location end)
    {
        final int line = Math.min(Math.max(end.getLineNumber(), 1), lineStarts.size()) - 1;
        int offset = Math.min(lineStarts.get(line) + Math.max(end.getColumnNumber(), 1) - 1, text.length());
        do
        {
            offset--;
        }
        while (offset > 0 && text.charAt(offset) != '<');
        return Math.max(offset, 0);
    }

    private int lineOf(final int offset)
    {
        int lo = 0;
        int hi = lineStarts.size() - 1;
        while (lo < hi)
        {
            final int mid = (lo + hi + 1) >>> 1;
            if (lineStarts.get(mid) <= offset)
            {
                lo = mid;
            }
            else
            {
                hi = mid - 1;
            }
        }
        return lo;
    }

    private static Map<String, String> attributes(final XMLStreamReader xml)
    {
        if (xml.getAttributeCount() == 0)
        {
            return Map.of();
        }
        final Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < xml.getAttributeCount(); i++)
        {
            result.put(xml.getAttributeLocalName(i), xml.getAttributeValue(i));
        }
        return result;
    }
}
