package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.ModelVariants;
import org.nectl.core.testing.RandomRobots;

/**
 * The time-scaled reference on its own: its velocity and acceleration are the time derivatives of
 * its position and velocity (central differences over the ticks), the positions lie on the
 * unscaled path, and without any limit in reach the clock runs at exactly s' = 1, reproducing the
 * unscaled sampler bit for bit.
 */
class ReferenceTimeScalingTest
{
    private static final long SEED = 31;
    private static final double DT_S = 1e-3;

    /**
     * A random 6-DoF chain with revolute and prismatic joints whose rate limits are rateScale times
     * its trajectory's peak feedforward rate (plus 1), torque limits far above the demand.
     */
    private static RobotModel limitedArm(final double rateScale)
    {
        final RobotModel base = RandomRobots.robot(SEED, 6, false, RandomRobots.Joints.MOVABLE, false);
        final double[][] bounds = limits(base, ControlFixtures.randomTrajectory(base, SEED, 2.0), rateScale);
        return ModelVariants.withEffortLimits(base, bounds[0], bounds[1]);
    }

    private static double[][] limits(final RobotModel model, final TrajectorySampler sampler, final double rateScale)
    {
        final ComputedTorqueController law = ControlFixtures.controller(model, 0.0);
        final ControlFixtures.Reference r = new ControlFixtures.Reference(model.dof());
        final ControlFixtures.Outputs out = new ControlFixtures.Outputs(model.dof());
        final double[][] bounds = new double[2][model.dof()];
        for (double t = sampler.startTimeS(); t <= sampler.endTimeS(); t += DT_S)
        {
            r.sample(sampler, t);
            law.compute(r.q, r.qd, r.q, r.qd, r.qdd, r.qddd, out.tau, out.tauFf, out.tauFfRate);
            for (int j = 0; j < model.dof(); j++)
            {
                bounds[0][j] = Math.max(bounds[0][j], 10.0 * Math.abs(out.tauFf[j]) + 10.0);
                bounds[1][j] = Math.max(bounds[1][j], rateScale * Math.abs(out.tauFfRate[j]) + 1.0);
            }
        }
        return bounds;
    }

    @Test
    void scaledVelocityAndAccelerationAreTheDerivativesOfTheScaledPositionOnTheSamePath()
    {
        final RobotModel model = limitedArm(0.4);
        final TrajectorySampler sampler = ControlFixtures.randomTrajectory(model, SEED, 2.0);
        final ReferenceTimeScaling scaling = new ReferenceTimeScaling(model, ReferenceTimeScaling.Settings.defaults());
        scaling.start(sampler);
        final int n = model.dof();
        final int ticks = 6000;
        final double[][] q = new double[ticks][n];
        final double[][] qd = new double[ticks][n];
        final double[][] qdd = new double[ticks][n];
        final double[][] qddd = new double[ticks][n];
        final double[][] qdddd = new double[ticks][n];
        final double[] scratch = new double[n];
        final double[] path = new double[n];
        double minimumRate = 1.0;
        double worstOffPath = 0.0;
        for (int k = 0; k < ticks; k++)
        {
            scaling.advance(DT_S, q[k], qd[k], qdd[k], qddd[k], qdddd[k]);
            minimumRate = Math.min(minimumRate, scaling.rate());
            sampler.sample(scaling.pathTimeS(), path, scratch, scratch, scratch, scratch);
            for (int j = 0; j < n; j++)
            {
                worstOffPath = Math.max(worstOffPath, Math.abs(path[j] - q[k][j]));
            }
        }
        // A central difference over +/-1 ms errs by dt^2/6 times the next derivative (bounded here by
        // twice its largest value on the three ticks); the jerk also steps where s''' does (it is
        // piecewise constant), which adds up to dt/2 times that step to the acceleration's.
        double worstVelocityRatio = 0.0;
        double worstAccelerationRatio = 0.0;
        for (int k = 1; k < ticks - 1; k++)
        {
            for (int j = 0; j < n; j++)
            {
                final double velocityError = Math.abs((q[k + 1][j] - q[k - 1][j]) / (2 * DT_S) - qd[k][j]);
                final double velocityBound = 1e-12 + 2.0 * DT_S * DT_S / 6.0 * largest(qddd, k, j);
                worstVelocityRatio = Math.max(worstVelocityRatio, velocityError / velocityBound);
                final double accelerationError = Math.abs((qd[k + 1][j] - qd[k - 1][j]) / (2 * DT_S) - qdd[k][j]);
                final double accelerationBound = 1e-12 + 2.0 * DT_S * DT_S / 6.0 * largest(qdddd, k, j)
                    + DT_S / 2.0 * (Math.abs(qddd[k][j] - qddd[k - 1][j]) + Math.abs(qddd[k + 1][j] - qddd[k][j]));
                worstAccelerationRatio = Math.max(worstAccelerationRatio, accelerationError / accelerationBound);
            }
        }
        System.out.printf("seed %d: min s' %.3f, central-difference error of qd %.2f and of qdd %.2f of its bound%n",
            SEED, minimumRate, worstVelocityRatio, worstAccelerationRatio);
        assertTrue(minimumRate < 0.9, "seed " + SEED + ": the limits must slow the clock, min s' " + minimumRate);
        assertEquals(0.0, worstOffPath, "seed " + SEED + ": the reference is q(s) itself");
        assertTrue(worstVelocityRatio <= 1.0, "seed " + SEED + ": qd error / bound " + worstVelocityRatio);
        assertTrue(worstAccelerationRatio <= 1.0, "seed " + SEED + ": qdd error / bound " + worstAccelerationRatio);
    }

    private static double largest(final double[][] values, final int k, final int j)
    {
        return Math.max(Math.abs(values[k - 1][j]), Math.max(Math.abs(values[k][j]), Math.abs(values[k + 1][j])));
    }

    @Test
    void withTheLimitsOutOfReachTheClockRunsAtFullRateAndReproducesTheSampler()
    {
        final RobotModel model = limitedArm(3.0);
        final TrajectorySampler sampler = ControlFixtures.randomTrajectory(model, SEED, 2.0);
        final ReferenceTimeScaling scaling = new ReferenceTimeScaling(model, ReferenceTimeScaling.Settings.defaults());
        scaling.start(sampler);
        final ControlFixtures.Reference scaled = new ControlFixtures.Reference(model.dof());
        final ControlFixtures.Reference plain = new ControlFixtures.Reference(model.dof());
        int status = TrajectorySampler.IN_PROGRESS;
        for (int k = 1; status != TrajectorySampler.FINISHED; k++)
        {
            status = scaling.advance(DT_S, scaled.q, scaled.qd, scaled.qdd, scaled.qddd, scaled.qdddd);
            plain.sample(sampler, scaling.pathTimeS());
            assertEquals(1.0, scaling.rate(), "tick " + k);
            assertEquals(k * DT_S, scaling.pathTimeS(), 1e-9 * k, "tick " + k);
            for (int j = 0; j < model.dof(); j++)
            {
                assertEquals(plain.qd[j], scaled.qd[j], 0.0, "tick " + k);
                assertEquals(plain.qdd[j], scaled.qdd[j], 0.0, "tick " + k);
                assertEquals(plain.qddd[j], scaled.qddd[j], 0.0, "tick " + k);
            }
        }
        assertEquals(0, scaling.scaledTicks());
    }

    @Test
    void rejectsSettingsOutOfRange()
    {
        final RobotModel model = RandomRobots.robot(SEED, 3, false, RandomRobots.Joints.REVOLUTE, false);
        final ReferenceTimeScaling.Settings d = ReferenceTimeScaling.Settings.defaults();
        assertThrows(IllegalArgumentException.class, () -> new ReferenceTimeScaling(model, new ReferenceTimeScaling.Settings(
            true, 1.5, d.accelerationMax(), d.jerkMax(), d.minimumRate(), d.gridSpacingS(), d.evaluationsPerTick())));
        assertThrows(IllegalArgumentException.class, () -> new ReferenceTimeScaling(model, new ReferenceTimeScaling.Settings(
            true, d.limitShare(), d.accelerationMax(), d.jerkMax(), 0.0, d.gridSpacingS(), d.evaluationsPerTick())));
    }
    /**
     * The feedforward the clock hands to the control law (from the two evaluations of its s'''
     * check) against the control law's own recursion along the same scaled reference, with and
     * without friction, under a tilted gravity. Tolerance 1e-9 of (1 + the largest value seen): the
     * two differ only by rounding in the affine recombination in s''', a few ulp of the terms.
     */
    @Test
    void theClockFeedforwardIsTheControlLawsRecursionAlongTheCommittedReference()
    {
        final RobotModel base = RandomRobots.robot(SEED, 6, false, RandomRobots.Joints.MOVABLE, true);
        final double[][] bounds = limits(base, ControlFixtures.randomTrajectory(base, SEED, 2.0), 0.4);
        final RobotModel model = ModelVariants.withEffortLimits(base, bounds[0], bounds[1]);
        final TrajectorySampler sampler = ControlFixtures.randomTrajectory(model, SEED, 2.0);
        final int n = model.dof();
        for (final boolean friction : new boolean[] {true, false})
        {
            final ReferenceTimeScaling scaling = new ReferenceTimeScaling(model, ReferenceTimeScaling.Settings.defaults());
            final ComputedTorqueController law = ControlFixtures.controller(model, 0.0);
            scaling.gravity(0.3, -0.2, -9.7);
            law.gravity(0.3, -0.2, -9.7);
            scaling.frictionFeedforward(friction);
            law.frictionFeedforward(friction);
            scaling.start(sampler);
            final ControlFixtures.Reference r = new ControlFixtures.Reference(n);
            final ControlFixtures.Outputs out = new ControlFixtures.Outputs(n);
            final double[] tau = new double[n];
            final double[] tauRate = new double[n];
            assertFalse(scaling.feedforward(tau, tauRate), "no tick evaluated yet");
            double peakTau = 0.0;
            double peakRate = 0.0;
            double worstTau = 0.0;
            double worstRate = 0.0;
            int jerkTicks = 0;
            double minimumRate = 1.0;
            for (int k = 0; k < 3000; k++)
            {
                scaling.advance(DT_S, r.q, r.qd, r.qdd, r.qddd, r.qdddd);
                assertTrue(scaling.feedforward(tau, tauRate), "tick " + k);
                law.compute(r.q, r.qd, r.q, r.qd, r.qdd, r.qddd, out.tau, out.tauFf, out.tauFfRate);
                jerkTicks += scaling.rateJerk() != 0.0 ? 1 : 0;
                minimumRate = Math.min(minimumRate, scaling.rate());
                for (int j = 0; j < n; j++)
                {
                    peakTau = Math.max(peakTau, Math.abs(out.tauFf[j]));
                    peakRate = Math.max(peakRate, Math.abs(out.tauFfRate[j]));
                    worstTau = Math.max(worstTau, Math.abs(tau[j] - out.tauFf[j]));
                    worstRate = Math.max(worstRate, Math.abs(tauRate[j] - out.tauFfRate[j]));
                }
            }
            final String what = "seed " + SEED + " friction " + friction + ": ";
            assertTrue(minimumRate < 0.9 && jerkTicks > 100,
                what + "min rate " + minimumRate + ", " + jerkTicks + " ticks with s''' != 0");
            assertTrue(worstTau <= 1e-9 * (1.0 + peakTau), what + "tau off by " + worstTau + " of " + peakTau);
            assertTrue(worstRate <= 1e-9 * (1.0 + peakRate), what + "tau rate off by " + worstRate + " of " + peakRate);
            System.out.printf(Locale.ROOT, "%sworst tau %.3e of %.3e, tau rate %.3e of %.3e%n",
                what, worstTau, peakTau, worstRate, peakRate);
        }
    }
}
