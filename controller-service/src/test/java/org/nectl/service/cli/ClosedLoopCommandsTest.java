package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.service.planner.GatewayRig;

/**
 * {@code nectl sim} and {@code nectl plan} on closed-loop descriptions: the palletiser and the
 * hexapod build their closed-chain arm at home, warm up and get as far as looking for the media
 * driver (exit status 1 here, where there is none); the options that apply to tree robots only, and
 * {@code nectl demo} on such a file, are refused with exit status 2; a planner checks a trajectory
 * against the active joints.
 */
class ClosedLoopCommandsTest
{
    private static final String PALLETISER = "../config/robots/palletiser.yaml";
    private static final String HEXAPOD = "../config/parallel-robots/hexapod.yaml";

    @TempDir
    Path temp;

    @Test
    void palletiserAndHexapodWarmUpInTheirActiveJointsBeforeLookingForTheMediaDriver()
    {
        for (final String model : new String[] {PALLETISER, HEXAPOD})
        {
            final CommandRun run = CommandRun.of("sim", "--model", model, "--warmup-periods", "200",
                "--aeron-dir", temp.resolve("no-driver").toString(), "--driver-timeout-ms", "2000");
            assertEquals(1, run.status(), run.err());
            assertTrue(run.err().contains("physics warmed up: 200 powered periods of a copy in")
                && !run.err().contains("the copy's physics failed") && run.err().contains("no media driver"), run.err());
        }
    }

    @Test
    void planChecksATrajectoryAgainstTheActiveJointsBeforeSendingIt() throws IOException
    {
        final Path keys = GatewayRig.developmentKeys(temp);
        final Path beyond = Files.writeString(temp.resolve("beyond.csv"),
            "t,q1,q2,q3,q4\n0,0,1.5707963267948966,3.141592653589793,0\n1,0,2.8,3.141592653589793,0\n");
        final CommandRun run = CommandRun.of("plan", "--key-file", keys.toString(), "--target", "127.0.0.1:9", "--ack-only",
            "--file", beyond.toString(), "--model", PALLETISER);
        assertEquals(2, run.status(), run.err());
        assertTrue(run.err().startsWith("nectl plan: ") && run.err().contains("j2"), run.err());
        final Path tree = Files.writeString(temp.resolve("tree.csv"),
            "t,q1,q2,q3,q4,q5,q6,q7,q8,q9,q10\n0,0,0,0,0,0,0,0,0,0,0\n1,0,0,0,0,0,0,0,0,0,0\n");
        final CommandRun treeSized = CommandRun.of("plan", "--key-file", keys.toString(), "--target", "127.0.0.1:9",
            "--ack-only", "--file", tree.toString(), "--model", PALLETISER);
        assertEquals(2, treeSized.status(), treeSized.err());
        assertTrue(treeSized.err().contains("4"), treeSized.err());
    }

    @Test
    void treeOnlyOptionsAndTheDemoAreRefusedWithExitStatus2()
    {
        final String refusal = "describes a closed-loop robot, which nectl simulates in its active joints with its own"
            + " closed-chain physics only";
        for (final String[] options : new String[][] {
            {"--engine", "mujoco"}, {"--payload", "flange,1,0,0,0"}, {"--external-wrench", "flange,0,0,-10,0,0,0@0-1"}})
        {
            final String[] args = new String[options.length + 3];
            args[0] = "sim";
            args[1] = "--model";
            args[2] = PALLETISER;
            System.arraycopy(options, 0, args, 3, options.length);
            final CommandRun run = CommandRun.of(args);
            assertEquals(2, run.status(), run.err());
            assertTrue(run.err().startsWith("nectl sim: " + PALLETISER + " " + refusal), run.err());
        }
        final CommandRun hexapod = CommandRun.of("sim", "--model", HEXAPOD, "--initial-q", "0.7,0.7,0.7,0.7,0.7,0.7,0.7");
        assertEquals(2, hexapod.status(), hexapod.err());
        final CommandRun demo = CommandRun.of("demo", "--model", HEXAPOD, "--mode", "lockstep");
        assertEquals(2, demo.status(), demo.err());
        assertTrue(demo.err().startsWith("nectl demo: " + HEXAPOD + " describes a closed-loop robot; the demo runs tree"
            + " robots"), demo.err());
    }
}
