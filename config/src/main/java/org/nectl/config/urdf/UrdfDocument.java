package org.nectl.config.urdf;

import java.io.Reader;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.Map;

import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * Reads URDF text into a tree of {@link UrdfElement}s with the JDK's streaming parser (StAX), which,
 * unlike DOM, reports the line of every start tag. DTDs and external entities are refused.
 * Not real-time safe; thread safe (no shared state).
 */
final class UrdfDocument
{
    private UrdfDocument()
    {
    }

    /**
     * @param text URDF text.
     * @param source file name or label used in messages.
     * @return the {@code <robot>} element.
     * @throws UrdfException if the text is not well-formed XML or its root is not {@code <robot>}.
     */
    static UrdfElement parse(final Reader text, final String source)
    {
        final XMLInputFactory factory = XMLInputFactory.newDefaultFactory();
        factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        // Without namespaces a prefixed extension tag such as drake:gear_ratio keeps its prefix as its name.
        factory.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        final Deque<UrdfElement> open = new ArrayDeque<>();
        UrdfElement root = null;
        try
        {
            final XMLStreamReader xml = factory.createXMLStreamReader(text);
            while (xml.hasNext())
            {
                final int event = xml.next();
                if (event == XMLStreamConstants.START_ELEMENT)
                {
                    final UrdfElement element = new UrdfElement(
                        source, xml.getLocalName(), xml.getLocation().getLineNumber(),
                        open.isEmpty() ? "" : open.peek().path(), attributes(xml));
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
            final int line = e.getLocation() == null ? 0 : e.getLocation().getLineNumber();
            throw new UrdfException(source, line, open.isEmpty() ? "/" : open.peek().path(),
                "not well-formed XML (" + e.getMessage() + "); expected a URDF document");
        }
        if (root == null || !root.name().equals("robot"))
        {
            throw new UrdfException(source, root == null ? 0 : root.line(), root == null ? "/" : root.path(),
                "the root element must be <robot>");
        }
        return root;
    }

    private static Map<String, String> attributes(final XMLStreamReader xml)
    {
        final Map<String, String> result = new LinkedHashMap<>();
        for (int i = 0; i < xml.getAttributeCount(); i++)
        {
            result.put(xml.getAttributeLocalName(i), xml.getAttributeValue(i));
        }
        return result;
    }
}
