package org.nectl.core.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.control.LawDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The hexapod's law dynamics in leg lengths by its own inverse dynamic model (eqs. 59-66 after
 * forward kinematics) against the projected dynamics of the same hexapod written as a closed chain
 * (Gamma_c = G^T Gamma_tree), at seeded random leg lengths, rates and accelerations in the
 * workspace; the force rate against the forces' change along a motion; false where the legs cannot
 * be reached; no allocation.
 */
class GoughStewartLawDynamicsTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final int SAMPLES = 40;

    @Test
    void forcesAndGravityAgreeWithTheClosedChainsProjectedDynamics()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final ClosedLoopModel chain = GoughStewartClosedChain.of(hexapod);
        final GoughStewartLawDynamics law = new GoughStewartLawDynamics(hexapod, legs(hexapod));
        final ClosedLoopLawDynamics projected = new ClosedLoopLawDynamics(chain, tree(chain));
        final double[] tau = new double[6];
        final double[] expected = new double[6];
        double worst = 0.0;
        double worstGravity = 0.0;
        for (int n = 0; n < SAMPLES; n++)
        {
            final LegMotion m = LegMotion.random(hexapod, n);
            assertTrue(law.inverseDynamics(m.q, m.qd, m.qdd, tau), "sample " + n);
            assertTrue(projected.inverseDynamics(m.q, m.qd, m.qdd, expected), "sample " + n);
            worst = Math.max(worst, compare(expected, tau, "sample " + n + " forces"));
            assertTrue(law.gravityTorques(m.q, tau), "sample " + n);
            assertTrue(projected.gravityTorques(m.q, expected), "sample " + n);
            worstGravity = Math.max(worstGravity, compare(expected, tau, "sample " + n + " gravity"));
            for (int e = 0; e < 3; e++)
            {
                assertEquals(m.position[e], law.platformPosition()[e], 1e-9, "sample " + n + ": forward kinematics");
            }
        }
        System.out.println("hexapod law dynamics (eqs. 59-66) vs closed-chain projection: worst relative difference "
            + worst + " (forces), " + worstGravity + " (gravity)");
    }

    @Test
    void theClosedChainCarriesItForTheControlLaws()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final ClosedLoopModel chain = GoughStewartClosedChain.of(hexapod);
        final LawDynamics carried = chain.dedicatedDynamics().orElseThrow().compile(new double[] {0.0, 0.0, -3.7}).get();
        assertInstanceOf(GoughStewartLawDynamics.class, carried);
        final double[] home = chain.homeActive();
        final double[] tau = new double[6];
        final double[] expected = new double[6];
        assertTrue(carried.gravityTorques(home, tau));
        assertTrue(new ClosedLoopLawDynamics(chain, CompiledModel.of(chain.tree(), 0.0, 0.0, -3.7)).gravityTorques(home, expected));
        compare(expected, tau, "holding forces under the gravity given");
    }

    @Test
    void forceRateIsTheProjectionsAndIntegratesToTheForcesChangeAlongACubicMotion()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final ClosedLoopModel chain = GoughStewartClosedChain.of(hexapod);
        final GoughStewartLawDynamics law = new GoughStewartLawDynamics(hexapod, legs(hexapod));
        final ClosedLoopLawDynamics projected = new ClosedLoopLawDynamics(chain, tree(chain));
        for (long seed = 1; seed <= 4; seed++)
        {
            final LegMotion m = LegMotion.random(hexapod, seed);
            final double[] j = RandomRobots.vector(new SplittableRandom(seed), 6, 2.0);
            // Simpson's rule over 0.1 s, 100 intervals: the integral of the rate against the forces' change.
            final int intervals = 100;
            final double durationS = 0.1;
            final double[] q = new double[6];
            final double[] qd = new double[6];
            final double[] qdd = new double[6];
            final double[] tau = new double[6];
            final double[] rate = new double[6];
            final double[] start = new double[6];
            final double[] integral = new double[6];
            final double[] expected = new double[6];
            final double[] expectedRate = new double[6];
            double scale = 1e-9;
            double worstRate = 0.0;
            for (int i = 0; i <= intervals; i++)
            {
                final double t = durationS * i / intervals;
                for (int k = 0; k < 6; k++)
                {
                    q[k] = m.q[k] + t * (m.qd[k] + t / 2 * (m.qdd[k] + t / 3 * j[k]));
                    qd[k] = m.qd[k] + t * (m.qdd[k] + t / 2 * j[k]);
                    qdd[k] = m.qdd[k] + t * j[k];
                }
                assertTrue(law.torqueAndRate(q, qd, qdd, j, tau, rate), "seed " + seed + " t " + t);
                assertTrue(projected.torqueAndRate(q, qd, qdd, j, expected, expectedRate), "seed " + seed + " t " + t);
                compare(expected, tau, "seed " + seed + " t " + t + " forces");
                double forceScale = 1.0;
                for (int k = 0; k < 6; k++)
                {
                    forceScale = Math.max(forceScale, Math.abs(expected[k]));
                }
                for (int k = 0; k < 6; k++)
                {
                    // Two central differences over +/- 0.1 ms; the projection's shifted configurations are
                    // solved to Newton's 1e-12 m (this law polishes its own), which the quotient divides by 2h.
                    assertEquals(expectedRate[k], rate[k], 1e-7 * forceScale, "seed " + seed + " t " + t + " rate " + k);
                    worstRate = Math.max(worstRate, Math.abs(expectedRate[k] - rate[k]) / forceScale);
                }
                final double weight = (i == 0 || i == intervals ? 1 : i % 2 == 1 ? 4 : 2) * durationS / intervals / 3;
                for (int k = 0; k < 6; k++)
                {
                    integral[k] += weight * rate[k];
                    scale = Math.max(scale, Math.abs(tau[k]));
                }
                if (i == 0)
                {
                    System.arraycopy(tau, 0, start, 0, 6);
                }
            }
            double worst = 0.0;
            for (int k = 0; k < 6; k++)
            {
                final double error = Math.abs(start[k] + integral[k] - tau[k]);
                // The difference's truncation, h^2/6 times the forces' third derivative, integrates to
                // 1.7e-8 of the forces at most here (Simpson's own error is below 1e-12: 200 intervals
                // give the same); the projection's rate agrees with this one to 1e-10.
                assertTrue(error <= 5e-8 * scale, "seed " + seed + " leg " + k + ": integral of the rate misses by " + error);
                worst = Math.max(worst, error / scale);
            }
            System.out.println("hexapod law dynamics, seed " + seed + ": rate vs projection's " + worstRate
                + " of the forces per second, integral of the rate vs change " + worst + " of the forces");
        }
    }

    @Test
    void unreachableOrNonFiniteLegLengthsAreAnsweredFalseAndTheNextReachableOnesAreSolved()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartLawDynamics law = new GoughStewartLawDynamics(hexapod, legs(hexapod));
        final double[] home = hexapod.legLengths(hexapod.homePosition(), hexapod.homeRotation());
        final double[] tau = new double[6];
        final double[] rate = new double[6];
        final double[] zero = new double[6];
        // Leg 1 far shorter than its neighbours allow: B1 and B2 are 0.3 m apart on the platform.
        final double[] apart = home.clone();
        apart[0] = 0.05;
        assertFalse(law.inverseDynamics(apart, zero, zero, tau));
        assertFalse(law.torqueAndRate(apart, zero, zero, zero, tau, rate));
        final double[] notFinite = home.clone();
        notFinite[3] = Double.NaN;
        assertFalse(law.gravityTorques(notFinite, tau));
        final LegMotion m = LegMotion.random(hexapod, 7);
        assertTrue(law.inverseDynamics(m.q, m.qd, m.qdd, tau));
        for (int e = 0; e < 3; e++)
        {
            assertEquals(m.position[e], law.platformPosition()[e], 1e-9, "forward kinematics after a failure");
        }
    }

    @Test
    void allocatesNothingPerCall()
    {
        final GoughStewartModel hexapod = Hexapods.hexapod(1.0);
        final GoughStewartLawDynamics law = new GoughStewartLawDynamics(hexapod, legs(hexapod));
        final LegMotion a = LegMotion.random(hexapod, 1);
        final LegMotion b = LegMotion.random(hexapod, 2);
        final double[] jerk = RandomRobots.vector(new SplittableRandom(3), 6, 2.0);
        final double[] tau = new double[6];
        final double[] rate = new double[6];
        // Alternating states, so that every call runs forward kinematics.
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            law.torqueAndRate(a.q, a.qd, a.qdd, jerk, tau, rate);
            law.inverseDynamics(b.q, b.qd, b.qdd, tau);
            law.gravityTorques(a.q, tau);
        }, 5_000, 1_000);
        assertEquals(0, bytes, "bytes allocated per 1000 calls");
    }

    /** @return the platform's legs compiled under {@link #GRAVITY}. */
    private static CompiledModel legs(final GoughStewartModel hexapod)
    {
        return CompiledModel.of(hexapod.legs(), GRAVITY[0], GRAVITY[1], GRAVITY[2]);
    }

    /** @return the closed chain's equivalent tree compiled under {@link #GRAVITY}. */
    private static CompiledModel tree(final ClosedLoopModel chain)
    {
        return CompiledModel.of(chain.tree(), GRAVITY[0], GRAVITY[1], GRAVITY[2]);
    }

    private static double compare(final double[] expected, final double[] actual, final String what)
    {
        double worst = 0.0;
        for (int i = 0; i < expected.length; i++)
        {
            final double scale = Math.max(1, Math.abs(expected[i]));
            assertEquals(expected[i], actual[i], 1e-9 * scale, what + " leg " + (i + 1));
            worst = Math.max(worst, Math.abs(expected[i] - actual[i]) / scale);
        }
        return worst;
    }

    /**
     * Leg lengths, rates and accelerations of a platform motion near home (position within 5 cm,
     * attitude within 0.15 rad, random twist and rate), every leg within the stroke.
     */
    private record LegMotion(double[] position, double[] q, double[] qd, double[] qdd)
    {
        static LegMotion random(final GoughStewartModel hexapod, final long seed)
        {
            final SplittableRandom rnd = new SplittableRandom(1900 + seed);
            final double[] p = hexapod.homePosition();
            for (int e = 0; e < 3; e++)
            {
                p[e] += rnd.nextDouble(-0.05, 0.05);
            }
            final double[] r = Transforms.multiply(hexapod.homeRotation(), Transforms.rpy(
                rnd.nextDouble(-0.15, 0.15), rnd.nextDouble(-0.15, 0.15), rnd.nextDouble(-0.15, 0.15)));
            final double[] q = new double[6];
            final double[] qd = new double[6];
            final double[] qdd = new double[6];
            new GoughStewartKinematics(hexapod).inverse(p, r, RandomRobots.vector(rnd, 6, 0.5),
                RandomRobots.vector(rnd, 6, 3.0), q, qd, qdd);
            for (int i = 0; i < 6; i++)
            {
                assertTrue(q[i] > hexapod.actuatorLimits().positionMin() && q[i] < hexapod.actuatorLimits().positionMax(),
                    "seed " + seed + " leg " + (i + 1) + " length " + q[i]);
            }
            return new LegMotion(p, q, qd, qdd);
        }
    }
}
