package org.nectl.planning;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/**
 * Speed of planning (docs/PERFORMANCE.md), in one JVM after warm-up, median and minimum wall time:
 * retiming the Panda's five-waypoint path (the grid evaluation and the second-order reachability
 * pass; the whole retiming with the torque-rate stage: smooth law, dense checks, width and cap
 * iteration) at each grid size given after {@code retime}, and the two-link minimum-time solve of
 * Barman's thesis at each control-point count given after {@code rr} (one warm-up solve and three
 * measured, or {@code -Drr.repeats=1}: one solve). Not a test; run by hand from the
 * repository root:
 * {@code java -cp <planning test classpath> org.nectl.planning.RetimeHarness config/robots retime 100 1000 rr 14 20 30}.
 */
public final class RetimeHarness
{
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    private RetimeHarness()
    {
    }

    public static void main(final String[] args) throws Exception
    {
        final Path robots = Path.of(args[0]);
        String mode = "";
        for (int a = 1; a < args.length; a++)
        {
            if (!Character.isDigit(args[a].charAt(0)))
            {
                mode = args[a];
            }
            else if (mode.equals("retime"))
            {
                retime(RobotDescriptions.load(robots.resolve("panda.yaml")), Integer.parseInt(args[a]));
            }
            else
            {
                twoLink(RobotDescriptions.load(robots.resolve("two-link-rr.yaml")), Integer.parseInt(args[a]));
            }
        }
    }

    private static void retime(final RobotModel model, final int intervals) throws Exception
    {
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
        final PlanningDynamics dynamics = new PlanningDynamics(model, GRAVITY);
        final JointPath path = new JointPath(PathRetimerTest.PANDA_WAYPOINTS);
        final int repeats = intervals <= 200 ? 200 : 20;
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
                limited = new PathRetimer(dynamics, path, intervals, velocity, acceleration, effort, rate)
                    .retime(true, 200, 10, 0.02);
                final long t2 = System.nanoTime();
                reach[r] = (t1 - t0) * 1e-6;
                rated[r] = (t2 - t1) * 1e-6;
            }
        }
        Arrays.sort(reach);
        Arrays.sort(rated);
        System.out.printf(Locale.ROOT, "retime N = %d: grid + reachability median %.3f ms (min %.3f); whole retiming with the "
            + "torque-rate stage median %.3f ms (min %.3f), %d passes, %d dense points; T = %.4f s second order, %.4f s with "
            + "the torque-rate limit (tau-dot %.4f, tau %.4f, qd %.4f of the limits)%n", intervals, reach[repeats / 2], reach[0],
            rated[repeats / 2], rated[0], limited.passes(), limited.check().gridPoints(), free.durationS(),
            limited.law().durationS(), limited.check().torqueRateRatio(), limited.check().effortRatio(),
            limited.check().velocityRatio());
    }

    private static void twoLink(final RobotModel model, final int controlPoints) throws Exception
    {
        final double[] start = {0.0, -2.0};
        final double[] end = {1.0, -1.0};
        final PlanningSettings settings = new PlanningSettings(3, controlPoints, 3, 0.0, false, false, new double[0], GRAVITY, 400);
        final int repeats = Integer.getInteger("rr.repeats", 3);
        final double[] wall = new double[repeats];
        TrajectoryPlanner.Plan plan = null;
        String failure = null;
        for (int r = repeats > 1 ? -1 : 0; r < repeats; r++)
        {
            final long t0 = System.nanoTime();
            try
            {
                plan = TrajectoryPlanner.plan(model, start, end, settings);
            }
            catch (final TrajectoryPlanner.PlanningException e)
            {
                failure = e.getMessage();
            }
            if (r >= 0)
            {
                wall[r] = (System.nanoTime() - t0) * 1e-9;
            }
        }
        Arrays.sort(wall);
        if (plan == null)
        {
            System.out.printf(Locale.ROOT, "rr %d control points: failed (%s), median %.2f s%n", controlPoints, failure, wall[repeats / 2]);
            return;
        }
        System.out.printf(Locale.ROOT, "rr %d control points: T = %.5f s, %d SQP iterations, converged %b, median solve %.3f s "
            + "(min %.3f), peak |tau| / limit %.4f%n", controlPoints, plan.trajectory().durationS(), plan.solution().iterations(),
            plan.solution().converged(), wall[repeats / 2], wall[0], plan.check().effortRatio());
    }
}
