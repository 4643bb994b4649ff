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
        "(docs/ROBOT_DESCRIPTIONS.md, \"Closed-loop robots\")."
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
        final DynamicsEvaluator evaluator = new DynamicsEvaluator(model, friction, reactions);
        final boolean allGood = evaluator.evaluateLines(in, out);
        out.flush();
        return allGood ? 0 : 1;
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
