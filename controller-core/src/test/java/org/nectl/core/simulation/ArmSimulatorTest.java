package org.nectl.core.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointActuation;
import org.nectl.core.model.JointType;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class ArmSimulatorTest
{
    private static final long MILLISECOND_NS = 1_000_000L;

    /**
     * Without torque and friction the mechanical energy (an oracle independent of the forward
     * dynamics, from body poses and velocities) is conserved; classical RK4 has a global error
     * O(h^4), so halving the substep must divide the drift by about 16. Measured on these seeds
     * over 2 s with a 10 ms period: ratios 15.5-17.7, drift at h = 2.5 ms at most 2.4e-6 J.
     */
    @Test
    void energyDriftWithoutTorqueOrFrictionIsSmallAndShrinksAsTheFourthPowerOfTheSubstep()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, 7, seed % 2 == 0, RandomRobots.Joints.MOVABLE, true);
            final double[] drift = new double[3];
            for (int level = 0; level < drift.length; level++)
            {
                drift[level] = maxEnergyDrift(model, seed, 1 << level);
            }
            for (int level = 1; level < drift.length; level++)
            {
                final double ratio = drift[level - 1] / drift[level];
                assertTrue(ratio > 12.0 && ratio < 21.0,
                    "seed " + seed + ": drift ratio " + ratio + " for substeps " + (1 << (level - 1)) + " -> " + (1 << level));
            }
            assertTrue(drift[2] < 1e-5, "seed " + seed + ": energy drift " + drift[2] + " J at h = 2.5 ms");
        }
    }

    /**
     * tau = ID(q, qd, qdd*) applied to the simulator must give back qdd*: at the instant (forward
     * dynamics inverts the same joint model, friction and rotor inertia included, to rounding:
     * 1e-9 rad/s^2) and as the velocity change over a period, which is qdd* + O(T); Richardson
     * extrapolation of periods T = 1 ms and T/2 cancels the O(T) term, leaving O(T^2): measured
     * at most 2.9e-5 rad/s^2 on these seeds (3.9e-2 before extrapolation), tolerance 1e-4.
     */
    @Test
    void torqueFromInverseDynamicsProducesTheDesiredAcceleration()
    {
        for (long seed = 10; seed < 20; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final int dof = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] q = RandomRobots.vector(rnd, dof, Math.PI);
            final double[] qd = awayFromZero(rnd, dof);
            final double[] qddDesired = RandomRobots.vector(rnd, dof, 3.0);
            final double[] tau = new double[dof];
            new InverseDynamics(CompiledModel.of(model)).compute(q, qd, qddDesired, tau);

            final ArmSimulator simulator = new ArmSimulator(model, MILLISECOND_NS, 4);
            simulator.reset(q, qd);
            simulator.torque(tau);
            final double[] qdd = new double[dof];
            assertTrue(simulator.accelerations(qdd), "seed " + seed);
            assertArrayEquals(qddDesired, qdd, 1e-9, "seed " + seed + ": instantaneous acceleration");

            final double[] full = velocityChangeRate(model, q, qd, tau, MILLISECOND_NS);
            final double[] half = velocityChangeRate(model, q, qd, tau, MILLISECOND_NS / 2);
            for (int k = 0; k < dof; k++)
            {
                final double extrapolated = 2.0 * half[k] - full[k];
                assertEquals(qddDesired[k], extrapolated, 1e-4,
                    "seed " + seed + ", joint " + k + ": acceleration measured over one period");
            }
        }
    }

    /**
     * A single prismatic joint along the base z axis falls with the constant acceleration
     * -m g / (m + Ia) (rotor inertia Ia); q is quadratic in time, which RK4 integrates exactly,
     * so after 100 periods q and qd match the closed form to rounding.
     */
    @Test
    void prismaticJointFallsWithTheClosedFormTrajectory()
    {
        final double mass = 2.0;
        final double rotorInertia = 0.5;
        final RobotModel.Builder builder = RobotModel.builder("slider");
        final int body = builder.addBody("carriage", "slide", -1, JointType.PRISMATIC, Transforms.identity(),
            new double[] {0.0, 0.0, 0.0}, InertialParameters.ofCentreOfMass(mass, new double[] {0.1, 0.0, 0.0},
                new double[] {0.01, 0.0, 0.0, 0.0, 0.01, 0.0, 0.0, 0.0, 0.01}));
        builder.actuation(body, new JointActuation(rotorInertia, 0.0, 0.0));
        final ArmSimulator simulator = new ArmSimulator(builder.build(), MILLISECOND_NS, 1);
        simulator.reset(new double[] {0.3}, new double[] {1.5});
        for (int i = 0; i < 100; i++)
        {
            assertEquals(ArmSimulator.STEP_OK, simulator.step());
        }
        final double t = 0.1;
        final double a = -mass * 9.81 / (mass + rotorInertia);
        final double[] state = new double[1];
        simulator.positions(state);
        assertEquals(0.3 + 1.5 * t + 0.5 * a * t * t, state[0], 1e-12);
        simulator.velocities(state);
        assertEquals(1.5 + a * t, state[0], 1e-12);
        assertEquals(100_000_000L, simulator.timeNs());
    }

    @Test
    void sameInputsGiveBitIdenticalStates()
    {
        final long seed = 31;
        final RobotModel model = RandomRobots.any(seed);
        final double[][] first = closedLoopRun(model, seed);
        final double[][] second = closedLoopRun(model, seed);
        for (int k = 0; k < model.dof(); k++)
        {
            assertEquals(Double.doubleToRawLongBits(first[0][k]), Double.doubleToRawLongBits(second[0][k]), "seed " + seed);
            assertEquals(Double.doubleToRawLongBits(first[1][k]), Double.doubleToRawLongBits(second[1][k]), "seed " + seed);
        }
    }

    @Test
    void nonFiniteTorqueIsRefusedWithACodeAndLeavesTheStateUnchanged()
    {
        final RobotModel model = RandomRobots.robot(5, 3, false, RandomRobots.Joints.REVOLUTE, false);
        final ArmSimulator simulator = new ArmSimulator(model, MILLISECOND_NS, 2);
        final double[] q0 = {0.1, 0.2, 0.3};
        simulator.reset(q0, new double[] {1.0, 1.0, 1.0});
        simulator.torque(new double[] {0.0, Double.NaN, 0.0});
        assertEquals(ArmSimulator.STEP_NON_FINITE, simulator.step());
        final double[] q = new double[3];
        simulator.positions(q);
        assertArrayEquals(q0, q, 0.0);
        assertEquals(0L, simulator.stepCount());
    }

    @Test
    void brakedStepHoldsThePositionStopsTheJointsAndAdvancesTime()
    {
        final RobotModel model = RandomRobots.robot(6, 3, false, RandomRobots.Joints.REVOLUTE, false);
        final ArmSimulator simulator = new ArmSimulator(model, MILLISECOND_NS, 2);
        final double[] q0 = {0.1, -0.2, 0.3};
        simulator.reset(q0, new double[] {1.0, -1.0, 2.0});
        simulator.stepBraked();
        final double[] state = new double[3];
        simulator.positions(state);
        assertArrayEquals(q0, state, 0.0);
        simulator.velocities(state);
        assertArrayEquals(new double[3], state, 0.0);
        assertEquals(MILLISECOND_NS, simulator.timeNs());
    }

    @Test
    void stepAllocatesNothing()
    {
        final long seed = 3;
        final RobotModel model = RandomRobots.robot(seed, 7, false, RandomRobots.Joints.REVOLUTE, true);
        final ArmSimulator simulator = new ArmSimulator(model, MILLISECOND_NS, 2);
        final double[] tau = RandomRobots.vector(new SplittableRandom(seed), model.dof(), 1.0);
        final double[] q = new double[model.dof()];
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            simulator.torque(tau);
            simulator.step();
            simulator.positions(q);
            if (simulator.stepCount() % 1000 == 0)
            {
                simulator.reset(tau, tau);
            }
        }, 10_000, 20_000);
        assertEquals(0L, bytes, "seed " + seed + ": bytes allocated over 20000 steps");
    }

    /** Largest |E(t) - E(0)| over 2 s (200 periods of 10 ms) from a random state, zero torque, no friction. */
    private static double maxEnergyDrift(final RobotModel model, final long seed, final int substeps)
    {
        final SplittableRandom rnd = new SplittableRandom(seed);
        final ArmSimulator simulator = new ArmSimulator(model, 10 * MILLISECOND_NS, substeps);
        simulator.jointFriction(false);
        simulator.reset(RandomRobots.vector(rnd, model.dof(), Math.PI), RandomRobots.vector(rnd, model.dof(), 1.0));
        final MechanicalEnergy energy = new MechanicalEnergy(model);
        final double[] q = new double[model.dof()];
        final double[] qd = new double[model.dof()];
        simulator.positions(q);
        simulator.velocities(qd);
        final double initial = energy.kineticEnergyJoules(q, qd) + energy.potentialEnergyJoules(q);
        double drift = 0.0;
        for (int i = 0; i < 200; i++)
        {
            assertEquals(ArmSimulator.STEP_OK, simulator.step(), "seed " + seed);
            simulator.positions(q);
            simulator.velocities(qd);
            drift = Math.max(drift, Math.abs(energy.kineticEnergyJoules(q, qd) + energy.potentialEnergyJoules(q) - initial));
        }
        return drift;
    }

    /** (qd(T) - qd(0)) / T under constant tau, with 4 substeps. */
    private static double[] velocityChangeRate(
        final RobotModel model, final double[] q, final double[] qd, final double[] tau, final long periodNs)
    {
        final ArmSimulator simulator = new ArmSimulator(model, periodNs, 4);
        simulator.reset(q, qd);
        simulator.torque(tau);
        simulator.step();
        final double[] rate = new double[model.dof()];
        simulator.velocities(rate);
        for (int k = 0; k < rate.length; k++)
        {
            rate[k] = (rate[k] - qd[k]) / (periodNs * 1e-9);
        }
        return rate;
    }

    /** |qd| in [0.2, 2): away from zero, where Coulomb friction is smooth over a short motion. */
    private static double[] awayFromZero(final SplittableRandom rnd, final int dof)
    {
        final double[] qd = new double[dof];
        for (int k = 0; k < dof; k++)
        {
            qd[k] = rnd.nextDouble(0.2, 2.0) * (rnd.nextBoolean() ? 1.0 : -1.0);
        }
        return qd;
    }

    /** 500 periods of a PD law towards a random target; returns the final q and qd. */
    private static double[][] closedLoopRun(final RobotModel model, final long seed)
    {
        final int dof = model.dof();
        final SplittableRandom rnd = new SplittableRandom(seed);
        final double[] target = RandomRobots.vector(rnd, dof, 1.0);
        final ArmSimulator simulator = new ArmSimulator(model, MILLISECOND_NS, 3);
        final double[] q = new double[dof];
        final double[] qd = new double[dof];
        final double[] tau = new double[dof];
        for (int i = 0; i < 500; i++)
        {
            simulator.positions(q);
            simulator.velocities(qd);
            for (int k = 0; k < dof; k++)
            {
                tau[k] = 50.0 * (target[k] - q[k]) - 5.0 * qd[k];
            }
            simulator.torque(tau);
            simulator.step();
        }
        return new double[][] {q, qd};
    }
}
