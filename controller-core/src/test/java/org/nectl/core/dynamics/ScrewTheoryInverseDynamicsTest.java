package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomRobots;

/**
 * Self-checks of the screw-theory inverse dynamics against oracles that share none of its code:
 * the closed-form two-link planar arm, energy balance along a trajectory, virtual work of external
 * wrenches, symmetry of the mass matrix, the static reaction at the root, and Khalil's joint terms.
 */
final class ScrewTheoryInverseDynamicsTest
{
    private static final int ROBOTS = 200;

    @Test
    void twoLinkPlanarArmMatchesTextbookClosedForm()
    {
        for (long seed = 1; seed <= 100; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double m1 = rnd.nextDouble(0.5, 5);
            final double m2 = rnd.nextDouble(0.5, 5);
            final double l1 = rnd.nextDouble(0.2, 1);
            final double lc1 = rnd.nextDouble(0.05, 0.5);
            final double lc2 = rnd.nextDouble(0.05, 0.5);
            final double i1 = rnd.nextDouble(0.02, 0.05);
            final double i2 = rnd.nextDouble(0.02, 0.05);
            final RobotModel arm = planarArm(m1, m2, l1, lc1, lc2, i1, i2);
            final double g = 9.81;
            final double[] q = RandomRobots.vector(rnd, 2, Math.PI);
            final double[] qd = RandomRobots.vector(rnd, 2, 3);
            final double[] qdd = RandomRobots.vector(rnd, 2, 5);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(arm);
            // Gravity along -y in the plane of motion; its z component does no work about z axes.
            dynamics.gravity(0.0, -g, rnd.nextDouble(-5, 5));
            final double[] tau = new double[2];
            dynamics.compute(q, qd, qdd, tau);

            final double c2 = Math.cos(q[1]);
            final double m11 = m1 * lc1 * lc1 + m2 * (l1 * l1 + lc2 * lc2 + 2 * l1 * lc2 * c2) + i1 + i2;
            final double m12 = m2 * (lc2 * lc2 + l1 * lc2 * c2) + i2;
            final double m22 = m2 * lc2 * lc2 + i2;
            final double h = -m2 * l1 * lc2 * Math.sin(q[1]);
            final double g1 = (m1 * lc1 + m2 * l1) * g * Math.cos(q[0]) + m2 * lc2 * g * Math.cos(q[0] + q[1]);
            final double g2 = m2 * lc2 * g * Math.cos(q[0] + q[1]);
            final double[] expected = {
                m11 * qdd[0] + m12 * qdd[1] + h * qd[1] * qd[1] + 2 * h * qd[0] * qd[1] + g1,
                m12 * qdd[0] + m22 * qdd[1] - h * qd[0] * qd[0] + g2};
            assertClose(expected, tau, 1e-12, "seed " + seed);
        }
    }

    @Test
    void jointPowerEqualsRateOfEnergyOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed * 31 + 7);
            final int n = model.dof();
            final RandomState s = RandomState.draw(rnd, n);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            dynamics.gravity(g[0], g[1], g[2]);
            dynamics.jointFriction(false);
            final double[] tau = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), tau);
            double power = 0.0;
            for (int k = 0; k < n; k++)
            {
                power += tau[k] * s.qd()[k];
            }
            // Fourth-order central difference of the energy along q(t) = q + qd t + qdd t^2 / 2.
            final double h = 1e-3;
            final double rate = (8 * (energy(model, g, s, h) - energy(model, g, s, -h))
                - (energy(model, g, s, 2 * h) - energy(model, g, s, -2 * h))) / (12 * h);
            // Nested differences: ~1e-12 relative in the energy, amplified 1/h.
            assertTrue(Math.abs(power - rate) <= 1e-7 * Math.max(1.0, Math.abs(power)),
                "seed " + seed + ": joint power " + power + " vs energy rate " + rate);
        }
    }

    @Test
    void externalWrenchesChangeTorquesByMinusJacobianTransposeWrench()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed * 17 + 3);
            final int n = model.dof();
            final RandomState s = RandomState.draw(rnd, n);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            final double[] free = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), free);
            final double[][] wrench = new double[model.bodyCount()][];
            for (int i = 0; i < model.bodyCount(); i++)
            {
                wrench[i] = RandomRobots.vector(rnd, 6, 20);
                dynamics.externalWrench(i, wrench[i][0], wrench[i][1], wrench[i][2], wrench[i][3], wrench[i][4],
                    wrench[i][5]);
            }
            final double[] loaded = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), loaded);
            final double[] expected = new double[n];
            for (int k = 0; k < n; k++)
            {
                final double[] unit = new double[n];
                unit[k] = 1.0;
                final double[][] column = CompositionKinematics.bodyTwists(model, s.q(), unit);
                double work = 0.0;
                for (int i = 0; i < model.bodyCount(); i++)
                {
                    // Force (N) pairs with the linear part, moment with the angular part.
                    for (int c = 0; c < 3; c++)
                    {
                        work += wrench[i][c] * column[i][3 + c] + wrench[i][3 + c] * column[i][c];
                    }
                }
                expected[k] = free[k] - work;
            }
            assertClose(expected, loaded, 1e-9, "seed " + seed);
            dynamics.clearExternalWrenches();
            final double[] cleared = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), cleared);
            assertClose(free, cleared, 0.0, "seed " + seed + " after clearing");
        }
    }

    @Test
    void massMatrixFromUnitAccelerationsIsSymmetricOnRandomTrees()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int n = model.dof();
            final double[] q = RandomRobots.vector(new SplittableRandom(seed), n, Math.PI);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            dynamics.gravity(0, 0, 0);
            final double[][] mass = new double[n][n];
            for (int k = 0; k < n; k++)
            {
                final double[] unit = new double[n];
                unit[k] = 1.0;
                dynamics.compute(q, new double[n], unit, mass[k]);
            }
            for (int r = 0; r < n; r++)
            {
                assertTrue(mass[r][r] > 0, "seed " + seed + ": M[" + r + "][" + r + "] = " + mass[r][r]);
                for (int c = 0; c < r; c++)
                {
                    assertTrue(Math.abs(mass[r][c] - mass[c][r]) <= 1e-12 * Math.max(1, Math.abs(mass[r][c])),
                        "seed " + seed + ": M[" + r + "][" + c + "] = " + mass[r][c] + ", M[" + c + "][" + r + "] = "
                            + mass[c][r]);
                }
            }
        }
    }

    @Test
    void rootReactionAtRestCarriesTheWholeWeightOfAChain()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, 1 + (int) (seed % 8), false, RandomRobots.Joints.ALL, true);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = model.dof();
            final double[] q = RandomRobots.vector(rnd, n, Math.PI);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            dynamics.gravity(g[0], g[1], g[2]);
            dynamics.compute(q, new double[n], new double[n], new double[n]);
            final double[] reaction = new double[6];
            dynamics.reactionWrench(0, reaction);
            final double[] rotation = Arrays.copyOfRange(CompositionKinematics.poses(model, q)[0], 0, 9);
            final double[] expected = Transforms.apply(Transforms.transpose(rotation), g);
            for (int c = 0; c < 3; c++)
            {
                expected[c] *= -model.totalMass();
            }
            assertClose(expected, Arrays.copyOfRange(reaction, 0, 3), 1e-12, "seed " + seed);
        }
    }

    @Test
    void jointTermsAreRotorInertiaAndSwitchableFriction()
    {
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = model.dof();
            final RandomState s = RandomState.draw(rnd, n);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            final double[] withFriction = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), withFriction);
            dynamics.jointFriction(false);
            final double[] withoutFriction = new double[n];
            dynamics.compute(s.q(), s.qd(), s.qdd(), withoutFriction);
            final double[] bare = new double[n];
            new ScrewTheoryInverseDynamics(withoutActuation(model)).compute(s.q(), s.qd(), s.qdd(), bare);
            final double[] expectedWith = new double[n];
            final double[] expectedWithout = new double[n];
            for (int k = 0; k < n; k++)
            {
                final JointActuation a = model.actuation(k);
                expectedWithout[k] = bare[k] + a.rotorInertia() * s.qdd()[k];
                expectedWith[k] = expectedWithout[k] + a.coulombFriction() * Math.signum(s.qd()[k])
                    + a.viscousFriction() * s.qd()[k];
            }
            assertClose(expectedWithout, withoutFriction, 1e-14, "seed " + seed + " friction off");
            assertClose(expectedWith, withFriction, 1e-14, "seed " + seed + " friction on");
        }
    }

    /** Kinetic energy of links and rotors plus potential energy in gravity g, at time t on the parabola. */
    private static double energy(
        final RobotModel model, final double[] g, final RandomState at0, final double t)
    {
        final int n = model.dof();
        final double[] q = new double[n];
        final double[] qd = new double[n];
        double energy = 0.0;
        for (int k = 0; k < n; k++)
        {
            q[k] = at0.q()[k] + at0.qd()[k] * t + 0.5 * at0.qdd()[k] * t * t;
            qd[k] = at0.qd()[k] + at0.qdd()[k] * t;
            energy += 0.5 * model.actuation(k).rotorInertia() * qd[k] * qd[k];
        }
        final double[][] pose = CompositionKinematics.poses(model, q);
        final double[][] twist = CompositionKinematics.bodyTwists(model, q, qd);
        for (int i = 0; i < model.bodyCount(); i++)
        {
            final InertialParameters inertia = model.inertialParameters(i);
            final double m = inertia.mass();
            final double[] c = inertia.centreOfMass();
            final double[] w = Arrays.copyOfRange(twist[i], 0, 3);
            // Velocity of the centre of mass, body frame: v + w x c.
            final double[] vc = {
                twist[i][3] + w[1] * c[2] - w[2] * c[1],
                twist[i][4] + w[2] * c[0] - w[0] * c[2],
                twist[i][5] + w[0] * c[1] - w[1] * c[0]};
            final double[] iw = Transforms.apply(inertia.inertiaAtCentreOfMass(), w);
            energy += 0.5 * m * (vc[0] * vc[0] + vc[1] * vc[1] + vc[2] * vc[2])
                + 0.5 * (w[0] * iw[0] + w[1] * iw[1] + w[2] * iw[2]);
            final double[] rc = Transforms.apply(Arrays.copyOfRange(pose[i], 0, 9), c);
            for (int a = 0; a < 3; a++)
            {
                energy -= m * g[a] * (rc[a] + pose[i][9 + a]);
            }
        }
        return energy;
    }

    private static RobotModel planarArm(
        final double m1, final double m2, final double l1, final double lc1, final double lc2, final double i1,
        final double i2)
    {
        final RobotModel.Builder b = RobotModel.builder("planar-rr");
        // Products of inertia involving z do not change torques about parallel z axes: keep some.
        b.addBody("link1", "joint1", -1, JointType.REVOLUTE, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(m1, new double[] {lc1, 0, 0},
                new double[] {0.04, 0.001, 0.002, 0.001, 0.05, -0.001, 0.002, -0.001, i1}));
        b.addBody("link2", "joint2", 0, JointType.REVOLUTE, Transforms.identity(), new double[] {l1, 0, 0},
            InertialParameters.ofCentreOfMass(m2, new double[] {lc2, 0, 0},
                new double[] {0.05, -0.002, 0.001, -0.002, 0.04, 0.001, 0.001, 0.001, i2}));
        return b.build();
    }

    private static RobotModel withoutActuation(final RobotModel model)
    {
        final RobotModel.Builder b = RobotModel.builder(model.name()).baseName(model.baseName());
        for (int i = 0; i < model.bodyCount(); i++)
        {
            b.addBody(model.bodyName(i), model.jointName(i), model.parent(i), model.jointType(i),
                model.placementRotation(i), model.placementTranslation(i), model.inertialParameters(i));
        }
        final List<String> order = new ArrayList<>();
        for (int k = 0; k < model.dof(); k++)
        {
            order.add(model.coordinateName(k));
        }
        return b.coordinateOrder(order).build();
    }

    private static void assertClose(final double[] expected, final double[] actual, final double relative, final String what)
    {
        double scale = 1.0;
        double error = 0.0;
        for (int k = 0; k < expected.length; k++)
        {
            scale = Math.max(scale, Math.abs(expected[k]));
            error = Math.max(error, Math.abs(expected[k] - actual[k]));
        }
        assertTrue(error <= relative * scale, what + ": max |error| " + error + " > " + relative + " * " + scale
            + "\n expected " + Arrays.toString(expected) + "\n actual   " + Arrays.toString(actual));
    }
}
