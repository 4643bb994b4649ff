package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

class InverseDynamicsTest
{
    static final double G = 9.81;
    private static final double M1 = 3.7;
    private static final double M2 = 2.1;
    private static final double L1 = 0.8;
    private static final double LC1 = 0.35;
    private static final double LC2 = 0.42;
    private static final double I1 = 0.21;
    private static final double I2 = 0.09;

    /**
     * Planar RR arm in the x-y plane, joint axes along z, gravity along -y; link i's centre of mass
     * on its x axis at lc_i; I_i about the centre of mass along z.
     */
    static RobotModel twoLinkArm(final JointActuation actuation)
    {
        final RobotModel.Builder b = RobotModel.builder("two-link-rr");
        final int l1 = b.addBody("link1", "shoulder", -1, JointType.REVOLUTE, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(M1, new double[] {LC1, 0, 0}, diagonal(0.4 * I1, 0.7 * I1, I1)));
        final int l2 = b.addBody("link2", "elbow", l1, JointType.REVOLUTE, Transforms.identity(), new double[] {L1, 0, 0},
            InertialParameters.ofCentreOfMass(M2, new double[] {LC2, 0, 0}, diagonal(0.4 * I2, 0.7 * I2, I2)));
        b.actuation(l1, actuation).actuation(l2, actuation);
        return b.build();
    }

    private static double[] diagonal(final double x, final double y, final double z)
    {
        return new double[] {x, 0, 0, 0, y, 0, 0, 0, z};
    }

    /** Spong, Hutchinson and Vidyasagar, "Robot Modeling and Control", 2006, eq. 7.87 (two-link planar elbow arm). */
    static double[] spongTwoLinkTorques(final double[] q, final double[] qd, final double[] qdd)
    {
        final double c2 = Math.cos(q[1]);
        final double d11 = M1 * LC1 * LC1 + M2 * (L1 * L1 + LC2 * LC2 + 2 * L1 * LC2 * c2) + I1 + I2;
        final double d12 = M2 * (LC2 * LC2 + L1 * LC2 * c2) + I2;
        final double d22 = M2 * LC2 * LC2 + I2;
        final double h = -M2 * L1 * LC2 * Math.sin(q[1]);
        final double phi2 = M2 * LC2 * G * Math.cos(q[0] + q[1]);
        final double phi1 = (M1 * LC1 + M2 * L1) * G * Math.cos(q[0]) + phi2;
        return new double[] {
            d11 * qdd[0] + d12 * qdd[1] + 2 * h * qd[0] * qd[1] + h * qd[1] * qd[1] + phi1,
            d12 * qdd[0] + d22 * qdd[1] - h * qd[0] * qd[0] + phi2};
    }

    @Test
    void twoLinkPlanarArmMatchesTextbookClosedForm()
    {
        final long seed = 11;
        final SplittableRandom rnd = new SplittableRandom(seed);
        final InverseDynamics rnea = new InverseDynamics(CompiledModel.of(twoLinkArm(JointActuation.NONE), 0.0, -G, 0.0));
        final double[] tau = new double[2];
        double worst = 0.0;
        for (int n = 0; n < 200; n++)
        {
            final double[] q = RandomRobots.vector(rnd, 2, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, 2, 3.0);
            final double[] qdd = RandomRobots.vector(rnd, 2, 5.0);
            rnea.compute(q, qd, qdd, tau);
            final double[] expected = spongTwoLinkTorques(q, qd, qdd);
            for (int k = 0; k < 2; k++)
            {
                // Both sides are a few dozen flops on values of order 10: rounding stays near 1e-14.
                final double error = Math.abs(tau[k] - expected[k]) / Math.max(1.0, Math.abs(expected[k]));
                worst = Math.max(worst, error);
                assertTrue(error <= 1e-12, "seed " + seed + " state " + n + " joint " + k + ": " + tau[k] + " vs " + expected[k]);
            }
        }
        System.out.printf("two-link closed form: max relative error %.3e%n", worst);
    }

    @Test
    void rotorInertiaAndFrictionAddJointTermsWithSignOfZeroVelocityZero()
    {
        final double ia = 0.05;
        final double fs = 1.3;
        final double fv = 0.7;
        final InverseDynamics rnea = new InverseDynamics(
            CompiledModel.of(twoLinkArm(new JointActuation(ia, fs, fv)), 0.0, -G, 0.0));
        final double[] q = {0.3, -1.2};
        final double[] qd = {0.0, -2.0};
        final double[] qdd = {1.5, 0.5};
        final double[] tau = new double[2];
        final double[] expected = spongTwoLinkTorques(q, qd, qdd);
        rnea.compute(q, qd, qdd, tau);
        assertEquals(expected[0] + ia * qdd[0], tau[0], 1e-12, "joint 0 at qd = 0: no Coulomb term");
        assertEquals(expected[1] + ia * qdd[1] - fs + fv * qd[1], tau[1], 1e-12, "joint 1");
        rnea.jointFriction(false);
        rnea.compute(q, qd, qdd, tau);
        assertEquals(expected[1] + ia * qdd[1], tau[1], 1e-12, "joint 1, friction off keeps rotor inertia");
    }

    @Test
    void externalWrenchesSubtractTransposedBodyJacobianTimesWrench()
    {
        double worst = 0.0;
        for (long seed = 100; seed < 160; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int dof = model.dof();
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final PolynomialMotion state = new PolynomialMotion(rnd, dof);
            final double[] free = new double[dof];
            final double[] loaded = new double[dof];
            rnea.compute(state.q, state.qd, state.qdd, free);
            final double[] expected = free.clone();
            final WorldKinematics world = new WorldKinematics(compiled);
            world.positions(state.q);
            final int first = rnd.nextInt(model.bodyCount());
            final AppliedLoads loads = new AppliedLoads(compiled);
            for (int w = 0; w < Math.min(2, model.bodyCount()); w++)
            {
                final int body = (first + w) % model.bodyCount();
                final double[] wrench = RandomRobots.vector(rnd, 6, 20.0);
                loads.bodyWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
                subtractJacobianTransposeTimesWrench(model, world, body, wrench, expected);
                // The same body again replaces, it does not add.
                if (w == 0)
                {
                    loads.bodyWrench(body, 1, 2, 3, 4, 5, 6);
                    loads.bodyWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
                }
            }
            rnea.compute(state.q, state.qd, state.qdd, loads, loaded);
            worst = Math.max(worst, assertClose(expected, loaded, 1e-10, "seed " + seed));
            loads.clear();
            rnea.compute(state.q, state.qd, state.qdd, loads, loaded);
            assertClose(free, loaded, 0.0, "seed " + seed + " after clearing");
        }
        System.out.printf("external wrench vs J^T f: max relative error %.3e%n", worst);
    }

    /**
     * tau -= J^T w, the body Jacobian built here from base-frame joint axes and origins: a wrench
     * (f, m about body b's origin) does work f.v_b + m.omega_b, so its generalised force on joint j,
     * an ancestor of b or b itself, is z_j.(m + (p_b - p_j) x f) if revolute, z_j.f if prismatic.
     */
    private static void subtractJacobianTransposeTimesWrench(
        final RobotModel model, final WorldKinematics world, final int body, final double[] wrench, final double[] tau)
    {
        final double[] r = Arrays.copyOfRange(world.rotation, 9 * body, 9 * body + 9);
        final double[] f = Transforms.apply(r, new double[] {wrench[0], wrench[1], wrench[2]});
        final double[] m = Transforms.apply(r, new double[] {wrench[3], wrench[4], wrench[5]});
        for (int j = body; j >= 0; j = model.parent(j))
        {
            final int k = model.coordinateOfBody(j);
            if (k < 0)
            {
                continue;
            }
            final double[] z = {world.rotation[9 * j + 2], world.rotation[9 * j + 5], world.rotation[9 * j + 8]};
            if (model.jointType(j) == JointType.PRISMATIC)
            {
                tau[k] -= dot(z, f);
            }
            else
            {
                final double[] arm = new double[3];
                for (int c = 0; c < 3; c++)
                {
                    arm[c] = world.origin[3 * body + c] - world.origin[3 * j + c];
                }
                final double[] moment = cross(arm, f);
                for (int c = 0; c < 3; c++)
                {
                    moment[c] += m[c];
                }
                tau[k] -= dot(z, moment);
            }
        }
    }

    @Test
    void reactionWrenchesEqualRateOfSubtreeMomentumMinusGravityAndExternalWrenches()
    {
        final double h = 1e-3;
        final double[] g = {0.3, -1.1, -9.81};
        double worst = 0.0;
        for (long seed = 200; seed < 240; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RobotModel model = RandomRobots.any(seed);
            final CompiledModel compiled = CompiledModel.of(model);
            final int n = model.bodyCount();
            final InverseDynamics rnea = new InverseDynamics(compiled);
            final AppliedLoads loads = new AppliedLoads(compiled).gravity(g[0], g[1], g[2]);
            final double[] external = RandomRobots.vector(rnd, 6 * n, 10.0);
            for (int b = 0; b < n; b++)
            {
                loads.bodyWrench(b, external[6 * b], external[6 * b + 1], external[6 * b + 2],
                    external[6 * b + 3], external[6 * b + 4], external[6 * b + 5]);
            }
            final PolynomialMotion motion = new PolynomialMotion(rnd, model.dof());
            final WorldKinematics world = new WorldKinematics(compiled);
            final double[][][] momenta = new double[PolynomialMotion.STEPS.length][][];
            for (int s = 0; s < momenta.length; s++)
            {
                motion.at(PolynomialMotion.STEPS[s] * h);
                momenta[s] = subtreeMomenta(model, world, motion.q, motion.qd);
            }
            motion.at(0.0);
            rnea.compute(motion.q, motion.qd, motion.qdd, loads, new double[model.dof()]);
            world.positions(motion.q);
            final double[] wrench = new double[6];
            for (int j = 0; j < n; j++)
            {
                rnea.reactionWrench(j, wrench);
                final double[] actual = reactionAboutBaseOrigin(world, j, wrench);
                final double[] expected = new double[6];
                for (int c = 0; c < 6; c++)
                {
                    final double[] samples = new double[4];
                    for (int s = 0; s < 4; s++)
                    {
                        samples[s] = momenta[s][j][c];
                    }
                    expected[c] = PolynomialMotion.centralDifference(samples, h);
                }
                subtractAppliedWrenches(model, world, j, g, external, expected);
                // Momentum is O(10), its 5th derivative O(1e3): truncation h^4 1e3 / 30 ~ 3e-11;
                // rounding 1e-16 * 10 / h ~ 1e-12. Relative to the wrench size (>= 1) this leaves room.
                worst = Math.max(worst, assertClose(expected, actual, 1e-8, "seed " + seed + " body " + j));
            }
        }
        System.out.printf("reaction wrench vs momentum rate: max relative error %.3e%n", worst);
    }

    /**
     * @return per body j: linear momentum of j's subtree, then its angular momentum about the base
     *     origin, both in the base frame.
     */
    private static double[][] subtreeMomenta(
        final RobotModel model, final WorldKinematics world, final double[] q, final double[] qd)
    {
        world.positions(q);
        world.velocities(qd);
        final int n = model.bodyCount();
        final double[][] own = new double[n][];
        for (int j = 0; j < n; j++)
        {
            final InertialParameters p = model.inertialParameters(j);
            final double[] r = Arrays.copyOfRange(world.rotation, 9 * j, 9 * j + 9);
            final double[] origin = Arrays.copyOfRange(world.origin, 3 * j, 3 * j + 3);
            final double[] omega = Arrays.copyOfRange(world.angularVelocity, 3 * j, 3 * j + 3);
            final double[] v = Arrays.copyOfRange(world.originVelocity, 3 * j, 3 * j + 3);
            final double[] ms = Transforms.apply(r, p.firstMoment());
            final double[] inertia = Transforms.multiply(r, Transforms.multiply(p.inertiaAtOrigin(), Transforms.transpose(r)));
            // P = m v_O + omega x MS; H_O = J_O omega + MS x v_O; H about the base origin = H_O + p_O x P.
            final double[] linear = cross(omega, ms);
            final double[] angular = Transforms.apply(inertia, omega);
            final double[] msCrossV = cross(ms, v);
            for (int c = 0; c < 3; c++)
            {
                linear[c] += p.mass() * v[c];
                angular[c] += msCrossV[c];
            }
            final double[] transported = cross(origin, linear);
            own[j] = new double[] {linear[0], linear[1], linear[2],
                angular[0] + transported[0], angular[1] + transported[1], angular[2] + transported[2]};
        }
        final double[][] subtree = new double[n][];
        for (int j = n - 1; j >= 0; j--)
        {
            subtree[j] = own[j].clone();
            for (int k = j + 1; k < n; k++)
            {
                if (model.parent(k) == j)
                {
                    for (int c = 0; c < 6; c++)
                    {
                        subtree[j][c] += subtree[k][c];
                    }
                }
            }
        }
        return subtree;
    }

    /** expected -= sum over j's subtree of gravity and external wrenches, about the base origin, base frame. */
    private static void subtractAppliedWrenches(
        final RobotModel model, final WorldKinematics world, final int j, final double[] g, final double[] external,
        final double[] expected)
    {
        for (int k = j; k < model.bodyCount(); k++)
        {
            if (!inSubtree(model, k, j))
            {
                continue;
            }
            final InertialParameters p = model.inertialParameters(k);
            final double[] r = Arrays.copyOfRange(world.rotation, 9 * k, 9 * k + 9);
            final double[] origin = Arrays.copyOfRange(world.origin, 3 * k, 3 * k + 3);
            final double[] com = Transforms.apply(r, p.centreOfMass());
            final double[] weight = new double[3];
            for (int c = 0; c < 3; c++)
            {
                com[c] += origin[c];
                weight[c] = p.mass() * g[c];
            }
            final double[] f = Transforms.apply(r, Arrays.copyOfRange(external, 6 * k, 6 * k + 3));
            final double[] m = Transforms.apply(r, Arrays.copyOfRange(external, 6 * k + 3, 6 * k + 6));
            final double[] weightMoment = cross(com, weight);
            final double[] forceMoment = cross(origin, f);
            for (int c = 0; c < 3; c++)
            {
                expected[c] -= weight[c] + f[c];
                expected[3 + c] -= weightMoment[c] + m[c] + forceMoment[c];
            }
        }
    }

    private static boolean inSubtree(final RobotModel model, final int body, final int root)
    {
        for (int k = body; k >= 0; k = model.parent(k))
        {
            if (k == root)
            {
                return true;
            }
        }
        return false;
    }

    /** @return the body-frame reaction wrench about body j's origin, as force and moment about the base origin in the base frame. */
    private static double[] reactionAboutBaseOrigin(final WorldKinematics world, final int j, final double[] wrench)
    {
        final double[] r = Arrays.copyOfRange(world.rotation, 9 * j, 9 * j + 9);
        final double[] f = Transforms.apply(r, new double[] {wrench[0], wrench[1], wrench[2]});
        final double[] m = Transforms.apply(r, new double[] {wrench[3], wrench[4], wrench[5]});
        final double[] transported = cross(Arrays.copyOfRange(world.origin, 3 * j, 3 * j + 3), f);
        return new double[] {f[0], f[1], f[2], m[0] + transported[0], m[1] + transported[1], m[2] + transported[2]};
    }

    @Test
    void jointTorqueIsReactionProjectedOnAxisPlusJointTerms()
    {
        for (long seed = 300; seed < 340; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RobotModel model = RandomRobots.any(seed);
            final InverseDynamics rnea = new InverseDynamics(CompiledModel.of(model));
            final PolynomialMotion state = new PolynomialMotion(rnd, model.dof());
            final double[] tau = new double[model.dof()];
            rnea.compute(state.q, state.qd, state.qdd, tau);
            final double[] wrench = new double[6];
            for (int k = 0; k < model.dof(); k++)
            {
                final int body = model.bodyOfCoordinate(k);
                rnea.reactionWrench(body, wrench);
                final JointActuation a = model.actuation(k);
                final double transmitted = model.jointType(body) == JointType.REVOLUTE ? wrench[5] : wrench[2];
                final double jointTerms = a.rotorInertia() * state.qdd[k]
                    + a.coulombFriction() * Math.signum(state.qd[k]) + a.viscousFriction() * state.qd[k];
                assertEquals(tau[k] - jointTerms, transmitted, 1e-12 * Math.max(1.0, Math.abs(tau[k])),
                    "seed " + seed + " coordinate " + k);
            }
        }
    }

    @Test
    void jointPowerEqualsRateOfMechanicalEnergyOnRandomRobots()
    {
        final double h = 1e-3;
        double worst = 0.0;
        int states = 0;
        for (long seed = 400; seed < 450; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RobotModel model = RandomRobots.any(seed);
            final double[] g = RandomRobots.vector(rnd, 3, 10.0);
            final CompiledModel weighted = CompiledModel.of(model, g[0], g[1], g[2]);
            final MechanicalEnergy energy = new MechanicalEnergy(weighted);
            final InverseDynamics rnea = new InverseDynamics(weighted);
            rnea.jointFriction(false);
            final double[] tau = new double[model.dof()];
            for (int i = 0; i < 3; i++)
            {
                final PolynomialMotion motion = new PolynomialMotion(rnd, model.dof());
                final double[] samples = new double[4];
                for (int s = 0; s < 4; s++)
                {
                    motion.at(PolynomialMotion.STEPS[s] * h);
                    samples[s] = energy.kineticEnergyJoules(motion.q, motion.qd) + energy.potentialEnergyJoules(motion.q);
                }
                final double energyRate = PolynomialMotion.centralDifference(samples, h);
                motion.at(0.0);
                rnea.compute(motion.q, motion.qd, motion.qdd, tau);
                double power = 0.0;
                double scale = 0.0;
                for (int k = 0; k < tau.length; k++)
                {
                    power += tau[k] * motion.qd[k];
                    scale += Math.abs(tau[k] * motion.qd[k]);
                }
                // Energy O(10-100) J, step 1e-3 s: truncation h^4 E^(5) / 30 and rounding
                // 1e-16 E / h are both below 1e-10 of the summed joint powers.
                final double error = Math.abs(power - energyRate) / Math.max(1.0, scale);
                worst = Math.max(worst, error);
                assertTrue(error <= 1e-7, "seed " + seed + " state " + i + ": tau.qd = " + power + ", dE/dt = " + energyRate);
                states++;
            }
        }
        System.out.printf("power balance over %d states: max relative error %.3e%n", states, worst);
    }

    /** @return the largest error relative to max(1, |expected|_inf), after asserting it is within tolerance. */
    static double assertClose(final double[] expected, final double[] actual, final double tolerance, final String where)
    {
        final double error = FormulationCrossCheck.discrepancy(expected, actual);
        assertTrue(error <= tolerance, where + ": relative error " + error + " > " + tolerance
            + "\nexpected " + Arrays.toString(expected) + "\nactual   " + Arrays.toString(actual));
        return error;
    }

    private static double dot(final double[] a, final double[] b)
    {
        return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    }

    private static double[] cross(final double[] a, final double[] b)
    {
        return new double[] {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
    }
}
