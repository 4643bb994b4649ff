package org.nectl.core.mobile;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads a base-motion profile from its one-line form (docs/ADAPTERS.md, "Carried base"):
 * <ul>
 * <li>{@code ship:roll=10deg@0.2Hz,pitch=3deg@0.15Hz,heave=0.5m@0.1Hz} ({@link ShipMotion}; any of
 * the three, each amplitude@frequency, angles in deg or rad);</li>
 * <li>{@code platform:accel=1.5m/s2,brake=3m/s2,speed=1m/s,hold=2s,jerk=20m/s3} ({@link PlatformMotion};
 * accel, brake and speed required, hold 2 s by default, jerk unbounded (steps) by default).</li>
 * </ul>
 * Not real-time safe.
 */
public final class BaseMotionProfiles
{
    /** Largest roll or pitch amplitude, rad (45 degrees: beyond, no arm works on a deck). */
    public static final double MAX_ANGLE_RAD = Math.PI / 4;
    /** Largest heave amplitude, m. */
    public static final double MAX_HEAVE_M = 10.0;
    /** Largest frequency, Hz. */
    public static final double MAX_FREQUENCY_HZ = 10.0;
    /** Largest platform acceleration or braking, m/s^2 (2 g). */
    public static final double MAX_ACCELERATION_MPS2 = 20.0;
    /** Largest platform speed, m/s. */
    public static final double MAX_SPEED_MPS = 20.0;
    /** Longest platform hold, s. */
    public static final double MAX_HOLD_S = 600.0;
    /** Largest platform jerk, m/s^3. */
    public static final double MAX_JERK_MPS3 = 1000.0;

    /** A signed decimal number and whatever follows it: the unit, checked separately to say what is wrong. */
    private static final Pattern AMOUNT = Pattern.compile("([-+]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?)(.*)");
    private static final String SHIP_EXAMPLE = "ship:roll=10deg@0.2Hz,heave=0.5m@0.1Hz";
    private static final String PLATFORM_EXAMPLE = "platform:accel=1.5m/s2,brake=3m/s2,speed=1m/s,hold=2s,jerk=20m/s3";

    private BaseMotionProfiles()
    {
    }

    /**
     * @param spec the profile's one-line form.
     * @return the profile.
     * @throws IllegalArgumentException naming the part of {@code spec} that is wrong and the rule.
     */
    public static BaseMotionProfile parse(final String spec)
    {
        final int colon = spec.indexOf(':');
        final String kind = colon < 0 ? spec : spec.substring(0, colon);
        if (kind.equals("ship"))
        {
            return ship(fields(spec, colon, List.of("roll", "pitch", "heave"), SHIP_EXAMPLE));
        }
        if (kind.equals("platform"))
        {
            return platform(fields(spec, colon, List.of("accel", "brake", "speed", "hold", "jerk"), PLATFORM_EXAMPLE));
        }
        throw new IllegalArgumentException("'" + spec + "': unknown profile '" + kind + "' (expected ship or platform, e.g. "
            + SHIP_EXAMPLE + " or " + PLATFORM_EXAMPLE + ")");
    }

    private static Map<String, String> fields(final String spec, final int colon, final List<String> keys, final String example)
    {
        if (colon < 0 || colon == spec.length() - 1)
        {
            throw new IllegalArgumentException("'" + spec + "': no fields (e.g. " + example + ")");
        }
        final Map<String, String> fields = new HashMap<>();
        for (final String part : spec.substring(colon + 1).split(",", -1))
        {
            if (part.isEmpty())
            {
                throw new IllegalArgumentException("'" + spec + "': empty field (a comma too many; e.g. " + example + ")");
            }
            final int eq = part.indexOf('=');
            final String key = eq < 0 ? part : part.substring(0, eq);
            if (!keys.contains(key))
            {
                throw new IllegalArgumentException("'" + spec + "': unknown field '" + key + "' (allowed: "
                    + String.join(", ", keys) + "; e.g. " + example + ")");
            }
            if (eq < 0)
            {
                throw new IllegalArgumentException("'" + spec + "': field '" + key + "' has no value (e.g. " + example + ")");
            }
            if (fields.put(key, part.substring(eq + 1)) != null)
            {
                throw new IllegalArgumentException("'" + spec + "': field '" + key + "' given twice");
            }
        }
        return fields;
    }

    private static ShipMotion ship(final Map<String, String> fields)
    {
        final double[] roll = oscillation(fields, "roll", true);
        final double[] pitch = oscillation(fields, "pitch", true);
        final double[] heave = oscillation(fields, "heave", false);
        return new ShipMotion(roll[0], roll[1], pitch[0], pitch[1], heave[0], heave[1]);
    }

    /** @return amplitude (rad or m) and frequency (Hz); zeros when absent. */
    private static double[] oscillation(final Map<String, String> fields, final String key, final boolean angle)
    {
        final String value = fields.get(key);
        if (value == null)
        {
            return new double[2];
        }
        final String form = key + "=" + value;
        final String example = angle ? key + "=10deg@0.2Hz" : "heave=0.5m@0.1Hz";
        final int at = value.indexOf('@');
        if (at < 0)
        {
            throw new IllegalArgumentException("'" + form + "': expected amplitude@frequency, e.g. " + example);
        }
        final Amount size = amount(form, "amplitude", value.substring(0, at), angle ? List.of("deg", "rad") : List.of("m"), example);
        final double frequency = amount(form, "frequency", value.substring(at + 1), List.of("Hz"), example).value();
        final double amplitude = size.value() * (size.unit().equals("deg") ? Math.PI / 180 : 1.0);
        if (amplitude < 0.0)
        {
            throw new IllegalArgumentException("'" + form + "': amplitude " + value.substring(0, at)
                + " is negative (every motion starts from zero; give its size, e.g. " + example + ")");
        }
        final double max = angle ? MAX_ANGLE_RAD : MAX_HEAVE_M;
        if (amplitude > max)
        {
            throw new IllegalArgumentException("'" + form + "': amplitude above the limit " + (angle ? "45deg" : max + "m"));
        }
        if (!(frequency > 0.0) || frequency > MAX_FREQUENCY_HZ)
        {
            throw new IllegalArgumentException("'" + form + "': frequency outside (0, " + MAX_FREQUENCY_HZ + "] Hz");
        }
        return new double[] {amplitude, frequency};
    }

    private static PlatformMotion platform(final Map<String, String> fields)
    {
        final double accel = quantity(fields, "accel", "m/s2", MAX_ACCELERATION_MPS2, Double.NaN);
        final double brake = quantity(fields, "brake", "m/s2", MAX_ACCELERATION_MPS2, Double.NaN);
        final double speed = quantity(fields, "speed", "m/s", MAX_SPEED_MPS, Double.NaN);
        final double hold = quantity(fields, "hold", "s", MAX_HOLD_S, 2.0);
        final double jerk = quantity(fields, "jerk", "m/s3", MAX_JERK_MPS3, Double.POSITIVE_INFINITY);
        // the record refuses a speed the jerk-limited acceleration cannot reach its level within
        return new PlatformMotion(accel, brake, speed, hold, jerk);
    }

    private static double quantity(final Map<String, String> fields, final String key, final String unit, final double max,
        final double fallback)
    {
        final String value = fields.get(key);
        if (value == null)
        {
            if (Double.isNaN(fallback))
            {
                throw new IllegalArgumentException("'platform': field '" + key + "' missing (e.g. " + PLATFORM_EXAMPLE + ")");
            }
            return fallback;
        }
        final String form = key + "=" + value;
        final double v = amount(form, "value", value, List.of(unit), key + "=1" + unit).value();
        final boolean zeroAllowed = key.equals("hold");
        if (v > max || (!zeroAllowed && !(v > 0.0)))
        {
            throw new IllegalArgumentException("'" + form + "': outside " + (zeroAllowed ? "[0, " : "(0, ") + max + "] " + unit);
        }
        return v;
    }

    /** A finite number with one of the allowed units after it. */
    private record Amount(double value, String unit)
    {
    }

    private static Amount amount(final String form, final String what, final String text, final List<String> units,
        final String example)
    {
        final String allowed = String.join(" or ", units);
        final Matcher m = AMOUNT.matcher(text);
        if (!m.matches())
        {
            throw new IllegalArgumentException("'" + form + "': " + what + " '" + text + "' is not a number followed by its unit ("
                + allowed + "), e.g. " + example);
        }
        final double value = Double.parseDouble(m.group(1));
        if (!Double.isFinite(value))
        {
            throw new IllegalArgumentException("'" + form + "': " + what + " '" + m.group(1) + "' is not finite");
        }
        if (m.group(2).isEmpty())
        {
            throw new IllegalArgumentException("'" + form + "': " + what + " '" + text + "' has no unit (" + allowed + "), e.g. "
                + example);
        }
        if (!units.contains(m.group(2)))
        {
            throw new IllegalArgumentException("'" + form + "': " + what + " unit '" + m.group(2) + "' is not " + allowed + ", e.g. "
                + example);
        }
        return new Amount(value, m.group(2));
    }
}
