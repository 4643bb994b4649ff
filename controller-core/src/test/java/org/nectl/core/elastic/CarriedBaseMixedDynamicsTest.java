package org.nectl.core.elastic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.control.ControlStatus;
import org.nectl.core.control.MixedInverseDynamicsController;
import org.nectl.core.control.TorqueLimiter;
import org.nectl.core.dynamics.BaseMotion;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.mobile.BaseMotionProfile;
import org.nectl.core.mobile.CarriedBaseInverseDynamics;
import org.nectl.core.mobile.ShipMotion;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.MixedArmSimulator;
import org.nectl.core.testing.RandomElasticRobots;
import org.nectl.core.testing.RandomRobots;
import org.nectl.core.testing.UndampedElasticRobots;

/**
 * The mixed rigid/elastic dynamics on a carried (moving) base, against the rigid carried-base
 * algorithms, against a fixed base under gravity g - a, and against each other.
 */
class CarriedBaseMixedDynamicsTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};
    private static final int SAMPLES = 20;

    /**
     * The links of a random robot with motors of no mass and no inertia on most joints, about half of
     * them elastic (undamped): its link-side torques are those of the links alone.
     */
    private static ElasticRobotModel withMasslessMotors(final long seed)
    {
        return withMasslessMotors(seed, false);
    }

    /** As {@link #withMasslessMotors(long)}, with a motor on every joint if {@code everyJoint}. */
    private static ElasticRobotModel withMasslessMotors(final long seed, final boolean everyJoint)
    {
        final SplittableRandom rnd = new SplittableRandom(seed * 7 + 1);
        final RobotModel drawn = RandomRobots.robot(seed, rnd.nextInt(1, 9), rnd.nextBoolean(), RandomRobots.Joints.ALL, true);
        final boolean[] motorised = new boolean[drawn.dof()];
        final int first = rnd.nextInt(drawn.dof());
        for (int k = 0; k < drawn.dof(); k++)
        {
            motorised[k] = k == first || rnd.nextDouble() < 0.75 || everyJoint;
        }
        // the rotor inertia of a motorised joint is its motor's, here none
        final RobotModel links = RandomElasticRobots.withoutRotorInertia(drawn, motorised);
        final ElasticRobotModel.Builder builder = ElasticRobotModel.builder(links);
        for (int k = 0; k < links.dof(); k++)
        {
            if (!motorised[k])
            {
                continue;
            }
            final double[] axis = RandomRobots.randomRotation(rnd);
            final double[] z = {axis[2], axis[5], axis[8]};
            final double[] centre = RandomRobots.vector(rnd, 3, 0.2);
            final double eta = rnd.nextDouble(1.0, 50.0);
            if (k == first || rnd.nextBoolean())
            {
                // an elastic joint's theta needs rotor inertia: a massless rotor spinning on the base, off the links
                builder.motor(links.coordinateName(k), new Motor(-1, z, centre, eta, 1e-4, 0.0, 1e-4, 0.0, 0.0));
                builder.elasticity(links.coordinateName(k), new JointElasticity(rnd.nextDouble(20.0, 500.0), 0.0));
            }
            else
            {
                builder.motor(links.coordinateName(k), new Motor(rnd.nextInt(-1, links.bodyCount()), z, centre, eta, 0.0, 0.0,
                    0.0, 0.0, 0.0));
            }
        }
        return builder.build();
    }

    /**
     * Massless motors: ReNEAL's link-side torques on a carried base and the motor reference's
     * theta_d = q_d + tau / K equal {@link CarriedBaseInverseDynamics} of the links alone to 1e-12.
     */
    @Test
    void linkSideTorqueOnACarriedBaseEqualsTheCarriedBaseInverseDynamicsOfTheLinks()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 30; seed++)
        {
            final ElasticRobotModel model = withMasslessMotors(seed);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final CarriedBaseInverseDynamics rigid = new CarriedBaseInverseDynamics(CompiledModel.of(model.links()));
            final MixedInverseDynamics mixed = new MixedInverseDynamics(bodies);
            final MotorReference motorReference = new MotorReference(bodies);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] expected = new double[n];
            final double[] jointTorque = new double[n];
            final double[] motorTorque = new double[ne];
            final double[] theta = new double[ne];
            final double[] thetaDot = new double[ne];
            final double[] thetaDdot = new double[ne];
            for (int s = 0; s < SAMPLES; s++)
            {
                final BaseMotion base = RandomElasticRobots.carriedBase(rnd);
                final double[][] reference = MotorReferenceTest.coefficients(rnd, n);
                rigid.compute(reference[0], reference[1], reference[2], base, expected);
                mixed.compute(reference[0], RandomRobots.vector(rnd, ne, 1.0), reference[1], RandomRobots.vector(rnd, ne, 1.0),
                    reference[2], RandomRobots.vector(rnd, ne, 1.0), base, jointTorque, motorTorque);
                motorReference.compute(reference, base, theta, thetaDot, thetaDdot);
                for (int k = 0; k < n; k++)
                {
                    final double scale = Math.max(1.0, Math.abs(expected[k]));
                    assertEquals(expected[k], jointTorque[k], 1e-12 * scale, "seed " + seed + " joint " + k);
                    worst = Math.max(worst, Math.abs(expected[k] - jointTorque[k]) / scale);
                    final int e = model.elasticIndex(k);
                    if (e >= 0)
                    {
                        final double stiffness = model.elasticity(k).stiffness();
                        assertEquals(reference[0][k] + expected[k] / stiffness, theta[e], 1e-12 * scale,
                            "seed " + seed + " theta_d of joint " + k);
                    }
                }
            }
        }
        System.out.printf("carried base, massless motors: ReNEAL link-side torque vs CarriedBaseInverseDynamics of the links,"
            + " 30 robots x %d states: max relative error %.2e%n", SAMPLES, worst);
    }

    /**
     * The mixed law on the reference (zero tracking error, motors at theta_d, theta_d'), motors without
     * mass or inertia (elastic ones on the base): its rigid joints' commands on a carried base equal
     * {@link CarriedBaseInverseDynamics} of the links at (q_d, qd_d, qdd_d).
     */
    @Test
    void theMixedLawsRigidCommandsOnTheReferenceEqualTheCarriedBaseInverseDynamicsOfTheLinks()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 30; seed++)
        {
            final ElasticRobotModel model = withMasslessMotors(seed, true);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final BaseMotion base = RandomElasticRobots.carriedBase(rnd);
            final double[][] reference = MotorReferenceTest.coefficients(rnd, n);
            final double[] theta = new double[ne];
            final double[] thetaDot = new double[ne];
            new MotorReference(bodies).compute(reference, base, theta, thetaDot, new double[ne]);
            final double[] unlimited = new double[n];
            java.util.Arrays.fill(unlimited, Double.POSITIVE_INFINITY);
            final double[] gains = new double[n];
            java.util.Arrays.fill(gains, 100.0);
            final double[] motorGains = new double[ne];
            java.util.Arrays.fill(motorGains, 10.0);
            final MixedInverseDynamicsController law = new MixedInverseDynamicsController(bodies, gains, gains, motorGains,
                motorGains, new TorqueLimiter(unlimited, unlimited, 1_000_000L));
            final double[] command = new double[n];
            assertEquals(ControlStatus.OK, law.compute(reference[0], theta, reference[1], thetaDot, reference, base, command),
                "seed " + seed);
            final double[] expected = new double[n];
            new CarriedBaseInverseDynamics(CompiledModel.of(model.links())).compute(reference[0], reference[1], reference[2],
                base, expected);
            for (int k = 0; k < n; k++)
            {
                if (!model.isElastic(k))
                {
                    final double scale = Math.max(1.0, Math.abs(expected[k]));
                    worst = Math.max(worst, Math.abs(expected[k] - command[k]) / scale);
                    assertEquals(expected[k], command[k], 1e-12 * scale, "seed " + seed + " joint " + k);
                }
            }
        }
        System.out.printf("carried base, massless motors: the mixed law's rigid commands on the reference vs"
            + " CarriedBaseInverseDynamics of the links, 30 robots: max relative error %.2e%n", worst);
    }

    /**
     * A base in pure translation at constant acceleration a is a fixed base under gravity g - a, to
     * 1e-12: ReNEAL, the motor reference with both derivatives, and the recursive forward dynamics.
     */
    @Test
    void pureBaseTranslationEqualsAFixedBaseUnderGravityMinusTheBaseAcceleration()
    {
        for (long seed = 1; seed <= 30; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] a = RandomRobots.vector(rnd, 3, 6.0);
            final BaseMotion base =
                new BaseMotion().orientation(0.6, 0.8, 0.0, 0.0).worldAcceleration(a[0], a[1], a[2], GRAVITY);
            final double gx = -base.specificForce(0);
            final double gy = -base.specificForce(1);
            final double gz = -base.specificForce(2);
            final String context = "seed " + seed;
            final double[][] reference = MotorReferenceTest.coefficients(rnd, n);
            final double[] theta = RandomRobots.vector(rnd, ne, 1.0);
            final double[] thetad = RandomRobots.vector(rnd, ne, 1.0);
            final double[] thetadd = RandomRobots.vector(rnd, ne, 1.0);

            final MixedInverseDynamics carried = new MixedInverseDynamics(bodies);
            final MixedInverseDynamics fixed = new MixedInverseDynamics(bodies);
            fixed.gravity(gx, gy, gz);
            final double[][] torques = new double[4][];
            torques[0] = new double[n];
            torques[1] = new double[ne];
            torques[2] = new double[n];
            torques[3] = new double[ne];
            carried.compute(reference[0], theta, reference[1], thetad, reference[2], thetadd, base, torques[0], torques[1]);
            fixed.compute(reference[0], theta, reference[1], thetad, reference[2], thetadd, torques[2], torques[3]);
            assertClose(torques[2], torques[0], 1e-12, context + ", ReNEAL joint torque");
            assertClose(torques[3], torques[1], 1e-12, context + ", ReNEAL motor torque");

            final MotorReference onBase = new MotorReference(bodies);
            final MotorReference underGravity = new MotorReference(bodies);
            underGravity.gravity(gx, gy, gz);
            final double[][] motor = new double[6][ne];
            onBase.compute(reference, base, motor[0], motor[1], motor[2]);
            underGravity.compute(reference, motor[3], motor[4], motor[5]);
            for (int d = 0; d < 3; d++)
            {
                assertClose(motor[3 + d], motor[d], 1e-12, context + ", theta_d derivative " + d);
            }

            final RecursiveMixedForwardDynamics forward = new RecursiveMixedForwardDynamics(bodies);
            final RecursiveMixedForwardDynamics forwardUnderGravity = new RecursiveMixedForwardDynamics(bodies);
            forwardUnderGravity.gravity(gx, gy, gz);
            final double[] jointTorque = RandomRobots.vector(rnd, n, 5.0);
            final double[] motorTorque = RandomRobots.vector(rnd, ne, 5.0);
            final double[][] accelerations = {new double[n], new double[ne], new double[n], new double[ne]};
            assertTrue(forward.compute(reference[0], theta, reference[1], thetad, jointTorque, motorTorque, base,
                accelerations[0], accelerations[1]), context);
            assertTrue(forwardUnderGravity.compute(reference[0], theta, reference[1], thetad, jointTorque, motorTorque,
                accelerations[2], accelerations[3]), context);
            assertClose(accelerations[2], accelerations[0], 1e-12, context + ", qdd");
            assertClose(accelerations[3], accelerations[1], 1e-12, context + ", theta_dd");
        }
    }

    /**
     * On a rotating, accelerating base the recursive forward dynamics (every path: rigid recursion,
     * rotors folded into their joints, tied-rotor constraints) agree with the inertia-matrix route
     * A^-1 ([tau] - zeta(base)), and both invert ReNEAL.
     */
    @Test
    void recursiveAndInertiaMatrixForwardDynamicsAgreeOnACarriedBase()
    {
        double worst = 0.0;
        for (long seed = 1; seed <= 45; seed++)
        {
            final ElasticRobotModel model = seed % 3 == 0 ? RandomElasticRobots.withMotorsNextToTheirJoints(seed)
                : RandomElasticRobots.robot(seed, seed % 3 == 1);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final RecursiveMixedForwardDynamics recursive = new RecursiveMixedForwardDynamics(bodies);
            final MixedForwardDynamics cholesky = new MixedForwardDynamics(bodies);
            for (int s = 0; s < 5; s++)
            {
                final BaseMotion base = RandomElasticRobots.carriedBase(rnd);
                final double[] q = RandomRobots.vector(rnd, n, Math.PI);
                final double[] qd = RandomRobots.vector(rnd, n, 2.0);
                final double[] theta = RandomRobots.vector(rnd, ne, Math.PI);
                final double[] thetad = RandomRobots.vector(rnd, ne, 2.0);
                final double[] jointTorque = RandomRobots.vector(rnd, n, 5.0);
                final double[] motorTorque = RandomRobots.vector(rnd, ne, 5.0);
                final double[] qdd = new double[n];
                final double[] thetadd = new double[ne];
                final double[] qddExpected = new double[n];
                final double[] thetaddExpected = new double[ne];
                final String context = "seed " + seed + " sample " + s;
                assertTrue(cholesky.compute(q, theta, qd, thetad, jointTorque, motorTorque, base, qddExpected, thetaddExpected),
                    context);
                assertTrue(recursive.compute(q, theta, qd, thetad, jointTorque, motorTorque, base, qdd, thetadd), context);
                worst = Math.max(worst, Math.max(maxError(qddExpected, qdd), maxError(thetaddExpected, thetadd)));
                assertClose(qddExpected, qdd, 1e-9, context + ", qdd");
                assertClose(thetaddExpected, thetadd, 1e-9, context + ", theta_dd");
            }
        }
        System.out.printf("carried base: recursive vs inertia-matrix mixed forward dynamics, 45 robots x 5 states: max"
            + " relative difference %.2e%n", worst);
    }

    /**
     * The motor reference's derivatives on a base of constant acceleration (its angular acceleration
     * constant in the base frame, its world acceleration constant, the orientation integrated) equal
     * the derivatives of theta_d along that motion, by 5-point differences of theta_d(t): the
     * treatment is exact for such a base up to its O(h^2) differences. On a ship's deck, whose
     * acceleration changes, the assumption's error is printed, and that of the rates estimated from
     * the deck's 1 ms blocks ({@link BaseMotionRates}), which must be several times smaller.
     */
    @Test
    void motorReferenceDerivativesFollowABaseOfConstantAcceleration()
    {
        double worst = 0.0;
        final double[] worstShip = new double[2];
        final double[] worstEstimated = new double[2];
        final double[] baseShare = new double[2];
        final ShipMotion ship = new ShipMotion(Math.toRadians(10), 0.2, Math.toRadians(3), 0.15, 0.5, 0.1);
        for (long seed = 1; seed <= 20; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[][] reference = MotorReferenceTest.coefficients(rnd, n);
            final BaseMotion base = RandomElasticRobots.carriedBase(rnd);
            final MotorReference motorReference = new MotorReference(UnifiedBodies.of(model));
            final double[][] now = new double[3][ne];
            motorReference.compute(reference, base, now[0], now[1], now[2]);
            final double[][] differenced = differenced(motorReference, reference, ne, t -> constantAcceleration(base, t));
            for (int d = 1; d <= 2; d++)
            {
                worst = Math.max(worst, maxError(differenced[d], now[d]));
                assertClose(differenced[d], now[d], 1e-6, "seed " + seed + ", derivative " + d + " of theta_d");
            }
            final double startS = 1.3 + seed;
            final BaseMotion deck = new BaseMotion();
            ship.at(startS, GRAVITY, deck);
            motorReference.compute(reference, deck, now[0], now[1], now[2]);
            final double[][] alongShip = differenced(motorReference, reference, ne, t ->
            {
                final BaseMotion b = new BaseMotion();
                ship.at(startS + t, GRAVITY, b);
                return b;
            });
            final BaseMotionRates rates = new BaseMotionRates(1e-3, 0.005);
            final BaseMotion block = new BaseMotion();
            for (int i = -300; i <= 0; i++)
            {
                ship.at(startS + i * 1e-3, GRAVITY, block);
                rates.update(block);
            }
            final double[][] estimated = new double[3][ne];
            motorReference.compute(reference, deck, rates, estimated[0], estimated[1], estimated[2]);
            final double[][] atRest = new double[3][ne];
            motorReference.compute(reference, new BaseMotion().atRest(GRAVITY), atRest[0], atRest[1], atRest[2]);
            for (int d = 1; d <= 2; d++)
            {
                worstShip[d - 1] = Math.max(worstShip[d - 1], maxAbsoluteError(alongShip[d], now[d]));
                worstEstimated[d - 1] = Math.max(worstEstimated[d - 1], maxAbsoluteError(alongShip[d], estimated[d]));
                baseShare[d - 1] = Math.max(baseShare[d - 1], maxAbsoluteError(atRest[d], alongShip[d]));
            }
        }
        System.out.printf("motor reference on a base of constant acceleration: derivatives vs 5-point differences of theta_d(t),"
            + " max relative error %.2e; on a ship's deck (roll 10 deg at 0.2 Hz, pitch 3 deg at 0.15 Hz, heave 0.5 m at"
            + " 0.1 Hz) the constant-acceleration assumption's largest error %.2e rad/s in theta_d' and %.2e rad/s^2 in"
            + " theta_d'' (the deck's share of them: up to %.2e rad/s and %.2e rad/s^2); with the rates estimated from 1 ms"
            + " blocks through a 5 ms low-pass %.2e rad/s and %.2e rad/s^2%n", worst, worstShip[0], worstShip[1],
            baseShare[0], baseShare[1], worstEstimated[0], worstEstimated[1]);
        assertTrue(worstEstimated[0] < worstShip[0] / 5.0, "the estimated rates improve theta_d' on the deck: "
            + worstEstimated[0] + " rad/s, constant acceleration " + worstShip[0] + " rad/s");
    }

    /** The base at time t of a motion with constant angular acceleration (base frame) and world acceleration. */
    private static BaseMotion constantAcceleration(final BaseMotion start, final double t)
    {
        // dQ/dt = Q [omega(t)]x from Q(0) = 1 by 200 RK4 steps; f(t) = Q^T f(0)
        final double[] rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1};
        final int steps = 200;
        final double h = t / steps;
        for (int s = 0; s < steps; s++)
        {
            final double t0 = s * h;
            final double[] k1 = rotationRate(rotation, start, t0);
            final double[] k2 = rotationRate(added(rotation, k1, h / 2), start, t0 + h / 2);
            final double[] k3 = rotationRate(added(rotation, k2, h / 2), start, t0 + h / 2);
            final double[] k4 = rotationRate(added(rotation, k3, h), start, t0 + h);
            for (int i = 0; i < 9; i++)
            {
                rotation[i] += h / 6 * (k1[i] + 2 * k2[i] + 2 * k3[i] + k4[i]);
            }
        }
        final double[] f = new double[3];
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                f[r] += rotation[3 * c + r] * start.specificForce(c);
            }
        }
        return new BaseMotion().angularVelocity(start.angularVelocity(0) + t * start.angularAcceleration(0),
            start.angularVelocity(1) + t * start.angularAcceleration(1), start.angularVelocity(2) + t * start.angularAcceleration(2))
            .angularAcceleration(start.angularAcceleration(0), start.angularAcceleration(1), start.angularAcceleration(2))
            .specificForce(f[0], f[1], f[2]);
    }

    private static double[] rotationRate(final double[] rotation, final BaseMotion start, final double t)
    {
        final double[] w = new double[3];
        for (int k = 0; k < 3; k++)
        {
            w[k] = start.angularVelocity(k) + t * start.angularAcceleration(k);
        }
        final double[] skew = {0, -w[2], w[1], w[2], 0, -w[0], -w[1], w[0], 0};
        final double[] rate = new double[9];
        for (int r = 0; r < 3; r++)
        {
            for (int c = 0; c < 3; c++)
            {
                for (int k = 0; k < 3; k++)
                {
                    rate[3 * r + c] += rotation[3 * r + k] * skew[3 * k + c];
                }
            }
        }
        return rate;
    }

    private static double[] added(final double[] x, final double[] rate, final double h)
    {
        final double[] out = new double[9];
        for (int i = 0; i < 9; i++)
        {
            out[i] = x[i] + h * rate[i];
        }
        return out;
    }

    /** theta_d's first and second derivatives at t = 0 by 5-point central differences, step 1e-3 s. */
    private static double[][] differenced(final MotorReference motorReference, final double[][] reference, final int ne,
        final java.util.function.DoubleFunction<BaseMotion> baseAt)
    {
        final double step = 1e-3;
        final double[][] samples = new double[5][ne];
        final double[] unused = new double[ne];
        final double[] unused2 = new double[ne];
        for (int i = 0; i < 5; i++)
        {
            final double t = (i - 2) * step;
            motorReference.compute(MotorReferenceTest.reference(reference, t), baseAt.apply(t), samples[i], unused, unused2);
        }
        final double[][] out = new double[3][ne];
        for (int e = 0; e < ne; e++)
        {
            out[1][e] = (samples[0][e] - 8 * samples[1][e] + 8 * samples[3][e] - samples[4][e]) / (12 * step);
            out[2][e] = (-samples[0][e] + 16 * samples[1][e] - 30 * samples[2][e] + 16 * samples[3][e] - samples[4][e])
                / (12 * step * step);
        }
        return out;
    }

    /**
     * The elastic arm on a base accelerating at a constant a, springs starting at rest under g - a,
     * moves exactly as on a fixed base under gravity g - a (1e-12 after 0.5 s of commanded motion).
     */
    @Test
    void simulatedElasticArmOnAConstantlyAcceleratingBaseMovesAsUnderGravityMinusTheAcceleration()
    {
        for (long seed = 1; seed <= 6; seed++)
        {
            final ElasticRobotModel model = RandomElasticRobots.robot(seed, seed % 2 == 0);
            final UnifiedBodies bodies = UnifiedBodies.of(model);
            final int n = model.dof();
            final int ne = model.elasticCount();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] a = RandomRobots.vector(rnd, 3, 3.0);
            final double[] equivalent = {GRAVITY[0] - a[0], GRAVITY[1] - a[1], GRAVITY[2] - a[2]};
            final BaseMotionProfile accelerating =
                (timeS, gravity, out) -> out.atRest(gravity).worldAcceleration(a[0], a[1], a[2], gravity);
            final MixedArmSimulator carried = new MixedArmSimulator(bodies, 1_000_000L, 2);
            carried.baseMotion(accelerating);
            final MixedArmSimulator underGravity = new MixedArmSimulator(bodies, 1_000_000L, 2);
            underGravity.gravity(equivalent[0], equivalent[1], equivalent[2]);
            final double[] q = RandomRobots.vector(rnd, n, 1.0);
            final double[] rest = RestingMotorPositions.compute(bodies, q, equivalent);
            carried.reset(q, rest, new double[n], new double[ne]);
            underGravity.reset(q, rest, new double[n], new double[ne]);
            final double[] command = RandomRobots.vector(rnd, n, 2.0);
            carried.command(command);
            underGravity.command(command);
            for (int t = 0; t < 500; t++)
            {
                assertEquals(underGravity.step(), carried.step(), "seed " + seed + " step " + t);
            }
            final double[][] states = {new double[n], new double[n], new double[ne], new double[ne]};
            final double[][] expected = {new double[n], new double[n], new double[ne], new double[ne]};
            carried.positions(states[0]);
            carried.velocities(states[1]);
            carried.motorPositions(states[2]);
            carried.motorVelocities(states[3]);
            underGravity.positions(expected[0]);
            underGravity.velocities(expected[1]);
            underGravity.motorPositions(expected[2]);
            underGravity.motorVelocities(expected[3]);
            for (int i = 0; i < 4; i++)
            {
                assertClose(expected[i], states[i], 1e-12, "seed " + seed + " state part " + i);
            }
            final BaseMotion published = new BaseMotion();
            carried.baseMotionAt(0.5, published);
            assertEquals(-equivalent[2], published.specificForce(2), 1e-12, "the IMU reads f = a - g");
        }
    }

    private static double maxError(final double[] expected, final double[] actual)
    {
        double worst = 0.0;
        for (int k = 0; k < expected.length; k++)
        {
            worst = Math.max(worst, Math.abs(expected[k] - actual[k]) / Math.max(1.0, Math.abs(expected[k])));
        }
        return worst;
    }

    private static double maxAbsoluteError(final double[] expected, final double[] actual)
    {
        double worst = 0.0;
        for (int k = 0; k < expected.length; k++)
        {
            worst = Math.max(worst, Math.abs(expected[k] - actual[k]));
        }
        return worst;
    }

    private static void assertClose(final double[] expected, final double[] actual, final double relative, final String context)
    {
        for (int k = 0; k < expected.length; k++)
        {
            assertEquals(expected[k], actual[k], relative * Math.max(1.0, Math.abs(expected[k])), context + ", entry " + k);
        }
    }
}
