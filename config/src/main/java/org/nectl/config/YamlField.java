package org.nectl.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * One node of a composed YAML document together with its file and its dotted field path, so that
 * every value read from it can be reported as {@code file:line:column: field: rule broken}. Shared
 * by the readers of robot descriptions and of deployment configurations. Not real-time safe;
 * immutable, thread safe.
 */
public final class YamlField
{
    /** The largest YAML file read, bytes (also the code-point limit given to the parser). */
    public static final int MAX_FILE_BYTES = 1 << 20;

    /** The deepest nesting of lists and mappings read (the root mapping is level 1). */
    public static final int MAX_NESTING_DEPTH = 64;

    private static final Pattern INTEGER = Pattern.compile("[+-]?\\d+");
    /** Longest scalar quoted whole in a message. */
    private static final int DESCRIBED_LENGTH = 60;

    private final String file;
    private final String path;
    private final String key;
    private final Node keyNode;
    private final Node node;

    private YamlField(final String file, final String path, final String key, final Node keyNode, final Node node)
    {
        this.file = file;
        this.path = path;
        this.key = key;
        this.keyNode = keyNode;
        this.node = node;
    }

    /**
     * Reads a YAML file into its root field. The size, UTF-8 and nesting limits are checked before
     * and while parsing, so that memory and time stay proportional to {@link #MAX_FILE_BYTES}.
     *
     * @param path the file; messages name it as given.
     * @return the root field (empty path).
     * @throws DescriptionException if the file cannot be read, is not a regular file, is larger than
     *     {@link #MAX_FILE_BYTES}, is not UTF-8, nests deeper than {@link #MAX_NESTING_DEPTH}, is
     *     malformed or holds no document.
     */
    public static YamlField load(final Path path)
    {
        final String file = path.toString();
        final String text = DescriptionFiles.readUtf8(path, MAX_FILE_BYTES, "a YAML file");
        final LoadSettings settings = LoadSettings.builder().setLabel(file).setCodePointLimit(MAX_FILE_BYTES).build();
        try
        {
            final Parser parser = new NestingLimitedParser(
                new ParserImpl(settings, new StreamReader(settings, text)), file, MAX_NESTING_DEPTH);
            return root(file, new Composer(settings, parser).getSingleNode()
                .orElseThrow(() -> new DescriptionException(file, 0, 0, "", "the file holds no YAML document")));
        }
        catch (final MarkedYamlEngineException e)
        {
            final int line = e.getProblemMark().map(m -> m.getLine() + 1).orElse(0);
            final int column = e.getProblemMark().map(m -> m.getColumn() + 1).orElse(0);
            throw new DescriptionException(file, line, column, "", "malformed YAML: " + e.getProblem());
        }
        catch (final YamlEngineException e)
        {
            throw new DescriptionException(file, 0, 0, "", "malformed YAML: " + e.getMessage());
        }
    }

    /**
     * @param file file name used in messages.
     * @param node the document's root node.
     * @return the root field (empty path).
     */
    static YamlField root(final String file, final Node node)
    {
        return new YamlField(file, "", "", node, node);
    }

    /** @return the dotted path of this field, e.g. {@code links.link3.mass}. */
    public String path()
    {
        return path;
    }

    /** @return the mapping key this field was found under (empty for the root and list elements). */
    public String key()
    {
        return key;
    }

    /** @return the file name used in messages. */
    public String file()
    {
        return file;
    }

    /**
     * @param reason the value and the rule broken.
     * @return an exception located at this field.
     */
    public DescriptionException error(final String reason)
    {
        final Optional<Mark> mark = node.getStartMark();
        final int line = mark.map(m -> m.getLine() + 1).orElse(0);
        final int column = mark.map(m -> m.getColumn() + 1).orElse(0);
        return new DescriptionException(file, line, column, path, reason);
    }

    /**
     * @param newPath the name to report this node under.
     * @return the same node reported under another field path.
     */
    public YamlField named(final String newPath)
    {
        return new YamlField(file, newPath, key, keyNode, node);
    }

    /**
     * Checks that this is a mapping whose keys are unique and all in {@code allowed}.
     *
     * @param allowed the keys this mapping may hold.
     * @return this field.
     */
    public YamlField mapping(final Collection<String> allowed)
    {
        for (final YamlField entry : entries())
        {
            if (!allowed.contains(entry.key))
            {
                throw entry.keyError("unknown key '" + entry.key + "'" + Suggestions.didYouMean(entry.key, allowed)
                    + "; allowed keys: " + String.join(", ", allowed));
            }
        }
        return this;
    }

    /**
     * @return the mapping's values in file order, each named by its key; keys must be unique scalars.
     */
    public List<YamlField> entries()
    {
        if (!(node instanceof MappingNode))
        {
            throw error("expected a mapping of 'key: value' lines, found " + describe());
        }
        final List<YamlField> result = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        for (final NodeTuple tuple : ((MappingNode) node).getValue())
        {
            final YamlField keyField = new YamlField(file, path, "", tuple.getKeyNode(), tuple.getKeyNode());
            if (!(tuple.getKeyNode() instanceof ScalarNode))
            {
                throw keyField.error("a key must be a plain name, found " + keyField.describe());
            }
            final String k = ((ScalarNode) tuple.getKeyNode()).getValue();
            final YamlField entry = new YamlField(file, childPath(k), k, tuple.getKeyNode(), tuple.getValueNode());
            if (!seen.add(k))
            {
                throw entry.keyError("duplicate key '" + k + "'");
            }
            result.add(entry);
        }
        return result;
    }

    /** @return true if this mapping has the key. */
    public boolean has(final String k)
    {
        return optional(k).isPresent();
    }

    /**
     * @param k key.
     * @return the value under the key.
     * @throws DescriptionException at this mapping's own key if the key is missing.
     */
    public YamlField child(final String k)
    {
        return optional(k).orElseThrow(() -> named(childPath(k))
            .keyError("missing field '" + k + "'" + (path.isEmpty() ? "" : " in '" + path + "'")));
    }

    /** @return the value under the key, if present. */
    public Optional<YamlField> optional(final String k)
    {
        for (final YamlField entry : entries())
        {
            if (entry.key.equals(k))
            {
                return Optional.of(entry);
            }
        }
        return Optional.empty();
    }

    /** @return the elements of this sequence, named {@code path[i]} (0-based). */
    public List<YamlField> elements()
    {
        if (!(node instanceof SequenceNode))
        {
            throw error("expected a list, found " + describe());
        }
        final List<YamlField> result = new ArrayList<>();
        final List<Node> items = ((SequenceNode) node).getValue();
        for (int i = 0; i < items.size(); i++)
        {
            result.add(new YamlField(file, path + "[" + i + "]", "", items.get(i), items.get(i)));
        }
        return result;
    }

    /** @return the text of this scalar; never empty. */
    public String text()
    {
        if (!(node instanceof ScalarNode) || node.getTag().equals(Tag.NULL))
        {
            throw error("expected a value, found " + describe());
        }
        final String value = ((ScalarNode) node).getValue();
        if (value.isEmpty())
        {
            throw error("expected a value, found an empty string");
        }
        return value;
    }

    /** @return this scalar as a finite number (decimal, or a multiple of pi). */
    public double number()
    {
        final String t = text();
        if (!((ScalarNode) node).isPlain())
        {
            throw error("value '" + t + "' is a quoted string, expected a number");
        }
        try
        {
            return NumberText.parse(t);
        }
        catch (final IllegalArgumentException e)
        {
            throw error(e.getMessage());
        }
    }

    /** @return true if this scalar is written with the symbol pi. */
    boolean usesPi()
    {
        return node instanceof ScalarNode && NumberText.usesPi(((ScalarNode) node).getValue());
    }

    /**
     * @param count expected number of elements.
     * @return the elements of a list of exactly {@code count} numbers.
     */
    public double[] numbers(final int count)
    {
        final List<YamlField> items = elements();
        if (items.size() != count)
        {
            throw error("expected a list of " + count + " numbers, found " + items.size());
        }
        final double[] v = new double[count];
        for (int i = 0; i < count; i++)
        {
            v[i] = items.get(i).number();
        }
        return v;
    }

    /**
     * @param min smallest allowed value.
     * @param max largest allowed value.
     * @return this scalar as a finite number within {@code min..max}.
     */
    public double number(final double min, final double max)
    {
        final double v = number();
        if (v < min || v > max)
        {
            throw error("value " + text() + (max == Double.POSITIVE_INFINITY
                ? " is below the allowed minimum " + plain(min)
                : " is outside the allowed range " + plain(min) + ".." + plain(max)));
        }
        return v;
    }

    /**
     * @param min smallest allowed value.
     * @param max largest allowed value.
     * @return this scalar as a whole decimal number within {@code min..max}.
     */
    public long integer(final long min, final long max)
    {
        final String t = text();
        if (!((ScalarNode) node).isPlain() || !INTEGER.matcher(t).matches())
        {
            throw error("value '" + t + "' is not a whole number");
        }
        final long v;
        try
        {
            v = Long.parseLong(t);
        }
        catch (final NumberFormatException e)
        {
            throw error("value " + t + " is outside the allowed range " + min + ".." + max);
        }
        if (v < min || v > max)
        {
            throw error("value " + t + " is outside the allowed range " + min + ".." + max);
        }
        return v;
    }

    /** @return this scalar as a boolean, written {@code true} or {@code false}. */
    public boolean bool()
    {
        final String t = text();
        if (!node.getTag().equals(Tag.BOOL))
        {
            throw error("value '" + t + "' is not a boolean (expected true or false)");
        }
        return Boolean.parseBoolean(t);
    }

    /**
     * @param what what the value names, for messages (e.g. {@code format}).
     * @param allowed the accepted words.
     * @return this scalar's text, one of {@code allowed}.
     */
    public String choice(final String what, final Collection<String> allowed)
    {
        final String t = text();
        if (!allowed.contains(t))
        {
            throw error("unknown " + what + " '" + t + "'" + Suggestions.didYouMean(t, allowed)
                + "; allowed: " + String.join(", ", allowed));
        }
        return t;
    }

    /** @return true if this node is a list. */
    public boolean isList()
    {
        return node instanceof SequenceNode;
    }

    /**
     * @param reason the rule broken by the key itself.
     * @return an exception located at the key of this entry rather than at its value.
     */
    public DescriptionException keyError(final String reason)
    {
        return new YamlField(file, path, key, keyNode, keyNode).error(reason);
    }

    /** @return a limit as written in a file: whole numbers without a fraction. */
    private static String plain(final double limit)
    {
        return limit == Math.rint(limit) && Math.abs(limit) < 1e15 ? Long.toString((long)limit) : Double.toString(limit);
    }

    private String childPath(final String k)
    {
        return path.isEmpty() ? k : path + "." + k;
    }

    private String describe()
    {
        if (node instanceof MappingNode)
        {
            return "a mapping";
        }
        if (node instanceof SequenceNode)
        {
            return "a list";
        }
        if (node.getTag().equals(Tag.NULL))
        {
            return "nothing";
        }
        final String value = ((ScalarNode) node).getValue();
        // a whole non-YAML file parses as one scalar: quote its start, not all of it
        return value.length() <= DESCRIBED_LENGTH ? "'" + value + "'"
            : "'" + value.substring(0, DESCRIBED_LENGTH) + "...' (" + value.length() + " characters)";
    }
}
