package org.nectl.hw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;
import org.nectl.core.simulation.ArmSimulator;
import org.nectl.core.testing.RandomRobots;
import org.nectl.transport.sbe.DriveMode;

/** {@code --external-wrench}: its text, and the simulated arm applying it in its window only. */
final class AppliedWrenchTest
{
    private static final long PERIOD_NS = 1_000_000L;
    private static final RobotModel MODEL = RandomRobots.robot(42, 4, false, RandomRobots.Joints.REVOLUTE, false);

    @Test
    void theTextNamesLinkWrenchAndWindow()
    {
        final String link = MODEL.bodyName(3);
        final AppliedWrench w = AppliedWrench.parse(link + ",1,2,3,0.5,-0.5,0@0.25-1", MODEL);
        assertEquals(3, w.body());
        assertArrayEquals(new double[] {1, 2, 3, 0.5, -0.5, 0}, w.wrench(), 0.0);
        assertEquals(250_000_000L, w.startNs());
        assertEquals(1_000_000_000L, w.endNs());
    }

    @Test
    void eachBadPartIsNamed()
    {
        final String link = MODEL.bodyName(3);
        refused("nolink,1,2,3,0,0,0@0-1", "no link 'nolink'");
        refused(link + ",1,2,3,0,0@0-1", "a link name and 6 numbers before '@', got 6 fields");
        refused(link + ",1,x,3,0,0,0@0-1", "'x' is not a finite number");
        refused(link + ",1,2,3,0,0,0@1-0.5", "must start at 0 or later and end after it starts");
        refused(link + ",1,2,3,0,0,0", "expected LINK,FX,FY,FZ,MX,MY,MZ@T0-T1");
    }

    /** The arm's state equals an ArmSimulator's that gets the same wrench from the window's first period to its last. */
    @Test
    void theArmAppliesTheWrenchOnlyInItsWindow()
    {
        final double[] wrench = {0, 0, -20, 0, 1, 0};
        final SimulatedArm arm = new SimulatedArm(MODEL, new SimulatedArmConfig(MODEL).periodNs(PERIOD_NS)
            .externalWrench(new AppliedWrench(3, wrench, 5 * PERIOD_NS, 10 * PERIOD_NS)));
        final ArmSimulator reference = new ArmSimulator(MODEL, PERIOD_NS, 4);
        reference.reset(new double[4], new double[4]);
        final double[] zero = new double[4];
        arm.command(zero, DriveMode.TORQUE, true);
        reference.torque(zero);
        final double[] q = new double[4];
        final double[] expected = new double[4];
        for (int k = 0; k < 15; k++)
        {
            if (k == 5)
            {
                reference.externalWrench(3, wrench);
            }
            if (k == 10)
            {
                reference.clearExternalWrenches();
            }
            arm.step();
            reference.step();
            arm.truePositions(q);
            reference.positions(expected);
            assertArrayEquals(expected, q, 1e-12, "period " + k);
        }
        reference.velocities(expected);
        assertTrue(Math.abs(expected[0]) + Math.abs(expected[1]) + Math.abs(expected[2]) > 0.0, "the wrench moved the arm");
    }

    private static void refused(final String text, final String part)
    {
        final IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> AppliedWrench.parse(text, MODEL));
        assertTrue(e.getMessage().contains(part), e.getMessage());
        assertTrue(e.getMessage().startsWith("--external-wrench '" + text + "'"), e.getMessage());
    }
}
