package org.nectl.planning;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/**
 * Speed of retiming the Panda's five-waypoint path (docs/PERFORMANCE.md): median wall time of the
 * grid evaluation (path and dynamics coefficients) plus one reachability pass, and of the
 * torque-rate iteration, at each grid size given. Not a test; run by hand:
 * {@code java -cp <planning test classpath> org.nectl.planning.RetimeHarness config/robots/panda.yaml 100 1000}.
 */
public final class RetimeHarness
{
    private RetimeHarness()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final RobotModel model = RobotDescriptions.load(Path.of(args[0]));
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
        for (int a = 1; a < args.length; a++)
        {
            final int intervals = Integer.parseInt(args[a]);
            final int repeats = intervals <= 200 ? 400 : 40;
            final double[] reach = new double[repeats];
            final double[] rated = new double[repeats];
            PathRetimer.Timing free = null;
            PathRetimer.Result limited = null;
            for (int warm = 0; warm < 2; warm++)
            {
                for (int r = 0; r < repeats; r++)
                {
                    final long t0 = System.nanoTime();
                    final PathRetimer retimer = new PathRetimer(dynamics, path, intervals, velocity, acceleration, effort, rate);
                    free = retimer.secondOrder();
                    final long t1 = System.nanoTime();
                    limited = retimer.retime(true, 1000, 10, 0.02);
                    final long t2 = System.nanoTime();
                    reach[r] = (t1 - t0) * 1e-6;
                    rated[r] = (t2 - t1) * 1e-6;
                }
            }
            Arrays.sort(reach);
            Arrays.sort(rated);
            System.out.printf(Locale.ROOT, "N = %d: grid + reachability median %.3f ms (min %.3f); torque-rate iteration "
                + "median %.3f ms (min %.3f), %d passes; T = %.4f s without, %.4f s with the torque-rate limit%n",
                intervals, reach[repeats / 2], reach[0], rated[repeats / 2], rated[0], limited.passes(),
                free.durationS(), limited.law().durationS());
        }
    }
}
