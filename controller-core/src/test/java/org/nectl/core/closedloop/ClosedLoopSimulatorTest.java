package org.nectl.core.closedloop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.MechanicalEnergy;
import org.nectl.core.model.InertialParameters;
import org.nectl.core.model.JointType;
import org.nectl.core.model.ModifiedDh;
import org.nectl.core.model.RobotModel;
import org.nectl.core.model.Transforms;
import org.nectl.core.testing.AllocationMeter;

class ClosedLoopSimulatorTest
{
    @Test
    void tenSecondsOfFreeMotionKeepTheLoopsClosedAndTheEnergyConstant()
    {
        // A Grashof crank-rocker driven at the crank has no singular configuration, so it can swing freely
        // for 10 s; random loops falling under gravity reach configurations where their active joints no
        // longer determine the passive ones (seed 5 after 0.36 s), which fixed coordinate partitioning
        // cannot pass.
        for (final double speed : new double[] {0.5, 8.0})
        {
            final ClosedLoopModel model = fourBar();
            final ClosedLoopSimulator simulator = new ClosedLoopSimulator(model);
            final double[] qd = new double[model.activeCount()];
            qd[0] = speed;
            assertEquals(LoopGeometry.CONVERGED, simulator.reset(model.homeActive(), qd));
            final MechanicalEnergy energy = new MechanicalEnergy(model.tree());
            final double start = energy(simulator, energy, model);
            final double[] gamma = new double[model.activeCount()];
            double worstResidual = 0.0;
            double worstDrift = 0.0;
            for (int step = 0; step < 10_000; step++)
            {
                assertEquals(ClosedLoopSimulator.OK, simulator.step(1e-3, gamma), "step " + step);
                if (step % 100 == 99)
                {
                    worstResidual = Math.max(worstResidual, simulator.closureResidual());
                    worstDrift = Math.max(worstDrift, Math.abs(energy(simulator, energy, model) - start));
                }
            }
            assertTrue(worstResidual <= LoopGeometry.TOLERANCE, "closure residual " + worstResidual);
            assertTrue(worstDrift <= 1e-6 * (1 + Math.abs(start)), "energy drift " + worstDrift + " J of " + start);
            System.out.println("closed-chain simulation, 10 s at 1 kHz (" + "four-bar, crank at " + speed + " rad/s"
                + "): closure residual <= " + worstResidual + ", |energy drift| <= " + worstDrift + " J of " + start + " J");
        }
    }

    @Test
    void aStepAllocatesNothing()
    {
        final ClosedLoopModel model = fourBar();
        final ClosedLoopSimulator simulator = new ClosedLoopSimulator(model);
        final double[] gamma = new double[model.activeCount()];
        final long bytes = AllocationMeter.bytesAllocated(() -> simulator.step(1e-4, gamma), 2_000, 500);
        assertEquals(0, bytes, "bytes allocated per 500 steps");
    }

    /**
     * The shipped four-bar's geometry and inertias (config/robots/four-bar.yaml), built here: crank
     * 0.10 m, coupler 0.35 m, rocker 0.30 m, ground 0.40 m, in the base's vertical x-z plane.
     */
    private static ClosedLoopModel fourBar()
    {
        final RobotModel.Builder builder = RobotModel.builder("four-bar");
        final int crank = builder.addBody("crank", "crank", -1, JointType.REVOLUTE, ModifiedDh.placementRotation(0, Math.PI / 2, 0),
            ModifiedDh.placementTranslation(0, 0, Math.PI / 2, 0, 0), bar(0.5, 0.05, 0.000417));
        final int coupler = builder.addBody("coupler", "coupler", crank, JointType.REVOLUTE, ModifiedDh.placementRotation(0, 0, 0),
            ModifiedDh.placementTranslation(0, 0, 0, 0.10, 0), bar(1.2, 0.175, 0.01225));
        final int rocker = builder.addBody("rocker", "rocker", -1, JointType.REVOLUTE, ModifiedDh.placementRotation(0, Math.PI / 2, 0),
            ModifiedDh.placementTranslation(0, 0, Math.PI / 2, 0.40, 0), bar(1.0, 0.15, 0.0075));
        final CutJoint pin = new CutJoint("B", CutJoint.Type.REVOLUTE, coupler, Transforms.identity(), new double[] {0.35, 0, 0},
            rocker, Transforms.identity(), new double[] {0.30, 0, 0});
        return new ClosedLoopModel(builder.build(), List.of(pin), new int[] {0},
            new double[] {Math.PI / 3, -0.4184824235510569, 1.7957749733962085});
    }

    private static InertialParameters bar(final double mass, final double com, final double transverse)
    {
        return InertialParameters.ofCentreOfMass(mass, new double[] {com, 0, 0},
            new double[] {0.00002, 0, 0, 0, transverse, 0, 0, 0, transverse});
    }

    private static double energy(final ClosedLoopSimulator simulator, final MechanicalEnergy energy, final ClosedLoopModel model)
    {
        final double[] qd = new double[model.treeDof()];
        simulator.treeVelocities(qd);
        return energy.kineticEnergyJoules(simulator.treePositions(), qd) + energy.potentialEnergyJoules(simulator.treePositions());
    }
}
