package org.nectl.config;

import java.util.List;

import org.nectl.core.model.InertiaChecks;
import org.nectl.core.model.InertialParameters;

/**
 * Reads one link's inertial data: {@code mass}; the centre of mass as {@code com} (m) or as the
 * first moment {@code first_moment} = m c (kg m); and {@code inertia}, the six independent
 * elements of the symmetric tensor (kg m^2, products as they appear in the matrix, i.e.
 * Ixy = -integral of x y dm) about the point named by its {@code at} key ({@code com} or
 * {@code origin}), axes parallel to the frame the data is written in. Checks the physical rules with
 * {@link InertiaChecks}. Not real-time safe.
 */
final class LinkInertia
{
    private static final List<String> LINK_KEYS = List.of("mass", "com", "first_moment", "inertia");
    private static final List<String> INERTIA_KEYS = List.of("at", "xx", "yy", "zz", "xy", "xz", "yz");

    private LinkInertia()
    {
    }

    /**
     * @param link the link's mapping under {@code links}.
     * @return the inertial parameters in the frame the data is written in.
     */
    static InertialParameters read(final YamlField link)
    {
        link.mapping(LINK_KEYS);
        final YamlField massField = link.child("mass");
        final double mass = massField.number();
        check(massField, InertiaChecks.checkMass(mass));
        final MassCentre centre = massCentre(link, mass);
        final YamlField inertiaField = link.child("inertia");
        inertiaField.mapping(INERTIA_KEYS);
        final double[] tensor = tensor(inertiaField);
        final YamlField at = inertiaField.child("at");
        final InertialParameters parameters;
        switch (at.text())
        {
            case "com":
                parameters = InertialParameters.ofCentreOfMass(mass, centre.com(), tensor);
                break;
            case "origin":
                parameters = InertialParameters.ofFirstMoment(mass, centre.firstMoment(), tensor);
                break;
            default:
                throw at.error("inertia reference point '" + at.text() + "'"
                    + Suggestions.didYouMean(at.text(), List.of("com", "origin")) + " must be com or origin");
        }
        check(link.child(link.has("com") ? "com" : "first_moment"), InertiaChecks.checkFinite(parameters));
        // A tensor given about the centre of mass is checked as written, not after a round trip through
        // the origin, whose rounding grows with m |c|^2.
        final String problem = "com".equals(at.text())
            ? InertiaChecks.checkInertiaAtCentreOfMass(tensor)
            : InertiaChecks.checkInertiaAtCentreOfMass(
                parameters.inertiaAtCentreOfMass(), InertiaChecks.largestMagnitude(tensor));
        if (problem != null)
        {
            throw inertiaField.error(problem + ("origin".equals(at.text()) ? " (about the centre of mass)" : ""));
        }
        return parameters;
    }

    private static MassCentre massCentre(final YamlField link, final double mass)
    {
        final boolean hasCom = link.has("com");
        final boolean hasFirstMoment = link.has("first_moment");
        if (hasCom == hasFirstMoment)
        {
            throw (hasCom ? link.child("first_moment") : link)
                .error("give the centre of mass as exactly one of 'com' (m) or 'first_moment' (kg m)");
        }
        if (hasCom)
        {
            final double[] c = link.child("com").numbers(3);
            return new MassCentre(c, new double[] {mass * c[0], mass * c[1], mass * c[2]});
        }
        final YamlField field = link.child("first_moment");
        final double[] ms = field.numbers(3);
        if (mass == 0.0 && (ms[0] != 0.0 || ms[1] != 0.0 || ms[2] != 0.0))
        {
            throw field.error("first moment (" + ms[0] + ", " + ms[1] + ", " + ms[2]
                + ") kg m must be zero when the mass is 0");
        }
        final double[] c = mass == 0.0 ? new double[3] : new double[] {ms[0] / mass, ms[1] / mass, ms[2] / mass};
        return new MassCentre(c, ms);
    }

    private static double[] tensor(final YamlField inertia)
    {
        final double xx = inertia.child("xx").number();
        final double yy = inertia.child("yy").number();
        final double zz = inertia.child("zz").number();
        final double xy = product(inertia, "xy");
        final double xz = product(inertia, "xz");
        final double yz = product(inertia, "yz");
        return new double[] {xx, xy, xz, xy, yy, yz, xz, yz, zz};
    }

    private static double product(final YamlField inertia, final String key)
    {
        return inertia.has(key) ? inertia.child(key).number() : 0.0;
    }

    /**
     * The centre of mass both ways, each exactly as written where the file gave it.
     *
     * @param com centre of mass, m.
     * @param firstMoment m c, kg m.
     */
    private record MassCentre(double[] com, double[] firstMoment)
    {
    }

    private static void check(final YamlField field, final String problem)
    {
        if (problem != null)
        {
            throw field.error(problem);
        }
    }
}
