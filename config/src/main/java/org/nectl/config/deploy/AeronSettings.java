package org.nectl.config.deploy;

import java.util.List;
import java.util.Optional;

import org.nectl.config.YamlField;

/**
 * Where the Aeron media driver runs (section {@code aeron}). Immutable.
 *
 * @param embeddedDriver true: the service starts a media driver in its own process; false: it
 *     connects to an external driver.
 * @param directory the driver's directory; empty: a fresh unique directory for an embedded driver,
 *     Aeron's default directory for an external one.
 */
public record AeronSettings(boolean embeddedDriver, Optional<String> directory)
{
    private static final List<String> KEYS = List.of("embedded_driver", "dir");

    /** @return an embedded driver in a fresh directory. */
    public static AeronSettings defaults()
    {
        return new AeronSettings(true, Optional.empty());
    }

    /**
     * @param section the {@code aeron} mapping.
     * @return the settings, defaults for absent keys.
     */
    static AeronSettings read(final YamlField section)
    {
        section.mapping(KEYS);
        final boolean embedded = section.optional("embedded_driver").map(YamlField::bool).orElse(true);
        return new AeronSettings(embedded, section.optional("dir").map(YamlField::text));
    }
}
