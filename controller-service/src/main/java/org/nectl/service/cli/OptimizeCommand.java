package org.nectl.service.cli;

import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import java.util.concurrent.Callable;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import org.nectl.config.OutputFiles;
import org.nectl.core.control.ReferenceTimeScaling;
import org.nectl.core.model.RobotModel;
import org.nectl.planning.JointPath;
import org.nectl.planning.LawWaypoints;
import org.nectl.planning.PathRetimer;
import org.nectl.planning.PlanCheck;
import org.nectl.planning.PlanningDynamics;
import org.nectl.planning.PlanningSettings;
import org.nectl.planning.SmoothTimeLaw;
import org.nectl.planning.SplineTrajectory;
import org.nectl.planning.TrajectoryPlanner;
import org.nectl.service.planner.JointTrajectory;
import org.nectl.service.planner.TrajectoryCsv;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl optimize}: a rest-to-rest motion of minimum time, or of the weighted time and effort
 * of Barman's thesis (2020, eq. 4.18), written as the trajectory CSV that {@code nectl plan --file}
 * sends, with a JSON report. Not real-time code.
 */
@Command(
    name = "optimize",
    mixinStandardHelpOptions = true,
    description = {
        "Plan a rest-to-rest motion of minimum time (or of (1 - w) T + w * integral |tau|^2 dt with --weight) under the "
            + "description's effort and velocity limits, optionally acceleration and torque-rate limits; write it as the "
            + "CSV that 'nectl plan --file' sends and a JSON report.",
        "With --retime FILE: the fastest timing of the path through the file's waypoints (TOPP-RA reachability, then a "
            + "smooth time law whose torque ramps widen until the dense check finds |tau-dot| within its limit with "
            + "--torque-rate-limits); --for-service keeps the margins the controller's time scaling needs.",
        "Exit status: 0 planned; 2 bad option, description, start/end or path file, infeasible limits or an output file that "
            + "exists (without --force); 1 the solve or torque-rate iteration did not converge or its result exceeds a limit "
            + "between constraint samples. "
            + "On failure no CSV or report is written."})
final class OptimizeCommand implements Callable<Integer>
{
    private static final String COMMAND = "nectl optimize";
    /** Dense check points per retiming grid interval. */
    private static final int CHECK_FACTOR = 10;
    /** With --for-service, the share of the time scaling's bounds targeted: the rest covers the service's re-interpolation. */
    private static final double SERVICE_MARGIN = 0.995;
    /** Waypoints of one trajectory segment (docs/PLANNING.md). */
    private static final int MAX_WAYPOINTS = 65_535;

    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Robot description (.yaml, .urdf).")
    private Path modelFile;

    @Option(names = "--start", paramLabel = "Q", split = ",", description = "Start positions, one per coordinate (not with --retime).")
    private double[] start;

    @Option(names = "--end", paramLabel = "Q", split = ",", description = "End positions, one per coordinate (not with --retime).")
    private double[] end;

    @Option(names = "--retime", paramLabel = "CSV",
        description = "Instead of --start/--end: retime the path through this file's waypoints (the t,q1..qn CSV of "
            + "'nectl plan --file'; its times are ignored) to the fastest timing under the limits.")
    private Path retimePath;

    @Option(names = "--grid-points", paramLabel = "N", defaultValue = "100",
        description = "With --retime: path grid intervals of the reachability pass; default ${DEFAULT-VALUE}.")
    private int gridPoints;

    @Option(names = "--weight", paramLabel = "W", defaultValue = "0",
        description = "w in [0, 1) of (1 - w) T + w * integral |tau|^2 dt; 0 (default) is minimum time.")
    private double weight;

    @Option(names = "--control-points", paramLabel = "N", defaultValue = "20",
        description = "B-spline control points per coordinate; default ${DEFAULT-VALUE}.")
    private int controlPoints;

    @Option(names = "--degree", paramLabel = "D", defaultValue = "3",
        description = "B-spline degree (3 cubic; 4 or more with --torque-rate-limits); default ${DEFAULT-VALUE}.")
    private int degree;

    @Option(names = "--samples-per-span", paramLabel = "S", defaultValue = "3",
        description = "Constraint samples per knot span; default ${DEFAULT-VALUE}.")
    private int samplesPerSpan;

    @Option(names = "--no-velocity-limits", description = "Ignore the description's velocity limits.")
    private boolean noVelocityLimits;

    @Option(names = "--torque-rate-limits", description = "Also bound |tau-dot| by the description's torque-rate limits.")
    private boolean torqueRateLimits;

    @Option(names = "--acceleration-limit", paramLabel = "A", split = ",",
        description = "Bound |qdd|: one value for every coordinate or one per coordinate, rad/s^2 or m/s^2.")
    private double[] accelerationLimit = new double[0];

    @Option(names = "--gravity", paramLabel = "G", split = ",", defaultValue = "0,0,-9.81",
        description = "Gravity in the base frame, m/s^2; default ${DEFAULT-VALUE}.")
    private double[] gravity;

    @Option(names = "--max-iterations", paramLabel = "N", defaultValue = "200", description = "SQP iteration limit; default ${DEFAULT-VALUE}.")
    private int maxIterations;

    @Option(names = "--waypoint-ms", paramLabel = "MS",
        description = "Waypoint spacing of the CSV, ms (the last waypoint is at T exactly); default 10, with --retime 0.25.")
    private Double waypointMsOption;

    private double waypointMs;

    @Option(names = "--limit-share", paramLabel = "F", defaultValue = "1",
        description = "With --retime: use this share of the effort and torque-rate limits, in (0, 1]; default ${DEFAULT-VALUE}.")
    private double limitShare;

    @Option(names = "--clock-reserve", paramLabel = "A", defaultValue = "0",
        description = "With --retime: keep the limits for any clock acceleration |s-ddot| <= A (1/s^2) at full speed, as a "
            + "time-scaling controller checks them; default ${DEFAULT-VALUE}.")
    private double clockReserve;

    @Option(names = "--minimum-ramp-ms", paramLabel = "MS", defaultValue = "20",
        description = "With --retime: the least half-width of a torque ramp, ms (the controller re-interpolates the CSV's "
            + "positions and follows a slower-varying jerk more faithfully); default ${DEFAULT-VALUE}.")
    private double minimumRampMs;

    @Option(names = "--for-service",
        description = "With --retime: the limit share and clock reserve of nectl's time scaling (ReferenceTimeScaling defaults: "
            + "0.8 and 2 /s^2), 0.5 % inside them for the re-interpolation, so that the service tracks the result without slowing "
            + "it down.")
    private boolean forService;

    @Option(names = {"-o", "--output"}, required = true, paramLabel = "CSV", description = "Trajectory file to write (t,q1..qn).")
    private Path output;

    @Option(names = "--report", paramLabel = "JSON", description = "Also write the JSON report here.")
    private Path report;

    @Option(names = "--force", description = "Replace existing output files (regular files only, never through a symbolic link).")
    private boolean force;

    @Override
    public Integer call() throws IOException
    {
        final String refusal = checkOptions();
        if (refusal != null)
        {
            System.err.println(COMMAND + ": " + refusal);
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final RobotModel model = ModelCommand.loadOrReport(modelFile, COMMAND);
        if (model == null)
        {
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        if (accelerationLimit.length > 1 && accelerationLimit.length != model.dof())
        {
            System.err.println(COMMAND + ": --acceleration-limit has " + accelerationLimit.length + " values; give one or "
                + model.dof() + " (one per coordinate of " + model.name() + ")");
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        if (retimePath != null)
        {
            return retime(model);
        }
        final PlanningSettings settings = new PlanningSettings(degree, controlPoints, samplesPerSpan, weight,
            !noVelocityLimits, torqueRateLimits, accelerationLimit, gravity, maxIterations);
        final TrajectoryPlanner.Plan plan;
        try
        {
            plan = TrajectoryPlanner.plan(model, start, end, settings);
        }
        catch (final TrajectoryPlanner.PlanningException e)
        {
            System.err.println(COMMAND + ": " + e.getMessage());
            return e.badInput() ? NectlCommand.USAGE_EXIT_STATUS : NectlCommand.INTERNAL_ERROR_EXIT_STATUS;
        }
        if (!writeOutputs(csv(plan.trajectory()), () -> reportJson(model, plan, settings)))
        {
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        System.out.printf(Locale.ROOT, "%s: T = %.4f s, %d iterations, %.2f s solve, peak |tau|/limit %.4f; wrote %s%s%n",
            COMMAND, plan.trajectory().durationS(), plan.solution().iterations(), plan.solution().solveTimeS(),
            plan.check().effortRatio(), output, report == null ? "" : " and " + report);
        return 0;
    }

    /** Option checks that need no description; null if fine. */
    private String checkOptions()
    {
        if (retimePath == null && (start == null || end == null))
        {
            return "give --start and --end, or --retime with a path file";
        }
        if (retimePath != null && (start != null || end != null || weight != 0.0))
        {
            return "--retime takes its path from the file: --start, --end and --weight do not apply";
        }
        if (retimePath != null && (gridPoints < 2 || gridPoints > 100_000))
        {
            return "--grid-points must be in 2..100000, got " + gridPoints;
        }
        if (gravity.length != 3)
        {
            return "--gravity needs 3 values, got " + gravity.length;
        }
        waypointMs = waypointMsOption != null ? waypointMsOption : retimePath != null ? 0.25 : 10.0;
        if (retimePath == null && (limitShare != 1.0 || clockReserve != 0.0 || forService))
        {
            return "--limit-share, --clock-reserve and --for-service apply to --retime only";
        }
        if (forService && (limitShare != 1.0 || clockReserve != 0.0))
        {
            return "--for-service sets the limit share and clock reserve: give either it or --limit-share/--clock-reserve";
        }
        if (!(limitShare > 0.0 && limitShare <= 1.0))
        {
            return "--limit-share must be in (0, 1], got " + limitShare;
        }
        if (!(minimumRampMs >= 0.0 && minimumRampMs <= 1000.0))
        {
            return "--minimum-ramp-ms must be in [0, 1000], got " + minimumRampMs;
        }
        if (!(clockReserve >= 0.0 && clockReserve <= 100.0))
        {
            return "--clock-reserve must be in [0, 100] 1/s^2, got " + clockReserve;
        }
        if (!(waypointMs > 0.0 && waypointMs <= 1000.0))
        {
            return "--waypoint-ms must be in (0, 1000], got " + waypointMs;
        }
        for (final Path file : report == null ? new Path[] {output} : new Path[] {output, report})
        {
            if (Files.isSymbolicLink(file))
            {
                return file + " is a symbolic link: refused (give the real path)";
            }
            if (Files.exists(file, LinkOption.NOFOLLOW_LINKS) && (!force || !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)))
            {
                return file + (force ? " is not a regular file: refused" : " exists (use --force to replace it)");
            }
        }
        if (report != null && output.toAbsolutePath().normalize().equals(report.toAbsolutePath().normalize()))
        {
            return "--output and --report name the same file " + output;
        }
        return null;
    }

    /** Samples the spline every waypoint period, and at T. */
    private String csv(final SplineTrajectory trajectory)
    {
        final int dof = trajectory.dof();
        final StringBuilder text = new StringBuilder();
        text.append("# nectl optimize: ").append(modelFile.getFileName()).append(", T = ")
            .append(trajectory.durationS()).append(" s\n");
        text.append('t');
        for (int j = 1; j <= dof; j++)
        {
            text.append(",q").append(j);
        }
        text.append('\n');
        final double[] q = new double[dof];
        final double[] scratch = new double[dof];
        final double period = waypointMs * 1e-3;
        final double duration = trajectory.durationS();
        final int intervals = (int)Math.ceil(duration / period - 1e-9);
        for (int k = 0; k <= intervals; k++)
        {
            final double t = k == intervals ? duration : k * period;
            trajectory.evaluate(t / duration, q, scratch, scratch.clone(), scratch.clone());
            text.append(String.format(Locale.ROOT, "%.6f", t));
            for (final double v : q)
            {
                text.append(',').append(String.format(Locale.ROOT, "%.9f", v));
            }
            text.append('\n');
        }
        return text.toString();
    }

    private String reportJson(final RobotModel model, final TrajectoryPlanner.Plan plan, final PlanningSettings settings)
        throws IOException
    {
        final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        final ObjectNode root = mapper.createObjectNode();
        root.put("model", model.name());
        root.put("objective", settings.weight() == 0.0 ? "minimum time" : "weighted (1 - w) T + w integral |tau|^2 dt");
        root.put("weight", settings.weight());
        root.put("durationS", plan.trajectory().durationS());
        root.put("iterations", plan.solution().iterations());
        root.put("solveTimeS", plan.solution().solveTimeS());
        root.put("converged", plan.solution().converged());
        final ObjectNode spline = root.putObject("spline");
        spline.put("degree", settings.degree());
        spline.put("controlPoints", settings.controlPoints());
        spline.put("samplesPerSpan", settings.samplesPerSpan());
        spline.put("constraintSamples", plan.problem().samples().length);
        final PlanCheck.Result check = plan.check();
        final ObjectNode dense = root.putObject("denseCheck");
        dense.put("method", "plain recursive Newton-Euler and torque-derivative recursions, grid 10x the constraint grid");
        dense.put("gridPoints", check.gridPoints());
        dense.put("effortRatio", check.effortRatio());
        dense.put("velocityRatio", check.velocityRatio());
        dense.put("accelerationRatio", check.accelerationRatio());
        dense.put("torqueRateRatio", check.torqueRateRatio());
        dense.put("largestViolation", Math.max(0.0, check.worstRatio() - 1.0));
        final ArrayNode peaks = dense.putArray("peakEffort");
        for (final double v : check.peakEffort())
        {
            peaks.add(v);
        }
        final ArrayNode rates = dense.putArray("peakTorqueRate");
        for (final double v : check.peakTorqueRate())
        {
            rates.add(v);
        }
        final ArrayNode active = root.putArray("activeConstraints");
        for (final PlanCheck.ActiveInterval interval : check.active())
        {
            final ObjectNode node = active.addObject();
            node.put("joint", model.coordinateName(interval.coordinate()));
            node.put("bound", interval.bound());
            node.put("fromS", interval.fromS());
            node.put("toS", interval.toS());
        }
        final ObjectNode profiles = root.putObject("denseProfiles");
        final ArrayNode times = profiles.putArray("timeS");
        final ArrayNode torques = profiles.putArray("tau");
        final ArrayNode forces = profiles.putArray("reactionForceNormN");
        for (int k = 0; k < check.gridPoints(); k++)
        {
            times.add(check.times()[k]);
            final ArrayNode tau = torques.addArray();
            for (final double v : check.torques()[k])
            {
                tau.add(v);
            }
            final ArrayNode force = forces.addArray();
            for (final double v : check.reactionForceNorms()[k])
            {
                force.add(v);
            }
        }
        final ArrayNode points = root.putArray("controlPoints");
        final double[] p = plan.trajectory().controlPoints();
        for (final double v : p)
        {
            points.add(v);
        }
        return mapper.writeValueAsString(root) + "\n";
    }

    /** {@code --retime}: the fastest timing of the file's path; the exit status as for a solve. */
    private int retime(final RobotModel model) throws IOException
    {
        final double[][] waypoints;
        try
        {
            final JointTrajectory read = TrajectoryCsv.read(retimePath);
            if (read.jointCount() != model.dof())
            {
                System.err.println(COMMAND + ": " + retimePath + ": " + read.jointCount() + " coordinates, " + model.name()
                    + " has " + model.dof());
                return NectlCommand.USAGE_EXIT_STATUS;
            }
            waypoints = new double[read.waypointCount()][model.dof()];
            for (int p = 0; p < waypoints.length; p++)
            {
                for (int k = 0; k < model.dof(); k++)
                {
                    waypoints[p][k] = read.q(p, k);
                }
            }
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println(COMMAND + ": " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final JointPath path;
        try
        {
            path = new JointPath(waypoints);
        }
        catch (final IllegalArgumentException e)
        {
            System.err.println(COMMAND + ": " + retimePath + ": " + e.getMessage());
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        final int dof = model.dof();
        final double[] velocity = new double[dof];
        final double[] acceleration = new double[dof];
        final double[] effort = new double[dof];
        final double[] rate = new double[dof];
        for (int j = 0; j < dof; j++)
        {
            velocity[j] = noVelocityLimits ? Double.POSITIVE_INFINITY : model.limits(j).velocityMax();
            acceleration[j] = accelerationLimit.length == 0 ? Double.POSITIVE_INFINITY
                : accelerationLimit[Math.min(j, accelerationLimit.length - 1)];
            effort[j] = model.limits(j).effortMax();
            rate[j] = model.limits(j).effortRateMax();
        }
        final ReferenceTimeScaling.Settings scaling = ReferenceTimeScaling.Settings.defaults();
        final double share = forService ? scaling.limitShare() * SERVICE_MARGIN : limitShare;
        final double reserve = forService ? scaling.accelerationMax() : clockReserve;
        for (int j = 0; j < dof; j++)
        {
            effort[j] *= share;
            rate[j] *= share;
        }
        final long started = System.nanoTime();
        final PathRetimer retimer = new PathRetimer(new PlanningDynamics(model, gravity), path, gridPoints, velocity,
            acceleration, effort, rate, reserve);
        final PathRetimer.Timing optimum;
        final PathRetimer.Result result;
        final PathRetimer.Result withoutRateLimit;
        try
        {
            optimum = retimer.secondOrder();
            withoutRateLimit = torqueRateLimits ? retimer.retime(false, maxIterations, CHECK_FACTOR, minimumRampMs * 1e-3) : null;
            result = retimer.retime(torqueRateLimits, maxIterations, CHECK_FACTOR, minimumRampMs * 1e-3);
        }
        catch (final PathRetimer.RetimingException e)
        {
            System.err.println(COMMAND + ": " + retimePath + ": " + e.getMessage());
            return e.unsettled() ? NectlCommand.INTERNAL_ERROR_EXIT_STATUS : NectlCommand.USAGE_EXIT_STATUS;
        }
        final double solveS = (System.nanoTime() - started) * 1e-9;
        final PathRetimer.Check check = result.check();
        final double worst = Math.max(check.effortRatio(), Math.max(check.velocityRatio(),
            Math.max(check.accelerationRatio(), torqueRateLimits ? check.torqueRateRatio() : 0.0)));
        if (worst > 1.0 || check.lowestSDot() < -1e-9)
        {
            System.err.printf(Locale.ROOT, "%s: the retimed path exceeds a limit on the dense check (|tau| %.4f, |qd| %.4f, "
                + "|qdd| %.4f, |tau-dot| %.4f of the limits, lowest s-dot %.3g); nothing written%n", COMMAND, check.effortRatio(),
                check.velocityRatio(), check.accelerationRatio(), check.torqueRateRatio(), check.lowestSDot());
            return NectlCommand.INTERNAL_ERROR_EXIT_STATUS;
        }
        final double[] times = LawWaypoints.times(path, result.law(), waypointMs * 1e-3);
        if (times.length > MAX_WAYPOINTS)
        {
            System.err.printf(Locale.ROOT, "%s: %d waypoints at --waypoint-ms %s exceed the %d of one trajectory segment; "
                + "give a larger --waypoint-ms%n", COMMAND, times.length, waypointMs, MAX_WAYPOINTS);
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        if (!writeOutputs(retimedCsv(path, result.law(), times),
            () -> retimeReportJson(model, optimum, withoutRateLimit, result, solveS, share, reserve, times.length)))
        {
            return NectlCommand.USAGE_EXIT_STATUS;
        }
        System.out.printf(Locale.ROOT, "%s: retimed %d waypoints: T = %.4f s (second-order optimum %.4f s), %d passes, "
            + "%.1f ms; peak |tau| %.4f, |qd| %.4f, |tau-dot| %.4f of the limits; wrote %d waypoints to %s%s%n", COMMAND,
            waypoints.length, result.law().durationS(), optimum.durationS(), result.passes(), solveS * 1e3, check.effortRatio(),
            check.velocityRatio(), check.torqueRateRatio(), times.length, output, report == null ? "" : " and " + report);
        return 0;
    }

    /** The retimed path's positions at the given times (the last at s = 1 exactly). */
    private String retimedCsv(final JointPath path, final SmoothTimeLaw law, final double[] times)
    {
        final int dof = path.dof();
        final StringBuilder text = new StringBuilder();
        text.append("# nectl optimize --retime: ").append(retimePath.getFileName()).append(" on ")
            .append(modelFile.getFileName()).append(", T = ").append(law.durationS()).append(" s\n");
        text.append('t');
        for (int j = 1; j <= dof; j++)
        {
            text.append(",q").append(j);
        }
        text.append('\n');
        final double[] q = new double[dof];
        final double[] scratch = new double[dof];
        final double[] state = new double[4];
        for (int k = 0; k < times.length; k++)
        {
            law.at(times[k], state);
            path.evaluate(k == times.length - 1 ? 1.0 : state[0], q, scratch, scratch.clone(), scratch.clone());
            text.append(String.format(Locale.ROOT, "%.9f", times[k]));
            for (final double v : q)
            {
                // shortest round-trip form: the sampler's difference quotients over 0.1 ms need every digit
                text.append(',').append(v);
            }
            text.append('\n');
        }
        return text.toString();
    }

    private String retimeReportJson(final RobotModel model, final PathRetimer.Timing optimum,
        final PathRetimer.Result withoutRateLimit, final PathRetimer.Result result, final double solveS, final double share,
        final double reserve, final int waypointCount) throws IOException
    {
        final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        final ObjectNode root = mapper.createObjectNode();
        root.put("model", model.name());
        root.put("objective", "time-optimal retiming of a path");
        root.put("path", retimePath.toString());
        root.put("gridIntervals", gridPoints);
        root.put("limitShare", share);
        root.put("clockReserve", reserve);
        root.put("durationS", result.law().durationS());
        root.put("durationSecondOrderOptimumS", optimum.durationS());
        if (withoutRateLimit != null)
        {
            root.put("durationWithoutTorqueRateLimitS", withoutRateLimit.law().durationS());
            root.put("torqueRateLimitCostS", result.law().durationS() - withoutRateLimit.law().durationS());
        }
        root.put("torqueRateLimits", torqueRateLimits);
        root.put("passes", result.passes());
        root.put("solveTimeS", solveS);
        root.put("waypointMs", waypointMs);
        root.put("waypoints", waypointCount);
        root.put("widestRampS", result.law().widestRampS());
        final PathRetimer.Check check = result.check();
        final ObjectNode dense = root.putObject("denseCheck");
        dense.put("method", "plain recursive Newton-Euler for tau, the torque-derivative recursion for tau-dot, on a grid "
            + CHECK_FACTOR + "x the retiming grid plus the law's breakpoints; ratios to share x limit, clock reserve included");
        dense.put("gridPoints", check.gridPoints());
        dense.put("effortRatio", check.effortRatio());
        dense.put("velocityRatio", check.velocityRatio());
        dense.put("accelerationRatio", check.accelerationRatio());
        dense.put("torqueRateRatio", check.torqueRateRatio());
        if (withoutRateLimit != null)
        {
            dense.put("torqueRateRatioWithoutTheLimit", withoutRateLimit.check().torqueRateRatio());
        }
        final ArrayNode peaks = dense.putArray("peakEffort");
        for (final double v : check.peakEffort())
        {
            peaks.add(v);
        }
        final ArrayNode rates = dense.putArray("peakTorqueRate");
        for (final double v : check.peakTorqueRate())
        {
            rates.add(v);
        }
        final ObjectNode profile = root.putObject("profile");
        final ArrayNode s = profile.putArray("s");
        final ArrayNode t = profile.putArray("timeS");
        final ArrayNode sdot = profile.putArray("sDot");
        final PathRetimer.Timing timing = result.profile();
        for (int i = 0; i < timing.s().length; i++)
        {
            s.add(timing.s()[i]);
            t.add(timing.t()[i] + result.law().profileStartS());
            sdot.add(Math.sqrt(Math.max(0.0, timing.x()[i])));
        }
        return mapper.writeValueAsString(root) + "\n";
    }

    /** The report's text, formed only when a report is asked for. */
    @FunctionalInterface
    private interface ReportText
    {
        String text() throws IOException;
    }

    /**
     * Writes the trajectory and, if asked for, the report: each to a temporary file first, then renamed
     * into place, so a failure leaves no file that looks like a result.
     *
     * @return false, with the reason on stderr, if a file could not be written.
     */
    private boolean writeOutputs(final String csvText, final ReportText reportText)
    {
        try
        {
            final Path csvTemp = writeTemporary(output, csvText);
            final Path reportTemp = report == null ? null : writeTemporary(report, reportText.text());
            moveIntoPlace(csvTemp, output);
            if (reportTemp != null)
            {
                moveIntoPlace(reportTemp, report);
            }
            return true;
        }
        catch (final FileAlreadyExistsException e)
        {
            System.err.println(COMMAND + ": " + e.getFile() + " exists (use --force to replace it)");
            return false;
        }
        catch (final IOException e)
        {
            System.err.println(COMMAND + ": cannot write: " + e.getMessage());
            return false;
        }
    }

    /** Writes the text to a new hidden file beside the target, so the move into place is a rename. */
    private static Path writeTemporary(final Path target, final String text) throws IOException
    {
        final Path directory = target.toAbsolutePath().getParent();
        final Path temporary = Files.createTempFile(directory, "." + target.getFileName(), ".tmp");
        try (BufferedWriter writer = OutputFiles.newWriter(temporary, true))
        {
            writer.write(text);
        }
        catch (final IOException e)
        {
            Files.deleteIfExists(temporary);
            throw e;
        }
        return temporary;
    }

    private void moveIntoPlace(final Path temporary, final Path target) throws IOException
    {
        try
        {
            if (force)
            {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            else
            {
                Files.move(temporary, target);
            }
        }
        catch (final IOException e)
        {
            Files.deleteIfExists(temporary);
            throw e;
        }
    }
}
