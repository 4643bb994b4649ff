package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;
import org.nectl.core.testing.RandomRobots;
import picocli.CommandLine;

/**
 * The URDF side of the command line: {@code nectl model export --urdf} and {@code nectl dynamics}
 * on a URDF model. Torques and torque rates agree to 1e-12 relative: the two models differ only by the rounding of
 * rotation -> rpy -> rotation and of the centre-of-mass form of the inertias.
 */
class UrdfCommandsTest
{
    private static final Path ROBOTS = Path.of("..", "config", "robots");

    @TempDir
    Path temporary;

    @Test
    void exportedUrdfReloadsWithTheSameTorques() throws Exception
    {
        for (final String name : new String[] {"panda.yaml", "stanford.yaml", "torso-two-arms.urdf"})
        {
            final Path out = temporary.resolve(name + ".urdf");
            final int status = new CommandLine(new NectlCommand())
                .execute("model", "export", ROBOTS.resolve(name).toString(), "--urdf", "-o", out.toString());
            assertEquals(0, status, name);
            assertSameTorques(RobotDescriptions.load(ROBOTS.resolve(name)), RobotDescriptions.load(out), name);
        }
    }

    @Test
    void exportAndCheckOfAnInvalidUrdfExitWithStatusTwo() throws Exception
    {
        final Path bad = temporary.resolve("bad.urdf");
        Files.writeString(bad, "<robot name=\"r\"><link name=\"a\"/><link name=\"b\"/>"
            + "<joint name=\"j\" type=\"planar\"><parent link=\"a\"/><child link=\"b\"/></joint></robot>",
            StandardCharsets.UTF_8);
        assertEquals(2, new CommandLine(new NectlCommand()).execute("model", "check", bad.toString()));
        assertEquals(2, new CommandLine(new NectlCommand())
            .execute("model", "export", bad.toString(), "--urdf", "-o", temporary.resolve("x.urdf").toString()));
    }

    /** An existing output is refused (status 2, untouched) unless --force; a link is never written through. */
    @Test
    void exportNeverReplacesAFileUnlessForcedAndNeverFollowsALink() throws Exception
    {
        final String robot = ROBOTS.resolve("two-link-rr.yaml").toString();
        final Path existing = Files.writeString(temporary.resolve("existing.urdf"), "not nectl's\n");
        final Path target = Files.writeString(temporary.resolve("target.txt"), "not nectl's\n");
        final Path link = Files.createSymbolicLink(temporary.resolve("link.urdf"), target);

        assertEquals(2, new CommandLine(new NectlCommand()).execute("model", "export", robot, "--urdf", "-o", existing.toString()));
        assertEquals("not nectl's\n", Files.readString(existing));
        assertEquals(2, new CommandLine(new NectlCommand())
            .execute("model", "export", robot, "--urdf", "-o", link.toString(), "--force"));
        assertEquals("not nectl's\n", Files.readString(target));
        assertTrue(Files.isSymbolicLink(link));

        assertEquals(0, new CommandLine(new NectlCommand())
            .execute("model", "export", robot, "--urdf", "-o", existing.toString(), "--force"));
        assertTrue(Files.readString(existing).startsWith("<?xml"), "replaced when forced");
    }

    @Test
    void exportToAMissingDirectorySaysWhyOnceWithStatusTwo() throws Exception
    {
        final Path output = temporary.resolve("missing").resolve("x.urdf");
        final ByteArrayOutputStream err = new ByteArrayOutputStream();
        final PrintStream saved = System.err;
        final int status;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try
        {
            status = new CommandLine(new NectlCommand())
                .execute("model", "export", ROBOTS.resolve("two-link-rr.yaml").toString(), "--urdf", "-o", output.toString());
        }
        finally
        {
            System.setErr(saved);
        }
        assertEquals(2, status);
        assertEquals("nectl model export: cannot write " + output + ": its directory " + output.getParent()
            + " does not exist; nothing written\n", err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void dynamicsOfThePandaUrdfMatchesThePandaYaml() throws Exception
    {
        assertSameTorques(RobotDescriptions.load(ROBOTS.resolve("panda.yaml")),
            RobotDescriptions.load(ROBOTS.resolve("panda.urdf")), "panda");
    }

    /** Same JSON request through the {@code nectl dynamics} evaluator of both models. */
    private static void assertSameTorques(final RobotModel expected, final RobotModel actual, final String name)
        throws Exception
    {
        final ObjectMapper mapper = new ObjectMapper();
        final SplittableRandom rnd = new SplittableRandom(name.hashCode());
        for (int sample = 0; sample < 20; sample++)
        {
            final int n = expected.dof();
            final String request = "{\"q\":" + Arrays.toString(RandomRobots.vector(rnd, n, 2.0))
                + ",\"qd\":" + Arrays.toString(RandomRobots.vector(rnd, n, 2.0))
                + ",\"qdd\":" + Arrays.toString(RandomRobots.vector(rnd, n, 2.0))
                + ",\"qddd\":" + Arrays.toString(RandomRobots.vector(rnd, n, 2.0))
                + ",\"gravity\":" + Arrays.toString(RandomRobots.vector(rnd, 3, 10.0)) + "}";
            final JsonNode a = mapper.readTree(new DynamicsEvaluator(expected, true).evaluate(request));
            final JsonNode b = mapper.readTree(new DynamicsEvaluator(actual, true).evaluate(request));
            for (final String field : new String[] {"tau", "tau_dot"})
            {
                assertSameValues(a.get(field), b.get(field), name + ", sample " + sample + ", " + field);
            }
        }
    }

    private static void assertSameValues(final JsonNode expected, final JsonNode actual, final String where)
    {
        double scale = 1.0;
        for (int i = 0; i < expected.size(); i++)
        {
            scale = Math.max(scale, Math.abs(expected.get(i).doubleValue()));
        }
        assertEquals(expected.size(), actual.size(), where);
        for (int i = 0; i < expected.size(); i++)
        {
            assertEquals(expected.get(i).doubleValue(), actual.get(i).doubleValue(), 1e-12 * scale, where + " " + i);
        }
    }
}
