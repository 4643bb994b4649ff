package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;

class BaseMotionRatesTest
{
    private static final double PERIOD_S = 1e-3;
    private static final double TAU_S = 0.005;

    /**
     * Blocks of a motion with constant angular jerk j and a specific force quadratic in time: after
     * the low-pass settles, omegaDotDot_0 = j and f'' are exact, and f' lags the truth by its ramp
     * over T / 2 + tau (the backward difference's half period and the low-pass's delay).
     */
    @Test
    void ratesOfAPolynomialMotionSettleToTheirTruthAndKnownLag()
    {
        final double[] jerk = {0.3, -0.2, 0.1};
        final double[] rate = {0.05, 0.4, -0.3};
        final double[] secondRate = {-0.08, 0.02, 0.12};
        final BaseMotionRates rates = new BaseMotionRates(PERIOD_S, TAU_S);
        final BaseMotion block = new BaseMotion();
        assertFalse(rates.estimated(), "no block yet");
        final int blocks = 300;
        for (int n = 0; n <= blocks; n++)
        {
            final double t = n * PERIOD_S;
            block.angularAcceleration(jerk[0] * t, jerk[1] * t, jerk[2] * t)
                .specificForce(rate[0] * t + 0.5 * secondRate[0] * t * t, rate[1] * t + 0.5 * secondRate[1] * t * t,
                    9.81 + rate[2] * t + 0.5 * secondRate[2] * t * t);
            rates.update(block);
            assertEquals(n >= 1, rates.estimated(), "block " + n);
        }
        final double t = blocks * PERIOD_S;
        final double lag = PERIOD_S / 2 + TAU_S;
        for (int k = 0; k < 3; k++)
        {
            // the low-pass's transient has decayed by exp(-0.3 / 0.005) after 300 blocks
            assertEquals(jerk[k], rates.angularJerk(k), 1e-9, "angular jerk " + k);
            assertEquals(rate[k] + secondRate[k] * (t - lag), rates.forceRate(k), 1e-9, "f' " + k);
            assertEquals(secondRate[k], rates.forceSecondRate(k), 1e-9, "f'' " + k);
        }
        rates.reset();
        assertFalse(rates.estimated(), "reset forgets the blocks");
        assertEquals(0.0, rates.forceRate(2), "reset zeroes the rates");
    }

    @Test
    void aNonPositivePeriodOrNegativeTimeConstantIsRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new BaseMotionRates(0.0, TAU_S));
        assertThrows(IllegalArgumentException.class, () -> new BaseMotionRates(PERIOD_S, -1.0));
        assertThrows(IllegalArgumentException.class, () -> new BaseMotionRates(Double.NaN, TAU_S));
        assertDoesNotThrow(() -> new BaseMotionRates(PERIOD_S, 0.0), "raw differences allowed");
    }
}
