package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

/**
 * As every stiffness K grows, the mixed robot's motion converges to that of the same robot with
 * rigid joints (singular perturbation: the elastic deflection is O(1/K)). Both are integrated with
 * RK4 from the same link state, the elastic one started on its slow manifold (theta = q + the
 * transmitted torque / K), under the same constant motor torques, with friction off.
 */
class StiffnessLimitTest
{
    private static final double DURATION_S = 0.1;
    private static final double STEP_S = 2e-5;
    private static final double[] SCALES = {1.0, 10.0, 100.0};

    @Test
    void elasticMotionConvergesToTheRigidMotionAsOneOverStiffness()
    {
        int checked = 0;
        for (long seed = 0; checked < 4; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, false);
            // A single joint is linear: started on its slow manifold it follows the rigid motion exactly.
            if (model.dof() < 3)
            {
                continue;
            }
            checked++;
            final double[] errors = new double[SCALES.length];
            for (int i = 0; i < SCALES.length; i++)
            {
                errors[i] = deviationFromRigid(model.withStiffnessScaled(SCALES[i]), seed);
            }
            System.out.printf("seed %d: |q_elastic - q_rigid| after %.2f s for K x 1, 10, 100: %.3e %.3e %.3e%n",
                seed, DURATION_S, errors[0], errors[1], errors[2]);
            for (int i = 1; i < SCALES.length; i++)
            {
                assertTrue(errors[i] < errors[i - 1], "seed " + seed + ": error must fall with stiffness, got "
                    + errors[i - 1] + " then " + errors[i]);
            }
            // Asymptotically O(1/K): tenfold stiffness, tenfold smaller error (5-20 allows for the
            // O(1/K^2) remainder and the phase of the fast oscillation).
            final double lastDecade = errors[SCALES.length - 2] / errors[SCALES.length - 1];
            assertTrue(lastDecade > 5.0 && lastDecade < 20.0, "seed " + seed + ": error ratio over the last tenfold"
                + " stiffness " + lastDecade + ", expected about 10");
        }
    }

    private static double deviationFromRigid(final ElasticRobotModel model, final long seed)
    {
        final ElasticRobotModel rigid = model.rigidLimit();
        final int n = model.dof();
        final int ne = model.elasticCount();
        final SplittableRandom rnd = new SplittableRandom(seed);
        final double[] q0 = RandomRobots.vector(rnd, n, 1.0);
        final double[] qd0 = RandomRobots.vector(rnd, n, 1.0);
        final double[] jointTorque = RandomRobots.vector(rnd, n, 2.0);
        final double[] motorTorque = new double[ne];
        for (int e = 0; e < ne; e++)
        {
            final int k = model.coordinateOfElastic(e);
            motorTorque[e] = jointTorque[k];
            jointTorque[k] = 0.0;
        }
        final double[] rigidTorque = jointTorque.clone();
        for (int e = 0; e < ne; e++)
        {
            rigidTorque[model.coordinateOfElastic(e)] = motorTorque[e];
        }
        final double[] rigidState = concat(q0, new double[0], qd0, new double[0]);
        final double[] elasticState = concat(q0, slowManifold(model, rigid, q0, qd0, rigidTorque), qd0, rates(model, qd0));
        final Plant rigidPlant = new Plant(rigid, rigidTorque, new double[0]);
        final Plant elasticPlant = new Plant(model, jointTorque, motorTorque);
        for (double t = 0.0; t < DURATION_S - 0.5 * STEP_S; t += STEP_S)
        {
            rigidPlant.step(rigidState, STEP_S);
            elasticPlant.step(elasticState, STEP_S);
        }
        double worst = 0.0;
        for (int k = 0; k < n; k++)
        {
            worst = Math.max(worst, Math.abs(rigidState[k] - elasticState[k]));
        }
        return worst;
    }

    /** theta = q + tau_transmitted / K, tau_transmitted from the rigid motion's accelerations. */
    private static double[] slowManifold(final ElasticRobotModel model, final ElasticRobotModel rigid,
        final double[] q, final double[] qd, final double[] rigidTorque)
    {
        final int n = model.dof();
        final MixedForwardDynamics forward = new MixedForwardDynamics(UnifiedBodies.of(rigid));
        forward.friction(false);
        final double[] qdd = new double[n];
        forward.compute(q, new double[0], qd, new double[0], rigidTorque, new double[0], qdd, new double[0]);
        final MixedInverseDynamics inverse = new MixedInverseDynamics(UnifiedBodies.of(model));
        inverse.friction(false);
        final double[] transmitted = new double[n];
        final double[] motor = new double[model.elasticCount()];
        final double[] theta = new double[model.elasticCount()];
        inverse.compute(q, theta, qd, rates(model, qd), qdd, rates(model, qdd), transmitted, motor);
        for (int e = 0; e < theta.length; e++)
        {
            final int k = model.coordinateOfElastic(e);
            theta[e] = q[k] + transmitted[k] / model.elasticity(k).stiffness();
        }
        return theta;
    }

    /** @return the elastic joints' entries of a link vector. */
    private static double[] rates(final ElasticRobotModel model, final double[] link)
    {
        final double[] motor = new double[model.elasticCount()];
        for (int e = 0; e < motor.length; e++)
        {
            motor[e] = link[model.coordinateOfElastic(e)];
        }
        return motor;
    }

    private static double[] concat(final double[] a, final double[] b, final double[] c, final double[] d)
    {
        final double[] r = new double[a.length + b.length + c.length + d.length];
        System.arraycopy(a, 0, r, 0, a.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        System.arraycopy(c, 0, r, a.length + b.length, c.length);
        System.arraycopy(d, 0, r, a.length + b.length + c.length, d.length);
        return r;
    }

    /** State (q, theta, qd, theta_dot) under constant torques, advanced by classic RK4. */
    private static final class Plant
    {
        private final MixedForwardDynamics forward;
        private final double[] jointTorque;
        private final double[] motorTorque;
        private final int n;
        private final int ne;
        private final double[][] k = new double[4][];
        private final double[] probe;
        private final double[] q;
        private final double[] theta;
        private final double[] qd;
        private final double[] thetad;
        private final double[] qdd;
        private final double[] thetadd;

        Plant(final ElasticRobotModel model, final double[] jointTorque, final double[] motorTorque)
        {
            forward = new MixedForwardDynamics(UnifiedBodies.of(model));
            forward.friction(false);
            this.jointTorque = jointTorque;
            this.motorTorque = motorTorque;
            n = model.dof();
            ne = model.elasticCount();
            final int size = 2 * (n + ne);
            for (int i = 0; i < 4; i++)
            {
                k[i] = new double[size];
            }
            probe = new double[size];
            q = new double[n];
            theta = new double[ne];
            qd = new double[n];
            thetad = new double[ne];
            qdd = new double[n];
            thetadd = new double[ne];
        }

        void step(final double[] x, final double h)
        {
            final double[] weights = {0.0, 0.5, 0.5, 1.0};
            for (int stage = 0; stage < 4; stage++)
            {
                for (int i = 0; i < x.length; i++)
                {
                    probe[i] = x[i] + (stage == 0 ? 0.0 : weights[stage] * h * k[stage - 1][i]);
                }
                derivative(probe, k[stage]);
            }
            for (int i = 0; i < x.length; i++)
            {
                x[i] += h / 6.0 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
            }
        }

        private void derivative(final double[] x, final double[] xdot)
        {
            final int m = n + ne;
            System.arraycopy(x, 0, q, 0, n);
            System.arraycopy(x, n, theta, 0, ne);
            System.arraycopy(x, m, qd, 0, n);
            System.arraycopy(x, m + n, thetad, 0, ne);
            forward.compute(q, theta, qd, thetad, jointTorque, motorTorque, qdd, thetadd);
            System.arraycopy(x, m, xdot, 0, m);
            System.arraycopy(qdd, 0, xdot, m, n);
            System.arraycopy(thetadd, 0, xdot, m + n, ne);
        }
    }
}
