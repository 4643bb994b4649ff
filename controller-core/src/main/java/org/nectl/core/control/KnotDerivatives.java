package org.nectl.core.control;

/**
 * Chooses one derivative of a sampled function at its knots from the knot values alone, for a
 * jerk-continuous interpolant: zero at the first and last knot (rest to rest), zero at an interior
 * knot where the neighbouring difference quotients differ in sign or one vanishes (a local extremum
 * or plateau: the curve then turns at the waypoint instead of overshooting it), otherwise the slope
 * of the parabola through the knot and its two neighbours, (h_r d_l + h_l d_r) / (h_l + h_r), exact
 * for quadratics on uneven spacing. Applied to positions it gives velocities, to those velocities
 * accelerations, to those jerks. Local (a waypoint influences only its neighbours' derivatives),
 * no linear solve, and no overshoot at direction reversals, so waypoints inside the position
 * limits rarely give a curve outside them. Stateless; not real-time safe (used at construction).
 */
public final class KnotDerivatives
{
    private KnotDerivatives()
    {
    }

    /**
     * @param timesS knot times, strictly increasing.
     * @param values values[k * stride + joint].
     * @param stride joints per knot.
     * @param joint which joint.
     * @param derivatives receives the derivative at each knot, same layout.
     */
    public static void choose(
        final double[] timesS, final double[] values, final int stride, final int joint, final double[] derivatives)
    {
        final int n = timesS.length;
        derivatives[joint] = 0.0;
        derivatives[(n - 1) * stride + joint] = 0.0;
        for (int k = 1; k < n - 1; k++)
        {
            final double hLeft = timesS[k] - timesS[k - 1];
            final double hRight = timesS[k + 1] - timesS[k];
            final double x = values[k * stride + joint];
            final double dLeft = (x - values[(k - 1) * stride + joint]) / hLeft;
            final double dRight = (values[(k + 1) * stride + joint] - x) / hRight;
            derivatives[k * stride + joint] = dLeft * dRight <= 0.0
                ? 0.0
                : (hRight * dLeft + hLeft * dRight) / (hLeft + hRight);
        }
    }
}
