package org.nectl.core.simulation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.elastic.MixedMassMatrix;
import org.nectl.core.elastic.SpringTorques;
import org.nectl.core.elastic.UnifiedBodies;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.UndampedElasticRobots;
import org.nectl.core.testing.RandomRobots;

class MixedArmSimulatorTest
{
    private static final long PERIOD_NS = 1_000_000L;


    private static MixedArmSimulator free(final ElasticRobotModel model, final int substeps, final long seed)
    {
        final MixedArmSimulator simulator = new MixedArmSimulator(UnifiedBodies.of(model), PERIOD_NS, substeps);
        simulator.gravity(0.0, 0.0, 0.0);
        simulator.friction(false);
        final SplittableRandom rnd = new SplittableRandom(seed);
        final int n = model.dof();
        final int ne = model.elasticCount();
        simulator.reset(RandomRobots.vector(rnd, n, 1.0), RandomRobots.vector(rnd, ne, 1.0), RandomRobots.vector(rnd, n, 1.0),
            RandomRobots.vector(rnd, ne, 1.0));
        simulator.command(new double[n]);
        return simulator;
    }

    /** Kinetic energy 1/2 x'^T A(q) x' plus spring energy, J. */
    private static double energy(final ElasticRobotModel model, final MixedArmSimulator simulator)
    {
        final int n = model.dof();
        final int ne = model.elasticCount();
        final int size = n + ne;
        final double[] q = new double[n];
        final double[] theta = new double[ne];
        final double[] v = new double[size];
        simulator.positions(q);
        simulator.motorPositions(theta);
        final double[] qd = new double[n];
        final double[] thetad = new double[ne];
        simulator.velocities(qd);
        simulator.motorVelocities(thetad);
        System.arraycopy(qd, 0, v, 0, n);
        System.arraycopy(thetad, 0, v, n, ne);
        final double[] a = new double[size * size];
        new MixedMassMatrix(UnifiedBodies.of(model)).compute(q, a);
        double kinetic = 0.0;
        for (int i = 0; i < size; i++)
        {
            for (int j = 0; j < size; j++)
            {
                kinetic += 0.5 * v[i] * a[i * size + j] * v[j];
            }
        }
        return kinetic + new SpringTorques(model).potentialEnergyJoules(q, theta);
    }

    /**
     * Without gravity, friction, dampers and torque the energy is conserved; RK4's error over a fixed
     * time shrinks as h^4, so the drift over 0.2 s falls about 16-fold when the substeps double.
     */
    @Test
    void energyIsConservedToTheIntegratorsFourthOrderOnRandomMixedRobots()
    {
        double worstRatio = Double.POSITIVE_INFINITY;
        double worstDrift = 0.0;
        for (long seed = 1; seed <= 12; seed++)
        {
            final ElasticRobotModel model = UndampedElasticRobots.robot(seed, seed % 2 == 0);
            final double[] drift = new double[2];
            for (int r = 0; r < 2; r++)
            {
                final MixedArmSimulator simulator = free(model, 8 << r, seed);
                final double start = energy(model, simulator);
                for (int t = 0; t < 200; t++)
                {
                    assertEquals(ArmSimulator.STEP_OK, simulator.step(), "seed " + seed);
                }
                drift[r] = Math.abs(energy(model, simulator) - start) / Math.max(1.0, start);
            }
            assertTrue(drift[0] <= 1e-8, "seed " + seed + ": relative energy drift " + drift[0]);
            worstDrift = Math.max(worstDrift, drift[0]);
            if (drift[0] > 1e-11)
            {
                assertTrue(drift[0] / drift[1] >= 8.0, "seed " + seed + ": drift " + drift[0] + " then " + drift[1]);
                worstRatio = Math.min(worstRatio, drift[0] / drift[1]);
            }
        }
        System.out.printf("mixed simulator: max relative energy drift over 0.2 s at 8 substeps %.3e, smallest drift ratio "
            + "8 -> 16 substeps %.1f%n", worstDrift, worstRatio);
    }

    @Test
    void sameInputsGiveBitIdenticalStates()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(5, false);
        final double[][] end = new double[2][];
        for (int r = 0; r < 2; r++)
        {
            final MixedArmSimulator simulator = free(model, 4, 5);
            simulator.friction(true);
            simulator.gravity(0.0, 0.0, -9.81);
            simulator.baseFrameLoad(model.links().bodyCount() - 1, new double[] {0.1, 0.0, 0.0}, new double[] {0.0, 0.0, -3.0});
            for (int t = 0; t < 100; t++)
            {
                simulator.step();
            }
            end[r] = new double[model.dof()];
            simulator.positions(end[r]);
            assertEquals(100 * PERIOD_NS, simulator.timeNs());
        }
        assertArrayEquals(end[0], end[1], 0.0);
    }

    @Test
    void stepAllocatesNothing()
    {
        final ElasticRobotModel model = UndampedElasticRobots.robot(9, false);
        final MixedArmSimulator simulator = free(model, 1, 9);
        simulator.baseFrameLoad(0, new double[] {0.1, 0.0, 0.0}, new double[] {0.0, 0.0, -3.0});
        assertEquals(0L, AllocationMeter.bytesAllocated(simulator::step, 5_000, 5_000), "seed 9");
    }
}
