package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.elastic.MixedInverseDynamicsTest.EnergyOfMixedRobot;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.simulation.MixedArmSimulator;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;
import org.nectl.core.testing.UndampedElasticRobots;

/**
 * Passive elastic joints (Khalil, "Dynamic modeling of robots using recursive Newton-Euler
 * techniques", ICINCO 2010, eqs. 69-70): a spring to a fixed rest position q0 and no motor, on
 * seeded random robots that also have elastic joints with motors and rigid joints with motors on
 * any link ({@link RandomElasticRobots#withPassiveJoints}).
 */
class PassiveElasticJointTest
{
    private static final int ROBOTS = 200;
    /** Relative to max(1, |value|); see MixedDynamicsConsistencyTest for why 1e-9. */
    private static final double TOLERANCE = 1e-9;

    @Test
    void aPassivePendulumWithoutGravityAcceleratesAgainstItsSpring()
    {
        // One revolute joint about z, a 2 kg point mass at 0.5 m: I = 0.5 kg m^2; K = 40, D = 3, q0 = 0.2.
        final RobotModel.Builder builder = RobotModel.builder("pendulum").baseName("base");
        builder.addBody("link", "hinge", -1, JointType.REVOLUTE, new double[] {1, 0, 0, 0, 1, 0, 0, 0, 1}, new double[3],
            InertialParameters.ofCentreOfMass(2.0, new double[] {0.5, 0, 0}, new double[9]));
        final RobotModel links = builder.build();
        final ElasticRobotModel model = ElasticRobotModel.builder(links)
            .elasticity("hinge", new JointElasticity(40.0, 3.0, 0.2)).build();
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final double[] qdd = new double[1];
        final double[] none = new double[0];
        new MixedForwardDynamics(bodies).compute(new double[] {0.7}, none, new double[] {1.5}, none, new double[1], none,
            qdd, none);
        // I qdd = -K (q - q0) - D qd = -20 - 4.5
        assertEquals(-24.5 / 0.5, qdd[0], 1e-12);
        new RecursiveMixedForwardDynamics(bodies).compute(new double[] {0.7}, none, new double[] {1.5}, none,
            new double[1], none, qdd, none);
        assertEquals(-24.5 / 0.5, qdd[0], 1e-12);
        assertEquals(0, model.elasticCount());
        assertTrue(model.isPassive(0));
    }

    @Test
    void theInverseDynamicsControllerRefusesAJointItCannotDrive()
    {
        final ElasticRobotModel model = UndampedElasticRobots.undamped(RandomElasticRobots.withPassiveJoints(3, true));
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int n = model.dof();
        final int ne = model.elasticCount();
        final double[] unlimited = new double[n];
        Arrays.fill(unlimited, Double.POSITIVE_INFINITY);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new MixedInverseDynamicsController(bodies, filled(n, 400.0), filled(n, 40.0), filled(ne, 400.0),
                filled(ne, 40.0), new TorqueLimiter(unlimited, unlimited, 1_000_000L)));
        assertTrue(e.getMessage().contains("is passive (a spring, no motor)"), e.getMessage());
    }

    @Test
    void bothForwardDynamicsInvertInverseDynamics()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.withPassiveJoints(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final double[] jointTorque = new double[model.dof()];
            final double[] motorTorque = new double[model.elasticCount()];
            new MixedInverseDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, s.qdd, s.thetadd, jointTorque,
                motorTorque);
            final double[] applied = besidesAllSprings(model, s, jointTorque);
            final double[] qdd = new double[model.dof()];
            final double[] thetadd = new double[model.elasticCount()];
            assertTrue(new MixedForwardDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, applied, motorTorque, qdd,
                thetadd), "seed " + seed);
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(s.qdd, qdd, "seed " + seed + " Cholesky"));
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(s.thetadd, thetadd, "seed " + seed));
            assertTrue(new RecursiveMixedForwardDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, applied, motorTorque,
                qdd, thetadd), "seed " + seed);
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(s.qdd, qdd, "seed " + seed + " recursive"));
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(s.thetadd, thetadd, "seed " + seed));
        }
        System.out.printf("passive joints: FD(ID) round trip, both forward dynamics, %d robots: worst %.2e%n", ROBOTS, worst);
    }

    @Test
    void khalilsThreePassesGiveThePassiveJointsAccelerations()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.withPassiveJoints(seed, false);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final MixedState s = new MixedState(rnd, model);
            final double[] jointTorque = RandomRobots.vector(rnd, model.dof(), 10.0);
            final double[] motorTorque = RandomRobots.vector(rnd, model.elasticCount(), 10.0);
            for (int k = 0; k < model.dof(); k++)
            {
                jointTorque[k] = model.isElastic(k) || model.isPassive(k) ? 0.0 : jointTorque[k];
            }
            final double[] qdd = new double[model.dof()];
            final double[] thetadd = new double[model.elasticCount()];
            assertTrue(new MixedForwardDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, jointTorque, motorTorque, qdd,
                thetadd));
            final double[] driven = qdd.clone();
            for (int k = 0; k < model.dof(); k++)
            {
                driven[k] = model.isElastic(k) || model.isPassive(k) ? rnd.nextDouble(-100, 100) : driven[k];
            }
            final double[] torqueOut = new double[model.dof()];
            final double[] motorOut = new double[model.elasticCount()];
            assertTrue(new ElasticJointInverseDynamics(bodies).compute(s.q, s.theta, s.qd, s.thetad, driven, thetadd,
                torqueOut, motorOut), "seed " + seed);
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(qdd, driven, "seed " + seed + " qdd"));
            worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(motorTorque, motorOut, "seed " + seed));
            final double[] passive = new double[model.dof()];
            new SpringTorques(model).addPassive(s.q, s.qd, passive);
            for (int k = 0; k < model.dof(); k++)
            {
                if (model.isPassive(k))
                {
                    assertEquals(passive[k], torqueOut[k], 0.0, "seed " + seed + ": joint " + k + " transmits its spring");
                }
                else if (!model.isElastic(k))
                {
                    worst = Math.max(worst, MixedDynamicsConsistencyTest.assertClose(new double[] {jointTorque[k]},
                        new double[] {torqueOut[k]}, "seed " + seed + " rigid joint " + k));
                }
            }
        }
        System.out.printf("passive joints: Khalil-Gautier three passes vs Cholesky, %d robots: worst %.2e%n", ROBOTS, worst);
    }

    @Test
    void powerOfTheDrivesIsTheRateOfKineticGravityAndSpringEnergy()
    {
        double worst = 0.0;
        for (long seed = 0; seed < ROBOTS; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.withPassiveJoints(seed, false);
            final MixedState s = new MixedState(new SplittableRandom(seed), model);
            final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(model));
            inverse.friction(false);
            final double[] jointTorque = new double[model.dof()];
            final double[] motorTorque = new double[model.elasticCount()];
            inverse.compute(s.q, s.theta, s.qd, s.thetad, s.qdd, s.thetadd, jointTorque, motorTorque);
            final double[] applied = besidesAllSprings(model, s, jointTorque);
            double power = 0.0;
            for (int k = 0; k < model.dof(); k++)
            {
                final double damping = model.isPassive(k) ? model.elasticity(k).damping() : 0.0;
                power += applied[k] * s.qd[k] - damping * s.qd[k] * s.qd[k];
            }
            for (int e = 0; e < model.elasticCount(); e++)
            {
                final int k = model.coordinateOfElastic(e);
                final double slip = s.thetad[e] - s.qd[k];
                power += motorTorque[e] * s.thetad[e] - model.elasticity(k).damping() * slip * slip;
            }
            final double rate = new EnergyOfMixedRobot(model).rateAlong(s);
            // As in MixedInverseDynamicsTest: a 4th-order central difference with step 1e-4 s on
            // energies of tens of joules rounds to ~1e-11; 1e-8 relative covers it and truncation.
            assertEquals(rate, power, 1e-8 * Math.max(1.0, Math.abs(power)), "seed " + seed);
            worst = Math.max(worst, Math.abs(power - rate) / Math.max(1.0, Math.abs(power)));
        }
        System.out.printf("passive joints: power balance, %d robots: worst relative error %.2e%n", ROBOTS, worst);
    }

    /**
     * Without friction, dampers and torques, kinetic + gravity + spring energy is conserved: RK4's
     * drift over 0.2 s stays below 1e-8 of the energy and falls about 16-fold (at least 8-fold)
     * when the substeps double, the integrator's 4th order.
     */
    @Test
    void anUnforcedSimulationConservesKineticGravityAndSpringEnergy()
    {
        double worstDrift = 0.0;
        double worstRatio = Double.POSITIVE_INFINITY;
        for (long seed = 1; seed <= 12; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.undamped(RandomElasticRobots.withPassiveJoints(seed, false));
            final EnergyOfMixedRobot energy = new EnergyOfMixedRobot(model);
            final double[] drift = new double[2];
            for (int r = 0; r < 2; r++)
            {
                final MixedArmSimulator simulator = unforced(model, 8 << r, seed);
                final double start = energy(energy, model, simulator);
                for (int t = 0; t < 200; t++)
                {
                    assertEquals(ArmSimulator.STEP_OK, simulator.step(), "seed " + seed);
                }
                drift[r] = Math.abs(energy(energy, model, simulator) - start) / Math.max(1.0, Math.abs(start));
            }
            assertTrue(drift[0] <= 1e-8, "seed " + seed + ": relative energy drift " + drift[0]);
            worstDrift = Math.max(worstDrift, drift[0]);
            if (drift[0] > 1e-11)
            {
                assertTrue(drift[0] / drift[1] >= 8.0, "seed " + seed + ": drift " + drift[0] + " then " + drift[1]);
                worstRatio = Math.min(worstRatio, drift[0] / drift[1]);
            }
        }
        System.out.printf("passive joints: energy drift over 0.2 s at 8 substeps %.3e, smallest ratio 8 -> 16 substeps %.1f%n",
            worstDrift, worstRatio);
    }

    private static MixedArmSimulator unforced(final ElasticRobotModel model, final int substeps, final long seed)
    {
        final MixedArmSimulator simulator = new MixedArmSimulator(UnifiedBodies.of(model), 1_000_000L, substeps);
        simulator.friction(false);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = model.dof();
        final int ne = model.elasticCount();
        simulator.reset(RandomRobots.vector(rnd, n, 1.0), RandomRobots.vector(rnd, ne, 1.0), RandomRobots.vector(rnd, n, 1.0),
            RandomRobots.vector(rnd, ne, 1.0));
        simulator.command(new double[n]);
        return simulator;
    }

    private static double energy(final EnergyOfMixedRobot energy, final ElasticRobotModel model,
        final MixedArmSimulator simulator)
    {
        final double[] q = new double[model.dof()];
        final double[] qd = new double[model.dof()];
        final double[] theta = new double[model.elasticCount()];
        final double[] thetad = new double[model.elasticCount()];
        simulator.positions(q);
        simulator.velocities(qd);
        simulator.motorPositions(theta);
        simulator.motorVelocities(thetad);
        return energy.joules(q, theta, qd, thetad);
    }

    private static double[] filled(final int n, final double value)
    {
        final double[] v = new double[n];
        Arrays.fill(v, value);
        return v;
    }

    /** The joint torques of inverse dynamics minus what the elastic and passive springs supply. */
    private static double[] besidesAllSprings(final ElasticRobotModel model, final MixedState s, final double[] jointTorque)
    {
        final double[] applied = s.besidesSprings(model, jointTorque);
        final double[] passive = new double[model.dof()];
        new SpringTorques(model).addPassive(s.q, s.qd, passive);
        for (int k = 0; k < model.dof(); k++)
        {
            applied[k] -= passive[k];
        }
        return applied;
    }
}
