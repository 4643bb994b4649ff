package org.nectl.core.parallel;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.ClosedLoopSimulator;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.elastic.ElasticRobotModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.ControlCycle;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.ControllerMode;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.MixedLawSettings;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.core.testing.AllocationMeter;

/**
 * The control cycle on the hexapod in leg lengths: the laws on the platform's own inverse dynamic
 * model, which the closed chain carries ({@link GoughStewartLawDynamics}, equal to the projection
 * Gamma_c = G^T Gamma_tree to 1e-10), the plant the same closed chain integrated by coordinate
 * partitioning (RK4, 4 substeps per 1 ms period, the passive joints re-solved by Newton at every
 * stage).
 */
class GoughStewartControlCycleTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final int SUBSTEPS = 4;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();

    @Test
    void computedTorqueTracksLegLengthsOnTheClosedChainAndAllocatesNothingPerTick()
    {
        final ClosedLoopModel chain = GoughStewartClosedChain.of(Hexapods.hexapod(1.0));
        final Loop loop = new Loop(chain);
        loop.run(200);
        assertEquals(ControllerMode.ENABLED, loop.cycle.mode());
        final double[] home = chain.homeActive();
        final double[][] positions = new double[3][6];
        for (int leg = 0; leg < 6; leg++)
        {
            positions[0][leg] = home[leg];
            positions[1][leg] = home[leg] + (leg % 2 == 0 ? 0.04 : -0.03);
            positions[2][leg] = home[leg];
        }
        final TrajectorySampler sampler = new TrajectorySampler(loop.active, new JointWaypoints(new double[] {0, 0.6, 1.2}, positions));
        final long startNs = CPU.getCurrentThreadCpuTime();
        assertEquals(ControlCycle.ACCEPTED, loop.cycle.startTrajectory(sampler));
        final long startTrajectoryNs = CPU.getCurrentThreadCpuTime() - startNs;
        double worst = 0.0;
        long tickNs = 0;
        for (int tick = 0; tick < 1300; tick++)
        {
            tickNs += loop.step();
            for (int leg = 0; leg < 6; leg++)
            {
                worst = Math.max(worst, Math.abs(loop.cycle.trackingError()[leg]));
            }
        }
        assertEquals(ControllerMode.ENABLED, loop.cycle.mode(), "faults " + loop.cycle.faults());
        assertEquals(1, loop.cycle.completedTrajectories());
        double rms = 0.0;
        for (int leg = 0; leg < 6; leg++)
        {
            rms = Math.max(rms, loop.cycle.trackingRms(leg));
        }
        System.out.println("hexapod closed chain, computed torque in leg lengths: worst leg RMS error " + rms
            + " m, largest |error| " + worst + " m, closure residual " + loop.plant.closureResidual() + " m; startTrajectory "
            + startTrajectoryNs / 1000 + " us, mean tick " + tickNs / 1300 / 1000.0 + " us (thread CPU time)");
        assertTrue(rms < 1e-5, "RMS " + rms);
        assertTrue(loop.plant.closureResidual() <= LoopGeometry.TOLERANCE, "closure " + loop.plant.closureResidual());
        // The same trajectory again, the code now compiled: CPU costs for the docs, not asserted.
        final long againNs = CPU.getCurrentThreadCpuTime();
        assertEquals(ControlCycle.ACCEPTED, loop.cycle.startTrajectory(sampler));
        final long startAgainNs = CPU.getCurrentThreadCpuTime() - againNs;
        long tickAgainNs = 0;
        for (int tick = 0; tick < 1300; tick++)
        {
            tickAgainNs += loop.step();
        }
        assertEquals(2, loop.cycle.completedTrajectories());
        System.out.println("hexapod closed chain, second run: startTrajectory " + startAgainNs / 1000 + " us, mean tick "
            + tickAgainNs / 1300 / 1000.0 + " us (thread CPU time)");
        final long bytes = AllocationMeter.bytesAllocated(loop::step, 500, 200);
        assertEquals(0, bytes, "bytes allocated per 200 ticks and plant periods");
        assertEquals(ControlCycle.REJECTED_LAW, loop.cycle.changeModel(loop.cycle.prepareModel(loop.active), PERIOD_NS),
            "no payload change on projected dynamics");
    }

    /** The cycle and the plant in lockstep, enabled under computed torque at home. */
    private static final class Loop
    {
        final RobotModel active;
        final ControlCycle cycle;
        final ClosedLoopSimulator plant;
        final double[] torque;
        long timeNs;

        Loop(final ClosedLoopModel chain)
        {
            active = ActiveJoints.of(chain);
            final int n = active.dof();
            cycle = new ControlCycle(active, CycleSettings.defaults(n, PERIOD_NS), SafetySettings.defaults(n),
                ReferenceTimeScaling.Settings.defaults(), MixedLawSettings.defaults(ElasticRobotModel.rigid(active)),
                ReferenceBlend.Settings.defaults(CompiledModel.of(active), PERIOD_NS), CollisionSettings.defaults(n), chain);
            plant = new ClosedLoopSimulator(chain);
            torque = new double[n];
            measure();
            cycle.tick(0, true, 0, false);
            assertEquals(ControlCycle.ACCEPTED, cycle.enable(ControlLaw.COMPUTED_TORQUE));
        }

        void run(final int ticks)
        {
            for (int i = 0; i < ticks; i++)
            {
                step();
            }
        }

        /** @return CPU time of the cycle's tick, ns. */
        long step()
        {
            timeNs += PERIOD_NS;
            if (cycle.drivesEnabled())
            {
                System.arraycopy(cycle.tauCommand(), 0, torque, 0, torque.length);
                for (int s = 0; s < SUBSTEPS; s++)
                {
                    assertEquals(ClosedLoopSimulator.OK, plant.step(PERIOD_NS * 1e-9 / SUBSTEPS, torque));
                }
            }
            measure();
            final long startNs = CPU.getCurrentThreadCpuTime();
            cycle.tick(timeNs, true, 0, false);
            return CPU.getCurrentThreadCpuTime() - startNs;
        }

        private void measure()
        {
            final double[] q = plant.treePositions();
            for (int a = 0; a < active.dof(); a++)
            {
                cycle.measuredQ()[a] = q[3 * a + 2];
                cycle.measuredQd()[a] = plant.activeVelocities()[a];
            }
        }
    }
}
