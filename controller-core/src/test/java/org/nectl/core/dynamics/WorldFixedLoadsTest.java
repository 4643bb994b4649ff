package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * World-fixed loads (a base-frame force at a body-fixed point and a base-frame moment; Barman 2020,
 * eqs. 3.76-3.91) against independent oracles: the virtual-work identity tau_ext = -J^T (F, M) with
 * the point's Jacobian built from base-frame poses, central differences of tau for d tau/d q and of
 * the reaction wrenches for theirs, central differences in time for tau-dot under rates, and the
 * forward dynamics undoing the inverse.
 */
class WorldFixedLoadsTest
{
    private static final int ROBOTS = 60;
    /** Relative to max(1, max |value|), as {@link FormulationCrossCheck#discrepancy}. */
    private static final double IDENTITY_TOLERANCE = 1e-10;
    private static final double DERIVATIVE_TOLERANCE = 1e-6;

    /** A world-fixed force at a random point and a moment on up to three bodies, no gravity change. */
    private static AppliedLoads worldLoads(final CompiledModel model, final SplittableRandom rnd)
    {
        final AppliedLoads loads = new AppliedLoads(model);
        for (int w = 0; w < Math.min(3, model.bodyCount()); w++)
        {
            final int body = rnd.nextInt(model.bodyCount());
            final double[] p = RandomRobots.vector(rnd, 3, 0.5);
            final double[] f = RandomRobots.vector(rnd, 3, 20.0);
            final double[] m = RandomRobots.vector(rnd, 3, 5.0);
            loads.worldForce(body, p[0], p[1], p[2], f[0], f[1], f[2]).worldMoment(body, m[0], m[1], m[2]);
        }
        return loads;
    }

    @Test
    void worldFixedForceAndMomentEnterAsMinusJacobianTransposeTimesTheirWrench()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 7 + 3);
            final PolynomialMotion state = new PolynomialMotion(rnd, n);
            final AppliedLoads loads = worldLoads(compiled, rnd);
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final double[] expected = new double[n];
            rnea.compute(state.q, state.qd, state.qdd, expected);
            subtractJacobianTransposeTimesWorldLoads(compiled, state.q, loads, expected);
            final double[] tau = new double[n];
            rnea.compute(state.q, state.qd, state.qdd, loads, tau);
            final double error = FormulationCrossCheck.discrepancy(expected, tau);
            assertTrue(error <= IDENTITY_TOLERANCE, "seed " + seed + ": RNEA vs -J^T F, relative error " + error);
            worst = Math.max(worst, error);
            // every other algorithm given the same loads agrees with the inverse dynamics
            final double[] other = new double[n];
            new TorqueDerivative(compiled).compute(state.q, state.qd, state.qdd, state.qddd, loads, other, new double[n]);
            assertEquals(0.0, FormulationCrossCheck.discrepancy(tau, other), IDENTITY_TOLERANCE, "seed " + seed + ": tau-dot's tau");
            new InverseDynamicsDerivatives(compiled).compute(
                state.q, state.qd, state.qdd, loads, other, new double[n * n], new double[n * n], new double[n * n]);
            assertEquals(0.0, FormulationCrossCheck.discrepancy(tau, other), IDENTITY_TOLERANCE, "seed " + seed + ": derivatives' tau");
            final double[] qdd = new double[n];
            assertTrue(new RecursiveForwardDynamics(compiled).compute(state.q, state.qd, tau, loads, qdd), "seed " + seed);
            assertEquals(0.0, FormulationCrossCheck.discrepancy(state.qdd, qdd), 1e-8, "seed " + seed + ": FD(ID) recursive");
            assertTrue(new CholeskyForwardDynamics(compiled).compute(state.q, state.qd, tau, loads, qdd), "seed " + seed);
            assertEquals(0.0, FormulationCrossCheck.discrepancy(state.qdd, qdd), 1e-8, "seed " + seed + ": FD(ID) Cholesky");
        }
        System.out.printf("world-fixed loads vs -J^T (F, M): max relative error %.3e%n", worst);
    }

    /**
     * tau -= J^T (F, M): the force at point p of body b does work F . v_p, the moment M . omega_b, so
     * joint j (an ancestor of b or b itself) receives z_j . ((p - o_j) x F + M) if revolute, z_j . F if
     * prismatic, with z_j, o_j and p from base-frame poses composed here.
     */
    private static void subtractJacobianTransposeTimesWorldLoads(
        final CompiledModel compiled, final double[] q, final AppliedLoads loads, final double[] tau)
    {
        final RobotModel model = compiled.robot();
        final WorldKinematics world = new WorldKinematics(compiled);
        world.positions(q);
        for (int b = 0; b < model.bodyCount(); b++)
        {
            final double[] point = new double[3];
            Vec3.multiply(world.rotation, 9 * b, loads.worldPoint, 3 * b, point, 0);
            Vec3.add(world.origin, 3 * b, point, 0);
            for (int j = b; j >= 0; j = model.parent(j))
            {
                final int k = model.coordinateOfBody(j);
                if (k < 0)
                {
                    continue;
                }
                final double[] z = {world.rotation[9 * j + 2], world.rotation[9 * j + 5], world.rotation[9 * j + 8]};
                final double[] force = {loads.worldForce[3 * b], loads.worldForce[3 * b + 1], loads.worldForce[3 * b + 2]};
                if (model.jointType(j) == JointType.PRISMATIC)
                {
                    tau[k] -= Vec3.dot(z, 0, force, 0);
                    continue;
                }
                final double[] arm = new double[3];
                for (int c = 0; c < 3; c++)
                {
                    arm[c] = point[c] - world.origin[3 * j + c];
                }
                final double[] moment = new double[3];
                Vec3.cross(arm, 0, force, 0, moment, 0);
                Vec3.add(loads.worldMoment, 3 * b, moment, 0);
                tau[k] -= Vec3.dot(z, 0, moment, 0);
            }
        }
    }

    @Test
    void worldFixedLoadDerivativesMatchCentralDifferencesOfTheInverseDynamics()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = TorqueDerivativeTest.robot(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 13 + 5);
            final PolynomialMotion s = new PolynomialMotion(rnd, n);
            final AppliedLoads loads = worldLoads(compiled, rnd);
            final double[] w = RandomRobots.vector(rnd, 6, 10.0);
            loads.bodyWrench(rnd.nextInt(model.bodyCount()), w[0], w[1], w[2], w[3], w[4], w[5]);
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(compiled);
            final double[] dq = new double[n * n];
            final double[] dqd = new double[n * n];
            derivatives.compute(s.q, s.qd, s.qdd, loads, new double[n], dq, dqd, new double[n * n]);
            double error = FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
                (x, out) -> rnea.compute(x, s.qd, s.qdd, loads, out), s.q, n, DynamicsIdentities.STEP), dq);
            error = Math.max(error, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian(
                (x, out) -> rnea.compute(s.q, x, s.qdd, loads, out), s.qd, n, DynamicsIdentities.STEP), dqd));
            final double[] rw = new double[6 * n];
            final double[] unused = new double[6 * n];
            for (int body = 0; body < model.bodyCount(); body++)
            {
                final int b = body;
                derivatives.reactionWrenchDerivatives(b, rw, unused, unused);
                error = Math.max(error, FormulationCrossCheck.discrepancy(CentralDifferences.jacobian((x, out) ->
                {
                    rnea.compute(x, s.qd, s.qdd, loads, new double[n]);
                    rnea.reactionWrench(b, out);
                }, s.q, 6, DynamicsIdentities.STEP), rw));
            }
            assertTrue(error <= DERIVATIVE_TOLERANCE, "seed " + seed + " (" + n + " dof): relative error " + error);
            worst = Math.max(worst, error);
        }
        System.out.printf("world-fixed loads, d tau/d q and reaction derivatives vs central differences: %.3e%n", worst);
    }

    @Test
    void torqueRateUnderChangingWorldFixedLoadsMatchesCentralDifferencesInTime()
    {
        final double h = TorqueDerivativeCheck.STEP_S;
        double worst = 0.0;
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed * 17 + 11);
            final PolynomialMotion motion = new PolynomialMotion(rnd, n);
            final AppliedLoads loads = worldLoads(compiled, rnd);
            final double[][] rates = new double[model.bodyCount()][];
            for (int b = 0; b < rates.length; b++)
            {
                rates[b] = RandomRobots.vector(rnd, 6, 30.0);
            }
            final AppliedLoads atT = new AppliedLoads(compiled);
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final double[][] samples = new double[PolynomialMotion.STEPS.length][n];
            for (int k = 0; k < samples.length; k++)
            {
                final double t = PolynomialMotion.STEPS[k] * h;
                motion.at(t);
                for (int b = 0; b < rates.length; b++)
                {
                    final int e = 3 * b;
                    atT.worldForce(b, loads.worldPoint[e], loads.worldPoint[e + 1], loads.worldPoint[e + 2],
                        loads.worldForce[e] + t * rates[b][0], loads.worldForce[e + 1] + t * rates[b][1],
                        loads.worldForce[e + 2] + t * rates[b][2]);
                    atT.worldMoment(b, loads.worldMoment[e] + t * rates[b][3], loads.worldMoment[e + 1] + t * rates[b][4],
                        loads.worldMoment[e + 2] + t * rates[b][5]);
                }
                rnea.compute(motion.q, motion.qd, motion.qdd, atT, samples[k]);
            }
            final double[] differenced = new double[n];
            for (int k = 0; k < n; k++)
            {
                differenced[k] = PolynomialMotion.centralDifference(
                    new double[] {samples[0][k], samples[1][k], samples[2][k], samples[3][k]}, h);
            }
            for (int b = 0; b < rates.length; b++)
            {
                loads.worldRate(b, rates[b]);
            }
            motion.at(0.0);
            final double[] tauDot = new double[n];
            new TorqueDerivative(compiled).compute(motion.q, motion.qd, motion.qdd, motion.qddd, loads, new double[n], tauDot);
            final double error = FormulationCrossCheck.discrepancy(differenced, tauDot);
            assertTrue(error <= 1e-7, "seed " + seed + ": tau-dot vs central difference, relative error " + error);
            worst = Math.max(worst, error);
        }
        System.out.printf("world-fixed loads with rates, tau-dot vs central differences: %.3e%n", worst);
    }

    @Test
    void worldFixedLoadsAllocateNothingPerCall()
    {
        final long seed = 5;
        final RobotModel model = RandomRobots.robot(seed, 12, true, RandomRobots.Joints.ALL, true);
        final CompiledModel compiled = CompiledModel.of(model);
        final int n = model.dof();
        final SplittableRandom rnd = new SplittableRandom(seed);
        final PolynomialMotion s = new PolynomialMotion(rnd, n);
        final AppliedLoads loads = worldLoads(compiled, rnd).worldRate(1, 1, 2, 3, 4, 5, 6);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final TorqueDerivative derivative = new TorqueDerivative(compiled);
        final InverseDynamicsDerivatives derivatives = new InverseDynamicsDerivatives(compiled);
        final RecursiveForwardDynamics forward = new RecursiveForwardDynamics(compiled);
        final double[] tau = new double[n];
        final double[] rate = new double[n];
        final double[] matrix = new double[n * n];
        assertEquals(0L, AllocationMeter.bytesAllocated(() ->
        {
            rnea.compute(s.q, s.qd, s.qdd, loads, tau);
            derivative.compute(s.q, s.qd, s.qdd, s.qddd, loads, tau, rate);
            derivatives.compute(s.q, s.qd, s.qdd, loads, tau, matrix, matrix, matrix);
            forward.compute(s.q, s.qd, tau, loads, rate);
        }, 20_000, 10_000), "seed " + seed + ": bytes over 10000 calls");
    }
}
