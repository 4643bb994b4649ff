package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.nectl.config.ClosedChains;
import org.nectl.core.closedloop.ActiveJoints;
import org.nectl.core.closedloop.ClosedLoopLawDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.AllocationMeter;
import org.nectl.transport.JointStateSample;
import org.nectl.transport.sbe.DriveMode;

/**
 * The simulated arm of a closed-loop robot (the shipped palletiser, three parallelogram loops) in its
 * active joints: held by its drives with the closed chain's holding torque it stays at home, braked it
 * does not move, left to gravity it falls with its loops closed, and a period allocates nothing.
 */
class SimulatedClosedLoopArmTest
{
    private static final ClosedLoopModel PALLETISER = ClosedChains.load(Path.of("../config/robots/palletiser.yaml"));
    private static final RobotModel ACTIVE = ActiveJoints.of(PALLETISER);

    @Test
    void holdingTorqueKeepsTheArmAtHomeAndZeroTorqueLetsItFallWithItsLoopsClosed()
    {
        final double[] home = PALLETISER.homeActive();
        final SimulatedArm arm = new SimulatedArm(PALLETISER, new SimulatedArmConfig(ACTIVE).initialQ(home));
        final ClosedLoopLawDynamics dynamics = new ClosedLoopLawDynamics(PALLETISER, CompiledModel.of(PALLETISER.tree()));
        final double[] hold = new double[4];
        assertTrue(dynamics.gravityTorques(home, hold));
        final double[] q = new double[4];
        for (int period = 0; period < 500; period++)
        {
            arm.command(hold, DriveMode.TORQUE, true);
            assertEquals(ArmSimulator.STEP_OK, arm.step());
        }
        arm.truePositions(q);
        double drift = 0.0;
        for (int a = 0; a < 4; a++)
        {
            drift = Math.max(drift, Math.abs(q[a] - home[a]));
        }
        assertTrue(drift < 1e-9, "drift under the holding torque " + drift + " rad");
        arm.command(hold, DriveMode.BRAKE, true);
        arm.step();
        arm.truePositions(q);
        assertTrue(Math.abs(q[1] - home[1]) < 1e-9, "braked");
        arm.command(new double[4], DriveMode.ZERO_TORQUE, true);
        for (int period = 0; period < 300; period++)
        {
            assertEquals(ArmSimulator.STEP_OK, arm.step(), "period " + period);
        }
        arm.truePositions(q);
        final double[] tree = new double[PALLETISER.treeDof()];
        arm.trueTreePositions(tree);
        System.out.println("palletiser arm left to gravity for 0.3 s: j2 moved " + (q[1] - home[1]) + " rad, closure residual "
            + arm.closureResidual());
        assertTrue(Math.abs(q[1] - home[1]) > 1e-3, "the arm falls under zero torque");
        assertEquals(q[1], tree[PALLETISER.activeCoordinate(1)], 0.0, "tree positions hold the active ones");
        assertTrue(arm.closureResidual() <= 1e-10, "closure residual " + arm.closureResidual());
        final JointStateSample sample = new JointStateSample(4);
        arm.sample(sample);
        assertEquals(q[1], sample.q()[1], 0.0, "exact encoders report the active joints");
    }

    @Test
    void aPeriodAllocatesNothing()
    {
        final SimulatedArm arm = new SimulatedArm(PALLETISER, new SimulatedArmConfig(ACTIVE).initialQ(PALLETISER.homeActive()));
        final ClosedLoopLawDynamics dynamics = new ClosedLoopLawDynamics(PALLETISER, CompiledModel.of(PALLETISER.tree()));
        final double[] q = new double[4];
        final double[] hold = new double[4];
        final JointStateSample sample = new JointStateSample(4);
        final long bytes = AllocationMeter.bytesAllocated(() ->
        {
            arm.truePositions(q);
            dynamics.gravityTorques(q, hold);
            arm.command(hold, DriveMode.TORQUE, true);
            arm.step();
            arm.sample(sample);
        }, 2_000, 200);
        assertEquals(0, bytes, "bytes allocated per 200 periods");
    }

    @Test
    void externalWrenchesAMovingBaseAndAWrongJointCountAreRefused()
    {
        assertThrows(IllegalArgumentException.class, () -> new SimulatedArm(PALLETISER,
            new SimulatedArmConfig(ACTIVE).initialQ(PALLETISER.homeActive())
                .externalWrench(AppliedWrench.parse("flange,0,0,-10,0,0,0@0-1", ACTIVE))));
        final IllegalArgumentException deck = assertThrows(IllegalArgumentException.class, () -> new SimulatedArm(PALLETISER,
            new SimulatedArmConfig(ACTIVE).initialQ(PALLETISER.homeActive())
                .baseMotion(new org.nectl.core.mobile.ShipMotion(0.1, 0.2, 0.0, 0.0, 0.0, 0.1))));
        assertTrue(deck.getMessage().contains("a moving base needs a tree robot"), deck.getMessage());
        final RobotModel six = ActiveJoints.of(ClosedChains.load(Path.of("../config/parallel-robots/hexapod.yaml")));
        assertThrows(IllegalArgumentException.class, () -> new SimulatedArm(PALLETISER, new SimulatedArmConfig(six)));
    }
}
