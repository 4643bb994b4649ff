package org.nectl.service.recording;

/**
 * A CSV header and row (as {@code nectl monitor} writes them) as a flat JSON object, and the JSON
 * Schema of such objects: a value that reads as a finite number is a JSON number, written as it
 * stands in the CSV (so it parses back to the same double or integer), anything else (an enum
 * name) a string. Stateless. Not real-time safe.
 */
final class JsonRows
{
    private JsonRows()
    {
    }

    /**
     * @param header the CSV header.
     * @param row a row under it; no value contains a comma or a quote.
     * @return the JSON object.
     */
    static String object(final String header, final String row)
    {
        final String[] names = header.split(",", -1);
        final String[] values = row.split(",", -1);
        final StringBuilder json = new StringBuilder(row.length() + header.length() + 8 * names.length).append('{');
        for (int i = 0; i < names.length; i++)
        {
            json.append(i == 0 ? "\"" : ",\"").append(names[i]).append("\":");
            if (numeric(values[i]))
            {
                json.append(values[i]);
            }
            else
            {
                json.append('"').append(values[i]).append('"');
            }
        }
        return json.append('}').toString();
    }

    /**
     * @param title the schema's title.
     * @param header the CSV header.
     * @param example a row under it, giving each column's type.
     * @return a JSON Schema of the objects {@link #object} makes.
     */
    static String schema(final String title, final String header, final String example)
    {
        final String[] names = header.split(",", -1);
        final String[] values = example.split(",", -1);
        final StringBuilder json = new StringBuilder(64 * names.length)
            .append("{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\",\"title\":\"").append(title)
            .append("\",\"type\":\"object\",\"properties\":{");
        for (int i = 0; i < names.length; i++)
        {
            json.append(i == 0 ? "\"" : ",\"").append(names[i]).append("\":{\"type\":\"")
                .append(numeric(values[i]) ? "number" : "string").append("\"}");
        }
        return json.append("}}").toString();
    }

    private static boolean numeric(final String value)
    {
        if (value.isEmpty() || !(Character.isDigit(value.charAt(0)) || value.charAt(0) == '-'))
        {
            return false;
        }
        try
        {
            return Double.isFinite(Double.parseDouble(value));
        }
        catch (final NumberFormatException e)
        {
            return false;
        }
    }
}
