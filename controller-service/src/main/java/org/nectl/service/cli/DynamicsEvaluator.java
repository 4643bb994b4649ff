package org.nectl.service.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Iterator;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.InverseDynamicsDerivatives;
import org.nectl.core.dynamics.RecursiveForwardDynamics;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;

/**
 * Evaluates one JSON request line of {@code nectl dynamics} against a model. Numbers are written
 * with {@link Double#toString(double)}, which reads back to the same double. Not thread safe; not
 * real-time safe.
 */
final class DynamicsEvaluator
{
    private static final double[] DEFAULT_GRAVITY = {0.0, 0.0, -9.81};
    /** The parser's message for NaN and Infinity, naming the token. */
    private static final Pattern NON_STANDARD_TOKEN = Pattern.compile("^Non-standard token '([^']*)'");
    /** The parser's own location of an earlier mark, naming its input source; the line is always 1 here. */
    private static final Pattern PARSER_SOURCE_LOCATION = Pattern.compile("\\[Source: .*?; line: \\d+, column: (\\d+)\\]");
    /** The parser's advice to switch on one of its features, which a user of the command cannot do. */
    private static final Pattern PARSER_FEATURE_HINT = Pattern.compile("[:;]?\\s*\\(?[Ee]nable `[^`]*` to allow\\)?");

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonFactory factory = new JsonFactory();
    private final RobotModel model;
    private final InverseDynamics inverseDynamics;
    private final TorqueDerivative torqueDerivative;
    private final InverseDynamicsDerivatives derivatives;
    private final RecursiveForwardDynamics forwardDynamics;
    /** Each request's gravity, passed to every algorithm. */
    private final AppliedLoads loads;
    private final double[] tau;
    private final double[] tauDot;
    private final double[] forwardQdd;
    private final double[] dtauDq;
    private final double[] dtauDqd;
    private final double[] massMatrix;
    private final boolean reactions;
    private final double[] reactionWrench = new double[6];
    private final double[] reactionDq;
    private final double[] reactionDqd;
    private final double[] reactionDqdd;

    DynamicsEvaluator(final RobotModel model, final boolean jointFriction)
    {
        this(model, jointFriction, false);
    }

    /**
     * @param reactions also print each body's joint reaction wrench and its sensitivities
     *        (Barman 2020, the internal joint forces of Section 3).
     */
    DynamicsEvaluator(final RobotModel model, final boolean jointFriction, final boolean reactions)
    {
        this.model = model;
        this.reactions = reactions;
        final CompiledModel compiled = CompiledModel.of(model);
        inverseDynamics = new InverseDynamics(compiled);
        torqueDerivative = new TorqueDerivative(compiled);
        derivatives = new InverseDynamicsDerivatives(compiled);
        forwardDynamics = new RecursiveForwardDynamics(compiled);
        loads = new AppliedLoads(compiled);
        inverseDynamics.jointFriction(jointFriction);
        torqueDerivative.jointFriction(jointFriction);
        derivatives.jointFriction(jointFriction);
        forwardDynamics.jointFriction(jointFriction);
        final int n = model.dof();
        tau = new double[n];
        tauDot = new double[n];
        forwardQdd = new double[n];
        dtauDq = new double[n * n];
        dtauDqd = new double[n * n];
        massMatrix = new double[n * n];
        reactionDq = new double[6 * n];
        reactionDqd = new double[6 * n];
        reactionDqdd = new double[6 * n];
    }

    /**
     * Evaluates every line of {@code in}, writing one result or error line per non-blank input line.
     *
     * @return true if no line failed.
     */
    boolean evaluateLines(final BufferedReader in, final PrintWriter out) throws IOException
    {
        return evaluateLines(in, out, this::evaluate);
    }

    /**
     * Evaluates every non-blank line of {@code in} with {@code evaluator}, writing its result, or
     * {@code {"line":N,"error":".."}}, one line per input line.
     *
     * @return true if no line failed.
     */
    static boolean evaluateLines(final BufferedReader in, final PrintWriter out, final LineEvaluator evaluator)
        throws IOException
    {
        boolean allGood = true;
        int lineNumber = 0;
        String line;
        while ((line = in.readLine()) != null)
        {
            lineNumber++;
            if (line.isBlank())
            {
                continue;
            }
            try
            {
                out.println(evaluator.evaluate(line));
            }
            catch (final RequestException e)
            {
                allGood = false;
                out.println(error(lineNumber, e.getMessage()));
            }
        }
        return allGood;
    }

    /**
     * @param line one JSON object.
     * @return the JSON result line.
     * @throws RequestException naming the field, value and rule when the request is invalid.
     */
    String evaluate(final String line) throws RequestException
    {
        final JsonNode request = parse(line);
        final int n = model.dof();
        final double[] q = vector(request, "q", n, true);
        final double[] qd = vector(request, "qd", n, true);
        final double[] appliedTau = vector(request, "tau", n, false);
        final double[] qdd = vector(request, "qdd", n, appliedTau == null);
        final double[] qddd = vector(request, "qddd", n, false);
        final double[] gravity = request.has("gravity") ? vector(request, "gravity", 3, true) : DEFAULT_GRAVITY;
        loads.gravity(gravity[0], gravity[1], gravity[2]);
        readLoads(request);
        if (appliedTau != null && !forwardDynamics.compute(q, qd, appliedTau, loads, forwardQdd))
        {
            throw new RequestException("forward dynamics failed: the mass matrix is singular at this q");
        }
        // Without an explicit qdd, the inverse-dynamics outputs are evaluated at the forward-dynamics qdd.
        final double[] qddUsed = qdd != null ? qdd : forwardQdd;
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = factory.createGenerator(text))
        {
            json.writeStartObject();
            if (qddd == null)
            {
                inverseDynamics.compute(q, qd, qddUsed, loads, tau);
                writeArray(json, "tau", tau);
            }
            else
            {
                torqueDerivative.compute(q, qd, qddUsed, qddd, loads, tau, tauDot);
                writeArray(json, "tau", tau);
                writeArray(json, "tau_dot", tauDot);
            }
            derivatives.compute(q, qd, qddUsed, loads, tau, dtauDq, dtauDqd, massMatrix);
            writeMatrix(json, "M", massMatrix, n);
            writeMatrix(json, "dtau_dq", dtauDq, n);
            writeMatrix(json, "dtau_dqd", dtauDqd, n);
            if (appliedTau != null)
            {
                writeArray(json, "qdd", forwardQdd);
            }
            if (reactions)
            {
                writeReactions(json);
            }
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
        return parseObject(mapper, line, DynamicsEvaluator::isKnownField, "q, qd, qdd, qddd, tau, gravity, loads");
    }

    /**
     * @param mapper the JSON reader.
     * @param line one request line.
     * @param known which field names the request may hold.
     * @param knownList those names, for the message.
     * @return the request object.
     * @throws RequestException for malformed JSON, a non-object, or an unknown field.
     */
    static JsonNode parseObject(
        final ObjectMapper mapper, final String line, final Predicate<String> known, final String knownList)
        throws RequestException
    {
        final JsonNode request;
        try
        {
            request = mapper.readTree(line);
        }
        catch (final JsonProcessingException e)
        {
            throw new RequestException(malformed(e));
        }
        if (request == null || !request.isObject())
        {
            throw new RequestException("expected a JSON object");
        }
        final Iterator<String> names = request.fieldNames();
        while (names.hasNext())
        {
            final String name = names.next();
            if (!known.test(name))
            {
                throw new RequestException("unknown field '" + name + "' (known: " + knownList + ")");
            }
        }
        return request;
    }

    static String malformed(final JsonProcessingException e)
    {
        final String original = String.valueOf(e.getOriginalMessage());
        final Matcher token = NON_STANDARD_TOKEN.matcher(original);
        final boolean nonStandardToken = token.find();
        final JsonLocation location = e.getLocation();
        // The parser reports where it stopped: after a non-standard token, so its start is the token's length back.
        final int column = location == null ? -1
            : location.getColumnNr() - (nonStandardToken ? token.group(1).length() : 0);
        final String reason = PARSER_SOURCE_LOCATION.matcher(PARSER_FEATURE_HINT.matcher(original).replaceAll("").trim())
            .replaceAll("column $1");
        return "malformed JSON" + (column > 0 ? " at column " + column : "") + ": " + reason
            + (nonStandardToken ? " (JSON has no NaN or Infinity; every number must be finite)" : "");
    }

    private static boolean isKnownField(final String name)
    {
        switch (name)
        {
            case "q":
            case "qd":
            case "qdd":
            case "qddd":
            case "gravity":
            case "loads":
            case "tau":
                return true;
            default:
                return false;
        }
    }

    static double[] vector(final JsonNode request, final String field, final int length, final boolean required)
        throws RequestException
    {
        final JsonNode node = request.get(field);
        if (node == null || node.isNull())
        {
            if (required)
            {
                throw new RequestException("missing field '" + field + "' (array of " + length + " numbers)");
            }
            return null;
        }
        if (!node.isArray())
        {
            throw new RequestException("field '" + field + "' must be an array of " + length + " numbers, got " + node);
        }
        if (node.size() != length)
        {
            throw new RequestException(
                "field '" + field + "' has " + node.size() + " elements; the model needs " + length);
        }
        final double[] v = new double[length];
        for (int i = 0; i < length; i++)
        {
            final JsonNode element = node.get(i);
            if (!element.isNumber())
            {
                throw new RequestException("field '" + field + "'[" + i + "] is " + element + ", not a number");
            }
            v[i] = element.doubleValue();
            if (!Double.isFinite(v[i]))
            {
                throw new RequestException("field '" + field + "'[" + i + "] = " + element + " is not finite");
            }
        }
        return v;
    }

    /**
     * The optional {@code loads}: an array of objects, each naming a {@code body} and giving any of
     * {@code wrench} (6: force N, moment N m about the body origin, body frame; body-fixed),
     * {@code world_force} (3, N, base frame) acting at {@code at} (3, m, body frame, default the
     * origin), {@code world_moment} (3, N m, base frame). A body named twice keeps the last of each.
     */
    private void readLoads(final JsonNode request) throws RequestException
    {
        loads.clear();
        final JsonNode list = request.get("loads");
        if (list == null || list.isNull())
        {
            return;
        }
        if (!list.isArray())
        {
            throw new RequestException("field 'loads' must be an array of objects, got " + list);
        }
        for (int i = 0; i < list.size(); i++)
        {
            final JsonNode load = list.get(i);
            final String where = "loads[" + i + "]";
            if (!load.isObject() || !load.path("body").isTextual())
            {
                throw new RequestException(where + " must be an object with a 'body' name, got " + load);
            }
            final int body = model.bodyIndex(load.get("body").asText());
            if (body < 0)
            {
                throw new RequestException(where + ".body '" + load.get("body").asText() + "' is not a body of the model");
            }
            final Iterator<String> names = load.fieldNames();
            while (names.hasNext())
            {
                final String name = names.next();
                if (!name.equals("body") && !name.equals("wrench") && !name.equals("world_force") && !name.equals("at")
                    && !name.equals("world_moment"))
                {
                    throw new RequestException(
                        "unknown field " + where + "." + name + " (known: body, wrench, world_force, at, world_moment)");
                }
            }
            final double[] w = vector(load, "wrench", 6, false);
            if (w != null)
            {
                loads.bodyWrench(body, w[0], w[1], w[2], w[3], w[4], w[5]);
            }
            final double[] f = vector(load, "world_force", 3, false);
            final double[] at = vector(load, "at", 3, false);
            if (f != null)
            {
                final double[] p = at != null ? at : new double[3];
                loads.worldForce(body, p[0], p[1], p[2], f[0], f[1], f[2]);
            }
            final double[] m = vector(load, "world_moment", 3, false);
            if (m != null)
            {
                loads.worldMoment(body, m[0], m[1], m[2]);
            }
        }
    }

    static void writeArray(final JsonGenerator json, final String name, final double[] values) throws IOException
    {
        json.writeArrayFieldStart(name);
        for (final double v : values)
        {
            json.writeNumber(v);
        }
        json.writeEndArray();
    }

    /**
     * One object per body, in description order: the wrench its parent exerts on it through its
     * joint (force, then moment about the body-frame origin, both in the body frame) and that
     * wrench's 6 x dof sensitivities, rows in wrench order.
     */
    private void writeReactions(final JsonGenerator json) throws IOException
    {
        final int n = model.dof();
        json.writeArrayFieldStart("reactions");
        for (int body = 0; body < model.bodyCount(); body++)
        {
            derivatives.reactionWrench(body, reactionWrench);
            derivatives.reactionWrenchDerivatives(body, reactionDq, reactionDqd, reactionDqdd);
            json.writeStartObject();
            json.writeStringField("body", model.bodyName(body));
            json.writeStringField("joint", model.jointName(body));
            writeArray(json, "wrench", reactionWrench);
            writeMatrix(json, "dwrench_dq", reactionDq, 6, n);
            writeMatrix(json, "dwrench_dqd", reactionDqd, 6, n);
            writeMatrix(json, "dwrench_dqdd", reactionDqdd, 6, n);
            json.writeEndObject();
        }
        json.writeEndArray();
    }

    private static void writeMatrix(final JsonGenerator json, final String name, final double[] rowMajor, final int n)
        throws IOException
    {
        writeMatrix(json, name, rowMajor, n, n);
    }

    private static void writeMatrix(
        final JsonGenerator json, final String name, final double[] rowMajor, final int rows, final int columns)
        throws IOException
    {
        json.writeArrayFieldStart(name);
        for (int i = 0; i < rows; i++)
        {
            json.writeStartArray();
            for (int j = 0; j < columns; j++)
            {
                json.writeNumber(rowMajor[i * columns + j]);
            }
            json.writeEndArray();
        }
        json.writeEndArray();
    }

    private static String error(final int lineNumber, final String message)
    {
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = new JsonFactory().createGenerator(text))
        {
            json.writeStartObject();
            json.writeNumberField("line", lineNumber);
            json.writeStringField("error", message);
            json.writeEndObject();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return text.toString();
    }

    /** Evaluates one request line. */
    @FunctionalInterface
    interface LineEvaluator
    {
        /**
         * @param line one JSON object.
         * @return the JSON result line.
         * @throws RequestException naming the field, value and rule when the request is invalid.
         */
        String evaluate(String line) throws RequestException;
    }

    /** A request line that cannot be evaluated; the message names field, value and rule. */
    static final class RequestException extends Exception
    {
        RequestException(final String message)
        {
            super(message);
        }
    }
}
