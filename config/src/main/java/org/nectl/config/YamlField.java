package org.nectl.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;

/**
 * One node of a composed YAML document together with its file and its dotted field path, so that
 * every value read from it can be reported as {@code file:line:column: field: rule broken}.
 * Not real-time safe; immutable.
 */
final class YamlField
{
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
     * @param file file name used in messages.
     * @param node the document's root node.
     * @return the root field (empty path).
     */
    static YamlField root(final String file, final Node node)
    {
        return new YamlField(file, "", "", node, node);
    }

    /** @return the dotted path of this field, e.g. {@code links.link3.mass}. */
    String path()
    {
        return path;
    }

    /** @return the mapping key this field was found under (empty for the root and list elements). */
    String key()
    {
        return key;
    }

    /** @return the file name used in messages. */
    String file()
    {
        return file;
    }

    /**
     * @param reason the value and the rule broken.
     * @return an exception located at this field.
     */
    DescriptionException error(final String reason)
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
    YamlField named(final String newPath)
    {
        return new YamlField(file, newPath, key, keyNode, node);
    }

    /**
     * Checks that this is a mapping whose keys are unique and all in {@code allowed}.
     *
     * @param allowed the keys this mapping may hold.
     * @return this field.
     */
    YamlField mapping(final Collection<String> allowed)
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
    List<YamlField> entries()
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
    boolean has(final String k)
    {
        return optional(k).isPresent();
    }

    /**
     * @param k key.
     * @return the value under the key.
     * @throws DescriptionException at this mapping's own key if the key is missing.
     */
    YamlField child(final String k)
    {
        return optional(k).orElseThrow(() -> named(childPath(k))
            .keyError("missing field '" + k + "'" + (path.isEmpty() ? "" : " in '" + path + "'")));
    }

    /** @return the value under the key, if present. */
    Optional<YamlField> optional(final String k)
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
    List<YamlField> elements()
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
    String text()
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
    double number()
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
    double[] numbers(final int count)
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
     * @param reason the rule broken by the key itself.
     * @return an exception located at the key of this entry rather than at its value.
     */
    DescriptionException keyError(final String reason)
    {
        return new YamlField(file, path, key, keyNode, keyNode).error(reason);
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
        return "'" + ((ScalarNode) node).getValue() + "'";
    }
}
