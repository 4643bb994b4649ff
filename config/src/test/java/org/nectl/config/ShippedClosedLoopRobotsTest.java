package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;

/** The shipped closed-loop robots load, keep their mechanism's geometric properties and invert their dynamics. */
class ShippedClosedLoopRobotsTest
{
    private static ClosedLoopModel load(final String file)
    {
        return ClosedLoopDescriptions.load(ShippedRobots.directory().resolve(file));
    }

    @Test
    void palletiserKeepsItsParallelogramsAndTheFlangeLevelOverItsWorkspace()
    {
        final ClosedLoopModel model = load("palletiser.yaml");
        assertEquals(10, model.treeDof());
        assertEquals(4, model.activeCount());
        final RobotModel tree = model.tree();
        final int j2 = tree.coordinateIndex("j2");
        final int j3 = tree.coordinateIndex("j3");
        final int elbow = tree.coordinateIndex("elbow");
        final int wrist = tree.coordinateIndex("wrist_joint");
        final LoopGeometry geometry = new LoopGeometry(model);
        final SplittableRandom rnd = new SplittableRandom(18);
        final int[] active = {tree.coordinateIndex("j1"), j2, j3, tree.coordinateIndex("j4")};
        for (int i = 0; i < 30; i++)
        {
            // Targets away from the parallelograms' flat (singular) configurations, reached by small
            // steps from home as a trajectory would: Newton then stays on the assembly branch.
            final double upper = rnd.nextDouble(1.0, 2.2);
            final double[] target = {rnd.nextDouble(-3, 3), upper, upper + Math.PI / 2 + rnd.nextDouble(-0.8, 0.5),
                rnd.nextDouble(-3, 3)};
            final double[] q = model.home();
            final double[] start = model.homeActive();
            for (int step = 1; step <= 20; step++)
            {
                for (int a = 0; a < 4; a++)
                {
                    q[active[a]] = start[a] + (target[a] - start[a]) * step / 20.0;
                }
                assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q), "sample " + i);
            }
            // Drive parallelogram: the forearm's attitude is the crank's turned by pi.
            assertEquals(q[j3] - Math.PI, Math.IEEEremainder(q[j2] + q[elbow], 2 * Math.PI), 1e-10, "sample " + i);
            // Posture parallelograms: the wrist keeps the turret's attitude.
            assertEquals(0.0, Math.IEEEremainder(q[j2] + q[elbow] + q[wrist], 2 * Math.PI), 1e-10, "sample " + i);
        }
    }

    @Test
    void shippedClosedLoopRobotsInvertTheirDynamics()
    {
        for (final String file : new String[] {"four-bar.yaml", "palletiser.yaml"})
        {
            final ClosedLoopModel model = load(file);
            final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
            final SplittableRandom rnd = new SplittableRandom(file.hashCode());
            final int na = model.activeCount();
            final double[] q = model.home();
            final double[] qd = new double[na];
            final double[] qdd = new double[na];
            for (int a = 0; a < na; a++)
            {
                q[model.activeCoordinate(a)] += rnd.nextDouble(-0.3, 0.3);
                qd[a] = rnd.nextDouble(-1, 1);
                qdd[a] = rnd.nextDouble(-3, 3);
            }
            assertEquals(LoopGeometry.CONVERGED, new LoopGeometry(model).solvePassive(q), file);
            final double[] gamma = new double[na];
            final double[] back = new double[na];
            assertTrue(dynamics.inverseDynamics(q, qd, qdd, gamma), file);
            assertTrue(dynamics.forwardDynamics(q, qd, gamma, back), file);
            for (int a = 0; a < na; a++)
            {
                assertEquals(qdd[a], back[a], 1e-9 * (1 + Math.abs(qdd[a])), file + " active " + a);
            }
        }
    }
}
