package org.nectl.hw;

import java.util.Locale;
import java.util.Objects;

/**
 * One fault the simulated arm injects when simulated time reaches {@code atNs}: the encoder sample
 * of the first period at or after that time is the first one affected (published corrupted, or not
 * published at all for STALL and CRASH).
 *
 * @param kind what fails.
 * @param atNs simulated time of the fault, ns, non-negative.
 * @param joint coordinate whose encoder fails (NAN, JUMP), else -1.
 * @param jump position offset added from then on (JUMP), rad or m, else 0.
 */
public record InjectedFault(FaultKind kind, long atNs, int joint, double jump)
{
    /** Validates the fault. */
    public InjectedFault
    {
        Objects.requireNonNull(kind, "kind");
        if (atNs < 0)
        {
            throw new IllegalArgumentException("fault time must not be negative, got " + atNs + " ns");
        }
        final boolean perJoint = kind == FaultKind.NAN || kind == FaultKind.JUMP;
        if (perJoint != (joint >= 0))
        {
            throw new IllegalArgumentException(perJoint
                ? kind + " fault needs a joint index >= 0, got " + joint
                : kind + " fault takes no joint, got " + joint);
        }
        if (!Double.isFinite(jump) || (kind != FaultKind.JUMP && jump != 0.0))
        {
            throw new IllegalArgumentException("position jump " + jump + " is only for JUMP faults and must be finite");
        }
    }

    /**
     * Parses {@code KIND@SECONDS[:JOINT[:JUMP]]}: {@code stall@2}, {@code crash@1.5},
     * {@code nan@0.5:3} (joint 3), {@code jump@0.5:2:0.1} (joint 2 reads 0.1 rad more).
     *
     * @param text the specification.
     * @return the fault.
     * @throws IllegalArgumentException saying what is wrong with the text.
     */
    public static InjectedFault parse(final String text)
    {
        final int at = text.indexOf('@');
        if (at < 0)
        {
            throw new IllegalArgumentException("fault '" + text + "' is not KIND@SECONDS[:JOINT[:JUMP]]");
        }
        final FaultKind kind = kind(text, text.substring(0, at));
        final String[] fields = text.substring(at + 1).split(":", -1);
        final int expected = kind == FaultKind.JUMP ? 3 : kind == FaultKind.NAN ? 2 : 1;
        if (fields.length != expected)
        {
            throw new IllegalArgumentException("fault '" + text + "': " + kind.name().toLowerCase(Locale.ROOT)
                + " takes " + expected + " field(s) after '@', got " + fields.length);
        }
        try
        {
            final double seconds = Double.parseDouble(fields[0]);
            if (!(seconds >= 0.0) || seconds > Long.MAX_VALUE / 1e9)
            {
                throw new IllegalArgumentException("fault '" + text + "': time " + fields[0] + " s is not a time >= 0");
            }
            final int joint = expected >= 2 ? Integer.parseInt(fields[1]) : -1;
            final double jump = expected == 3 ? Double.parseDouble(fields[2]) : 0.0;
            return new InjectedFault(kind, Math.round(seconds * 1e9), joint, jump);
        }
        catch (final NumberFormatException ex)
        {
            throw new IllegalArgumentException("fault '" + text + "': " + ex.getMessage(), ex);
        }
    }

    private static FaultKind kind(final String text, final String name)
    {
        for (final FaultKind kind : FaultKind.values())
        {
            if (kind.name().equalsIgnoreCase(name))
            {
                return kind;
            }
        }
        throw new IllegalArgumentException("fault '" + text + "': unknown kind '" + name + "', expected stall, crash, nan, jump or imu_loss");
    }
}
