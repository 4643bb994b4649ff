package org.nectl.core.closedloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.ejml.data.DMatrixRMaj;
import org.ejml.dense.row.CommonOps_DDRM;
import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.MassMatrix;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.core.testing.RandomRobots;

class ClosedLoopDynamicsTest
{
    private static final int ROBOTS = 12;

    @Test
    void projectionAgreesWithTreeDynamicsUnderLagrangeMultipliersOnRandomLoops()
    {
        double worst = 0.0;
        for (int seed = 1; seed <= ROBOTS; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 0);
            final State s = State.random(model, seed);
            final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
            final double[] qdd = new double[model.activeCount()];
            assertTrue(dynamics.forwardDynamics(s.q, s.qdActive, s.gamma, qdd), "seed " + seed);
            final double[] multipliers = lagrangeAccelerations(model, s);
            for (int a = 0; a < model.activeCount(); a++)
            {
                final double expected = multipliers[model.activeCoordinate(a)];
                assertEquals(expected, qdd[a], 1e-9 * (1 + Math.abs(expected)), "seed " + seed + " active " + a);
                worst = Math.max(worst, Math.abs(expected - qdd[a]) / (1 + Math.abs(expected)));
            }
            // The passive accelerations of the multiplier solution are the loop's for these qdd_a.
            final double[] qddTree = new double[model.treeDof()];
            dynamics.geometry().treeAccelerations(dynamics.treeVelocities(), qdd, qddTree);
            for (final int p : model.passiveCoordinates())
            {
                assertEquals(multipliers[p], qddTree[p], 1e-9 * (1 + Math.abs(multipliers[p])), "seed " + seed + " passive " + p);
            }
        }
        System.out.println("closed-loop forward dynamics vs Lagrange multipliers: worst relative difference " + worst);
    }

    @Test
    void forwardDynamicsInvertsInverseDynamicsOnRandomLoops()
    {
        double worst = 0.0;
        for (int seed = 1; seed <= ROBOTS; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 1);
            final State s = State.random(model, seed);
            final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
            final double[] gamma = new double[model.activeCount()];
            final double[] qdd = new double[model.activeCount()];
            assertTrue(dynamics.inverseDynamics(s.q, s.qdActive, s.qddActive, gamma));
            assertTrue(dynamics.forwardDynamics(s.q, s.qdActive, gamma, qdd));
            for (int a = 0; a < qdd.length; a++)
            {
                assertEquals(s.qddActive[a], qdd[a], 1e-9 * (1 + Math.abs(s.qddActive[a])), "seed " + seed);
                worst = Math.max(worst, Math.abs(s.qddActive[a] - qdd[a]) / (1 + Math.abs(s.qddActive[a])));
            }
        }
        System.out.println("closed-loop FD(ID) round trip: worst relative difference " + worst);
    }

    @Test
    void activePowerEqualsTheRateOfMechanicalEnergyOnRandomLoops()
    {
        double worst = 0.0;
        for (int seed = 1; seed <= ROBOTS; seed++)
        {
            final ClosedLoopModel model = RandomClosedLoops.robot(seed, seed % 2 == 0);
            final State s = State.random(model, seed);
            final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
            final double[] gamma = new double[model.activeCount()];
            assertTrue(dynamics.inverseDynamics(s.q, s.qdActive, s.qddActive, gamma));
            double power = 0.0;
            for (int a = 0; a < gamma.length; a++)
            {
                power += gamma[a] * s.qdActive[a];
            }
            final double h = 1e-3;
            final double[] energy = new double[5];
            for (int k = -2; k <= 2; k++)
            {
                energy[k + 2] = energyAlongLoop(model, s, k * h);
            }
            final double rate = (energy[0] - 8 * energy[1] + 8 * energy[3] - energy[4]) / (12 * h);
            assertEquals(rate, power, 1e-8 * (1 + Math.abs(rate)), "seed " + seed);
            worst = Math.max(worst, Math.abs(rate - power) / (1 + Math.abs(rate)));
        }
        System.out.println("closed-loop power balance: worst relative difference " + worst);
    }

    @Test
    void aCompiledModelOfAnotherTreeIsRefused()
    {
        final ClosedLoopModel model = RandomClosedLoops.robot(3, true);
        final ClosedLoopModel other = RandomClosedLoops.robot(4, true);
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
            () -> new ClosedLoopDynamics(model, CompiledModel.of(other.tree())));
        assertTrue(e.getMessage().contains("is not the equivalent tree"), e.getMessage());
    }

    @Test
    void inverseAndForwardDynamicsAllocateNothingPerCall()
    {
        final ClosedLoopModel model = RandomClosedLoops.robot(3, true);
        final State s = State.random(model, 3);
        final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
        final LoopGeometry geometry = new LoopGeometry(model);
        final double[] gamma = new double[model.activeCount()];
        final double[] qdd = new double[model.activeCount()];
        final double[] q = s.q.clone();
        final int passive = model.passiveCoordinates()[0];
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            dynamics.inverseDynamics(s.q, s.qdActive, s.qddActive, gamma);
            dynamics.forwardDynamics(s.q, s.qdActive, gamma, qdd);
            q[passive] += 1e-3;
            geometry.solvePassive(q);
        }, 5_000, 1_000);
        assertEquals(0, bytes, "bytes allocated per 1000 calls");
    }

    /** Tree accelerations from A qdd + h = S^T Gamma_a + J^T lambda, J qdd = -Jdot qd (independent rows). */
    private static double[] lagrangeAccelerations(final ClosedLoopModel model, final State s)
    {
        final int n = model.treeDof();
        final int[] rows = model.selectedRows();
        final int r = rows.length;
        final LoopGeometry geometry = new LoopGeometry(model);
        assertTrue(geometry.update(s.q));
        final double[] qdTree = new double[n];
        geometry.treeVelocities(s.qdActive, qdTree);
        final int m = geometry.candidateRows();
        final double[] e = new double[m];
        final double[] jacobian = new double[m * n];
        final double[] second = new double[m];
        geometry.candidateTerms(s.q, qdTree, new double[n], e, jacobian, second);
        final CompiledModel tree = CompiledModel.of(model.tree());
        final double[] mass = new double[n * n];
        new MassMatrix(tree).compute(s.q, mass);
        final double[] bias = new double[n];
        new InverseDynamics(tree).compute(s.q, qdTree, new double[n], bias);
        final DMatrixRMaj kkt = new DMatrixRMaj(n + r, n + r);
        final DMatrixRMaj rhs = new DMatrixRMaj(n + r, 1);
        for (int i = 0; i < n; i++)
        {
            for (int k = 0; k < n; k++)
            {
                kkt.set(i, k, mass[i * n + k]);
            }
            rhs.set(i, 0, -bias[i]);
        }
        for (int a = 0; a < model.activeCount(); a++)
        {
            rhs.add(model.activeCoordinate(a), 0, s.gamma[a]);
        }
        for (int c = 0; c < r; c++)
        {
            for (int k = 0; k < n; k++)
            {
                kkt.set(k, n + c, -jacobian[rows[c] * n + k]);
                kkt.set(n + c, k, jacobian[rows[c] * n + k]);
            }
            rhs.set(n + c, 0, -second[rows[c]]);
        }
        final DMatrixRMaj solution = new DMatrixRMaj(n + r, 1);
        assertTrue(CommonOps_DDRM.solve(kkt, rhs, solution));
        final double[] qdd = new double[n];
        System.arraycopy(solution.data, 0, qdd, 0, n);
        return qdd;
    }

    /** Kinetic plus potential energy at t along qa(t) = qa0 + qd t + qdd t^2 / 2 with the loops closed. */
    private static double energyAlongLoop(final ClosedLoopModel model, final State s, final double t)
    {
        final LoopGeometry geometry = new LoopGeometry(model);
        final double[] q = s.q.clone();
        final double[] qdActive = new double[model.activeCount()];
        for (int a = 0; a < qdActive.length; a++)
        {
            q[model.activeCoordinate(a)] += s.qdActive[a] * t + 0.5 * s.qddActive[a] * t * t;
            qdActive[a] = s.qdActive[a] + s.qddActive[a] * t;
        }
        assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q));
        final double[] qd = new double[model.treeDof()];
        geometry.treeVelocities(qdActive, qd);
        final MechanicalEnergy energy = new MechanicalEnergy(model.tree());
        return energy.kineticEnergyJoules(q, qd) + energy.potentialEnergyJoules(q);
    }

    /** A random state on the loop: active joints moved from home, passive ones solved. */
    private record State(double[] q, double[] qdActive, double[] qddActive, double[] gamma)
    {
        static State random(final ClosedLoopModel model, final long seed)
        {
            final SplittableRandom rnd = new SplittableRandom(300 + seed);
            final double[] q = model.home();
            for (int a = 0; a < model.activeCount(); a++)
            {
                q[model.activeCoordinate(a)] += rnd.nextDouble(-0.05, 0.05);
            }
            assertEquals(LoopGeometry.CONVERGED, new LoopGeometry(model).solvePassive(q), "seed " + seed);
            return new State(q, RandomRobots.vector(rnd, model.activeCount(), 1.0),
                RandomRobots.vector(rnd, model.activeCount(), 2.0), RandomRobots.vector(rnd, model.activeCount(), 20.0));
        }
    }
}
