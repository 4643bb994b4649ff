package org.nectl.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A table typed in as a paper prints it: a {@code columns} list naming the columns in any order,
 * then {@code rows}, one list of values per row. Checks column names and the number of values in
 * every row. Not real-time safe; immutable once read.
 */
final class ColumnTable
{
    private static final List<String> TABLE_KEYS = List.of("columns", "rows");

    private final List<Row> rows;

    private ColumnTable(final List<Row> rows)
    {
        this.rows = rows;
    }

    /**
     * @param table the mapping holding {@code columns} and {@code rows}.
     * @param nameColumn the column whose value names the row in messages.
     * @param required columns that must be present.
     * @param optional columns that may be present.
     * @return the table.
     */
    static ColumnTable read(
        final YamlField table, final String nameColumn, final List<String> required, final List<String> optional)
    {
        table.mapping(TABLE_KEYS);
        final List<String> columns = columns(table.child("columns"), required, optional);
        final List<YamlField> rowFields = table.child("rows").elements();
        if (rowFields.isEmpty())
        {
            throw table.child("rows").error("the table has no rows; a robot needs at least one joint");
        }
        final List<Row> rows = new ArrayList<>();
        for (final YamlField rowField : rowFields)
        {
            rows.add(row(table, rowField, columns, nameColumn));
        }
        return new ColumnTable(rows);
    }

    /** @return the rows in file order. */
    List<Row> rows()
    {
        return rows;
    }

    private static List<String> columns(
        final YamlField field, final List<String> required, final List<String> optional)
    {
        final Set<String> allowed = new LinkedHashSet<>(required);
        allowed.addAll(optional);
        final List<String> columns = new ArrayList<>();
        for (final YamlField c : field.elements())
        {
            final String name = c.text();
            if (!allowed.contains(name))
            {
                throw c.error("unknown column '" + name + "'" + Suggestions.didYouMean(name, allowed)
                    + "; allowed columns: " + String.join(", ", allowed));
            }
            if (columns.contains(name))
            {
                throw c.error("column '" + name + "' appears twice");
            }
            columns.add(name);
        }
        for (final String r : required)
        {
            if (!columns.contains(r))
            {
                throw field.error("missing column '" + r + "'; required columns: " + String.join(", ", required));
            }
        }
        return columns;
    }

    private static Row row(
        final YamlField table, final YamlField rowField, final List<String> columns, final String nameColumn)
    {
        final List<YamlField> values = rowField.elements();
        if (values.size() != columns.size())
        {
            throw rowField.error("row has " + values.size() + " values but 'columns' names " + columns.size()
                + " (" + String.join(", ", columns) + ")");
        }
        final String name = values.get(columns.indexOf(nameColumn)).text();
        final YamlField named = rowField.named(table.path() + "." + name);
        final Map<String, YamlField> cells = new HashMap<>();
        for (int i = 0; i < columns.size(); i++)
        {
            cells.put(columns.get(i), values.get(i).named(named.path() + "." + columns.get(i)));
        }
        return new Row(named, cells);
    }

    /**
     * One row of the table.
     *
     * @param field the whole row, named after its name column, for messages.
     * @param cells the values by column name.
     */
    record Row(YamlField field, Map<String, YamlField> cells)
    {
        /** @return true if the table has that column. */
        boolean has(final String column)
        {
            return cells.containsKey(column);
        }

        /** @return the value in that column; the column must exist. */
        YamlField cell(final String column)
        {
            return cells.get(column);
        }

        /** @return the value in that column as a number, or {@code fallback} if the table lacks the column. */
        double number(final String column, final double fallback)
        {
            return has(column) ? cell(column).number() : fallback;
        }

        /** @return the angle in that column in radians, or 0 if the table lacks the column. */
        double angle(final String column, final AngleUnit unit)
        {
            return has(column) ? unit.radians(cell(column)) : 0.0;
        }
    }
}
