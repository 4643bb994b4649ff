package org.nectl.planning;

import java.util.Arrays;

/**
 * A C3 time law s(t), rest to rest from s = 0 to s = 1, made from a reachability profile whose
 * s-ddot is piecewise constant: each step of s-ddot (the change of the control at a grid point, the
 * start and the stop included) is spread by a triangular kernel of its own half-width w_i centred on
 * the step's time. s-ddot(t) = sum_i du_i H_i(t - t_i), with H_i the integral of the triangle, so
 * s-tripledot = sum_i du_i k_i(t - t_i) is continuous and at most |du_i| / w_i from each step: a
 * step is turned into a ramp whose steepness the caller chooses, step by step. Because every kernel
 * is a probability density centred on its step, the law keeps the profile's mean timing, s-dot is a
 * kernel average of the profile's s-dot where the widths are equal (so it cannot go negative there),
 * and s-dot returns to exactly 0 after the last ramp; the final position 1 + sum_i du_i w_i^2 / 12 is
 * scaled back to exactly 1 (a relative change of a few 1e-3 at most).
 *
 * <p>Each step's contribution has a closed form in truncated powers, (d + w)_+^n - 2 d_+^n + (d - w)_+^n,
 * and beyond its ramp a polynomial; those are summed in O(1) from prefix sums over the steps sorted by
 * the end of their ramp, so an evaluation costs the number of ramps in progress.
 *
 * <p>Immutable after construction; {@link #at} allocates nothing. Not real-time code.
 */
public final class SmoothTimeLaw
{
    private final double[] stepTime;
    private final double[] stepSize;
    private final double[] halfWidth;
    private final double[] rampEnd;
    private final double[] sum0;
    private final double[] sum1;
    private final double[] sum2;
    private final double[] sum3;
    private final double widest;
    private final double origin;
    private final double duration;
    private final double scale;

    /**
     * @param times time of each grid point in the stepped profile, s (strictly increasing; N + 1 values).
     * @param controls s-ddot on each interval of the stepped profile (N values); 0 before the first and after the last point.
     * @param halfWidths the half-width of the ramp of the step at each grid point, s (N + 1 positive values).
     */
    public SmoothTimeLaw(final double[] times, final double[] controls, final double[] halfWidths)
    {
        final int points = times.length;
        final Integer[] order = new Integer[points];
        final double[] size = new double[points];
        int count = 0;
        for (int i = 0; i < points; i++)
        {
            final double before = i > 0 ? controls[i - 1] : 0.0;
            final double after = i < points - 1 ? controls[i] : 0.0;
            size[i] = after - before;
            if (size[i] != 0.0)
            {
                order[count++] = i;
            }
        }
        final Integer[] used = Arrays.copyOf(order, count);
        Arrays.sort(used, (a, b) -> Double.compare(times[a] + halfWidths[a], times[b] + halfWidths[b]));
        stepTime = new double[count];
        stepSize = new double[count];
        halfWidth = new double[count];
        rampEnd = new double[count];
        sum0 = new double[count + 1];
        sum1 = new double[count + 1];
        sum2 = new double[count + 1];
        sum3 = new double[count + 1];
        double first = Double.POSITIVE_INFINITY;
        double last = Double.NEGATIVE_INFINITY;
        double wide = 0.0;
        for (int k = 0; k < count; k++)
        {
            final int i = used[k];
            stepTime[k] = times[i];
            stepSize[k] = size[i];
            halfWidth[k] = halfWidths[i];
            rampEnd[k] = times[i] + halfWidths[i];
            wide = Math.max(wide, halfWidths[i]);
            first = Math.min(first, times[i] - halfWidths[i]);
            last = Math.max(last, rampEnd[k]);
            sum0[k + 1] = sum0[k] + stepSize[k];
            sum1[k + 1] = sum1[k] + stepSize[k] * stepTime[k];
            sum2[k + 1] = sum2[k] + stepSize[k] * stepTime[k] * stepTime[k];
            sum3[k + 1] = sum3[k] + stepSize[k] * halfWidth[k] * halfWidth[k];
        }
        widest = wide;
        origin = first;
        duration = last - first;
        final double[] end = new double[4];
        unscaled(last, end);
        scale = 1.0 / end[0];
    }

    /** @return T, s: the law runs from rest at t = 0 to rest at t = T. */
    public double durationS()
    {
        return duration;
    }

    /** @return the time of the stepped profile's first point on this law's clock, s (the ramp of the start precedes it). */
    public double profileStartS()
    {
        return -origin;
    }

    /**
     * The instants where s-tripledot has a kink (each ramp's start, centre and end), on this law's clock,
     * sorted: between them s-tripledot is linear, so a check that includes them sees its extremes.
     *
     * @return the breakpoints within [0, T].
     */
    public double[] breakpointsS()
    {
        final double[] points = new double[3 * stepTime.length];
        for (int k = 0; k < stepTime.length; k++)
        {
            points[3 * k] = stepTime[k] - halfWidth[k] - origin;
            points[3 * k + 1] = stepTime[k] - origin;
            points[3 * k + 2] = rampEnd[k] - origin;
        }
        for (int k = 0; k < points.length; k++)
        {
            points[k] = Math.max(0.0, Math.min(duration, points[k]));
        }
        Arrays.sort(points);
        return points;
    }

    /** @return the largest ramp half-width, s. */
    public double widestRampS()
    {
        return widest;
    }

    /**
     * s and its first three time derivatives.
     *
     * @param time on this law's clock, s (clamped to [0, T]).
     * @param out {s, s-dot, s-ddot, s-tripledot}.
     */
    public void at(final double time, final double[] out)
    {
        unscaled(origin + Math.max(0.0, Math.min(duration, time)), out);
        for (int k = 0; k < 4; k++)
        {
            out[k] *= scale;
        }
        out[0] = Math.max(0.0, Math.min(1.0, out[0]));
    }

    /** The law on the stepped profile's clock, before the final scaling. */
    private void unscaled(final double t, final double[] out)
    {
        // steps whose ramp has ended contribute du ((t - ti)^2 / 2 + w^2 / 12) to s, du (t - ti) to s-dot, du to s-ddot
        int low = 0;
        int high = rampEnd.length;
        while (low < high)
        {
            final int mid = (low + high) >>> 1;
            if (rampEnd[mid] <= t)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }
        final int done = low;
        double s = 0.5 * (t * t * sum0[done] - 2.0 * t * sum1[done] + sum2[done]) + sum3[done] / 12.0;
        double sDot = t * sum0[done] - sum1[done];
        double sDdot = sum0[done];
        double sTripleDot = 0.0;
        // a ramp still in progress ends before t + 2 widest, since it started before t
        for (int k = done; k < rampEnd.length && rampEnd[k] < t + 2.0 * widest; k++)
        {
            final double w = halfWidth[k];
            final double d = t - stepTime[k];
            if (d <= -w)
            {
                continue;
            }
            final double a = d + w;
            final double b = Math.max(0.0, d);
            final double du = stepSize[k] / (w * w);
            // truncated powers of the triangle of half-width w: (d + w)_+^n - 2 d_+^n (the third term is 0 before d = w)
            sTripleDot += du * (a - 2.0 * b);
            sDdot += du * (a * a - 2.0 * b * b) / 2.0;
            sDot += du * (a * a * a - 2.0 * b * b * b) / 6.0;
            s += du * (a * a * a * a - 2.0 * b * b * b * b) / 24.0;
        }
        out[0] = s;
        out[1] = sDot;
        out[2] = sDdot;
        out[3] = sTripleDot;
    }
}
