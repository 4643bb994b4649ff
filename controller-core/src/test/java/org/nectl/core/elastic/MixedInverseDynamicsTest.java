package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.RandomElasticRobots;

class MixedInverseDynamicsTest
{
    private static final double L = 0.4;
    private static final double C1 = 0.15;
    private static final double C2 = 0.12;
    private static final double M1 = 2.0;
    private static final double M2 = 1.3;
    private static final double J1 = 0.03;
    private static final double J2 = 0.02;
    private static final double ETA_ELBOW = 7.0;
    private static final double IZ_ELBOW = 0.002;
    private static final double ETA_SHOULDER = 3.0;
    private static final double IZ_SHOULDER = 0.004;

    /**
     * A planar two-link arm (both axes along base z, gravity along z so it does no work) whose elbow
     * is elastic, driven by a motor on the upper link coaxial with the shoulder, and whose shoulder
     * is rigid, driven by a massless motor on the lower link coaxial with the elbow. Rotor spin
     * rates about z: q1_dot + eta_e theta_dot and (1 + eta_s) q1_dot + q2_dot.
     */
    static ElasticRobotModel planarArm()
    {
        final RobotModel.Builder b = RobotModel.builder("planar");
        b.addBody("upper", "shoulder", -1, JointType.REVOLUTE, Transforms.identity(), new double[3],
            InertialParameters.ofCentreOfMass(M1, new double[] {C1, 0, 0}, new double[] {J1, 0, 0, 0, J1, 0, 0, 0, J1}));
        b.addBody("lower", "elbow", 0, JointType.REVOLUTE, Transforms.identity(), new double[] {L, 0, 0},
            InertialParameters.ofCentreOfMass(M2, new double[] {C2, 0, 0}, new double[] {J2, 0, 0, 0, J2, 0, 0, 0, J2}));
        final double[] z = {0, 0, 1};
        return ElasticRobotModel.builder(b.build())
            .motor("elbow", new Motor(0, z, new double[] {0, 0, 0.05}, ETA_ELBOW, IZ_ELBOW, 0.7, 0.003, 0, 0))
            .elasticity("elbow", new JointElasticity(80.0, 0.0))
            .motor("shoulder", new Motor(1, z, new double[3], ETA_SHOULDER, IZ_SHOULDER, 0.0, 0.002, 0, 0))
            .build();
    }

    /** A(q) derived by hand from the kinetic energy of links and rotors. */
    static double[] planarInertia(final double q2)
    {
        final double cos = Math.cos(q2);
        final double s = 1.0 + ETA_SHOULDER;
        final double m22 = J2 + M2 * C2 * C2 + IZ_SHOULDER;
        final double m12 = J2 + M2 * (C2 * C2 + L * C2 * cos) + IZ_SHOULDER * s;
        final double m11 = J1 + M1 * C1 * C1 + J2 + M2 * (L * L + C2 * C2 + 2 * L * C2 * cos) + IZ_ELBOW
            + IZ_SHOULDER * s * s;
        return new double[] {
            m11, m12, ETA_ELBOW * IZ_ELBOW,
            m12, m22, 0,
            ETA_ELBOW * IZ_ELBOW, 0, ETA_ELBOW * ETA_ELBOW * IZ_ELBOW};
    }

    @Test
    void matchesTheInertiaOfHandDerivedRotorsAtRest()
    {
        final ElasticRobotModel model = planarArm();
        final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(model));
        final double[] zero2 = new double[2];
        final double[] jointTorque = new double[2];
        final double[] motorTorque = new double[1];
        final SplittableRandom rnd = new SplittableRandom(3);
        for (int trial = 0; trial < 20; trial++)
        {
            final double[] q = {rnd.nextDouble(-3, 3), rnd.nextDouble(-3, 3)};
            final double[] theta = {q[1]};
            final double[] acc = {rnd.nextDouble(-5, 5), rnd.nextDouble(-5, 5), rnd.nextDouble(-5, 5)};
            inverse.compute(q, theta, zero2, new double[1], new double[] {acc[0], acc[1]}, new double[] {acc[2]},
                jointTorque, motorTorque);
            final double[] a = planarInertia(q[1]);
            final double[] expected = new double[3];
            for (int r = 0; r < 3; r++)
            {
                expected[r] = a[3 * r] * acc[0] + a[3 * r + 1] * acc[1] + a[3 * r + 2] * acc[2];
            }
            // 1e-12: the same sums of a few terms of order 1, rounded differently.
            assertArrayEquals(expected, new double[] {jointTorque[0], jointTorque[1], motorTorque[0]}, 1e-12,
                "trial " + trial);
        }
    }

    @Test
    void motorPowerEqualsTheRateOfEnergyPlusDampingLossesOnRandomMixedRobots()
    {
        double worst = 0.0;
        for (long seed = 0; seed < 200; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final MixedState s = new MixedState(new SplittableRandom(seed), model);
            final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(model));
            inverse.friction(false);
            final double[] jointTorque = new double[model.dof()];
            final double[] motorTorque = new double[model.elasticCount()];
            inverse.compute(s.q, s.theta, s.qd, s.thetad, s.qdd, s.thetadd, jointTorque, motorTorque);
            final double[] applied = s.besidesSprings(model, jointTorque);
            double power = 0.0;
            for (int k = 0; k < model.dof(); k++)
            {
                power += applied[k] * s.qd[k];
            }
            for (int e = 0; e < model.elasticCount(); e++)
            {
                final int k = model.coordinateOfElastic(e);
                final double slip = s.thetad[e] - s.qd[k];
                power += motorTorque[e] * s.thetad[e] - model.elasticity(k).damping() * slip * slip;
            }
            final double rate = new EnergyOfMixedRobot(model).rateAlong(s);
            final double error = Math.abs(power - rate) / Math.max(1.0, Math.abs(power));
            // Fourth-order central difference with step 1e-4 s: truncation ~1e-16 E^(5), rounding
            // ~1e-16 E / 1e-4 s ~ 1e-11 on energies of tens of joules; 1e-8 relative covers both.
            assertEquals(rate, power, 1e-8 * Math.max(1.0, Math.abs(power)), "seed " + seed);
            worst = Math.max(worst, error);
        }
        System.out.printf("mixed inverse dynamics power balance, 200 robots: worst relative error %.2e%n", worst);
    }

    @Test
    void jointTorquesDoNotDependOnMotorAnglesSoEquation28GivesThem()
    {
        for (long seed = 0; seed < 50; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            final MixedState s = new MixedState(new SplittableRandom(seed), model);
            final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(model));
            final double[] jointTorque = new double[model.dof()];
            final double[] motorTorque = new double[model.elasticCount()];
            inverse.compute(s.q, s.theta, s.qd, s.thetad, s.qdd, s.thetadd, jointTorque, motorTorque);
            final double[] theta = new double[model.elasticCount()];
            final double[] again = new double[model.dof()];
            inverse.compute(s.q, theta, s.qd, s.thetad, s.qdd, s.thetadd, again, motorTorque);
            // Only rounding differs: an axisymmetric rotor's inertia is the same at every angle.
            for (int k = 0; k < model.dof(); k++)
            {
                assertEquals(jointTorque[k], again[k], 1e-12 * Math.max(1.0, Math.abs(jointTorque[k])), "seed " + seed);
            }
        }
    }

    /** Kinetic, gravitational and elastic energy of a mixed robot, from the rotor tree's world kinematics. */
    static final class EnergyOfMixedRobot
    {
        private static final double STEP_S = 1e-4;
        private final ElasticRobotModel model;
        private final UnifiedBodies bodies;
        private final MechanicalEnergy energy;
        private final SpringTorques springs;

        EnergyOfMixedRobot(final ElasticRobotModel model)
        {
            this.model = model;
            bodies = new UnifiedBodies(model);
            energy = new MechanicalEnergy(bodies.tree);
            springs = new SpringTorques(model);
        }

        double joules(final double[] q, final double[] theta, final double[] qd, final double[] thetad)
        {
            final double[] y = new double[bodies.treeDof()];
            final double[] yd = new double[bodies.treeDof()];
            bodies.toTree(q, theta, y);
            bodies.toTree(qd, thetad, yd);
            return energy.kineticEnergyJoules(y, yd) + energy.potentialEnergyJoules(y)
                + springs.potentialEnergyJoules(q, theta);
        }

        /** d/dt of the energy along x(t) = x + t xd + t^2/2 xdd, by a fourth-order central difference. */
        double rateAlong(final MixedState s)
        {
            return (8 * (at(s, STEP_S) - at(s, -STEP_S)) - (at(s, 2 * STEP_S) - at(s, -2 * STEP_S))) / (12 * STEP_S);
        }

        private double at(final MixedState s, final double t)
        {
            final int n = model.dof();
            final int ne = model.elasticCount();
            final double[] q = new double[n];
            final double[] qd = new double[n];
            final double[] theta = new double[ne];
            final double[] thetad = new double[ne];
            for (int k = 0; k < n; k++)
            {
                q[k] = s.q[k] + t * s.qd[k] + 0.5 * t * t * s.qdd[k];
                qd[k] = s.qd[k] + t * s.qdd[k];
            }
            for (int e = 0; e < ne; e++)
            {
                theta[e] = s.theta[e] + t * s.thetad[e] + 0.5 * t * t * s.thetadd[e];
                thetad[e] = s.thetad[e] + t * s.thetadd[e];
            }
            return joules(q, theta, qd, thetad);
        }
    }
}
