package org.nectl.service.cli;

/**
 * The payload of {@code nectl plan --set-payload}: {@code mass=KG,com=X,Y,Z[,inertia=XX,XY,XZ,YY,YZ,ZZ]}
 * on a link given by index or as {@code flange} (the last link).
 *
 * @param link body index in the description, or {@link #FLANGE}.
 * @param massKg mass, kg; 0 clears the payload.
 * @param comM centre of mass in the link's frame, m.
 * @param inertiaAtComKgM2 inertia about the centre of mass: xx, xy, xz, yy, yz, zz, kg·m².
 */
record PayloadSpec(int link, double massKg, double[] comM, double[] inertiaAtComKgM2)
{
    /** PayloadCommand.link of the last link. */
    static final int FLANGE = 255;

    /**
     * @param spec the option's value.
     * @param link the --payload-link value.
     * @return the payload.
     * @throws IllegalArgumentException naming the part that is wrong.
     */
    static PayloadSpec parse(final String spec, final String link)
    {
        Double mass = null;
        double[] com = null;
        double[] inertia = new double[6];
        final String[] parts = spec.split(",", -1);
        for (int i = 0; i < parts.length; i++)
        {
            final String part = parts[i].trim();
            if (part.startsWith("mass="))
            {
                mass = number("mass", part.substring(5));
            }
            else if (part.startsWith("com="))
            {
                com = numbers("com", parts, i, part.substring(4), 3);
                i += 2;
            }
            else if (part.startsWith("inertia="))
            {
                inertia = numbers("inertia", parts, i, part.substring(8), 6);
                i += 5;
            }
            else
            {
                throw new IllegalArgumentException("--set-payload: '" + part + "' is not mass=KG, com=X,Y,Z or "
                    + "inertia=XX,XY,XZ,YY,YZ,ZZ");
            }
        }
        if (mass == null || com == null)
        {
            throw new IllegalArgumentException("--set-payload needs mass=KG and com=X,Y,Z, got '" + spec + "'");
        }
        if (mass < 0.0)
        {
            throw new IllegalArgumentException("--set-payload: mass must be at least 0 kg (0 clears the payload), got " + mass);
        }
        return new PayloadSpec(parseLink(link), mass, com, inertia);
    }

    /** @return the command that clears the payload of {@code link}. */
    static PayloadSpec clear(final String link)
    {
        return new PayloadSpec(parseLink(link), 0.0, new double[3], new double[6]);
    }

    /** @return a few words for the report line. */
    String describe()
    {
        final String where = link == FLANGE ? "flange" : "link " + link;
        return massKg == 0.0 ? "clear payload on " + where
            : "payload " + number(massKg) + " kg at (" + number(comM[0]) + ", " + number(comM[1]) + ", " + number(comM[2])
                + ") m on " + where;
    }

    /** @return the value as given on the command line: 1.5, 0.05, 0 (no trailing zeros). */
    private static String number(final double value)
    {
        return new java.math.BigDecimal(Double.toString(value)).stripTrailingZeros().toPlainString();
    }

    private static int parseLink(final String link)
    {
        if ("flange".equals(link))
        {
            return FLANGE;
        }
        try
        {
            final int index = Integer.parseInt(link);
            if (index < 0 || index >= FLANGE)
            {
                throw new IllegalArgumentException("--payload-link must be in [0, 254] or flange, got " + link);
            }
            return index;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("--payload-link must be a body index or flange, got '" + link + "'");
        }
    }

    private static double[] numbers(final String key, final String[] parts, final int first, final String head, final int count)
    {
        if (first + count > parts.length)
        {
            throw new IllegalArgumentException("--set-payload: " + key + " needs " + count + " numbers");
        }
        final double[] values = new double[count];
        values[0] = number(key, head);
        for (int k = 1; k < count; k++)
        {
            values[k] = number(key, parts[first + k].trim());
        }
        return values;
    }

    private static double number(final String key, final String text)
    {
        try
        {
            final double value = Double.parseDouble(text);
            if (!Double.isFinite(value))
            {
                throw new NumberFormatException();
            }
            return value;
        }
        catch (final NumberFormatException e)
        {
            throw new IllegalArgumentException("--set-payload: " + key + " '" + text + "' is not a finite number");
        }
    }
}
