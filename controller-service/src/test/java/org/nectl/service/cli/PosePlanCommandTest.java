package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.GoughStewartDescriptions;
import org.nectl.core.model.Transforms;
import org.nectl.core.parallel.GoughStewartKinematics;
import org.nectl.core.parallel.GoughStewartModel;
import org.nectl.service.planner.GatewayRig;
import org.nectl.transport.CommandLimits;
import org.nectl.transport.PlannerKeys;

/** {@code nectl plan --poses}: platform poses to a real planner gateway for a six-leg platform, as leg lengths. */
final class PosePlanCommandTest
{
    private static final Path HEXAPOD = Path.of("..", "config", "parallel-robots", "hexapod.yaml");

    @TempDir
    Path temp;

    private GatewayRig rig;
    private Path developmentKeys;
    private final StringWriter out = new StringWriter();
    private final StringWriter err = new StringWriter();

    @BeforeEach
    void start()
    {
        developmentKeys = GatewayRig.developmentKeys(temp);
        final double[] min = new double[6];
        final double[] max = new double[6];
        final double[] speed = new double[6];
        Arrays.fill(min, 0.45);
        Arrays.fill(max, 0.75);
        Arrays.fill(speed, 0.3);
        rig = new GatewayRig(PlannerKeys.read(developmentKeys), new CommandLimits(min, max, speed));
    }

    @AfterEach
    void stop()
    {
        rig.close();
    }

    @Test
    void platformPosesAreSentAsTheLegLengthsOfTheirInverseKinematics() throws IOException
    {
        // x and yaw grow steadily: at the middle waypoint the parabola's slopes are 0.02 m/s and 0.1 rad/s.
        final Path file = write("poses.csv", "# a slow slide and turn\nt,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n"
            + "1,0.02,0,0.55,0,0,0.1\n2,0.04,0,0.55,0,0,0.2\n");

        assertEquals(0, plan("--poses", file.toString(), "--model", HEXAPOD.toString()), out + " " + err);

        final GatewayRig.Recorder loop = rig.drain();
        assertEquals(3 * 6, loop.joints().size(), loop.events().toString());
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(HEXAPOD);
        final GoughStewartKinematics kinematics = new GoughStewartKinematics(hexapod);
        final double[][] positions = {{0, 0, 0.55}, {0.02, 0, 0.55}, {0.04, 0, 0.55}};
        final double[][] twists = {new double[6], {0.02, 0, 0, 0, 0, 0.1}, new double[6]};
        final double[] lengths = new double[6];
        final double[] rates = new double[6];
        final double[] accelerations = new double[6];
        for (int p = 0; p < 3; p++)
        {
            kinematics.inverse(positions[p], Transforms.rotZ(0.1 * p), twists[p], new double[6], lengths, rates, accelerations);
            for (int i = 0; i < 6; i++)
            {
                final double[] leg = loop.joints().get(6 * p + i);
                assertEquals(lengths[i], leg[0], 1e-12, "length, waypoint " + p + ", leg " + (i + 1));
                assertEquals(rates[i], leg[1], 1e-12, "rate, waypoint " + p + ", leg " + (i + 1));
            }
        }
        assertTrue(out.toString().contains("trajectory of 3 waypoints, 2.0 s: sequence "), out.toString());
    }

    @Test
    void legLengthFilesAreCheckedAgainstTheActuatorsOfAGoughStewartModel() throws IOException
    {
        final Path legs = write("legs.csv", "t,q1,q2,q3,q4,q5,q6\n0,0.63,0.63,0.63,0.63,0.63,0.63\n2,0.65,0.64,0.63,0.62,0.61,0.6\n");
        assertEquals(0, plan("--file", legs.toString(), "--model", HEXAPOD.toString()), out + " " + err);
        assertEquals(2 * 6, rig.drain().joints().size());

        final Path beyond = write("beyond.csv", "t,q1,q2,q3,q4,q5,q6\n0,0.63,0.63,0.63,0.63,0.63,0.63\n2,0.8,0.63,0.63,0.63,0.63,0.63\n");
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--file", beyond.toString(), "--model", HEXAPOD.toString()));
        assertTrue(err.toString().contains("joint 'leg1_actuator'"), err.toString());
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void aPoseOutOfTheWorkspaceIsRefusedWithItsLineAndNothingIsSent() throws IOException
    {
        final Path high = write("high.csv", "t,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n# too high\n5,0,0,0.75,0,0,0\n");
        assertRefused("nectl plan: " + high + ":4: pose at t = 5.0 s: leg 1 would be 0.812278 m long, outside the stroke [0.45, 0.75] m "
            + "(the pose is out of the workspace)", "--poses", high.toString(), "--model", HEXAPOD.toString(), "--enable");

        // A quarter turn about the vertical, the symmetric 6-6 platform's known singularity, with a stroke long enough to reach it.
        final Path longStroke = write("long-stroke.yaml", Files.readString(HEXAPOD).replace("stroke: [0.45, 0.75]", "stroke: [0.05, 1.5]"));
        final Path quarterTurn = write("turn.csv", "t,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n60,0,0,0.55,0,0,1.5707963267948966\n");
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--poses", quarterTurn.toString(), "--model", longStroke.toString()));
        assertTrue(err.toString().startsWith("nectl plan: " + quarterTurn + ":3: pose at t = 60.0 s: the platform would be at a "
            + "parallel singularity: J_p^-1 has singular-value ratio "), err.toString());

        final Path fast = write("fast.csv", "t,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n0.1,0,0,0.6,0,0,0\n0.2,0,0,0.65,0,0,0\n");
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--poses", fast.toString(), "--model", HEXAPOD.toString()));
        assertTrue(err.toString().startsWith("nectl plan: " + fast + ":3: pose at t = 0.1 s: leg 1 would move at 0."), err.toString());
        assertTrue(err.toString().contains(" m/s, beyond the actuator speed 0.3 m/s"), err.toString());

        // Both waypoints at rest, but the loop's curve between them peaks at 2.19 times the mean 0.2 m/s along z.
        final Path between = write("between.csv", "t,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n0.2,0,0,0.59,0,0,0\n");
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--poses", between.toString(), "--model", HEXAPOD.toString()));
        assertTrue(err.toString().startsWith("nectl plan: " + between + ": the leg lengths interpolated between the poses: "),
            err.toString());
        assertEquals(List.of(), rig.drain().events());
    }

    @Test
    void posesNeedAGoughStewartModelAndGoAsOneSegment() throws IOException
    {
        final Path file = write("poses.csv", "t,x,y,z,roll,pitch,yaw\n0,0,0,0.55,0,0,0\n1,0,0,0.56,0,0,0\n");
        assertRefused("nectl plan: --poses needs --model, a Gough-Stewart description (format: gough-stewart)",
            "--poses", file.toString());
        final Path arm = Path.of("..", "config", "robots", "panda.yaml");
        assertRefused("nectl plan: --poses needs --model, a Gough-Stewart description (format: gough-stewart); " + arm + " is not one",
            "--poses", file.toString(), "--model", arm.toString());
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan("--poses", file.toString(), "--model", temp.resolve("none.yaml").toString()));
        assertTrue(err.toString().startsWith("nectl plan: " + temp.resolve("none.yaml")), err.toString());
        assertTrue(!err.toString().contains("is not one"), err.toString());
        assertRefused("nectl plan: --file, --poses and --demo exclude each other", "--poses", file.toString(), "--demo");
        assertRefused("nectl plan: --stream needs a trajectory: --file or --demo (a --poses trajectory is sent as one segment)",
            "--poses", file.toString(), "--model", HEXAPOD.toString(), "--stream", "100");
        final Path header = write("header.csv", "t,x,y,z,yaw,pitch,roll\n0,0,0,0.55,0,0,0\n");
        assertRefused("nectl plan: " + header + ":1: header must be t,x,y,z,roll,pitch,yaw, got 't,x,y,z,yaw,pitch,roll'",
            "--poses", header.toString(), "--model", HEXAPOD.toString());
        assertEquals(List.of(), rig.drain().events());
    }

    private Path write(final String name, final String text) throws IOException
    {
        final Path file = temp.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    private void assertRefused(final String expectedStderr, final String... options)
    {
        out.getBuffer().setLength(0);
        err.getBuffer().setLength(0);
        assertEquals(PlanCommand.USAGE_EXIT_STATUS, plan(options), err.toString());
        assertEquals(expectedStderr, err.toString().strip());
        assertEquals("", out.toString());
    }

    private int plan(final String... options)
    {
        final var command = NectlCommand.newCommandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err));
        final List<String> args = new ArrayList<>(List.of("plan", "--target", "127.0.0.1:" + rig.address().getPort(), "--key-file",
            developmentKeys.toString(), "--aeron-dir", temp.resolve("no-driver").toString(),
            // The gateway rig answers from another thread: a loaded host can take longer than the 1 s default.
            "--timeout-ms", "20000"));
        args.addAll(List.of(options));
        final int status = command.execute(args.toArray(String[]::new));
        command.getOut().flush();
        command.getErr().flush();
        return status;
    }
}
