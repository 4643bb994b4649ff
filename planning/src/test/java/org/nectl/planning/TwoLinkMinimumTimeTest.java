package org.nectl.planning;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/**
 * Barman (2020), §4.1: the two-link revolute arm of Tables 4.1-4.2 (config/robots/two-link-rr.yaml),
 * from q = (0, -2) to (1, -1) at rest, |tau| &lt;= 10 N m, minimum time. The thesis reports 0.392 s.
 */
class TwoLinkMinimumTimeTest
{
    private static final double[] START = {0.0, -2.0};
    private static final double[] END = {1.0, -1.0};
    private static final double[] GRAVITY = {0.0, 0.0, -9.81};

    @Test
    void minimumTimeOfTheThesisIsReproducedAndAgreesWithBangBangShooting() throws Exception
    {
        final RobotModel model = RobotDescriptions.load(Path.of(System.getProperty("nectl.robots.dir"), "two-link-rr.yaml"));
        // cubic B-spline, 20 control points, 3 constraint samples per knot span (52 samples)
        final PlanningSettings settings = new PlanningSettings(3, 20, 3, 0.0, false, false, new double[0], GRAVITY, 200);
        final TrajectoryPlanner.Plan plan = TrajectoryPlanner.plan(model, START, END, settings);
        final double duration = plan.trajectory().durationS();
        assertEquals(0.392, duration, 0.005 * 0.392, "T = " + duration + " s");
        // the independent RNEA on a grid ten times denser than the constraint grid
        assertTrue(plan.check().effortRatio() <= 1.01, "peak |tau| / 10 N m = " + plan.check().effortRatio());

        final BangBangShooting shooting = new BangBangShooting(new PlanningDynamics(model, GRAVITY), 10.0, START, END, 200);
        final double[] switching = shooting.solve(new double[] {0.2, 0.05, 0.25, 0.39});
        assertNotNull(switching, "bang-bang shooting did not converge");
        assertEquals(switching[3], duration, 0.01 * switching[3], "spline " + duration + " s, bang-bang " + switching[3] + " s");

        // tau1: upper, then lower; tau2: lower, upper, lower (§4.1.3)
        final List<PlanCheck.ActiveInterval> active = plan.check().active();
        assertEquals(List.of("upper", "lower"), bounds(active, 0), "tau1 at its limits: " + active);
        assertEquals(List.of("lower", "upper", "lower"), bounds(active, 1), "tau2 at its limits: " + active);
    }

    /** The bounds a coordinate rides, in time order, ignoring intervals shorter than 2 % of T. */
    private static List<String> bounds(final List<PlanCheck.ActiveInterval> active, final int coordinate)
    {
        final double total = active.stream().mapToDouble(PlanCheck.ActiveInterval::toS).max().orElse(0.0);
        final java.util.ArrayList<String> sequence = new java.util.ArrayList<>();
        for (final PlanCheck.ActiveInterval interval : active)
        {
            if (interval.coordinate() == coordinate && interval.toS() - interval.fromS() > 0.02 * total
                && (sequence.isEmpty() || !sequence.get(sequence.size() - 1).equals(interval.bound())))
            {
                sequence.add(interval.bound());
            }
        }
        return sequence;
    }
}
