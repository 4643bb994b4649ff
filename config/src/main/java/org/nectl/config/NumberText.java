package org.nectl.config;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the numbers of a description file: decimal literals and multiples of pi as papers print
 * them ({@code pi}, {@code -pi/2}, {@code 3*pi/4}). Everything else, including YAML's {@code .inf}
 * and {@code .nan}, is rejected with a sentence naming the value. Not real-time safe; thread safe.
 */
final class NumberText
{
    private static final String DECIMAL = "(?:\\d+\\.?\\d*|\\.\\d+)(?:[eE][+-]?\\d+)?";
    private static final Pattern PLAIN = Pattern.compile("[+-]?" + DECIMAL);
    private static final Pattern PI_MULTIPLE =
        Pattern.compile("([+-])?(?:(" + DECIMAL + ")\\s*\\*\\s*)?pi(?:\\s*/\\s*(" + DECIMAL + "))?");
    private static final Pattern NON_FINITE = Pattern.compile("[+-]?\\.(?:inf|Inf|INF)|\\.(?:nan|NaN|NAN)");

    private NumberText()
    {
    }

    /** @return true if the text uses the symbol pi. */
    static boolean usesPi(final String text)
    {
        return PI_MULTIPLE.matcher(text.trim()).matches();
    }

    /**
     * @param text scalar text.
     * @return the finite value.
     * @throws IllegalArgumentException naming the text and what was expected.
     */
    static double parse(final String text)
    {
        final String t = text.trim();
        if (PLAIN.matcher(t).matches())
        {
            return finite(t, Double.parseDouble(t));
        }
        final Matcher pi = PI_MULTIPLE.matcher(t);
        if (pi.matches())
        {
            final double sign = "-".equals(pi.group(1)) ? -1.0 : 1.0;
            final double factor = pi.group(2) == null ? 1.0 : Double.parseDouble(pi.group(2));
            final double divisor = pi.group(3) == null ? 1.0 : Double.parseDouble(pi.group(3));
            if (divisor == 0.0)
            {
                throw new IllegalArgumentException("value '" + t + "' divides by zero");
            }
            return finite(t, sign * factor * Math.PI / divisor);
        }
        if (NON_FINITE.matcher(t).matches())
        {
            throw new IllegalArgumentException("value '" + t + "' is not a finite number");
        }
        throw new IllegalArgumentException(
            "value '" + t + "' is not a number (expected a decimal such as 0.25 or a multiple of pi such as -pi/2)");
    }

    private static double finite(final String text, final double value)
    {
        if (!Double.isFinite(value))
        {
            throw new IllegalArgumentException("value '" + text + "' is not a finite number");
        }
        return value;
    }
}
