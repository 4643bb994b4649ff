package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.nectl.core.dynamics.AppliedLoads;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.dynamics.InverseDynamics;
import org.nectl.core.dynamics.TorqueDerivative;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;

class DynamicsEvaluatorTest
{
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void printedTorquesReadBackBitIdenticalToDirectEvaluation() throws Exception
    {
        for (long seed = 1; seed <= 20; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = model.dof();
            final double[] q = RandomRobots.vector(rnd, n, 2.0);
            final double[] qd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qdd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qddd = RandomRobots.vector(rnd, n, 2.0);
            final double[] gravity = RandomRobots.vector(rnd, 3, 10.0);
            final String request = "{\"q\":" + Arrays.toString(q) + ",\"qd\":" + Arrays.toString(qd)
                + ",\"qdd\":" + Arrays.toString(qdd) + ",\"qddd\":" + Arrays.toString(qddd)
                + ",\"gravity\":" + Arrays.toString(gravity) + "}";
            final JsonNode reply = mapper.readTree(new DynamicsEvaluator(model, true).evaluate(request));

            final TorqueDerivative direct = new TorqueDerivative(CompiledModel.of(model, gravity[0], gravity[1], gravity[2]));
            final double[] tau = new double[n];
            final double[] tauDot = new double[n];
            direct.compute(q, qd, qdd, qddd, tau, tauDot);
            for (int i = 0; i < n; i++)
            {
                assertEquals(tau[i], reply.get("tau").get(i).doubleValue(), 0.0, "seed " + seed + " tau " + i);
                assertEquals(tauDot[i], reply.get("tau_dot").get(i).doubleValue(), 0.0, "seed " + seed + " tau_dot " + i);
            }
        }
    }

    @Test
    void withoutJerkOnlyTorqueIsPrintedAndGravityDefaultsToMinusZ() throws Exception
    {
        final RobotModel model = RandomRobots.robot(7, 4, false, RandomRobots.Joints.MOVABLE, true);
        final double[] q = {0.1, -0.2, 0.3, 0.4};
        final JsonNode reply = mapper.readTree(new DynamicsEvaluator(model, false).evaluate(
            "{\"q\":[0.1,-0.2,0.3,0.4],\"qd\":[1,2,3,4],\"qdd\":[0,0,0,0]}"));
        assertFalse(reply.has("tau_dot"));
        final InverseDynamics direct = new InverseDynamics(CompiledModel.of(model));
        direct.jointFriction(false);
        final double[] tau = new double[4];
        direct.compute(q, new double[] {1, 2, 3, 4}, new double[4], tau);
        for (int i = 0; i < 4; i++)
        {
            assertEquals(tau[i], reply.get("tau").get(i).doubleValue(), 0.0, "joint " + i);
        }
    }

    @Test
    void massMatrixDerivativesAndForwardDynamicsAreConsistentWithTheTorques() throws Exception
    {
        for (long seed = 30; seed < 40; seed++)
        {
            final RobotModel model = RandomRobots.robot(seed, 5, true, RandomRobots.Joints.ALL, true);
            final int n = model.dof();
            final SplittableRandom rnd = new SplittableRandom(seed);
            final double[] q = RandomRobots.vector(rnd, n, 2.0);
            final double[] qd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qdd = RandomRobots.vector(rnd, n, 2.0);
            final DynamicsEvaluator evaluator = new DynamicsEvaluator(model, true);
            final JsonNode inverse = mapper.readTree(evaluator.evaluate("{\"q\":" + Arrays.toString(q)
                + ",\"qd\":" + Arrays.toString(qd) + ",\"qdd\":" + Arrays.toString(qdd) + "}"));
            assertEquals(n, inverse.get("M").size());
            assertEquals(n, inverse.get("dtau_dq").get(0).size());
            assertFalse(inverse.has("qdd"));
            final double[] tau = new double[n];
            for (int i = 0; i < n; i++)
            {
                tau[i] = inverse.get("tau").get(i).doubleValue();
            }
            // Forward dynamics of the printed torque returns the acceleration it came from.
            final JsonNode forward = mapper.readTree(evaluator.evaluate("{\"q\":" + Arrays.toString(q)
                + ",\"qd\":" + Arrays.toString(qd) + ",\"tau\":" + Arrays.toString(tau) + "}"));
            for (int i = 0; i < n; i++)
            {
                assertEquals(qdd[i], forward.get("qdd").get(i).doubleValue(), 1e-9 * (1 + Math.abs(qdd[i])), "seed " + seed);
                assertEquals(tau[i], forward.get("tau").get(i).doubleValue(), 1e-9 * (1 + Math.abs(tau[i])), "seed " + seed);
                for (int j = 0; j < n; j++)
                {
                    assertEquals(inverse.get("M").get(i).get(j).doubleValue(), inverse.get("M").get(j).get(i).doubleValue(),
                        1e-12, "M symmetric, seed " + seed);
                }
            }
        }
    }

    @Test
    void loadsGivenByBodyNameEnterTheTorquesAsInTheJavaApi() throws Exception
    {
        final RobotModel model = RandomRobots.robot(12, 4, true, RandomRobots.Joints.ALL, true);
        final int n = model.dof();
        final SplittableRandom rnd = new SplittableRandom(12);
        final double[] q = RandomRobots.vector(rnd, n, 2.0);
        final double[] qd = RandomRobots.vector(rnd, n, 2.0);
        final double[] qdd = RandomRobots.vector(rnd, n, 2.0);
        final String last = model.bodyName(model.bodyCount() - 1);
        final String first = model.bodyName(0);
        final JsonNode reply = mapper.readTree(new DynamicsEvaluator(model, false).evaluate("{\"q\":" + Arrays.toString(q)
            + ",\"qd\":" + Arrays.toString(qd) + ",\"qdd\":" + Arrays.toString(qdd) + ",\"loads\":["
            + "{\"body\":\"" + last + "\",\"world_force\":[1,-2,30],\"at\":[0.1,0,0.2],\"world_moment\":[0,1,0]},"
            + "{\"body\":\"" + first + "\",\"wrench\":[1,2,3,4,5,6]}]}"));
        final CompiledModel compiled = CompiledModel.of(model);
        final InverseDynamics direct = new InverseDynamics(compiled);
        direct.jointFriction(false);
        final AppliedLoads loads = new AppliedLoads(compiled)
            .worldForce(model.bodyCount() - 1, 0.1, 0, 0.2, 1, -2, 30).worldMoment(model.bodyCount() - 1, 0, 1, 0)
            .bodyWrench(0, 1, 2, 3, 4, 5, 6);
        final double[] tau = new double[n];
        direct.compute(q, qd, qdd, loads, tau);
        final double[] free = new double[n];
        direct.compute(q, qd, qdd, free);
        double change = 0.0;
        for (int i = 0; i < n; i++)
        {
            assertEquals(tau[i], reply.get("tau").get(i).doubleValue(), 0.0, "joint " + i);
            change = Math.max(change, Math.abs(tau[i] - free[i]));
        }
        assertTrue(change > 1e-3, "the loads must change the torques");
        final String badLine = "{\"q\":" + Arrays.toString(q) + ",\"qd\":" + Arrays.toString(qd) + ",\"qdd\":"
            + Arrays.toString(qdd) + ",\"loads\":[{\"body\":\"nowhere\",\"wrench\":[1,2,3,4,5,6]}]}";
        final Exception bad = assertThrows(Exception.class, () -> new DynamicsEvaluator(model, false).evaluate(badLine));
        assertEquals("loads[0].body 'nowhere' is not a body of the model", bad.getMessage());
    }

    @Test
    void badLinesAreReportedWithTheirLineNumberAndProcessingGoesOn() throws Exception
    {
        final RobotModel model = RandomRobots.robot(3, 2, false, RandomRobots.Joints.REVOLUTE, false);
        final String input = String.join("\n",
            "{\"q\":[0,0],\"qd\":[0,0],\"qdd\":[0,0]}",
            "",
            "{\"q\":[0],\"qd\":[0,0],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qd\":[0,\"x\"],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qd\":[0,0],\"qdd\":[0,0],\"qdot\":[0,0]}",
            "[1,2]",
            "{\"q\":[0,0],\"qd\":[0,0],\"qdd\":[0,0],\"gravity\":[0,0]}",
            "{broken",
            "{\"q\":[1e400,0],\"qd\":[0,0],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qd\":[0,0],\"qdd\":[0,0]}");
        final StringWriter output = new StringWriter();
        final boolean allGood = new DynamicsEvaluator(model, true).evaluateLines(
            new BufferedReader(new StringReader(input)), new PrintWriter(output, true));
        assertFalse(allGood);
        final String[] lines = output.toString().split("\n");
        assertEquals(10, lines.length, output.toString());
        assertTrue(mapper.readTree(lines[0]).has("tau"));
        assertError(lines[1], 3, "'q' has 1 elements; the model needs 2");
        assertError(lines[2], 4, "'qd'[1]");
        assertError(lines[3], 5, "missing field 'qd'");
        assertError(lines[4], 6, "unknown field 'qdot'");
        assertError(lines[5], 7, "expected a JSON object");
        assertError(lines[6], 8, "'gravity' has 2 elements; the model needs 3");
        assertError(lines[7], 9, "malformed JSON");
        assertError(lines[8], 10, "not finite");
        assertTrue(mapper.readTree(lines[9]).has("tau"));
    }

    @Test
    void malformedJsonIsReportedAtItsColumnWithoutTheParsersFeatureAdviceOrSourceDescription() throws Exception
    {
        final RobotModel model = RandomRobots.robot(3, 2, false, RandomRobots.Joints.REVOLUTE, false);
        final String input = String.join("\n",
            "{\"q\":[0,NaN],\"qd\":[0,0],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qd\":[-Infinity,0],\"qdd\":[0,0]}",
            "{\"q\":[0,0],\"qd\":[0,0],\"qdd\":[0,0]");
        final StringWriter output = new StringWriter();
        assertFalse(new DynamicsEvaluator(model, false).evaluateLines(
            new BufferedReader(new StringReader(input)), new PrintWriter(output, true)));
        final String[] lines = output.toString().split("\n");
        assertEquals(3, lines.length, output.toString());
        assertError(lines[0], 1, "malformed JSON at column 9: Non-standard token 'NaN'");
        assertError(lines[1], 2, "malformed JSON at column 18: Non-standard token '-Infinity'");
        assertError(lines[2], 3, "malformed JSON at column 34: Unexpected end-of-input: expected close marker for Object "
            + "(start marker at column 1)");
        assertError(lines[0], 1, "every number must be finite");
        assertError(lines[1], 2, "every number must be finite");
        for (final String line : lines)
        {
            // Jackson's advice to enable a parser feature, and its description of the input source, mean nothing to a user.
            assertFalse(line.contains("enable"), line);
            assertFalse(line.contains("Feature"), line);
            assertFalse(line.contains("Source"), line);
        }
    }

    private void assertError(final String line, final int lineNumber, final String fragment) throws Exception
    {
        final JsonNode node = mapper.readTree(line);
        assertEquals(lineNumber, node.get("line").intValue(), line);
        assertTrue(node.get("error").textValue().contains(fragment), line);
    }

    @Test
    void reactionSensitivitiesMatchCentralDifferencesOfThePrintedWrenches() throws Exception
    {
        for (long seed = 50; seed < 60; seed++)
        {
            final RobotModel model = RandomRobots.any(seed);
            final SplittableRandom rnd = new SplittableRandom(seed);
            final int n = model.dof();
            final double[] q = RandomRobots.vector(rnd, n, 2.0);
            final double[] qd = RandomRobots.vector(rnd, n, 2.0);
            final double[] qdd = RandomRobots.vector(rnd, n, 2.0);
            final DynamicsEvaluator evaluator = new DynamicsEvaluator(model, false, true);
            final JsonNode reactions = reply(evaluator, q, qd, qdd).get("reactions");
            assertEquals(model.bodyCount(), reactions.size());
            final double[][] states = {q, qd, qdd};
            final String[] names = {"dwrench_dq", "dwrench_dqd", "dwrench_dqdd"};
            final double h = 1e-5;
            for (int x = 0; x < 3; x++)
            {
                for (int k = 0; k < n; k++)
                {
                    final double saved = states[x][k];
                    states[x][k] = saved + h;
                    final JsonNode plus = reply(evaluator, q, qd, qdd).get("reactions");
                    states[x][k] = saved - h;
                    final JsonNode minus = reply(evaluator, q, qd, qdd).get("reactions");
                    states[x][k] = saved;
                    for (int b = 0; b < model.bodyCount(); b++)
                    {
                        for (int r = 0; r < 6; r++)
                        {
                            final double difference = (plus.get(b).get("wrench").get(r).doubleValue()
                                - minus.get(b).get("wrench").get(r).doubleValue()) / (2 * h);
                            final double printed = reactions.get(b).get(names[x]).get(r).get(k).doubleValue();
                            // Central difference error ~ h^2 times third derivatives of order 1-100 here.
                            assertEquals(difference, printed, 1e-6 * Math.max(1.0, Math.abs(difference)),
                                "seed " + seed + " body " + b + " " + names[x] + "[" + r + "][" + k + "]");
                        }
                    }
                }
            }
        }
    }

    @Test
    void atRestTheRootJointCarriesTheWholeWeight() throws Exception
    {
        final RobotModel model = RandomRobots.robot(11, 6, false, RandomRobots.Joints.MOVABLE, true);
        final double[] q = RandomRobots.vector(new SplittableRandom(11), 6, 2.0);
        final JsonNode reactions = reply(new DynamicsEvaluator(model, false, true), q, new double[6], new double[6])
            .get("reactions");
        final JsonNode root = reactions.get(0).get("wrench");
        final double force = Math.sqrt(Math.pow(root.get(0).doubleValue(), 2) + Math.pow(root.get(1).doubleValue(), 2)
            + Math.pow(root.get(2).doubleValue(), 2));
        assertEquals(model.totalMass() * 9.81, force, 1e-10 * model.totalMass() * 9.81);
        assertEquals(model.bodyName(0), reactions.get(0).get("body").asText());
        assertFalse(new ObjectMapper().readTree(new DynamicsEvaluator(model, false).evaluate(
            "{\"q\":" + Arrays.toString(q) + ",\"qd\":[0,0,0,0,0,0],\"qdd\":[0,0,0,0,0,0]}")).has("reactions"));
    }

    private JsonNode reply(final DynamicsEvaluator evaluator, final double[] q, final double[] qd, final double[] qdd)
        throws Exception
    {
        return mapper.readTree(evaluator.evaluate("{\"q\":" + Arrays.toString(q) + ",\"qd\":" + Arrays.toString(qd)
            + ",\"qdd\":" + Arrays.toString(qdd) + "}"));
    }
}
