package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

/**
 * The smooth time law: rest to rest from 0 to 1, each derivative the time derivative of the one before
 * (central differences), and a single step of s-ddot turned into a ramp of the given half-width.
 */
class SmoothTimeLawTest
{
    @Test
    void randomProfilesGiveARestToRestLawWhoseDerivativesAgreeWithDifferences()
    {
        for (long seed = 1; seed <= 5; seed++)
        {
            final Random random = new Random(seed);
            final int intervals = 10 + random.nextInt(30);
            // a consistent stepped profile: x = s-dot^2 at evenly spaced s, from rest to rest
            final double[] x = new double[intervals + 1];
            for (int i = 1; i < intervals; i++)
            {
                x[i] = 0.5 + random.nextDouble();
            }
            final double[] u = new double[intervals];
            final double[] t = new double[intervals + 1];
            final double ds = 1.0 / intervals;
            for (int i = 0; i < intervals; i++)
            {
                u[i] = (x[i + 1] - x[i]) / (2.0 * ds);
                t[i + 1] = t[i] + 2.0 * ds / (Math.sqrt(x[i]) + Math.sqrt(x[i + 1]));
            }
            final double[] widths = new double[intervals + 1];
            for (int i = 0; i <= intervals; i++)
            {
                widths[i] = 0.02 + 0.03 * random.nextDouble();
            }
            final SmoothTimeLaw law = new SmoothTimeLaw(t, u, widths);
            final double[] state = new double[4];
            law.at(0.0, state);
            assertEquals(0.0, state[0], 1e-12, "seed " + seed);
            assertEquals(0.0, state[1], 1e-12, "seed " + seed);
            law.at(law.durationS(), state);
            assertEquals(1.0, state[0], 1e-12, "seed " + seed);
            assertEquals(0.0, state[1], 1e-9, "seed " + seed);
            assertEquals(0.0, state[2], 1e-9, "seed " + seed);
            final double h = 1e-6;
            final double[] before = new double[4];
            final double[] after = new double[4];
            for (int k = 1; k < 200; k++)
            {
                final double time = law.durationS() * k / 200.0;
                law.at(time, state);
                law.at(time - h, before);
                law.at(time + h, after);
                for (int d = 0; d < 3; d++)
                {
                    final double difference = (after[d] - before[d]) / (2.0 * h);
                    assertEquals(state[d + 1], difference, 1e-5 * Math.max(1.0, Math.abs(state[d + 1])),
                        "seed " + seed + ", derivative " + (d + 1) + " at t = " + time);
                }
                assertTrue(state[1] >= 0.0, "seed " + seed + ": s-dot " + state[1] + " at t = " + time);
            }
        }
    }

    @Test
    void oneStepBecomesARampOfItsHalfWidth()
    {
        // s-ddot 1 from t = 0 to 1 and -1 from 1 to 2 (s = 0.5 at 1, 1 at 2): steps +1 at 0, -2 at 1, +1 at 2,
        // ramps of half-width 0.1
        final SmoothTimeLaw law = new SmoothTimeLaw(new double[] {0.0, 1.0, 2.0}, new double[] {1.0, -1.0},
            new double[] {0.1, 0.1, 0.1});
        assertEquals(2.2, law.durationS(), 1e-12);
        final double[] state = new double[4];
        law.at(0.1, state);
        assertEquals(0.5, state[2], 1e-12, "half-way up the first ramp");
        assertEquals(10.0, state[3], 1e-9, "peak s-tripledot du / w");
        law.at(0.5, state);
        assertEquals(1.0, state[2], 1e-12);
        assertEquals(0.0, state[3], 1e-12);
        law.at(1.1, state);
        assertEquals(0.0, state[2], 1e-12, "the middle of the switch");
        assertEquals(-20.0, state[3], 1e-9);
        // symmetric: half the path at half the time
        assertEquals(0.5, state[0], 1e-12);
    }
}
