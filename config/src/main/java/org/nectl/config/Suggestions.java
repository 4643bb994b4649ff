package org.nectl.config;

import java.util.Collection;

/**
 * Suggests the intended name for a mistyped key or reference (Levenshtein distance at most 2), so
 * that a typo is reported with its likely correction. Thread safe.
 */
final class Suggestions
{
    private static final int MAX_DISTANCE = 2;

    private Suggestions()
    {
    }

    /**
     * @param typed the unknown name.
     * @param known the names that would have been accepted.
     * @return {@code " (did you mean 'x'?)"} for the closest known name, or an empty string.
     */
    static String didYouMean(final String typed, final Collection<String> known)
    {
        String best = null;
        int bestDistance = MAX_DISTANCE + 1;
        for (final String candidate : known)
        {
            final int d = distance(typed, candidate);
            if (d < bestDistance)
            {
                best = candidate;
                bestDistance = d;
            }
        }
        return best == null ? "" : " (did you mean '" + best + "'?)";
    }

    private static int distance(final String a, final String b)
    {
        int[] previous = new int[b.length() + 1];
        int[] current = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++)
        {
            previous[j] = j;
        }
        for (int i = 1; i <= a.length(); i++)
        {
            current[0] = i;
            for (int j = 1; j <= b.length(); j++)
            {
                final int substitution = previous[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                current[j] = Math.min(substitution, Math.min(previous[j] + 1, current[j - 1] + 1));
            }
            final int[] swap = previous;
            previous = current;
            current = swap;
        }
        return previous[b.length()];
    }
}
