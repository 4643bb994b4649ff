package org.nectl.config.deploy;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import org.nectl.config.YamlField;

/**
 * How the planner gateway authenticates planners (keys {@code planner.keys},
 * {@code planner.allowed_sources}, {@code planner.time_window_ms}; docs/DEPLOYMENT.md). The key
 * file is only located here; the service reads it, so its contents never pass through the YAML
 * reader or its error messages. Immutable.
 *
 * @param keyFile the planner key file, resolved against the deployment file's directory; absent:
 *     no planner has a key and every command is rejected.
 * @param allowedSources source addresses (IP literals) planner datagrams may come from.
 * @param timeWindowMs largest accepted difference between a command's timestamp and the host's UTC time, ms.
 */
public record PlannerAuthenticationSettings(Optional<Path> keyFile, List<InetAddress> allowedSources, long timeWindowMs)
{
    /** Default time window, ms. */
    public static final long DEFAULT_TIME_WINDOW_MS = 2_000;
    /** Longest time window, ms. */
    public static final long MAX_TIME_WINDOW_MS = 60_000;

    private static final Pattern IP_LITERAL = Pattern.compile("\\d{1,3}(?:\\.\\d{1,3}){3}|[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*");

    /** Copies the list. */
    public PlannerAuthenticationSettings
    {
        allowedSources = List.copyOf(allowedSources);
    }

    /** @return no key file, sources 127.0.0.1 and ::1, a 2 s window. */
    public static PlannerAuthenticationSettings defaults()
    {
        return new PlannerAuthenticationSettings(Optional.empty(),
            List.of(literal("127.0.0.1"), literal("::1")), DEFAULT_TIME_WINDOW_MS);
    }

    /**
     * @param deploymentFile the deployment file, for relative key file paths.
     * @param section the {@code planner} mapping.
     * @return the settings, defaults for absent keys.
     */
    static PlannerAuthenticationSettings read(final Path deploymentFile, final YamlField section)
    {
        final PlannerAuthenticationSettings defaults = defaults();
        return new PlannerAuthenticationSettings(
            section.optional("keys").map(f -> keyFile(deploymentFile, f)),
            section.optional("allowed_sources").map(PlannerAuthenticationSettings::sources).orElse(defaults.allowedSources()),
            section.optional("time_window_ms").map(f -> f.integer(1, MAX_TIME_WINDOW_MS)).orElse(DEFAULT_TIME_WINDOW_MS));
    }

    private static Path keyFile(final Path deploymentFile, final YamlField field)
    {
        final Path resolved = deploymentFile.toAbsolutePath().getParent().resolve(field.text()).normalize();
        if (!Files.isRegularFile(resolved))
        {
            throw field.error("planner key file '" + field.text() + "' not found (looked for " + resolved
                + "; a relative path is taken from the deployment file's directory)");
        }
        return resolved;
    }

    private static List<InetAddress> sources(final YamlField field)
    {
        final List<InetAddress> sources = new ArrayList<>();
        for (final YamlField element : field.elements())
        {
            final String text = element.text();
            if (!IP_LITERAL.matcher(text).matches() || !validIpv4Parts(text))
            {
                throw element.error("value '" + text + "' is not an IPv4 or IPv6 address (host names are not accepted)");
            }
            try
            {
                sources.add(InetAddress.getByName(text));
            }
            catch (final UnknownHostException ex)
            {
                throw element.error("value '" + text + "' is not a valid IP address");
            }
        }
        if (sources.isEmpty())
        {
            throw field.error("at least one source address is required");
        }
        return sources;
    }

    private static boolean validIpv4Parts(final String text)
    {
        if (text.contains(":"))
        {
            return true;
        }
        for (final String part : text.split("\\."))
        {
            if (Integer.parseInt(part) > 255)
            {
                return false;
            }
        }
        return true;
    }

    private static InetAddress literal(final String ip)
    {
        try
        {
            return InetAddress.getByName(ip);
        }
        catch (final UnknownHostException ex)
        {
            throw new IllegalStateException("an IP literal never needs a name lookup", ex);
        }
    }
}
