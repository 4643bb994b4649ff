package org.nectl.core.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

/**
 * The momentum observer against nectl's own plant ({@code ArmSimulator}, RK4, friction on) on seeded
 * random 7-joint chains under computed torque: a known wrench on the last link is estimated as J^T F
 * (from inverse dynamics with and without the wrench, an independent route) with the time constant
 * 1/K_O, and free motion gives an estimate near zero.
 */
final class ExternalTorqueObserverTest
{
    private static final double PERIOD_S = 1e-3;
    private static final long PERIOD_NS = 1_000_000L;
    private static final double GAIN = 50.0;
    private static final int DOF = 7;

    @Test
    void estimateConvergesToTheJointTorquesOfAWrenchOnTheLastLinkWithTimeConstantOneOverTheGain()
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.REVOLUTE, true);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] pose = RandomRobots.vector(rnd, DOF, 1.0);
            final double[] wrench = RandomRobots.vector(rnd, 6, 10.0);
            final Loop loop = new Loop(model, pose, false);
            loop.run(pose, 300);
            final int body = model.bodyCount() - 1;
            loop.plant.externalWrench(body, wrench);
            final double[] expectedFirst = jointTorquesOf(model, loop.plant.q(), body, wrench);
            final int joint = largest(expectedFirst);
            int reachedTick = -1;
            for (int tick = 1; tick <= 400; tick++)
            {
                loop.run(pose, 1);
                if (reachedTick < 0 && loop.observer.externalTorque()[joint] / expectedFirst[joint] >= 1.0 - Math.exp(-1.0))
                {
                    reachedTick = tick;
                }
            }
            final double[] expected = jointTorquesOf(model, loop.plant.q(), body, wrench);
            final double scale = Math.abs(expected[largest(expected)]);
            final double[] estimate = loop.observer.externalTorque();
            double worst = 0.0;
            for (int j = 0; j < DOF; j++)
            {
                worst = Math.max(worst, Math.abs(estimate[j] - expected[j]) / scale);
            }
            final double measuredTauS = reachedTick * PERIOD_S;
            System.out.printf("seed %d: |J^T F| max %.3f N m, estimate error %.2e of it after 0.4 s; time constant %.1f ms"
                + " (discrete %.2f ms, 1/K_O %.1f ms)%n", seed, scale, worst, measuredTauS * 1e3,
                loop.observer.timeConstantS(joint) * 1e3, 1e3 / GAIN);
            final long s = seed;
            final double w = worst;
            assertTrue(worst <= 0.02, () -> "seed " + s + ": estimate off J^T F by " + w + " of its largest entry");
            assertEquals(1.0 / GAIN, measuredTauS, 1.5e-3, "seed " + seed + ": time constant");
        }
    }

    @Test
    void freeMotionOnRandomTrajectoriesLeavesTheEstimateNearZero()
    {
        for (final boolean friction : new boolean[] {false, true})
        {
            freeMotion(friction);
        }
    }

    /**
     * Without friction the estimate stays within 2e-5 of the largest torque (the integration error of
     * the plant and of the observer's trapezoid). With Coulomb friction each joint's estimate stays
     * within its Fs plus that: where a joint rests or reverses, the plant's friction takes any value in
     * [-Fs, Fs] (RK4 substeps through sign(qd)) and no observer can tell it from an external torque.
     */
    private static void freeMotion(final boolean friction)
    {
        for (long seed = 1; seed <= 4; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, DOF, false, RandomRobots.Joints.REVOLUTE, true);
            final TrajectorySampler trajectory = ControlFixtures.randomTrajectory(model, seed, 2.0);
            final double[] q = new double[DOF];
            final double[] scratch = new double[DOF];
            trajectory.sample(trajectory.startTimeS(), q, scratch, scratch, scratch, scratch);
            final Loop loop = new Loop(model, q, friction);
            final double[] largestEstimate = new double[DOF];
            double largestTorque = 0.0;
            for (int tick = 0; tick < 2000; tick++)
            {
                loop.follow(trajectory, tick * PERIOD_S);
                for (int j = 0; j < DOF; j++)
                {
                    largestEstimate[j] = Math.max(largestEstimate[j], Math.abs(loop.observer.externalTorque()[j]));
                    largestTorque = Math.max(largestTorque, Math.abs(loop.tau[j]));
                }
            }
            assertTrue(loop.plant.solvable(), "seed " + seed);
            double worst = 0.0;
            double worstOfCoulomb = 0.0;
            final String ofCoulomb;
            for (int j = 0; j < DOF; j++)
            {
                final double coulomb = friction ? model.actuation(j).coulombFriction() : 0.0;
                worst = Math.max(worst, largestEstimate[j]);
                worstOfCoulomb = Math.max(worstOfCoulomb, largestEstimate[j] / model.actuation(j).coulombFriction());
                final double bound = coulomb + 2e-5 * largestTorque;
                final double r = largestEstimate[j];
                final long s = seed;
                final int joint = j;
                assertTrue(r <= bound, () -> "seed " + s + ", friction " + friction + ": |r| of joint " + joint
                    + " reached " + r + " N m in free motion, bound " + bound);
            }
            ofCoulomb = friction ? String.format(" (%.3f of the joint's Fs)", worstOfCoulomb) : "";
            System.out.printf("seed %d: free motion, friction %s, largest |r| %.2e N m%s, largest |tau| %.1f N m%n",
                seed, friction, worst, ofCoulomb, largestTorque);
        }
    }

    @Test
    void updateAllocatesNothing()
    {
        final RobotModel model = RandomRobots.robot(3, DOF, false, RandomRobots.Joints.REVOLUTE, true);
        final ExternalTorqueObserver observer = new ExternalTorqueObserver(CompiledModel.of(model), gains(), PERIOD_NS, true);
        final SplittableRandom rnd = new SplittableRandom(3);
        final double[] q = RandomRobots.vector(rnd, DOF, 1.0);
        final double[] qd = RandomRobots.vector(rnd, DOF, 1.0);
        final double[] tau = RandomRobots.vector(rnd, DOF, 10.0);
        final long bytes = AllocationMeter.bytesAllocated(() -> observer.update(q, qd, tau), 20_000, 100_000);
        assertEquals(0L, bytes, "seed 3: bytes allocated over 100000 updates");
    }

    @Test
    void aGainAtOrAboveTheSampleRateIsRefused()
    {
        final RobotModel model = RandomRobots.robot(3, DOF, false, RandomRobots.Joints.REVOLUTE, true);
        final double[] gains = gains();
        gains[2] = 1000.0;
        final IllegalArgumentException refused = org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> new ExternalTorqueObserver(CompiledModel.of(model), gains, PERIOD_NS, true));
        assertEquals("observer gain of joint 2 is 1000.0 1/s; it must be > 0 and below 1/period = 1000.0 1/s",
            refused.getMessage());
    }

    private static double[] gains()
    {
        final double[] gains = new double[DOF];
        Arrays.fill(gains, GAIN);
        return gains;
    }

    /** J^T F = tau(no wrench) - tau(wrench): inverse dynamics subtracts the environment's wrench. */
    static double[] jointTorquesOf(final RobotModel model, final double[] q, final int body, final double[] wrench)
    {
        final int n = model.dof();
        final CompiledModel compiled = CompiledModel.of(model);
        final InverseDynamics rnea = new InverseDynamics(compiled);
        final AppliedLoads loads = new AppliedLoads(compiled);
        final double[] zero = new double[n];
        final double[] without = new double[n];
        final double[] with = new double[n];
        rnea.compute(q, zero, zero, loads, without);
        loads.bodyWrench(body, wrench[0], wrench[1], wrench[2], wrench[3], wrench[4], wrench[5]);
        rnea.compute(q, zero, zero, loads, with);
        for (int j = 0; j < n; j++)
        {
            without[j] -= with[j];
        }
        return without;
    }

    private static int largest(final double[] values)
    {
        int best = 0;
        for (int j = 1; j < values.length; j++)
        {
            best = Math.abs(values[j]) > Math.abs(values[best]) ? j : best;
        }
        return best;
    }

    /** Computed torque on the plant, the observer fed the torque held over each period. */
    private static final class Loop
    {
        final RigidArmPlant plant;
        final ComputedTorqueController controller;
        final ExternalTorqueObserver observer;
        final double[] tau;
        private final double[] qRef;
        private final double[] qdRef;
        private final double[] qddRef;
        private final double[] qdddRef;
        private final double[] feedforward;
        private final double[] feedforwardRate;

        Loop(final RobotModel model, final double[] start, final boolean friction)
        {
            final int n = model.dof();
            plant = new RigidArmPlant(model, PERIOD_S, 4);
            plant.state(start, new double[n]);
            plant.jointFriction(friction);
            final CompiledModel compiled = CompiledModel.of(model);
            controller = ControlFixtures.controller(compiled, 400.0);
            observer = new ExternalTorqueObserver(compiled, gains(), PERIOD_NS, friction);
            tau = new double[n];
            qRef = new double[n];
            qdRef = new double[n];
            qddRef = new double[n];
            qdddRef = new double[n];
            feedforward = new double[n];
            feedforwardRate = new double[n];
        }

        void run(final double[] pose, final int ticks)
        {
            System.arraycopy(pose, 0, qRef, 0, qRef.length);
            Arrays.fill(qdRef, 0.0);
            Arrays.fill(qddRef, 0.0);
            Arrays.fill(qdddRef, 0.0);
            for (int k = 0; k < ticks; k++)
            {
                tick();
            }
        }

        void follow(final TrajectorySampler trajectory, final double timeS)
        {
            trajectory.sample(Math.min(timeS, trajectory.endTimeS()), qRef, qdRef, qddRef, qdddRef, feedforward);
            tick();
        }

        private void tick()
        {
            observer.update(plant.q(), plant.qd(), tau);
            controller.compute(plant.q(), plant.qd(), qRef, qdRef, qddRef, qdddRef, tau, feedforward, feedforwardRate);
            plant.advance(tau);
        }
    }
}
