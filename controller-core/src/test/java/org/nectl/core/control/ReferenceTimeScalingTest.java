package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
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
        final ComputedTorqueController law = ControlFixtures.controller(CompiledModel.of(model), 0.0);
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
        final ReferenceTimeScaling scaling = new ReferenceTimeScaling(CompiledModel.of(model), ReferenceTimeScaling.Settings.defaults());
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
        final ReferenceTimeScaling scaling = new ReferenceTimeScaling(CompiledModel.of(model), ReferenceTimeScaling.Settings.defaults());
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
        final CompiledModel model = CompiledModel.of(RandomRobots.robot(SEED, 3, false, RandomRobots.Joints.REVOLUTE, false));
        final ReferenceTimeScaling.Settings d = ReferenceTimeScaling.Settings.defaults();
        assertThrows(IllegalArgumentException.class, () -> new ReferenceTimeScaling(model, new ReferenceTimeScaling.Settings(
            true, 1.5, d.accelerationMax(), d.jerkMax(), d.minimumRate(), d.gridSpacingS(), d.evaluationsPerTick())));
        assertThrows(IllegalArgumentException.class, () -> new ReferenceTimeScaling(model, new ReferenceTimeScaling.Settings(
            true, d.limitShare(), d.accelerationMax(), d.jerkMax(), 0.0, d.gridSpacingS(), d.evaluationsPerTick())));
    }
}
