package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointLimits;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

class TorqueLimiterTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final double[] TORQUE_LIMIT_NM = {87, 87, 87, 87, 12, 12, 12};
    private static final double[] RATE_LIMIT_NM_PER_S = {1000, 1000, 1000, 1000, 1000, 1000, 1000};

    @Test
    void neverExceedsTorqueOrRateLimitAndCountsEveryFlaggedClip()
    {
        final long seed = 11;
        final SplittableRandom rnd = new SplittableRandom(seed);
        final TorqueLimiter limiter = new TorqueLimiter(TORQUE_LIMIT_NM, RATE_LIMIT_NM_PER_S, PERIOD_NS);
        final double[] previous = new double[7];
        final double[] out = new double[7];
        final long[] torqueFlags = new long[7];
        final long[] rateFlags = new long[7];
        for (int tick = 0; tick < 20_000; tick++)
        {
            // Alternate calm stretches and wild jumps so that both limits bind and also idle.
            final double amplitude = (tick / 500) % 2 == 0 ? 150.0 : 0.5;
            final double[] command = RandomRobots.vector(rnd, 7, amplitude);
            for (int j = 0; j < 7; j++)
            {
                command[j] += previous[j];
            }
            final long flags = limiter.limit(command, out);
            for (int j = 0; j < 7; j++)
            {
                final String where = "seed " + seed + ", tick " + tick + ", joint " + j;
                assertTrue(Math.abs(out[j]) <= TORQUE_LIMIT_NM[j], where + ": " + out[j]);
                // One tick may move 1000 N m/s * 1 ms = 1 N m, plus rounding of previous + step.
                assertTrue(Math.abs(out[j] - previous[j]) <= 1.0 + 1e-12, where + ": step " + (out[j] - previous[j]));
                final boolean torqueClipped = (flags & TorqueLimiter.torqueFlag(j)) != 0;
                final boolean rateClipped = (flags & TorqueLimiter.rateFlag(j)) != 0;
                assertEquals(Math.abs(command[j]) > TORQUE_LIMIT_NM[j], torqueClipped, where);
                assertEquals(!torqueClipped && !rateClipped, out[j] == command[j], where);
                torqueFlags[j] += torqueClipped ? 1 : 0;
                rateFlags[j] += rateClipped ? 1 : 0;
                previous[j] = out[j];
            }
        }
        long torqueTotal = 0;
        long rateTotal = 0;
        for (int j = 0; j < 7; j++)
        {
            assertEquals(torqueFlags[j], limiter.torqueClipCount(j), "joint " + j);
            assertEquals(rateFlags[j], limiter.rateClipCount(j), "joint " + j);
            assertTrue(limiter.rateClipCount(j) > 1000, "the wild stretches must bind the rate limit");
            assertEquals(0, limiter.nonFiniteCount(j));
            torqueTotal += torqueFlags[j];
            rateTotal += rateFlags[j];
        }
        assertEquals(torqueTotal, limiter.torqueClipTotal(), "the telemetered torque clip total");
        assertEquals(rateTotal, limiter.rateClipTotal(), "the telemetered rate clip total");
        assertTrue(limiter.torqueClipCount(4) > 100, "the 12 N m joints must hit the torque limit");
    }

    @Test
    void passesUnsaturatedCommandsThroughUnchanged()
    {
        final SplittableRandom rnd = new SplittableRandom(5);
        final TorqueLimiter limiter = new TorqueLimiter(TORQUE_LIMIT_NM, RATE_LIMIT_NM_PER_S, PERIOD_NS);
        final double[] command = new double[7];
        final double[] out = new double[7];
        for (int tick = 0; tick < 10_000; tick++)
        {
            for (int j = 0; j < 7; j++)
            {
                // Steps of at most 0.9 N m per 1 ms inside +/-10 N m: under both limits.
                command[j] = Math.max(-10.0, Math.min(10.0, command[j] + rnd.nextDouble(-0.9, 0.9)));
            }
            assertEquals(0L, limiter.limit(command, out), "seed 5, tick " + tick);
            for (int j = 0; j < 7; j++)
            {
                assertEquals(Double.doubleToLongBits(command[j]), Double.doubleToLongBits(out[j]), "tick " + tick);
            }
        }
        for (int j = 0; j < 7; j++)
        {
            assertEquals(0, limiter.torqueClipCount(j) + limiter.rateClipCount(j) + limiter.nonFiniteCount(j));
        }
    }

    @Test
    void stepCommandRampsAtTheRateLimitAndCountsOnlyTheClippedTicks()
    {
        final TorqueLimiter limiter = new TorqueLimiter(new double[] {100}, new double[] {1000}, PERIOD_NS);
        final double[] out = new double[1];
        for (int tick = 1; tick <= 12; tick++)
        {
            final long flags = limiter.limit(new double[] {10.0}, out);
            assertEquals(Math.min(tick, 10), out[0], 1e-12, "tick " + tick);
            assertEquals(tick < 10 ? TorqueLimiter.rateFlag(0) : 0L, flags, "tick " + tick);
        }
        assertEquals(9, limiter.rateClipCount(0));
        assertEquals(0, limiter.torqueClipCount(0));
    }

    @Test
    void limitsInPlaceWhenCommandAndOutputAreOneArray()
    {
        final TorqueLimiter limiter = new TorqueLimiter(new double[] {5, 5}, new double[] {1000, 1000}, PERIOD_NS);
        final double[] torque = {0.5, 9.0};
        final long flags = limiter.limit(torque, torque);
        assertEquals(0.5, torque[0]);
        assertEquals(1.0, torque[1], 1e-15);
        assertEquals(TorqueLimiter.torqueFlag(1) | TorqueLimiter.rateFlag(1), flags);
    }

    @Test
    void torqueLimitClipsWithoutRateLimit()
    {
        final double inf = Double.POSITIVE_INFINITY;
        final TorqueLimiter limiter = new TorqueLimiter(new double[] {100, 100}, new double[] {inf, inf}, PERIOD_NS);
        final double[] out = new double[2];
        final long flags = limiter.limit(new double[] {150, -40}, out);
        assertEquals(100.0, out[0]);
        assertEquals(-40.0, out[1]);
        assertEquals(TorqueLimiter.torqueFlag(0), flags);
        assertEquals(-100.0, limitOne(limiter, -1e9, out));
        assertEquals(2, limiter.torqueClipCount(0));
    }

    @Test
    void nonFiniteCommandHoldsThePreviousCommandAndIsFlagged()
    {
        final TorqueLimiter limiter = new TorqueLimiter(new double[] {100, 100}, new double[] {1000, 1000}, PERIOD_NS);
        final double[] out = new double[2];
        limiter.reset(new double[] {3.0, 4.0});
        final long flags = limiter.limit(new double[] {Double.NaN, 4.5}, out);
        assertEquals(3.0, out[0]);
        assertEquals(4.5, out[1]);
        assertEquals(TorqueLimiter.torqueFlag(0) | TorqueLimiter.rateFlag(0), flags);
        assertEquals(1, limiter.nonFiniteMask());
        assertEquals(1, limiter.nonFiniteCount(0));
        assertEquals(0, limiter.torqueClipCount(0) + limiter.rateClipCount(0));
        limiter.limit(new double[] {3.0, Double.NEGATIVE_INFINITY}, out);
        assertEquals(2, limiter.nonFiniteMask());
        assertEquals(4.5, out[1]);
    }

    @Test
    void torqueLimitWinsWhenThePreviousCommandWasFarOutsideIt()
    {
        final TorqueLimiter limiter = new TorqueLimiter(new double[] {10}, new double[] {1000}, PERIOD_NS);
        final double[] out = new double[1];
        limiter.reset(new double[] {50.0});
        final long flags = limiter.limit(new double[] {40.0}, out);
        assertEquals(10.0, out[0]);
        assertEquals(TorqueLimiter.torqueFlag(0) | TorqueLimiter.rateFlag(0), flags);
    }

    @Test
    void takesLimitsFromTheModelAndThePeriod()
    {
        final RobotModel.Builder b = RobotModel.builder("one");
        b.limits(b.addBody("l", "j", -1, JointType.REVOLUTE, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(1, new double[3], new double[] {0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1})),
            new JointLimits(-1, 1, 1, 5.0, 400.0));
        // 400 N m/s at 250 us: 0.1 N m per tick.
        final TorqueLimiter limiter = new TorqueLimiter(b.build(), 250_000L);
        final double[] out = new double[1];
        assertEquals(0.1, limitOne(limiter, 3.0, out), 1e-15);
        limiter.reset(new double[] {4.95});
        assertEquals(5.0, limitOne(limiter, 6.0, out));
    }

    @Test
    void rejectsInvalidLimits()
    {
        assertThrows(IllegalArgumentException.class,
            () -> new TorqueLimiter(new double[] {1, 0}, new double[] {1, 1}, PERIOD_NS));
        assertThrows(IllegalArgumentException.class,
            () -> new TorqueLimiter(new double[] {1, 1}, new double[] {1, Double.NaN}, PERIOD_NS));
        assertThrows(IllegalArgumentException.class,
            () -> new TorqueLimiter(new double[] {1, 1}, new double[] {1}, PERIOD_NS));
        assertThrows(IllegalArgumentException.class,
            () -> new TorqueLimiter(new double[] {1}, new double[] {1}, 0L));
        assertThrows(IllegalArgumentException.class,
            () -> new TorqueLimiter(new double[33], new double[33], PERIOD_NS));
    }

    private static double limitOne(final TorqueLimiter limiter, final double commandNm, final double[] out)
    {
        final double[] command = new double[limiter.dof()];
        command[0] = commandNm;
        for (int j = 1; j < command.length; j++)
        {
            command[j] = out[j];
        }
        limiter.limit(command, out);
        return out[0];
    }
}
