package org.nectl.config;

import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.parser.Parser;

/**
 * A YAML event stream that refuses lists and mappings nested deeper than a limit. The parser is
 * iterative, but snakeyaml-engine's composer recurses once per level, so without this bound a few
 * kilobytes of {@code [[[[...} overflow the thread's stack. Counting at the parser's start events
 * stops the document before the composer descends. Not thread safe.
 */
final class NestingLimitedParser implements Parser
{
    private final Parser parser;
    private final String file;
    private final int maxDepth;
    private int depth;

    /**
     * @param parser the events to pass through.
     * @param file file name used in messages.
     * @param maxDepth the deepest nesting of lists and mappings accepted (the root collection is level 1).
     */
    NestingLimitedParser(final Parser parser, final String file, final int maxDepth)
    {
        this.parser = parser;
        this.file = file;
        this.maxDepth = maxDepth;
    }

    @Override
    public boolean checkEvent(final Event.ID choice)
    {
        return parser.checkEvent(choice);
    }

    @Override
    public Event peekEvent()
    {
        return parser.peekEvent();
    }

    @Override
    public boolean hasNext()
    {
        return parser.hasNext();
    }

    @Override
    public Event next()
    {
        final Event event = parser.next();
        final Event.ID id = event.getEventId();
        if (id == Event.ID.MappingStart || id == Event.ID.SequenceStart)
        {
            depth++;
            if (depth > maxDepth)
            {
                final int line = event.getStartMark().map(m -> m.getLine() + 1).orElse(0);
                final int column = event.getStartMark().map(Mark::getColumn).map(c -> c + 1).orElse(0);
                throw new DescriptionException(file, line, column, "", "lists and mappings are nested more than "
                    + maxDepth + " levels deep here; the limit is " + maxDepth);
            }
        }
        else if (id == Event.ID.MappingEnd || id == Event.ID.SequenceEnd)
        {
            depth--;
        }
        return event;
    }
}
