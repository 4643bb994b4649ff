package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CholeskyForwardDynamics;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

/**
 * Identities between the mixed rigid/elastic algorithms on seeded random robots (chains and trees,
 * revolute, prismatic and fixed joints, motors on random links with random axes, gear ratios and
 * rotor masses, friction on both sides, external wrenches), and their reduction to the rigid
 * algorithms.
 */
class MixedDynamicsConsistencyTest
{
    private static final int ROBOTS = 300;
    /**
     * Relative to max(1, |acceleration|): two formulations in double precision on up to 8 bodies
     * with inertia ratios up to ~1e3 (rotor inertias 1e-3 against link masses of kg) lose a few
     * digits in the Cholesky solve; 1e-9 leaves room for that and is far below any modelling error.
     */
    private static final double TOLERANCE = 1e-9;

    @Test
    void forwardDynamicsInvertsInverseDynamicsOnRandomMixedRobots()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final MixedInverseDynamics inverse = new MixedInverseDynamics(bodies);
            final MixedForwardDynamics forward = new MixedForwardDynamics(bodies);
            final double[] wrench = RandomRobots.vector(rnd, 6, 3.0);
            final int body = rnd.nextInt(model.links().bodyCount());
            inverse.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
            forward.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
            final double[] jointTorque = new double[model.dof()];
            final double[] motorTorque = new double[model.elasticCount()];
            inverse.compute(s.q, s.theta, s.qd, s.thetad, s.qdd, s.thetadd, jointTorque, motorTorque);
            final double[] applied = s.besidesSprings(model, jointTorque);
            final double[] qdd = new double[model.dof()];
            final double[] thetadd = new double[model.elasticCount()];
            assertTrue(forward.compute(s.q, s.theta, s.qd, s.thetad, applied, motorTorque, qdd, thetadd), "seed " + seed);
            worst = Math.max(worst, assertClose(s.qdd, qdd, "seed " + seed + " link accelerations"));
            worst = Math.max(worst, assertClose(s.thetadd, thetadd, "seed " + seed + " motor accelerations"));
        }
        System.out.printf("mixed inverse vs forward dynamics, %d robots: worst relative error %.2e%n", ROBOTS, worst);
    }

    @Test
    void recursiveAndInertiaMatrixForwardDynamicsAgree()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, true);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final double[] jointTorque = RandomRobots.vector(rnd, model.dof(), 10.0);
            final double[] motorTorque = RandomRobots.vector(rnd, model.elasticCount(), 10.0);
            final double[] expectedQdd = new double[model.dof()];
            final double[] expectedThetadd = new double[model.elasticCount()];
            new MixedForwardDynamics(bodies).compute(
                s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, expectedQdd, expectedThetadd);
            final double[] qdd = new double[model.dof()];
            final double[] thetadd = new double[model.elasticCount()];
            assertTrue(new RecursiveMixedForwardDynamics(bodies).compute(
                s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, qdd, thetadd), "seed " + seed);
            worst = Math.max(worst, assertClose(expectedQdd, qdd, "seed " + seed + " link accelerations"));
            worst = Math.max(worst, assertClose(expectedThetadd, thetadd, "seed " + seed + " motor accelerations"));
        }
        System.out.printf("recursive vs inertia-matrix mixed forward dynamics, %d robots: worst %.2e%n", ROBOTS, worst);
    }

    @Test
    void recursiveForwardDynamicsWithRigidJointsMotorsOnMovingLinksAgreesWithTheInertiaMatrixRoute()
    {
        double worst = 0.0;
        int tied = 0;
        int constrained = 0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final UnifiedBodies bodies = new UnifiedBodies(model);
            tied += bodies.coupledRotors.length;
            constrained += ElasticJointInverseDynamics.foldsEveryTiedRotor(bodies) ? 0 : 1;
            worst = Math.max(worst, recursiveAgainstCholesky(model, seed));
        }
        assertTrue(tied > ROBOTS / 2, "the robots must exercise tied rotors: " + tied);
        assertTrue(constrained > ROBOTS / 10, "robots with a rotor further inboard (Lagrange multipliers): " + constrained);
        System.out.printf("recursive vs inertia-matrix mixed forward dynamics, rigid joints' motors on any link, %d robots"
            + " (%d tied rotors, %d robots through the multipliers): worst %.2e%n", ROBOTS, tied, constrained, worst);
    }

    @Test
    void recursiveForwardDynamicsFoldingRotorsIntoTheirJointsAgreesWithTheInertiaMatrixRoute()
    {
        double worst = 0.0;
        int folded = 0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.withMotorsNextToTheirJoints(seed);
            final UnifiedBodies bodies = new UnifiedBodies(model);
            assertTrue(ElasticJointInverseDynamics.foldsEveryTiedRotor(bodies), "seed " + seed);
            folded += bodies.coupledRotors.length;
            worst = Math.max(worst, recursiveAgainstCholesky(model, seed));
        }
        assertTrue(folded > ROBOTS / 2, "the robots must exercise folded rotors: " + folded);
        System.out.printf("recursive (rotors folded into their joints) vs inertia-matrix mixed forward dynamics, %d robots"
            + " (%d folded rotors): worst %.2e%n", ROBOTS, folded, worst);
    }

    @Test
    void aRigidJointsRotorWithoutAxialInertiaIsTheLimitOfASmallOne()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final double[] jointTorque = RandomRobots.vector(rnd, model.dof(), 10.0);
            final double[] motorTorque = RandomRobots.vector(rnd, model.elasticCount(), 10.0);
            final double[] expectedQdd = new double[model.dof()];
            final double[] expectedThetadd = new double[model.elasticCount()];
            new MixedForwardDynamics(UnifiedBodies.of(withRigidRotorAxialInertia(model, 1e-12))).compute(s.q, s.theta, s.qd,
                s.thetad, jointTorque, motorTorque, expectedQdd, expectedThetadd);
            final ElasticRobotModel without = withRigidRotorAxialInertia(model, 0.0);
            final UnifiedBodies bodies = UnifiedBodies.of(without);
            for (final boolean recursive : new boolean[] {false, true})
            {
                final double[] qdd = new double[model.dof()];
                final double[] thetadd = new double[model.elasticCount()];
                assertTrue(recursive
                    ? new RecursiveMixedForwardDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, jointTorque,
                        motorTorque, qdd, thetadd)
                    : new MixedForwardDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque,
                        qdd, thetadd), "seed " + seed);
                // 1e-12 kg m^2 of axial inertia spinning at most ~10 rad/s moves accelerations by ~1e-10.
                assertClose(expectedQdd, qdd, "seed " + seed + (recursive ? " recursive" : " Cholesky"));
                assertClose(expectedThetadd, thetadd, "seed " + seed);
            }
        }
    }

    private static ElasticRobotModel withRigidRotorAxialInertia(final ElasticRobotModel model, final double axial)
    {
        final ElasticRobotModel.Builder b = ElasticRobotModel.builder(model.links());
        for (int k = 0; k < model.dof(); k++)
        {
            final String joint = model.links().coordinateName(k);
            if (model.hasMotor(k))
            {
                final Motor m = model.motor(k);
                b.motor(joint, model.isElastic(k) ? m : new Motor(m.mountBody(), m.axis(), m.centre(), m.gearRatio(), axial,
                    m.rotorMass(), m.transverseInertia(), m.coulombFriction(), m.viscousFriction()));
            }
            if (model.isElastic(k))
            {
                b.elasticity(joint, model.elasticity(k));
            }
        }
        return b.build();
    }

    @Test
    void aRobotWithoutMotorsIsTheRigidRobotExactly()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final RobotModel links = RandomRobots.any(seed);
            assertRigidDynamicsReproducedExactly(links, ElasticRobotModel.rigid(links), seed);
        }
    }

    @Test
    void motorsOnTheBaseAreTheRigidRotorInertiaExactly()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final RobotModel links = RandomRobots.any(seed);
            final RobotModel bare = RandomElasticRobots.withoutRotorInertia(links, allTrue(links.dof()));
            final ElasticRobotModel.Builder builder = ElasticRobotModel.builder(bare);
            for (int k = 0; k < links.dof(); k++)
            {
                builder.motor(links.coordinateName(k), Motor.onBase(links.actuation(k).rotorInertia()));
            }
            assertRigidDynamicsReproducedExactly(links, builder.build(), seed);
        }
    }

    private static void assertRigidDynamicsReproducedExactly(
        final RobotModel links, final ElasticRobotModel model, final long seed)
    {
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final MixedState s = new MixedState(rnd, model);
        final CompiledModel compiled = CompiledModel.of(links);
        final double[] none = new double[0];
        final double[] expected = new double[links.dof()];
        final double[] actual = new double[links.dof()];
        new InverseDynamics(compiled).compute(s.q, s.qd, s.qdd, expected);
        new MixedInverseDynamics(bodies).compute(s.q, none, s.qd, none, s.qdd, none, actual, none);
        assertArrayEquals(expected, actual, 0.0, "seed " + seed + " inverse dynamics");
        final double[] tau = RandomRobots.vector(rnd, links.dof(), 10.0);
        new CholeskyForwardDynamics(compiled).compute(s.q, s.qd, tau, expected);
        new MixedForwardDynamics(bodies).compute(s.q, none, s.qd, none, tau, none, actual, none);
        assertArrayEquals(expected, actual, 0.0, "seed " + seed + " inertia-matrix forward dynamics");
        new RecursiveForwardDynamics(compiled).compute(s.q, s.qd, tau, expected);
        new RecursiveMixedForwardDynamics(bodies).compute(s.q, none, s.qd, none, tau, none, actual, none);
        assertArrayEquals(expected, actual, 0.0, "seed " + seed + " recursive forward dynamics");
    }

    private static boolean[] allTrue(final int n)
    {
        final boolean[] b = new boolean[n];
        java.util.Arrays.fill(b, true);
        return b;
    }

    /** @return the worst error relative to max(1, |expected|). */
    static double assertClose(final double[] expected, final double[] actual, final String what)
    {
        double worst = 0.0;
        for (int i = 0; i < expected.length; i++)
        {
            final double error = Math.abs(expected[i] - actual[i]) / Math.max(1.0, Math.abs(expected[i]));
            assertTrue(error <= TOLERANCE, what + " [" + i + "]: expected " + expected[i] + " got " + actual[i]);
            worst = Math.max(worst, error);
        }
        return worst;
    }

    /**
     * Random state, joint and motor torques and an external wrench on a random body: the recursive
     * forward dynamics against the inertia-matrix route.
     *
     * @return the worst relative difference.
     */
    private static double recursiveAgainstCholesky(final ElasticRobotModel model, final long seed)
    {
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final MixedState s = new MixedState(rnd, model);
        final double[] jointTorque = RandomRobots.vector(rnd, model.dof(), 10.0);
        final double[] motorTorque = RandomRobots.vector(rnd, model.elasticCount(), 10.0);
        final double[] wrench = RandomRobots.vector(rnd, 6, 3.0);
        final int body = rnd.nextInt(model.links().bodyCount());
        final MixedForwardDynamics cholesky = new MixedForwardDynamics(bodies);
        final RecursiveMixedForwardDynamics recursive = new RecursiveMixedForwardDynamics(bodies);
        cholesky.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
        recursive.externalWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
        final double[] expectedQdd = new double[model.dof()];
        final double[] expectedThetadd = new double[model.elasticCount()];
        assertTrue(cholesky.compute(s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, expectedQdd,
            expectedThetadd), "seed " + seed);
        final double[] qdd = new double[model.dof()];
        final double[] thetadd = new double[model.elasticCount()];
        assertTrue(recursive.compute(s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, qdd, thetadd),
            "seed " + seed);
        final double links = assertClose(expectedQdd, qdd, "seed " + seed + " link accelerations");
        return Math.max(links, assertClose(expectedThetadd, thetadd, "seed " + seed + " motor accelerations"));
    }
}
