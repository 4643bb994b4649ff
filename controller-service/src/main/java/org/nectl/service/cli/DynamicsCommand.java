package org.nectl.service.cli;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import org.nectl.config.ClosedLoopDescriptions;
import org.nectl.config.DescriptionException;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.mobile.BasePose;
import org.nectl.core.model.RobotModel;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code nectl dynamics --model FILE}: evaluates the dynamics of a robot description for each JSON
 * line read from standard input and writes one JSON line per input. Not real-time safe.
 */
@Command(
    name = "dynamics",
    mixinStandardHelpOptions = true,
    description = {
        "Reads JSON Lines from stdin, one state per line:",
        "  {\"q\":[..],\"qd\":[..],\"qdd\":[..],\"qddd\":[..],\"gravity\":[gx,gy,gz]}",
        "(qddd optional; gravity optional, default [0,0,-9.81] m/s^2 in the base frame)",
        "and optionally \"tau\":[..] (applied joint forces), and writes one JSON line per input:",
        "  {\"tau\":[..],\"tau_dot\":[..],\"M\":[[..],..],\"dtau_dq\":[[..],..],\"dtau_dqd\":[[..],..],\"qdd\":[..]}",
        "(tau_dot when qddd was given; qdd = forward dynamics of the given tau; qdd may then be omitted,",
        "and the other outputs are evaluated at that forward-dynamics qdd; matrix row i = d tau_i / d .).",
        "--reactions adds \"reactions\": one object per body with its joint reaction wrench and its",
        "sensitivities (docs/PLANNING.md, \"nectl dynamics\").",
        "A bad line yields {\"line\":N,\"error\":\"..\"}; processing goes on; exit status 1 if any line failed.",
        "A closed-loop description (a closure section) takes and gives the ACTIVE joints: q, qd, qdd, tau of length N;",
        "it writes tau (= G^T Gamma_tree), qdd, q_tree, qd_tree, newton_iterations, closure_residual",
        "(docs/ROBOT_DESCRIPTIONS.md, \"Closed-loop robots\").",
        "A floating-base description (URDF floating joint, YAML base_type: floating) also takes",
        "  \"base_pose\":[x,y,z,qw,qx,qy,qz] (world position, m; unit quaternion of the base's orientation),",
        "  \"base_twist\":[vx,vy,vz,wx,wy,wz] (base origin's velocity and angular velocity, base coordinates),",
        "  \"base_acceleration\":[..6] (time derivative of the twist's base coordinates), gravity in the world;",
        "with qdd it writes tau and base_acceleration (free base), or tau and base_wrench (the wrench needed on",
        "the base, force then moment about its origin, base coordinates) when base_acceleration is given;",
        "with tau it writes qdd and base_acceleration (docs/ROBOT_DESCRIPTIONS.md, \"Floating base\")."
    })
final class DynamicsCommand implements Callable<Integer>
{
    @Option(names = "--model", required = true, paramLabel = "FILE", description = "Robot description (.yaml, .urdf).")
    private Path modelFile;

    @Option(names = "--friction", description = "Add the description's joint friction (Coulomb Fs sign(qd) + viscous "
        + "Fv qd; URDF <dynamics friction damping>) to every output. Default: rigid-body dynamics plus rotor inertia, "
        + "as rigid-body libraries compute them.")
    private boolean friction;

    @Option(names = "--reactions", description = "Also print each body's joint reaction wrench (the force and moment "
        + "its parent exerts on it, body frame, moment about the body origin) and its derivatives with respect to "
        + "q, qd and qdd.")
    private boolean reactions;

    @Option(names = "--base-pose", split = ",", hideParamSyntax = true, paramLabel = "X,Y,Z,QW,QX,QY,QZ", description = "Floating base: "
        + "the pose of lines without base_pose (default 0,0,0,1,0,0,0).")
    private double[] basePose;

    @Option(names = "--base-twist", split = ",", hideParamSyntax = true, paramLabel = "VX,VY,VZ,WX,WY,WZ", description = "Floating base: "
        + "the twist of lines without base_twist, base coordinates (default at rest).")
    private double[] baseTwist;

    @Option(names = "--base-acceleration", split = ",", hideParamSyntax = true, paramLabel = "VDX,VDY,VDZ,WDX,WDY,WDZ", description = "Floating "
        + "base: the base acceleration of lines without base_acceleration (default: none, the base is free).")
    private double[] baseAcceleration;

    @Override
    public Integer call() throws IOException
    {
        final BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        final PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8)));
        if (ClosedLoopDescriptions.isClosedLoop(modelFile))
        {
            return closedLoop(in, out);
        }
        final RobotModel model = ModelCommand.loadOrReport(modelFile, "nectl dynamics");
        if (model == null)
        {
            return 2;
        }
        if (model.floatingBase() || basePose != null || baseTwist != null || baseAcceleration != null)
        {
            return floatingBase(model, in, out);
        }
        final DynamicsEvaluator evaluator = new DynamicsEvaluator(model, friction, reactions);
        final boolean allGood = evaluator.evaluateLines(in, out);
        out.flush();
        return allGood ? 0 : 1;
    }

    /** A floating base: base options checked before any input is read (exit status 2), then line by line. */
    private int floatingBase(final RobotModel model, final BufferedReader in, final PrintWriter out) throws IOException
    {
        final String problem = baseOptionsProblem(model);
        if (problem != null)
        {
            System.err.println("nectl dynamics: " + problem);
            return 2;
        }
        final double[] pose = basePose != null ? basePose : new double[] {0, 0, 0, 1, 0, 0, 0};
        final double[] twist = baseTwist != null ? baseTwist : new double[BasePose.TWIST_SIZE];
        final boolean allGood = new FloatingBaseDynamicsEvaluator(model, friction, pose, twist, baseAcceleration)
            .evaluateLines(in, out);
        out.flush();
        return allGood ? 0 : 1;
    }

    private String baseOptionsProblem(final RobotModel model)
    {
        if (!model.floatingBase())
        {
            return "--base-pose, --base-twist and --base-acceleration need a floating base; " + modelFile
                + " has a fixed base ('" + model.baseName() + "')";
        }
        if (reactions)
        {
            return "--reactions is not available for a floating-base robot (" + modelFile + ")";
        }
        final String length = wrongLength("--base-pose", basePose, BasePose.POSE_SIZE);
        if (length != null)
        {
            return length;
        }
        final String twistLength = wrongLength("--base-twist", baseTwist, BasePose.TWIST_SIZE);
        if (twistLength != null)
        {
            return twistLength;
        }
        final String accelerationLength = wrongLength("--base-acceleration", baseAcceleration, BasePose.TWIST_SIZE);
        if (accelerationLength != null)
        {
            return accelerationLength;
        }
        final String invalid = BasePose.check(basePose, baseTwist, baseAcceleration);
        return invalid == null ? null : invalid.replaceFirst("^base_(pose|twist|acceleration)", "--base-$1");
    }

    private static String wrongLength(final String option, final double[] values, final int length)
    {
        return values == null || values.length == length ? null
            : option + " has " + values.length + " values; expected " + length;
    }

    /** A description with a closure section, evaluated in its active coordinates. */
    private int closedLoop(final BufferedReader in, final PrintWriter out) throws IOException
    {
        final ClosedLoopModel model;
        try
        {
            model = ClosedLoopDescriptions.load(modelFile);
        }
        catch (final DescriptionException e)
        {
            System.err.println("nectl dynamics: " + e.getMessage());
            return 2;
        }
        if (reactions)
        {
            System.err.println("nectl dynamics: --reactions is not available for a closed-loop robot ("
                + modelFile + " has a closure section)");
            return 2;
        }
        final boolean allGood = new ClosedLoopDynamicsEvaluator(model, friction).evaluateLines(in, out);
        out.flush();
        return allGood ? 0 : 1;
    }
}
