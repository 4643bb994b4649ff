package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.control.JointWaypoints;
import org.nectl.core.control.TrajectorySampler;
import org.nectl.core.model.RobotModel;

/**
 * The written form of a retimed law: positions at the periodic times and at the joints' velocity and
 * acceleration zero crossings, which the controller's own sampler (which keeps positions only)
 * re-interpolates into a reference whose velocity and torque rate at the 1 kHz ticks are the law's.
 */
class LawWaypointsTest
{
    @Test
    void theControllersSamplerReproducesTheRetimedPandaLawAtItsTicks() throws Exception
    {
        final RobotModel model = RobotDescriptions.load(Path.of(System.getProperty("nectl.robots.dir"), "panda.yaml"));
        final int dof = model.dof();
        final double[] velocity = new double[dof];
        final double[] effort = new double[dof];
        final double[] rate = new double[dof];
        final double[] acceleration = new double[dof];
        Arrays.fill(acceleration, Double.POSITIVE_INFINITY);
        for (int j = 0; j < dof; j++)
        {
            velocity[j] = model.limits(j).velocityMax();
            effort[j] = model.limits(j).effortMax();
            rate[j] = model.limits(j).effortRateMax();
        }
        final PlanningDynamics dynamics = new PlanningDynamics(model, new double[] {0.0, 0.0, -9.81});
        final JointPath path = new JointPath(PathRetimerTest.PANDA_WAYPOINTS);
        final SmoothTimeLaw law = new PathRetimer(dynamics, path, 100, velocity, acceleration, effort, rate)
            .retime(true, 200, 10, 0.02).law();
        final double[] times = LawWaypoints.times(path, law, 0.25e-3);
        final double[][] positions = new double[times.length][dof];
        final double[] state = new double[4];
        final double[] d1 = new double[dof];
        final double[] d2 = new double[dof];
        final double[] d3 = new double[dof];
        int crossings = 0;
        for (int k = 0; k < times.length; k++)
        {
            assertEquals(times[k], Math.rint(times[k] * 1e9) * 1e-9, 0.0, "whole nanoseconds");
            assertTrue(k == 0 || times[k] > times[k - 1], "increasing at " + k);
            law.at(times[k], state);
            path.evaluate(k == times.length - 1 ? 1.0 : state[0], positions[k], d1, d2, d3);
            if (Math.abs(times[k] / 0.25e-3 - Math.rint(times[k] / 0.25e-3)) > 1e-6 && k < times.length - 1)
            {
                crossings++;
                double nearest = Double.POSITIVE_INFINITY;
                for (int j = 0; j < dof; j++)
                {
                    nearest = Math.min(nearest, Math.abs(d1[j] * state[1]));
                    nearest = Math.min(nearest, Math.abs(d2[j] * state[1] * state[1] + d1[j] * state[2]));
                }
                assertTrue(nearest < 1e-6, "no joint's velocity or acceleration crosses zero at the extra waypoint t = " + times[k]);
            }
        }
        final TrajectorySampler sampler = new TrajectorySampler(model, new JointWaypoints(times, positions));
        final double[] q = new double[dof];
        final double[] lawQd = new double[dof];
        final double[] lawQdd = new double[dof];
        final double[] lawQddd = new double[dof];
        final double[] sq = new double[dof];
        final double[] sqd = new double[dof];
        final double[] sqdd = new double[dof];
        final double[] sqddd = new double[dof];
        final double[] snap = new double[dof];
        final double[] tau = new double[dof];
        final double[] lawRate = new double[dof];
        final double[] samplerRate = new double[dof];
        double velocityError = 0.0;
        double lawPeak = 0.0;
        double samplerPeak = 0.0;
        for (long tick = 0; tick * 1e-3 <= law.durationS(); tick++)
        {
            law.at(tick * 1e-3, state);
            path.evaluate(state[0], q, d1, d2, d3);
            for (int j = 0; j < dof; j++)
            {
                lawQd[j] = d1[j] * state[1];
                lawQdd[j] = d2[j] * state[1] * state[1] + d1[j] * state[2];
                lawQddd[j] = d3[j] * state[1] * state[1] * state[1] + 3.0 * d2[j] * state[1] * state[2] + d1[j] * state[3];
            }
            sampler.sample(tick * 1e-3, sq, sqd, sqdd, sqddd, snap);
            dynamics.torqueRate(q, lawQd, lawQdd, lawQddd, tau, lawRate);
            dynamics.torqueRate(sq, sqd, sqdd, sqddd, tau, samplerRate);
            for (int j = 0; j < dof; j++)
            {
                velocityError = Math.max(velocityError, Math.abs(sqd[j] - lawQd[j]));
                lawPeak = Math.max(lawPeak, Math.abs(lawRate[j]) / rate[j]);
                samplerPeak = Math.max(samplerPeak, Math.abs(samplerRate[j]) / rate[j]);
            }
        }
        System.out.printf(Locale.ROOT, "%d waypoints (%d at zero crossings); at the ticks: largest |qd| error %.2e rad/s, "
            + "peak |tau-dot| / limit %.4f along the law, %.4f along the sampler's reference%n", times.length, crossings,
            velocityError, lawPeak, samplerPeak);
        assertTrue(crossings > 10, crossings + " crossing waypoints");
        assertTrue(velocityError < 1e-4, "velocity error " + velocityError);
        assertEquals(lawPeak, samplerPeak, 0.01, "peak |tau-dot| / limit along the law and along the sampler's reference");
    }
}
