package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/**
 * Time-optimal retiming: the closed-form bang-coast-bang time of one joint, and the Panda through five
 * waypoints under its datasheet torque, velocity and torque-rate limits.
 */
class PathRetimerTest
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    /** The Panda through five waypoints (ready pose, out, up, across, back). */
    static final double[][] PANDA_WAYPOINTS = {
        {0.0, -0.785, 0.0, -2.356, 0.0, 1.571, 0.785},
        {0.5, -0.3, 0.3, -2.0, 0.3, 1.9, 0.5},
        {1.0, 0.0, 0.0, -1.5, 0.0, 1.5, 1.0},
        {0.6, 0.3, -0.4, -1.2, -0.4, 1.2, 0.3},
        {0.0, -0.2, 0.0, -1.8, 0.0, 1.6, 0.0},
    };

    @Test
    void oneJointWithVelocityAndAccelerationLimitsTakesTheBangCoastBangTime() throws Exception
    {
        final RobotModel model = load("two-link-rr.yaml");
        final JointPath path = new JointPath(new double[][] {{0.0, -1.0}, {1.0, -1.0}});
        final double inf = Double.POSITIVE_INFINITY;
        final PathRetimer retimer = new PathRetimer(new PlanningDynamics(model, GRAVITY), path, 1000,
            new double[] {1.0, inf}, new double[] {2.0, inf}, new double[] {inf, inf}, new double[] {inf, inf});
        final PathRetimer.Timing timing = retimer.secondOrder();
        // distance 1 rad, v = 1 rad/s, a = 2 rad/s^2: accelerate 0.5 s, coast 0.5 s, brake 0.5 s
        assertEquals(1.5, timing.durationS(), 1e-3 * 1.5, "T = " + timing.durationS());
        final PathRetimer.Check check = retimer.checkProfile(timing, 10);
        assertTrue(check.velocityRatio() <= 1.0 + 1e-9 && check.velocityRatio() > 0.999, "velocity ratio " + check.velocityRatio());
        assertTrue(check.accelerationRatio() <= 1.0 + 1e-9 && check.accelerationRatio() > 0.999, "acceleration ratio " + check.accelerationRatio());
    }

    @Test
    void pandaPathIsTimeOptimalUnderTorqueAndTorqueRateLimits() throws Exception
    {
        final RobotModel model = load("panda.yaml");
        final int dof = model.dof();
        final double[] velocity = new double[dof];
        final double[] effort = new double[dof];
        final double[] rate = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            velocity[j] = model.limits(j).velocityMax();
            effort[j] = model.limits(j).effortMax();
            rate[j] = model.limits(j).effortRateMax();
        }
        final double[] acceleration = new double[dof];
        Arrays.fill(acceleration, Double.POSITIVE_INFINITY);
        final PathRetimer retimer = new PathRetimer(new PlanningDynamics(model, GRAVITY), new JointPath(PANDA_WAYPOINTS), 100,
            velocity, acceleration, effort, rate);
        final PathRetimer.Timing free = retimer.secondOrder();
        final PathRetimer.Check freeCheck = retimer.checkProfile(free, 10);
        final PathRetimer.Result smooth = retimer.retime(false, 200, 10, 0.02);
        final PathRetimer.Result limited = retimer.retime(true, 200, 10, 0.02);
        final PathRetimer.Check check = retimer.check(limited.law(), 10 * 100);
        final PathRetimer.Check fine = retimer.check(limited.law(), 100 * 100);
        System.out.printf("second order T = %.4f s (tau %.4f, qd %.4f); smooth without rate limit T = %.4f s after %d passes "
            + "(tau %.4f, qd %.4f, taudot %.3f); with T = %.4f s after %d passes (tau %.4f, qd %.4f, taudot %.4f, "
            + "100x: %.4f, lowest sdot %.3g)%n",
            free.durationS(), freeCheck.effortRatio(), freeCheck.velocityRatio(), smooth.law().durationS(), smooth.passes(),
            smooth.check().effortRatio(), smooth.check().velocityRatio(), smooth.check().torqueRateRatio(),
            limited.law().durationS(), limited.passes(), check.effortRatio(), check.velocityRatio(), check.torqueRateRatio(),
            fine.torqueRateRatio(), check.lowestSDot());
        // without the torque-rate limit the torque limit binds: time-optimal, not merely feasible
        assertTrue(freeCheck.effortRatio() >= 0.98 && freeCheck.effortRatio() <= 1.01, "peak |tau| / limit " + freeCheck.effortRatio());
        assertTrue(freeCheck.velocityRatio() <= 1.0, "peak |qd| / limit " + freeCheck.velocityRatio());
        assertTrue(limited.law().durationS() >= free.durationS(), limited.law().durationS() + " s < " + free.durationS() + " s");
        assertTrue(check.effortRatio() <= 1.0, "peak |tau| / limit " + check.effortRatio());
        assertTrue(check.velocityRatio() <= 1.0, "peak |qd| / limit " + check.velocityRatio());
        assertTrue(check.torqueRateRatio() <= 1.0, "peak |tau-dot| / limit " + check.torqueRateRatio());
        assertTrue(fine.torqueRateRatio() <= 1.01, "peak |tau-dot| / limit on a 100x grid " + fine.torqueRateRatio());
        assertTrue(Math.max(check.effortRatio(), check.torqueRateRatio()) >= 0.98,
            "no limit reached: tau " + check.effortRatio() + ", qd " + check.velocityRatio() + ", tau-dot " + check.torqueRateRatio());
    }

    private static RobotModel load(final String file) throws Exception
    {
        return RobotDescriptions.load(Path.of(System.getProperty("nectl.robots.dir"), file));
    }
}
