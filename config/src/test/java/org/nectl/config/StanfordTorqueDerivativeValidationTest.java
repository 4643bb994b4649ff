package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;

/**
 * Reproduces the validation of Guarino Lo Bianco, "Evaluation of generalized force derivatives by
 * means of a recursive Newton-Euler approach", IEEE T-RO 2009, Section V: the Stanford arm moves
 * point to point (Table III, t_f = 2 s, g = 9.81) and the analytic tau-dot is compared with the
 * backward difference (eq. 36) of tau at sampling times 1e-2, 1e-3 and 1e-4 s. The paper reports
 * max |delta tau-dot_1| = 2.462e-2 N m/s at 1e-4 s, one decade worse per decade of T_s.
 *
 * <p>The paper's time law is the ordinary quintic s(u) = 10u^3 - 15u^4 + 6u^5 (zero velocity and
 * acceleration at the ends; its text also asks for zero jerk, which no quintic gives, and the
 * printed number is reproduced by the quintic). The 7th-order law s(u) = 35u^4 - 84u^5 + 70u^6 -
 * 20u^7, which does end with zero jerk, is kept as the documented extension. A backward difference
 * errs by T_s/2 * tau-ddot + O(T_s^2), so in both the error must shrink tenfold per decade of T_s.
 */
class StanfordTorqueDerivativeValidationTest
{
    private static final double FINAL_TIME_S = 2.0;
    private static final double[] INITIAL = {Math.PI / 2, 0, 0, Math.PI / 2, Math.PI / 4, Math.PI / 2};
    private static final double[] FINAL = {Math.PI / 4, Math.PI / 2, 2, Math.PI / 4, Math.PI / 2, 0};
    private static final double[] SAMPLING_TIMES_S = {1e-2, 1e-3, 1e-4};
    private static final double PAPER_JOINT_1_ERROR = 2.462e-2;

    /** A rest-to-rest time law s(u), u = t / t_f, with its first three derivatives in u. */
    private interface TimeLaw
    {
        void sample(double u, double[] s);
    }

    /** 10u^3 - 15u^4 + 6u^5: zero velocity and acceleration at both ends (the paper's). */
    private static final TimeLaw QUINTIC = (u, s) ->
    {
        final double u2 = u * u;
        s[0] = u2 * u * (10 - 15 * u + 6 * u2);
        s[1] = u2 * (30 - 60 * u + 30 * u2);
        s[2] = u * (60 - 180 * u + 120 * u2);
        s[3] = 60 - 360 * u + 360 * u2;
    };

    /** 35u^4 - 84u^5 + 70u^6 - 20u^7: zero velocity, acceleration and jerk at both ends. */
    private static final TimeLaw SEVENTH_ORDER = (u, s) ->
    {
        final double u2 = u * u;
        final double u3 = u2 * u;
        s[0] = u2 * u2 * (35 - 84 * u + 70 * u2 - 20 * u3);
        s[1] = u3 * (140 - 420 * u + 420 * u2 - 140 * u3);
        s[2] = u2 * (420 - 1680 * u + 2100 * u2 - 840 * u3);
        s[3] = u * (840 - 5040 * u + 8400 * u2 - 4200 * u3);
    };

    @Test
    void quinticReproducesThePapersJointOneErrorAndItsDecadeScaling()
    {
        final double[][] maxError = maxErrors(QUINTIC, "quintic");
        assertDecadeScaling(maxError);
        // The paper's quintic: joint 1 within 5 % of its 2.462e-2 N m/s at T_s = 1e-4 s.
        final double relative = maxError[2][0] / PAPER_JOINT_1_ERROR - 1;
        assertTrue(Math.abs(relative) <= 0.05, "joint 1 at 1e-4 s: " + maxError[2][0] + " (" + relative + ")");
    }

    @Test
    void seventhOrderLawKeepsTheDecadeScaling()
    {
        final double[][] maxError = maxErrors(SEVENTH_ORDER, "7th order");
        assertDecadeScaling(maxError);
        // Same order of magnitude as the paper's number; the steeper law has a larger tau-ddot.
        assertTrue(maxError[2][0] > PAPER_JOINT_1_ERROR / 10 && maxError[2][0] < PAPER_JOINT_1_ERROR * 10);
    }

    private static double[][] maxErrors(final TimeLaw law, final String name)
    {
        final RobotModel stanford = RobotDescriptions.load(ShippedRobots.directory().resolve("stanford.yaml"));
        final double[][] maxError = new double[SAMPLING_TIMES_S.length][];
        for (int s = 0; s < SAMPLING_TIMES_S.length; s++)
        {
            maxError[s] = maxBackwardDifferenceError(stanford, law, SAMPLING_TIMES_S[s]);
        }
        final StringBuilder table = new StringBuilder(name + ": T_s [s] | max |delta tau-dot_i| for i = 1..6 [N m/s or N/s]\n");
        for (int s = 0; s < SAMPLING_TIMES_S.length; s++)
        {
            table.append(String.format(Locale.ROOT, "%.0e |", SAMPLING_TIMES_S[s]));
            for (final double e : maxError[s])
            {
                table.append(String.format(Locale.ROOT, " %.4e", e));
            }
            table.append('\n');
        }
        System.out.print(table);
        return maxError;
    }

    private static void assertDecadeScaling(final double[][] maxError)
    {
        for (int s = 1; s < SAMPLING_TIMES_S.length; s++)
        {
            for (int i = 0; i < 6; i++)
            {
                // First-order error: a decade of T_s is a decade of error; allow +-30 % for the O(T_s^2) part.
                final double ratio = maxError[s - 1][i] / maxError[s][i];
                assertTrue(ratio > 7.0 && ratio < 13.0,
                    "joint " + (i + 1) + ": error ratio " + ratio + " between T_s " + SAMPLING_TIMES_S[s - 1]
                        + " and " + SAMPLING_TIMES_S[s]);
            }
        }
    }

    private static double[] maxBackwardDifferenceError(final RobotModel model, final TimeLaw law, final double samplingTimeS)
    {
        final TorqueDerivative dynamics = new TorqueDerivative(CompiledModel.of(model, 0, 0, -9.81));
        final int n = model.dof();
        final double[][] state = new double[4][n];
        final double[] s = new double[4];
        final double[] tau = new double[n];
        final double[] tauDot = new double[n];
        final double[] previousTau = new double[n];
        final double[] maxError = new double[n];
        final long steps = Math.round(FINAL_TIME_S / samplingTimeS);
        for (long k = 0; k <= steps; k++)
        {
            sample(law, k * samplingTimeS, s, state);
            dynamics.compute(state[0], state[1], state[2], state[3], tau, tauDot);
            if (k > 0)
            {
                for (int i = 0; i < n; i++)
                {
                    final double estimate = (tau[i] - previousTau[i]) / samplingTimeS; // eq. 36
                    maxError[i] = Math.max(maxError[i], Math.abs(tauDot[i] - estimate));
                }
            }
            System.arraycopy(tau, 0, previousTau, 0, n);
        }
        return maxError;
    }

    /** Joint position, velocity, acceleration and jerk of the rest-to-rest move at time t. */
    private static void sample(final TimeLaw law, final double t, final double[] s, final double[][] state)
    {
        law.sample(t / FINAL_TIME_S, s);
        for (int i = 0; i < INITIAL.length; i++)
        {
            final double delta = FINAL[i] - INITIAL[i];
            state[0][i] = INITIAL[i] + delta * s[0];
            state[1][i] = delta * s[1] / FINAL_TIME_S;
            state[2][i] = delta * s[2] / (FINAL_TIME_S * FINAL_TIME_S);
            state[3][i] = delta * s[3] / (FINAL_TIME_S * FINAL_TIME_S * FINAL_TIME_S);
        }
    }
}
