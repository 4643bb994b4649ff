package org.nectl.config.deploy;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.nectl.config.YamlField;

/**
 * The local UDP address the planner gateway binds (key {@code planner.bind}, {@code host:port}).
 * The host is not resolved here. Immutable.
 *
 * @param host an IPv4 address, an IPv6 address (without brackets) or a host name.
 * @param port UDP port, 0..65535; 0 picks an ephemeral port.
 */
public record PlannerEndpoint(String host, int port)
{
    /** Default host: loopback only, so that a planner must run on the control PC. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /** Default UDP port. */
    public static final int DEFAULT_PORT = 47_600;

    private static final Pattern HOST_PORT = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[^:\\[\\]]+):(\\d{1,5})");
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(?:\\.\\d{1,3}){3}");
    private static final Pattern HOST_NAME =
        Pattern.compile("(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*");
    private static final int MAX_PORT = 65_535;

    /** @return {@code 127.0.0.1:47600}. */
    public static PlannerEndpoint defaults()
    {
        return new PlannerEndpoint(DEFAULT_HOST, DEFAULT_PORT);
    }

    /**
     * @param field a scalar {@code host:port}, IPv6 hosts in brackets ({@code [::1]:47600}).
     * @return the endpoint.
     */
    static PlannerEndpoint read(final YamlField field)
    {
        final String text = field.text();
        final Matcher m = HOST_PORT.matcher(text);
        if (!m.matches())
        {
            throw field.error("value '" + text + "' is not host:port (e.g. 127.0.0.1:47600 or [::1]:47600)");
        }
        final int port = Integer.parseInt(m.group(2));
        if (port > MAX_PORT)
        {
            throw field.error("value '" + text + "': port " + port + " is outside the allowed range 0.." + MAX_PORT);
        }
        final String host = m.group(1);
        if (host.startsWith("["))
        {
            return new PlannerEndpoint(host.substring(1, host.length() - 1), port);
        }
        if (IPV4.matcher(host).matches() ? !validIpv4(host) : !HOST_NAME.matcher(host).matches())
        {
            throw field.error("value '" + text + "': host '" + host
                + "' is not an IPv4 address (each part 0..255), a bracketed IPv6 address or a host name");
        }
        return new PlannerEndpoint(host, port);
    }

    private static boolean validIpv4(final String host)
    {
        for (final String part : host.split("\\."))
        {
            if (Integer.parseInt(part) > 255)
            {
                return false;
            }
        }
        return true;
    }
}
