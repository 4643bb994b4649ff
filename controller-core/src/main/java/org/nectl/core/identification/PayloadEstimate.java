package org.nectl.core.identification;

import java.util.Locale;

import org.nectl.core.model.InertialParameters;

/**
 * A payload estimate and how well the motion determined it. Immutable.
 *
 * @param parameters m (kg), m c (kg m), inertia about the carrying body's origin (kg m^2: xx, xy, xz,
 *     yy, yz, zz), in that body's frame; the six inertia entries NaN when not identified.
 * @param standardErrors one standard error per parameter, from the residual (NaN where not identified).
 * @param singularValues of the regressor with unit-norm columns, largest first.
 * @param conditionNumber their ratio, largest over smallest.
 * @param inertiaIdentified false if the excitation left the inertia undetermined.
 * @param rmsResidualNm RMS of the fitted torques' residual, N m.
 * @param samples motion samples used.
 */
public record PayloadEstimate(double[] parameters, double[] standardErrors, double[] singularValues, double conditionNumber,
    boolean inertiaIdentified, double rmsResidualNm, int samples)
{
    /** Copies the arrays. */
    public PayloadEstimate
    {
        parameters = parameters.clone();
        standardErrors = standardErrors.clone();
        singularValues = singularValues.clone();
    }

    /** @return the mass, kg. */
    public double mass()
    {
        return parameters[0];
    }

    /** @return the centre of mass in the carrying body's frame, m. */
    public double[] centreOfMass()
    {
        final double m = parameters[0];
        return new double[] {parameters[1] / m, parameters[2] / m, parameters[3] / m};
    }

    /** @return the payload as a body (a point mass where the inertia was not identified). */
    public InertialParameters body()
    {
        return PayloadIdentification.body(parameters);
    }

    /** @return a copy of the parameters. */
    @Override
    public double[] parameters()
    {
        return parameters.clone();
    }

    /** @return a copy of the standard errors. */
    @Override
    public double[] standardErrors()
    {
        return standardErrors.clone();
    }

    /** @return a copy of the singular values. */
    @Override
    public double[] singularValues()
    {
        return singularValues.clone();
    }

    /** @return the report printed by {@code nectl identify payload}. */
    public String report()
    {
        final double[] c = centreOfMass();
        final StringBuilder text = new StringBuilder(512);
        text.append(String.format(Locale.ROOT, "mass %.4f kg (standard error %.2e)%n", mass(), standardErrors[0]));
        text.append(String.format(Locale.ROOT, "centre of mass [%.5f, %.5f, %.5f] m in the carrying link's frame%n", c[0], c[1], c[2]));
        if (inertiaIdentified)
        {
            final InertialParameters body = body();
            final double[] i = body.inertiaAtCentreOfMass();
            text.append(String.format(Locale.ROOT, "inertia about the centre of mass: xx %.3e, yy %.3e, zz %.3e, xy %.3e, xz %.3e,"
                + " yz %.3e kg m^2%n", i[0], i[4], i[8], i[1], i[2], i[5]));
        }
        else
        {
            text.append("inertia: not identified (the motion does not excite it enough; the payload is taken as a point mass)")
                .append(System.lineSeparator());
        }
        text.append(String.format(Locale.ROOT, "conditioning: condition number %.3g of the regressor with unit-norm columns"
            + " (inertia identified below %.0g); singular values", conditionNumber, PayloadIdentification.MAX_CONDITION));
        for (final double s : singularValues)
        {
            text.append(String.format(Locale.ROOT, " %.3g", s));
        }
        text.append(System.lineSeparator());
        text.append(String.format(Locale.ROOT, "fit: %d samples, RMS torque residual %.3e N m%n", samples, rmsResidualNm));
        return text.toString();
    }
}
