package org.nectl.core.dynamics;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.screw.ScrewTheoryInverseDynamics;
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
        final ScrewTheoryInverseDynamics dynamics =
            new ScrewTheoryInverseDynamics(InverseDynamicsTest.twoLinkArm(JointActuation.NONE));
        final AppliedLoads loads = new AppliedLoads(CompiledModel.of(InverseDynamicsTest.twoLinkArm(JointActuation.NONE)));
        final double[] tau = new double[2];
        for (long seed = 1; seed <= ROBOTS; seed++)
        {
            final SplittableRandom rnd = new SplittableRandom(seed);
            final PolynomialMotion s = new PolynomialMotion(rnd, 2);
            // Gravity along -y in the plane of motion; a z component does no work about the z axes.
            loads.gravity(0.0, -InverseDynamicsTest.G, rnd.nextDouble(-5, 5));
            dynamics.compute(s.q, s.qd, s.qdd, loads, tau);
            // A few dozen flops on values of order 10: rounding stays near 1e-14.
            InverseDynamicsTest.assertClose(
                InverseDynamicsTest.spongTwoLinkTorques(s.q, s.qd, s.qdd), tau, 1e-12, "seed " + seed);
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
            final PolynomialMotion s = new PolynomialMotion(rnd, n);
            final double[] g = RandomRobots.vector(rnd, 3, 10);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            final AppliedLoads loads = new AppliedLoads(CompiledModel.of(model)).gravity(g[0], g[1], g[2]);
            dynamics.jointFriction(false);
            final double[] tau = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, loads, tau);
            double power = 0.0;
            for (int k = 0; k < n; k++)
            {
                power += tau[k] * s.qd[k];
            }
            // Fourth-order central difference of the energy along the polynomial motion.
            final double h = 1e-3;
            final double[] samples = new double[PolynomialMotion.STEPS.length];
            for (int j = 0; j < samples.length; j++)
            {
                s.at(PolynomialMotion.STEPS[j] * h);
                samples[j] = energy(model, g, s.q, s.qd);
            }
            final double rate = PolynomialMotion.centralDifference(samples, h);
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
            final PolynomialMotion s = new PolynomialMotion(rnd, n);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            final double[] free = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, free);
            final double[][] wrench = new double[model.bodyCount()][];
            final AppliedLoads loads = new AppliedLoads(CompiledModel.of(model));
            for (int i = 0; i < model.bodyCount(); i++)
            {
                wrench[i] = RandomRobots.vector(rnd, 6, 20);
                loads.bodyWrench(i, wrench[i][0], wrench[i][1], wrench[i][2], wrench[i][3], wrench[i][4], wrench[i][5]);
            }
            final double[] loaded = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, loads, loaded);
            final double[] expected = new double[n];
            for (int k = 0; k < n; k++)
            {
                final double[] unit = new double[n];
                unit[k] = 1.0;
                final double[][] column = CompositionKinematics.bodyTwists(model, s.q, unit);
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
            InverseDynamicsTest.assertClose(expected, loaded, 1e-9, "seed " + seed);
            loads.clear();
            final double[] cleared = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, loads, cleared);
            InverseDynamicsTest.assertClose(free, cleared, 0.0, "seed " + seed + " after clearing");
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
            final AppliedLoads noGravity = new AppliedLoads(CompiledModel.of(model)).gravity(0, 0, 0);
            final double[][] mass = new double[n][n];
            for (int k = 0; k < n; k++)
            {
                final double[] unit = new double[n];
                unit[k] = 1.0;
                dynamics.compute(q, new double[n], unit, noGravity, mass[k]);
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
            dynamics.compute(q, new double[n], new double[n], new AppliedLoads(CompiledModel.of(model)).gravity(g[0], g[1], g[2]),
                new double[n]);
            final double[] reaction = new double[6];
            dynamics.reactionWrench(0, reaction);
            final double[] rotation = Arrays.copyOfRange(CompositionKinematics.poses(model, q)[0], 0, 9);
            final double[] expected = Transforms.apply(Transforms.transpose(rotation), g);
            for (int c = 0; c < 3; c++)
            {
                expected[c] *= -model.totalMass();
            }
            InverseDynamicsTest.assertClose(expected, Arrays.copyOfRange(reaction, 0, 3), 1e-12, "seed " + seed);
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
            final PolynomialMotion s = new PolynomialMotion(rnd, n);
            final ScrewTheoryInverseDynamics dynamics = new ScrewTheoryInverseDynamics(model);
            final double[] withFriction = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, withFriction);
            dynamics.jointFriction(false);
            final double[] withoutFriction = new double[n];
            dynamics.compute(s.q, s.qd, s.qdd, withoutFriction);
            final double[] bare = new double[n];
            new ScrewTheoryInverseDynamics(withoutActuation(model)).compute(s.q, s.qd, s.qdd, bare);
            final double[] expectedWith = new double[n];
            final double[] expectedWithout = new double[n];
            for (int k = 0; k < n; k++)
            {
                final JointActuation a = model.actuation(k);
                expectedWithout[k] = bare[k] + a.rotorInertia() * s.qdd[k];
                expectedWith[k] = expectedWithout[k] + a.coulombFriction() * Math.signum(s.qd[k])
                    + a.viscousFriction() * s.qd[k];
            }
            InverseDynamicsTest.assertClose(expectedWithout, withoutFriction, 1e-14, "seed " + seed + " friction off");
            InverseDynamicsTest.assertClose(expectedWith, withFriction, 1e-14, "seed " + seed + " friction on");
        }
    }

    /** Kinetic energy of links and rotors plus potential energy in gravity g. */
    private static double energy(final RobotModel model, final double[] g, final double[] q, final double[] qd)
    {
        double energy = 0.0;
        for (int k = 0; k < model.dof(); k++)
        {
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
}
