package org.nectl.planning;

import java.util.Arrays;

/**
 * Waypoint times at which positions along a retimed path are written so that a controller that
 * re-derives velocities, accelerations and jerks from positions alone reproduces the law.
 *
 * <p>nectl's trajectory sampler (controller-core {@code KnotDerivatives}) takes a waypoint's velocity
 * as the slope of the parabola through it and its neighbours, except that it sets it to zero where
 * the neighbouring difference quotients change sign (a reversal); accelerations and jerks come from
 * the same rule applied to the velocities and accelerations. A joint that reverses between waypoints
 * therefore gets a zero velocity at the nearest waypoint, where its true velocity is up to a h / 2,
 * and the septic segment through it bends to match: a jerk error of the order of a / h, which grows
 * as the waypoints get denser (the same at acceleration zero crossings, jerk error of the order of the
 * jerk itself). Hence the times written: every {@code periodS}, plus, for every joint, each instant
 * where its velocity or its acceleration crosses zero (found by bisection), where the rule's zero is
 * exact (an acceleration crossing within {@link #ACCELERATION_GAP_S} of a periodic time excepted). The
 * periodic times are all kept: a 1 kHz loop that starts the trajectory on a tick samples it at them
 * when the period divides 1 ms, and there the sampler returns its knot estimates, whereas between
 * knots a septic through estimated derivatives that are off by e bends by about 50 e / h^2 in jerk.
 * The estimates are parabola slopes, exact for quadratics; their errors (of order h^2 times the next
 * derivative) cancel on an even grid but not beside a crossing, where the spacing is uneven: there they
 * reach the jerk at the next tick. Measured on the Panda's retimed path (peak |tau-dot| / limit along the
 * law 0.734): along the sampler's reference at the ticks 0.786 with a 1 ms period, 0.748 with 0.5 ms,
 * 0.734 with 0.25 ms, the default of {@code nectl optimize --retime}. Times are rounded to whole
 * nanoseconds, the resolution of the wire format, before positions are evaluated at them.
 */
public final class LawWaypoints
{
    /** A crossing this close to another waypoint is left out: difference quotients over shorter spans lose precision. */
    public static final double MERGE_S = 1e-6;
    /**
     * An acceleration zero crossing this close to a periodic waypoint is left out: the rule's zero there is off
     * by jerk x gap, which costs less than the difference quotients over so short a span (measured on the
     * Panda's path: 1e-4 s, against 1e-6 s for velocity crossings, whose omission costs acceleration x gap / h^2).
     */
    public static final double ACCELERATION_GAP_S = 1e-4;

    private LawWaypoints()
    {
    }

    /**
     * @param path the path.
     * @param law its time law.
     * @param periodS the regular spacing, s.
     * @return strictly increasing times from 0 to T, whole nanoseconds.
     */
    public static double[] times(final JointPath path, final SmoothTimeLaw law, final double periodS)
    {
        final int dof = path.dof();
        final double duration = law.durationS();
        final int intervals = Math.max(1, (int)Math.ceil(duration / periodS - 1e-9));
        final double[] regular = new double[intervals + 1];
        for (int k = 0; k <= intervals; k++)
        {
            regular[k] = k == intervals ? duration : k * periodS;
        }
        final Motion motion = new Motion(path, law);
        double[] crossings = new double[16];
        int count = 0;
        final double[] before = new double[2 * dof];
        final double[] after = new double[2 * dof];
        motion.derivatives(regular[0], before);
        for (int k = 1; k <= intervals; k++)
        {
            motion.derivatives(regular[k], after);
            for (int c = 0; c < 2 * dof; c++)
            {
                if (before[c] * after[c] < 0.0)
                {
                    if (count == crossings.length)
                    {
                        crossings = Arrays.copyOf(crossings, 2 * count);
                    }
                    final double root = motion.root(c, regular[k - 1], regular[k], before[c]);
                    final double gap = Math.min(root - regular[k - 1], regular[k] - root);
                    if (gap >= (c < dof ? MERGE_S : ACCELERATION_GAP_S))
                    {
                        crossings[count++] = root;
                    }
                }
            }
            System.arraycopy(after, 0, before, 0, after.length);
        }
        final double[] found = Arrays.copyOf(crossings, count);
        for (int k = 0; k < count; k++)
        {
            found[k] = nanoseconds(found[k]);
        }
        Arrays.sort(found);
        final double[] times = new double[intervals + 1 + count];
        int n = 0;
        int next = 0;
        for (int k = 0; k <= intervals; k++)
        {
            final double t = k == intervals ? nanoseconds(duration) : nanoseconds(regular[k]);
            while (next < count && found[next] < t)
            {
                final double crossing = found[next++];
                if (crossing - times[n - 1] >= MERGE_S && t - crossing >= MERGE_S)
                {
                    times[n++] = crossing;
                }
            }
            times[n++] = t;
        }
        return Arrays.copyOf(times, n);
    }

    private static double nanoseconds(final double timeS)
    {
        return Math.rint(timeS * 1e9) * 1e-9;
    }

    /** Joint velocities and accelerations along the law. */
    private static final class Motion
    {
        private final JointPath path;
        private final SmoothTimeLaw law;
        private final double[] state = new double[4];
        private final double[] q;
        private final double[] d1;
        private final double[] d2;
        private final double[] d3;
        private final double[] values;

        Motion(final JointPath path, final SmoothTimeLaw law)
        {
            this.path = path;
            this.law = law;
            q = new double[path.dof()];
            d1 = new double[path.dof()];
            d2 = new double[path.dof()];
            d3 = new double[path.dof()];
            values = new double[2 * path.dof()];
        }

        /** out[j] = qd_j, out[dof + j] = qdd_j at a time. */
        void derivatives(final double time, final double[] out)
        {
            law.at(time, state);
            path.evaluate(state[0], q, d1, d2, d3);
            final int dof = q.length;
            for (int j = 0; j < dof; j++)
            {
                out[j] = d1[j] * state[1];
                out[dof + j] = d2[j] * state[1] * state[1] + d1[j] * state[2];
            }
        }

        /** Bisection for the zero of component c in [low, high], where it changes sign. */
        double root(final int c, final double low, final double high, final double atLow)
        {
            double a = low;
            double b = high;
            for (int k = 0; k < 60 && b - a > 1e-12; k++)
            {
                final double mid = 0.5 * (a + b);
                derivatives(mid, values);
                if (values[c] * atLow > 0.0)
                {
                    a = mid;
                }
                else
                {
                    b = mid;
                }
            }
            return 0.5 * (a + b);
        }
    }
}
