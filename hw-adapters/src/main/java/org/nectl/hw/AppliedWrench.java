package org.nectl.hw;

import java.util.Locale;

import org.nectl.core.model.RobotModel;

/**
 * A wrench the environment applies on one link of a {@link SimulatedArm} during a window of simulated
 * time (a push, a contact of known force): force (N) then moment about the link frame's origin
 * (N m), both in the link frame, from {@code startNs} inclusive to {@code endNs} exclusive, held
 * constant over each period that starts inside the window. Immutable.
 *
 * @param body the link's body index in the model.
 * @param wrench fx, fy, fz, mx, my, mz; copied.
 * @param startNs simulated time the wrench starts, ns.
 * @param endNs simulated time it ends, ns.
 */
public record AppliedWrench(int body, double[] wrench, long startNs, long endNs)
{
    /** Copies the wrench and checks its size, finiteness and window. */
    public AppliedWrench
    {
        wrench = wrench.clone();
        if (wrench.length != 6)
        {
            throw new IllegalArgumentException("a wrench has 6 components (fx, fy, fz, mx, my, mz), got " + wrench.length);
        }
        for (final double w : wrench)
        {
            if (!Double.isFinite(w))
            {
                throw new IllegalArgumentException("a wrench component is " + w + "; every component must be finite");
            }
        }
        if (startNs < 0 || endNs <= startNs)
        {
            throw new IllegalArgumentException("the wrench's window " + startNs * 1e-9 + "-" + endNs * 1e-9
                + " s must start at 0 or later and end after it starts");
        }
    }

    /**
     * Reads {@code LINK,FX,FY,FZ,MX,MY,MZ@T0-T1}: link name, force N and moment N m in the link frame
     * about its origin, simulated times in s (e.g. {@code panda_link7,0,0,-20,0,0,0@1.0-1.5}).
     *
     * @param text the specification.
     * @param model the simulated robot, for the link name.
     * @return the wrench.
     * @throws IllegalArgumentException naming the part at fault.
     */
    public static AppliedWrench parse(final String text, final RobotModel model)
    {
        final int at = text.indexOf('@');
        final int dash = text.indexOf('-', at + 1);
        if (at < 0 || dash < 0)
        {
            throw new IllegalArgumentException("--external-wrench '" + text + "': expected LINK,FX,FY,FZ,MX,MY,MZ@T0-T1");
        }
        final String[] parts = text.substring(0, at).split(",", -1);
        if (parts.length != 7)
        {
            throw new IllegalArgumentException("--external-wrench '" + text + "': expected a link name and 6 numbers before '@', got "
                + parts.length + " fields");
        }
        final int body = bodyIndex(model, parts[0].trim(), text);
        final double[] wrench = new double[6];
        for (int c = 0; c < 6; c++)
        {
            wrench[c] = number(parts[c + 1], text);
        }
        final double startS = number(text.substring(at + 1, dash), text);
        final double endS = number(text.substring(dash + 1), text);
        if (!(startS >= 0.0 && endS > startS))
        {
            throw new IllegalArgumentException(String.format(Locale.ROOT,
                "--external-wrench '%s': the window %s-%s s must start at 0 or later and end after it starts", text, startS, endS));
        }
        return new AppliedWrench(body, wrench, Math.round(startS * 1e9), Math.round(endS * 1e9));
    }

    private static int bodyIndex(final RobotModel model, final String link, final String text)
    {
        for (int i = 0; i < model.bodyCount(); i++)
        {
            if (model.bodyName(i).equals(link))
            {
                return i;
            }
        }
        final StringBuilder names = new StringBuilder();
        for (int i = 0; i < model.bodyCount(); i++)
        {
            names.append(i == 0 ? "" : ", ").append(model.bodyName(i));
        }
        throw new IllegalArgumentException("--external-wrench '" + text + "': no link '" + link + "' in " + model.name()
            + " (links: " + names + ")");
    }

    private static double number(final String field, final String text)
    {
        try
        {
            final double value = Double.parseDouble(field.trim());
            if (Double.isFinite(value))
            {
                return value;
            }
        }
        catch (final NumberFormatException e)
        {
            // reported below with the whole specification
        }
        throw new IllegalArgumentException("--external-wrench '" + text + "': '" + field + "' is not a finite number");
    }

    /** @return a copy of the wrench. */
    @Override
    public double[] wrench()
    {
        return wrench.clone();
    }

    /** @return true if a period starting at {@code timeNs} lies in the window. */
    boolean activeAt(final long timeNs)
    {
        return timeNs >= startNs && timeNs < endNs;
    }
}
