package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MixedForwardDynamics;
import org.nectl.core.elastic.MixedMassMatrix;
import org.nectl.core.elastic.MotorReference;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.UndampedElasticRobots;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;

class MixedInverseDynamicsControllerTest
{
    private static final double[] GRAVITY = {0.5, -1.0, -9.81};
    /**
     * The oracle's Christoffel symbols come from 4th-order central differences of A(q) with h = 1e-4
     * rad (truncation ~h^4, rounding ~eps |A| / h ~ 1e-12); the residuals are relative to the largest
     * term of each equation.
     */
    private static final double RESIDUAL_TOLERANCE = 1e-8;
    private static final double STEP_RAD = 1e-4;


    private static double[] constant(final int n, final double value)
    {
        final double[] a = new double[n];
        Arrays.fill(a, value);
        return a;
    }

    private static MixedInverseDynamicsController controller(final ElasticRobotModel model, final TorqueLimiter limiter)
    {
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int n = model.dof();
        final int ne = model.elasticCount();
        final MixedInverseDynamicsController c = new MixedInverseDynamicsController(bodies, constant(n, 400.0),
            constant(n, 40.0), constant(ne, 30.0), constant(ne, 3.0), limiter);
        c.gravity(GRAVITY[0], GRAVITY[1], GRAVITY[2]);
        return c;
    }

    private static TorqueLimiter unlimited(final int n)
    {
        return new TorqueLimiter(constant(n, Double.POSITIVE_INFINITY), constant(n, Double.POSITIVE_INFINITY), 1_000_000L);
    }

    /** A random state x = (q, theta, qd, thetad) and reference (q_d and 4 derivatives). */
    private record Case(double[] q, double[] theta, double[] qd, double[] thetad, double[][] reference)
    {
        static Case draw(final SplittableRandom rnd, final ElasticRobotModel model)
        {
            final int n = model.dof();
            final int ne = model.elasticCount();
            final double[][] reference = new double[5][];
            final double[] scale = {Math.PI, 2.0, 3.0, 5.0, 10.0};
            for (int d = 0; d < 5; d++)
            {
                reference[d] = RandomRobots.vector(rnd, n, scale[d]);
            }
            return new Case(RandomRobots.vector(rnd, n, Math.PI), RandomRobots.vector(rnd, ne, Math.PI),
                RandomRobots.vector(rnd, n, 2.0), RandomRobots.vector(rnd, ne, 2.0), reference);
        }
    }

    /**
     * Under the commanded torques the model's accelerations satisfy the paper's closed-loop error
     * equations, the rigid rows of (40), M sigma_q' + C sigma_q + K_Dq sigma_q = 0, and (50),
     * B sigma_theta' + K_Dtheta sigma_theta + K e_theta = 0, with C in Christoffel form built from
     * central differences of A(q): an oracle independent of the controller's polarised bias forces.
     */
    @Test
    void commandedTorquesProduceThePapersClosedLoopErrorEquationsOnRandomMixedRobots()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 40; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final Case c = Case.draw(new SplittableRandom(seed), model);
            final double residual = closedLoopResidual(model, c);
            assertTrue(residual <= RESIDUAL_TOLERANCE, "seed " + seed + ": relative residual " + residual);
            worst = Math.max(worst, residual);
        }
        System.out.printf("closed-loop error equations (40), (50) over 40 random mixed robots: max relative residual %.3e%n",
            worst);
    }

    /**
     * On a carried base (random rotation, angular acceleration and specific force), the commanded
     * torques applied to the carried plant give the same fixed-base closed-loop error equations: the
     * base's terms are compensated whole, in the link-side torques and in the motor reference.
     */
    @Test
    void onACarriedBaseCommandedTorquesProduceTheSameClosedLoopErrorEquations()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 40; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final Case c = Case.draw(rnd, model);
            final double residual = closedLoopResidual(model, c, RandomElasticRobots.carriedBase(rnd));
            assertTrue(residual <= RESIDUAL_TOLERANCE, "seed " + seed + ": relative residual " + residual);
            worst = Math.max(worst, residual);
        }
        System.out.printf("carried base: closed-loop error equations (40), (50) over 40 random mixed robots: max relative"
            + " residual %.3e%n", worst);
    }

    /** A base in pure translation is a fixed base under gravity g - a: the commands agree to 1e-12. */
    @Test
    void aBaseInPureTranslationCommandsAsAFixedBaseUnderGravityMinusItsAcceleration()
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 1);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final Case c = Case.draw(rnd, model);
            final double[] a = RandomRobots.vector(rnd, 3, 6.0);
            final BaseMotion translating =
                new BaseMotion().orientation(0.6, 0.0, 0.8, 0.0).worldAcceleration(a[0], a[1], a[2], GRAVITY);
            final double[] onBase = new double[n];
            assertEquals(ControlStatus.OK, controller(model, unlimited(n)).compute(c.q, c.theta, c.qd, c.thetad, c.reference,
                translating, onBase));
            final MixedInverseDynamicsController fixed = controller(model, unlimited(n));
            fixed.gravity(-translating.specificForce(0), -translating.specificForce(1), -translating.specificForce(2));
            final double[] expected = new double[n];
            assertEquals(ControlStatus.OK, fixed.compute(c.q, c.theta, c.qd, c.thetad, c.reference, expected));
            for (int k = 0; k < n; k++)
            {
                assertEquals(expected[k], onBase[k], 1e-12 * Math.max(1.0, Math.abs(expected[k])), "seed " + seed + " joint " + k);
            }
        }
    }

    private static double closedLoopResidual(final ElasticRobotModel model, final Case c)
    {
        return closedLoopResidual(model, c, null);
    }

    private static double closedLoopResidual(final ElasticRobotModel model, final Case c, final BaseMotion base)
    {
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int n = model.dof();
        final int ne = model.elasticCount();
        final int size = n + ne;
        final double kp = 400.0;
        final double kd = 40.0;
        final double kpTheta = 30.0;
        final double kdTheta = 3.0;
        final double[] command = new double[n];
        assertEquals(ControlStatus.OK, controller(model, unlimited(n)).compute(c.q, c.theta, c.qd, c.thetad, c.reference, base,
            command));
        final double[] jointTorque = new double[n];
        final double[] motorTorque = new double[ne];
        for (int k = 0; k < n; k++)
        {
            if (model.isElastic(k))
            {
                motorTorque[model.elasticIndex(k)] = command[k];
            }
            else
            {
                jointTorque[k] = command[k];
            }
        }
        final MixedForwardDynamics forward = new MixedForwardDynamics(bodies);
        forward.gravity(GRAVITY[0], GRAVITY[1], GRAVITY[2]);
        final double[] qdd = new double[n];
        final double[] thetadd = new double[ne];
        assertTrue(forward.compute(c.q, c.theta, c.qd, c.thetad, jointTorque, motorTorque, base, qdd, thetadd));
        final double[] sigmaQ = new double[n];
        final double[] sigmaQDot = new double[n];
        final double lambda = kp / kd;
        for (int k = 0; k < n; k++)
        {
            final double errorRate = c.reference[1][k] - c.qd[k];
            sigmaQ[k] = errorRate + lambda * (c.reference[0][k] - c.q[k]);
            sigmaQDot[k] = c.reference[2][k] + lambda * errorRate - qdd[k];
        }
        final double[] a = new double[size * size];
        new MixedMassMatrix(bodies).compute(c.q, a);
        final double[] velocity = new double[size];
        System.arraycopy(c.qd, 0, velocity, 0, n);
        System.arraycopy(c.thetad, 0, velocity, n, ne);
        final double[] sigmaX = new double[size];
        System.arraycopy(sigmaQ, 0, sigmaX, 0, n);
        final double[] coriolis = christoffelProduct(model, c.q, velocity, sigmaX);
        double worst = 0.0;
        for (int k = 0; k < n; k++)
        {
            if (model.isElastic(k))
            {
                continue;
            }
            double inertial = 0.0;
            for (int j = 0; j < n; j++)
            {
                inertial += a[k * size + j] * sigmaQDot[j];
            }
            worst = Math.max(worst, relative(inertial, coriolis[k], kd * sigmaQ[k]));
        }
        final double[] theta = new double[ne];
        final double[] thetaDot = new double[ne];
        final double[] thetaDdot = new double[ne];
        final MotorReference reference = new MotorReference(bodies);
        reference.gravity(GRAVITY[0], GRAVITY[1], GRAVITY[2]);
        reference.compute(c.reference, base, theta, thetaDot, thetaDdot);
        final double lambdaTheta = kpTheta / kdTheta;
        final double[] sigmaTheta = new double[ne];
        final double[] sigmaThetaDot = new double[ne];
        for (int e = 0; e < ne; e++)
        {
            final int k = model.coordinateOfElastic(e);
            final double errorRate = thetaDot[e] - c.thetad[e];
            sigmaTheta[e] = errorRate + lambdaTheta * (theta[e] - c.theta[e]) + sigmaQ[k];
            sigmaThetaDot[e] = thetaDdot[e] + lambdaTheta * errorRate + sigmaQDot[k] - thetadd[e];
        }
        for (int e = 0; e < ne; e++)
        {
            double inertial = 0.0;
            for (int f = 0; f < ne; f++)
            {
                inertial += a[(n + e) * size + n + f] * sigmaThetaDot[f];
            }
            final double spring = model.elasticity(model.coordinateOfElastic(e)).stiffness() * (theta[e] - c.theta[e]);
            worst = Math.max(worst, relative(inertial, kdTheta * sigmaTheta[e], spring));
        }
        return worst;
    }

    /** |a + b + c| / max(1, |a|, |b|, |c|). */
    private static double relative(final double a, final double b, final double c)
    {
        return Math.abs(a + b + c) / Math.max(1.0, Math.max(Math.abs(a), Math.max(Math.abs(b), Math.abs(c))));
    }

    /**
     * C(x') v with C_ij = sum_k Gamma_ijk x'_k, Gamma_ijk = (dA_ij/dx_k + dA_ik/dx_j - dA_jk/dx_i) / 2,
     * A depending on q only, dA/dq_l by 4th-order central differences.
     */
    private static double[] christoffelProduct(final ElasticRobotModel model, final double[] q, final double[] velocity,
        final double[] v)
    {
        final int n = model.dof();
        final int size = n + model.elasticCount();
        final MixedMassMatrix mass = new MixedMassMatrix(UnifiedBodies.of(model));
        final double[][] derivative = new double[size][size * size];
        final double[] sample = new double[size * size];
        final double[] shifted = q.clone();
        final double[] steps = {-2.0, -1.0, 1.0, 2.0};
        final double[] weights = {1.0, -8.0, 8.0, -1.0};
        for (int l = 0; l < n; l++)
        {
            for (int s = 0; s < 4; s++)
            {
                shifted[l] = q[l] + steps[s] * STEP_RAD;
                mass.compute(shifted, sample);
                for (int i = 0; i < sample.length; i++)
                {
                    derivative[l][i] += weights[s] * sample[i] / (12.0 * STEP_RAD);
                }
            }
            shifted[l] = q[l];
        }
        final double[] out = new double[size];
        for (int i = 0; i < size; i++)
        {
            double sum = 0.0;
            for (int j = 0; j < size; j++)
            {
                for (int k = 0; k < size; k++)
                {
                    final double gamma = 0.5 * (derivative[k][i * size + j] + derivative[j][i * size + k]
                        - derivative[i][j * size + k]);
                    sum += gamma * velocity[k] * v[j];
                }
            }
            out[i] = sum;
        }
        return out;
    }

    @Test
    void saturationIsCountedAndFlaggedPerJointAndTheOutputStaysWithinTheLimits()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(7, false);
        final int n = model.dof();
        final double torqueLimit = 0.5;
        final double rateLimit = 100.0;
        final TorqueLimiter limiter = new TorqueLimiter(constant(n, torqueLimit), constant(n, rateLimit), 1_000_000L);
        final MixedInverseDynamicsController controller = controller(model, limiter);
        final Case c = Case.draw(new SplittableRandom(7), model);
        final double[] command = new double[n];
        final long[] flagged = new long[2 * n];
        final int ticks = 50;
        for (int t = 0; t < ticks; t++)
        {
            assertEquals(ControlStatus.OK, controller.compute(c.q, c.theta, c.qd, c.thetad, c.reference, command));
            final long flags = controller.limitFlags();
            for (int k = 0; k < n; k++)
            {
                assertTrue(Math.abs(command[k]) <= torqueLimit, "seed 7, tick " + t + ", joint " + k + ": " + command[k]);
                flagged[k] += (flags & TorqueLimiter.torqueFlag(k)) != 0 ? 1 : 0;
                flagged[n + k] += (flags & TorqueLimiter.rateFlag(k)) != 0 ? 1 : 0;
            }
        }
        long torqueClips = 0;
        for (int k = 0; k < n; k++)
        {
            assertEquals(flagged[k], limiter.torqueClipCount(k), "seed 7, joint " + k + ": torque clips");
            assertEquals(flagged[n + k], limiter.rateClipCount(k), "seed 7, joint " + k + ": rate clips");
            torqueClips += limiter.torqueClipCount(k);
        }
        assertTrue(torqueClips > 0, "seed 7: the large errors must saturate some joint");
        // the first ticks ramp from zero at 0.1 N m per tick, so a saturated joint is rate-clipped 4 times
        assertTrue(Arrays.stream(flagged, n, 2 * n).max().orElse(0) >= 4, "seed 7: rate clips " + Arrays.toString(flagged));
    }

    @Test
    void rejectsNonPositiveGainsAndAMismatchedLimiter()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(3, false);
        final UnifiedBodies bodies = UnifiedBodies.of(model);
        final int n = model.dof();
        final int ne = model.elasticCount();
        assertThrows(IllegalArgumentException.class, () -> new MixedInverseDynamicsController(bodies, constant(n, 1.0),
            constant(n, 0.0), constant(ne, 1.0), constant(ne, 1.0), unlimited(n)));
        assertThrows(IllegalArgumentException.class, () -> new MixedInverseDynamicsController(bodies, constant(n, 1.0),
            constant(n, 1.0), constant(ne + 1, 1.0), constant(ne + 1, 1.0), unlimited(n)));
        assertThrows(IllegalArgumentException.class, () -> new MixedInverseDynamicsController(bodies, constant(n, 1.0),
            constant(n, 1.0), constant(ne, 1.0), constant(ne, 1.0), unlimited(n + 1)));
    }

    @Test
    void computeAllocatesNothing()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(11, false);
        final int n = model.dof();
        final MixedInverseDynamicsController controller = controller(model, unlimited(n));
        final Case c = Case.draw(new SplittableRandom(11), model);
        final double[] command = new double[n];
        final long bytes = AllocationMeter.bytesAllocated(
            () -> controller.compute(c.q, c.theta, c.qd, c.thetad, c.reference, command), 20_000, 20_000);
        assertEquals(0L, bytes, "seed 11: bytes allocated over 20000 ticks");
    }

    @Test
    void computeOnACarriedBaseAllocatesNothing()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(11, false);
        final int n = model.dof();
        final MixedInverseDynamicsController controller = controller(model, unlimited(n));
        final SplittableRandom rnd = new SplittableRandom(11);
        final Case c = Case.draw(rnd, model);
        final BaseMotion base = RandomElasticRobots.carriedBase(rnd);
        final double[] command = new double[n];
        final long bytes = AllocationMeter.bytesAllocated(
            () -> controller.compute(c.q, c.theta, c.qd, c.thetad, c.reference, base, command), 20_000, 20_000);
        assertEquals(0L, bytes, "seed 11: bytes allocated over 20000 carried ticks");
    }
}
