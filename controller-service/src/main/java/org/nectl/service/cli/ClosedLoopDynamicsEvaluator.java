package org.nectl.service.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.service.cli.DynamicsEvaluator.RequestException;

/**
 * Evaluates {@code nectl dynamics} request lines against a closed-loop robot, in its active
 * coordinates: {@code {"q":[..],"qd":[..],"qdd":[..],"tau":[..],"gravity":[..]}} with N active values
 * each; the passive joints are solved by Newton from the home configuration for every line. Writes
 * {@code tau} (Gamma_c = G^T Gamma_tree, when qdd is given), {@code qdd} (direct dynamics of the given
 * tau), the tree state {@code q_tree}, {@code qd_tree}, and Newton's iterations and closure residual.
 * Not thread safe; not real-time safe.
 */
final class ClosedLoopDynamicsEvaluator
{
    private static final double[] DEFAULT_GRAVITY = {0.0, 0.0, -9.81};
    private static final List<String> FIELDS = List.of("q", "qd", "qdd", "tau", "gravity");

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonFactory factory = new JsonFactory();
    private final ClosedLoopModel model;
    private final ClosedLoopDynamics dynamics;
    private final LoopGeometry geometry;

    ClosedLoopDynamicsEvaluator(final ClosedLoopModel model, final boolean jointFriction)
    {
        this.model = model;
        dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree()));
        dynamics.jointFriction(jointFriction);
        geometry = new LoopGeometry(model);
    }

    /** @return true if no line failed. */
    boolean evaluateLines(final BufferedReader in, final PrintWriter out) throws IOException
    {
        return DynamicsEvaluator.evaluateLines(in, out, this::evaluate);
    }

    String evaluate(final String line) throws RequestException
    {
        final JsonNode request = parse(line);
        final int na = model.activeCount();
        final double[] qa = DynamicsEvaluator.vector(request, "q", na, true);
        final double[] qd = DynamicsEvaluator.vector(request, "qd", na, true);
        final double[] tau = DynamicsEvaluator.vector(request, "tau", na, false);
        final double[] qdd = DynamicsEvaluator.vector(request, "qdd", na, tau == null);
        final double[] gravity = request.has("gravity")
            ? DynamicsEvaluator.vector(request, "gravity", 3, true) : DEFAULT_GRAVITY;
        dynamics.gravity(gravity[0], gravity[1], gravity[2]);
        final double[] q = model.home();
        for (int a = 0; a < na; a++)
        {
            q[model.activeCoordinate(a)] = qa[a];
        }
        final int status = geometry.solvePassive(q);
        if (status == LoopGeometry.SINGULAR)
        {
            throw new RequestException("the passive joints are not determined by the active ones at q: the constraint"
                + " Jacobian of the passive joints has pivot ratio " + geometry.pivotRatio() + " after "
                + geometry.iterations() + " Newton iterations from home");
        }
        if (status != LoopGeometry.CONVERGED)
        {
            throw new RequestException("the loops do not close at q: closure residual " + geometry.residualNorm()
                + " after " + geometry.iterations() + " Newton iterations from home");
        }
        final double[] gamma = new double[na];
        final double[] forward = new double[na];
        if (qdd != null && !dynamics.inverseDynamics(q, qd, qdd, gamma))
        {
            throw new RequestException("inverse dynamics failed: the passive joints are not determined at q");
        }
        if (tau != null && !dynamics.forwardDynamics(q, qd, tau, forward))
        {
            throw new RequestException("forward dynamics failed: the projected mass matrix A_c is singular at q");
        }
        return result(qdd == null ? null : gamma, tau == null ? null : forward, q);
    }

    private String result(final double[] gamma, final double[] forward, final double[] q)
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = factory.createGenerator(text))
        {
            json.writeStartObject();
            if (gamma != null)
            {
                DynamicsEvaluator.writeArray(json, "tau", gamma);
            }
            if (forward != null)
            {
                DynamicsEvaluator.writeArray(json, "qdd", forward);
            }
            DynamicsEvaluator.writeArray(json, "q_tree", q);
            DynamicsEvaluator.writeArray(json, "qd_tree", dynamics.treeVelocities());
            json.writeNumberField("newton_iterations", geometry.iterations());
            json.writeNumberField("closure_residual", geometry.residualNorm());
            json.writeEndObject();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return text.toString();
    }

    private JsonNode parse(final String line) throws RequestException
    {
        return DynamicsEvaluator.parseObject(mapper, line, FIELDS::contains,
            "for a closed-loop robot " + String.join(", ", FIELDS));
    }
}
