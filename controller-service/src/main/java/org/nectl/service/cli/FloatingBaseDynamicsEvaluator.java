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

import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.mobile.BasePose;
import org.nectl.core.mobile.FreeBaseForwardDynamics;
import org.nectl.core.mobile.FreeBaseInverseDynamics;
import org.nectl.core.model.RobotModel;
import org.nectl.service.cli.DynamicsEvaluator.RequestException;

/**
 * Evaluates {@code nectl dynamics} request lines against a robot with a floating base (base state
 * as {@link BasePose} defines it):
 * <ul>
 * <li>{@code qdd} given: the free base's {@code base_acceleration} and the joints' {@code tau}
 * ({@link FreeBaseInverseDynamics#compute});</li>
 * <li>{@code qdd} and {@code base_acceleration} given: {@code tau} and the {@code base_wrench} that must act on
 * the base from outside for that motion ({@link FreeBaseInverseDynamics#computeWithBaseAcceleration});</li>
 * <li>{@code tau} given: {@code qdd} and {@code base_acceleration} ({@link FreeBaseForwardDynamics}).</li>
 * </ul>
 * {@code base_pose} and {@code base_twist} default to the command's options (identity at the world
 * origin, at rest); {@code gravity} is the world's. Not thread safe; not real-time safe.
 */
final class FloatingBaseDynamicsEvaluator
{
    private static final double[] DEFAULT_GRAVITY = {0.0, 0.0, -9.81};
    private static final List<String> FIELDS =
        List.of("q", "qd", "qdd", "tau", "gravity", "base_pose", "base_twist", "base_acceleration");

    private final ObjectMapper mapper = new ObjectMapper();
    private final JsonFactory factory = new JsonFactory();
    private final RobotModel model;
    private final FreeBaseInverseDynamics inverse;
    private final FreeBaseForwardDynamics direct;
    private final double[] defaultPose;
    private final double[] defaultTwist;
    private final double[] defaultAcceleration;

    /**
     * @param model a robot with a floating base.
     * @param jointFriction add the description's joint friction.
     * @param pose base pose for lines without {@code base_pose}.
     * @param twist base twist for lines without {@code base_twist}.
     * @param acceleration base acceleration for lines without {@code base_acceleration}, or null (a free base).
     */
    FloatingBaseDynamicsEvaluator(final RobotModel model, final boolean jointFriction, final double[] pose,
        final double[] twist, final double[] acceleration)
    {
        this.model = model;
        final CompiledModel compiled = CompiledModel.of(model);
        inverse = new FreeBaseInverseDynamics(compiled);
        direct = new FreeBaseForwardDynamics(compiled);
        inverse.jointFriction(jointFriction);
        direct.jointFriction(jointFriction);
        defaultPose = pose;
        defaultTwist = twist;
        defaultAcceleration = acceleration;
    }

    /** @return true if no line failed. */
    boolean evaluateLines(final BufferedReader in, final PrintWriter out) throws IOException
    {
        return DynamicsEvaluator.evaluateLines(in, out, this::evaluate);
    }

    String evaluate(final String line) throws RequestException
    {
        final JsonNode request = DynamicsEvaluator.parseObject(mapper, line, FIELDS::contains,
            "for a floating-base robot " + String.join(", ", FIELDS));
        final int n = model.dof();
        final double[] q = DynamicsEvaluator.vector(request, "q", n, true);
        final double[] qd = DynamicsEvaluator.vector(request, "qd", n, true);
        final double[] tau = DynamicsEvaluator.vector(request, "tau", n, false);
        final double[] qdd = DynamicsEvaluator.vector(request, "qdd", n, tau == null);
        final double[] gravity = request.has("gravity")
            ? DynamicsEvaluator.vector(request, "gravity", 3, true) : DEFAULT_GRAVITY;
        final double[] pose = orDefault(DynamicsEvaluator.vector(request, "base_pose", BasePose.POSE_SIZE, false), defaultPose);
        final double[] twist = orDefault(
            DynamicsEvaluator.vector(request, "base_twist", BasePose.TWIST_SIZE, false), defaultTwist);
        final double[] acceleration = orDefault(
            DynamicsEvaluator.vector(request, "base_acceleration", BasePose.TWIST_SIZE, false), defaultAcceleration);
        final String problem = BasePose.check(pose, twist, acceleration);
        if (problem != null)
        {
            throw new RequestException(problem);
        }
        if (tau != null && qdd != null)
        {
            throw new RequestException("give either qdd (inverse dynamics: tau and the base acceleration) or tau"
                + " (direct dynamics: qdd and the base acceleration), not both");
        }
        if (tau != null && acceleration != null)
        {
            throw new RequestException("base_acceleration is an input of inverse dynamics only (with qdd); with tau"
                + " the base acceleration is computed");
        }
        final double[] jointOut = new double[n];
        final double[] baseOut = new double[6];
        final StringWriter text = new StringWriter();
        try (JsonGenerator json = factory.createGenerator(text))
        {
            json.writeStartObject();
            if (tau != null)
            {
                requireSolvable(direct.compute(pose, twist, q, qd, tau, gravity, baseOut, jointOut));
                DynamicsEvaluator.writeArray(json, "qdd", jointOut);
                DynamicsEvaluator.writeArray(json, "base_acceleration", baseOut);
            }
            else if (acceleration != null)
            {
                inverse.computeWithBaseAcceleration(pose, twist, acceleration, q, qd, qdd, gravity, jointOut, baseOut);
                DynamicsEvaluator.writeArray(json, "tau", jointOut);
                DynamicsEvaluator.writeArray(json, "base_wrench", baseOut);
            }
            else
            {
                requireSolvable(inverse.compute(pose, twist, q, qd, qdd, gravity, baseOut, jointOut));
                DynamicsEvaluator.writeArray(json, "tau", jointOut);
                DynamicsEvaluator.writeArray(json, "base_acceleration", baseOut);
            }
            json.writeEndObject();
        }
        catch (final IOException e)
        {
            throw new IllegalStateException("writing to a string cannot fail", e);
        }
        return text.toString();
    }

    private static double[] orDefault(final double[] given, final double[] fallback)
    {
        return given != null ? given : fallback;
    }

    private static void requireSolvable(final boolean solved) throws RequestException
    {
        if (!solved)
        {
            throw new RequestException("the dynamics are singular at this q: a joint or the whole robot carries no"
                + " mass or inertia along its freedom");
        }
    }
}
