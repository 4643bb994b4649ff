package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class ComputedTorqueControllerTest
{
    @Test
    void onTheReferenceTheCommandIsTheFeedforward()
    {
        for (long seed = 1; seed <= 30; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 400.0);
            controller.frictionFeedforward(seed % 2 == 0);
            final ControlFixtures.Reference r = ControlFixtures.Reference.random(rnd, n);
            final ControlFixtures.Outputs out = new ControlFixtures.Outputs(n);
            assertEquals(ControlStatus.OK, controller.compute(r.q, r.qd, r.q, r.qd, r.qdd, r.qddd,
                out.tau, out.tauFf, out.tauFfRate));
            for (int j = 0; j < n; j++)
            {
                assertEquals(out.tauFf[j], out.tau[j], 1e-9 * (1 + Math.abs(out.tauFf[j])), "seed " + seed + ", joint " + j);
            }
        }
    }

    @Test
    void feedbackCorrectionActsThroughTheMassMatrix()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 30; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed + 100);
            final double kp = 400.0;
            final double kd = 40.0;
            final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), kp);
            final ControlFixtures.Reference measured = ControlFixtures.Reference.random(rnd, n);
            final ControlFixtures.Reference desired = ControlFixtures.Reference.random(rnd, n);
            final ControlFixtures.Outputs tracking = new ControlFixtures.Outputs(n);
            final ControlFixtures.Outputs onReference = new ControlFixtures.Outputs(n);
            controller.compute(measured.q, measured.qd, desired.q, desired.qd, desired.qdd, desired.qddd,
                tracking.tau, tracking.tauFf, tracking.tauFfRate);
            controller.compute(measured.q, measured.qd, measured.q, measured.qd, desired.qdd, desired.qddd,
                onReference.tau, onReference.tauFf, onReference.tauFfRate);
            final double[][] mass = massMatrixFromKineticEnergy(model, measured.q);
            for (int i = 0; i < n; i++)
            {
                double expected = 0.0;
                for (int j = 0; j < n; j++)
                {
                    final double correction = kd * (desired.qd[j] - measured.qd[j]) + kp * (desired.q[j] - measured.q[j]);
                    expected += mass[i][j] * correction;
                }
                final double actual = tracking.tau[i] - onReference.tau[i];
                // Both sides are O(1e3) N m sums of rounded terms: 1e-9 relative is rounding, not modelling.
                final double error = Math.abs(expected - actual) / (1 + Math.abs(expected));
                worst = Math.max(worst, error);
                assertTrue(error < 1e-9, "seed " + seed + ", joint " + i + ": " + actual + " vs M (Kd e' + Kp e) " + expected);
            }
        }
        System.out.println("largest relative error of tau(e) - tau(0) against M(q) (Kd e' + Kp e): " + worst);
    }

    @Test
    void frictionFeedforwardAddsTheModelsCoulombAndViscousTerms()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, 7, seed % 2 == 0, RandomRobots.Joints.MOVABLE, true);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed + 200);
            final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 100.0);
            final ControlFixtures.Reference measured = ControlFixtures.Reference.random(rnd, n);
            final ControlFixtures.Reference desired = ControlFixtures.Reference.random(rnd, n);
            final ControlFixtures.Outputs with = new ControlFixtures.Outputs(n);
            final ControlFixtures.Outputs without = new ControlFixtures.Outputs(n);
            controller.compute(measured.q, measured.qd, desired.q, desired.qd, desired.qdd, desired.qddd,
                with.tau, with.tauFf, with.tauFfRate);
            controller.frictionFeedforward(false);
            controller.compute(measured.q, measured.qd, desired.q, desired.qd, desired.qdd, desired.qddd,
                without.tau, without.tauFf, without.tauFfRate);
            for (int j = 0; j < n; j++)
            {
                final double fs = model.actuation(j).coulombFriction();
                final double fv = model.actuation(j).viscousFriction();
                final String where = "seed " + seed + ", joint " + j;
                assertEquals(fs * Math.signum(measured.qd[j]) + fv * measured.qd[j], with.tau[j] - without.tau[j], 1e-9, where);
                assertEquals(fs * Math.signum(desired.qd[j]) + fv * desired.qd[j], with.tauFf[j] - without.tauFf[j], 1e-9, where);
                assertEquals(fv * desired.qdd[j], with.tauFfRate[j] - without.tauFfRate[j], 1e-9, where);
            }
        }
    }

    @Test
    void feedforwardRateIsTheTimeDerivativeOfTheFeedforwardAlongASampledTrajectory()
    {
        final double dtS = 1e-4;
        double worst = 0.0;
        for (long seed = 1; seed <= 10; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, 7, false, RandomRobots.Joints.MOVABLE, true);
            final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 100.0);
            // Coulomb friction steps where a reference velocity crosses zero; its rate is taken as 0.
            controller.frictionFeedforward(false);
            final SplittableRandom rnd = new SplittableRandom(seed + 300);
            final double[] times = {0.0, 0.8, 1.5, 2.5, 3.0};
            final double[][] positions = new double[times.length][];
            for (int k = 0; k < times.length; k++)
            {
                positions[k] = RandomRobots.vector(rnd, 7, 0.4);
            }
            final TrajectorySampler sampler = new TrajectorySampler(model, new JointWaypoints(times, positions));
            final ControlFixtures.Reference r = new ControlFixtures.Reference(7);
            final ControlFixtures.Outputs out = new ControlFixtures.Outputs(7);
            final double[] stencil = {2, 1, -1, -2};
            final double[] weight = {-1, 8, -8, 1};
            for (int i = 0; i < 50; i++)
            {
                final int segment = rnd.nextInt(times.length - 1);
                final double t = rnd.nextDouble(times[segment] + 3 * dtS, times[segment + 1] - 3 * dtS);
                r.sample(sampler, t);
                controller.compute(r.q, r.qd, r.q, r.qd, r.qdd, r.qddd, out.tau, out.tauFf, out.tauFfRate);
                final double[] analytic = out.tauFfRate.clone();
                final double[] difference = new double[7];
                for (int m = 0; m < 4; m++)
                {
                    r.sample(sampler, t + stencil[m] * dtS);
                    controller.compute(r.q, r.qd, r.q, r.qd, r.qdd, r.qddd, out.tau, out.tauFf, out.tauFfRate);
                    for (int j = 0; j < 7; j++)
                    {
                        difference[j] += weight[m] * out.tauFf[j] / (12 * dtS);
                    }
                }
                for (int j = 0; j < 7; j++)
                {
                    // Five-point difference: truncation dt^4 |tau^(5)| / 30 and rounding
                    // eps |tau| / dt, both below 1e-6 of the rate's scale here.
                    final double error = Math.abs(analytic[j] - difference[j]) / (1 + Math.abs(analytic[j]));
                    worst = Math.max(worst, error);
                    assertTrue(error < 1e-6, "seed " + seed + ", t " + t + ", joint " + j + ": tau_ff' " + analytic[j]
                        + " vs difference " + difference[j]);
                }
            }
        }
        System.out.println("largest relative error of tau_ff' against a five-point difference of tau_ff: " + worst);
    }

    @Test
    void withoutGravityTheFeedforwardAtRestIsZero()
    {
        final RobotModel model = RandomRobots.any(78);
        final int n = model.dof();
        final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 100.0);
        final ControlFixtures.Outputs out = new ControlFixtures.Outputs(n);
        final double[] q = RandomRobots.vector(new SplittableRandom(78), n, 2.0);
        final double[] zero = new double[n];
        controller.compute(q, zero, q, zero, zero, zero, out.tau, out.tauFf, out.tauFfRate);
        assertTrue(maxAbs(out.tauFf) > 1e-3, "seed 78: gravity must load the arm at rest");
        final double[] kp = new double[n];
        final double[] kd = new double[n];
        Arrays.fill(kp, 100.0);
        Arrays.fill(kd, 20.0);
        final ComputedTorqueController weightless =
            new ComputedTorqueController(CompiledModel.of(model, 0.0, 0.0, 0.0), kp, kd);
        weightless.compute(q, zero, q, zero, zero, zero, out.tau, out.tauFf, out.tauFfRate);
        assertEquals(0.0, maxAbs(out.tau), 1e-12);
        assertEquals(0.0, maxAbs(out.tauFf), 1e-12);
        assertEquals(0.0, maxAbs(out.tauFfRate), 1e-12);
    }

    @Test
    void nonFiniteReferenceIsReported()
    {
        final RobotModel model = RandomRobots.robot(4, 3, false, RandomRobots.Joints.REVOLUTE, false);
        final ComputedTorqueController controller = ControlFixtures.controller(CompiledModel.of(model), 100.0);
        final ControlFixtures.Outputs out = new ControlFixtures.Outputs(3);
        final double[] zero = new double[3];
        assertEquals(ControlStatus.NON_FINITE_OUTPUT, controller.compute(zero, zero, zero, zero, zero,
            new double[] {0, Double.POSITIVE_INFINITY, 0}, out.tau, out.tauFf, out.tauFfRate));
        assertEquals(ControlStatus.OK, controller.compute(zero, zero, zero, zero, zero, zero, out.tau, out.tauFf, out.tauFfRate));
    }

    /** M(q) by polarisation of the kinetic energy 1/2 qd^T M qd: exact for a quadratic form. */
    private static double[][] massMatrixFromKineticEnergy(final RobotModel model, final double[] q)
    {
        final MechanicalEnergy energy = new MechanicalEnergy(model);
        final int n = model.dof();
        final double[][] m = new double[n][n];
        final double[] qd = new double[n];
        for (int i = 0; i < n; i++)
        {
            qd[i] = 1.0;
            m[i][i] = 2 * energy.kineticEnergyJoules(q, qd);
            qd[i] = 0.0;
        }
        for (int i = 0; i < n; i++)
        {
            for (int j = i + 1; j < n; j++)
            {
                qd[i] = 1.0;
                qd[j] = 1.0;
                m[i][j] = energy.kineticEnergyJoules(q, qd) - 0.5 * (m[i][i] + m[j][j]);
                m[j][i] = m[i][j];
                qd[i] = 0.0;
                qd[j] = 0.0;
            }
        }
        return m;
    }

    private static double maxAbs(final double[] v)
    {
        double m = 0.0;
        for (final double x : v)
        {
            m = Math.max(m, Math.abs(x));
        }
        return m;
    }
}
