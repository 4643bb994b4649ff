package org.nectl.service.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.service.loop.MujocoRequired;

/**
 * {@code nectl sim --engine mujoco} set-up: the scene is read and the MuJoCo plant built before
 * the link opens, so bad input is refused with exit status 2 and its file:line, and the shipped
 * scene gets as far as looking for the media driver (exit status 1 here, where there is none).
 */
class SimMujocoEngineTest
{
    private static final String PANDA = "../config/robots/panda.urdf";

    @TempDir
    Path temp;

    @BeforeAll
    static void mujoco()
    {
        MujocoRequired.check();
    }

    @Test
    void badSceneUnknownEngineElasticRobotAndSceneWithoutMujocoAreRefusedWithExitStatus2() throws IOException
    {
        final Path scene = temp.resolve("scene.yaml");
        Files.writeString(scene, "obstacles:\n  - {shape: box, size: [0.1, 0.1]}\n", StandardCharsets.UTF_8);
        assertRefused("nectl sim: " + scene + ":2:24: obstacles[0].size: expected a list of 3 numbers, found 2",
            "--model", PANDA, "--engine", "mujoco", "--scene", scene.toString());
        assertRefused("nectl sim: --engine must be nectl or mujoco, got 'bullet'", "--model", PANDA, "--engine", "bullet");
        assertRefused("nectl sim: --scene needs --engine mujoco", "--model", PANDA, "--scene", scene.toString());
        assertRefused("nectl sim: an external wrench on the MuJoCo plant is declared in its scene file", "--model", PANDA,
            "--engine", "mujoco", "--external-wrench", "link7,0,0,-10,0,0,0@1-2");
        assertRefused("nectl sim: --engine mujoco simulates rigid joints only; ", "--model", "../config/robots/mixed-elastic-3dof.yaml",
            "--engine", "mujoco");
        assertEquals(2, NectlCommand.newCommandLine().setErr(new PrintWriter(new StringWriter())).execute("demo", "--engine", "bullet"),
            "nectl demo refuses an unknown engine before starting anything");
    }

    @Test
    void shippedSceneBuildsThePlantAndWarmsUpBeforeLookingForTheMediaDriver()
    {
        final String err = run(1, "--model", PANDA, "--engine", "mujoco", "--scene", "../config/scenes/panda-table.yaml",
            "--warmup-periods", "100", "--aeron-dir", temp.resolve("no-driver").toString(), "--driver-timeout-ms", "2000");
        assertTrue(err.contains("physics warmed up: 100 powered periods") && err.contains("no media driver"), err);
    }

    private static void assertRefused(final String expectedStart, final String... options)
    {
        final String err = run(2, options);
        assertTrue(err.startsWith(expectedStart), err);
    }

    private static String run(final int expectedStatus, final String... options)
    {
        final String[] args = new String[options.length + 1];
        args[0] = "sim";
        System.arraycopy(options, 0, args, 1, options.length);
        final PrintStream original = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        final int status;
        try (PrintStream capture = new PrintStream(captured, true, StandardCharsets.UTF_8))
        {
            System.setErr(capture);
            status = NectlCommand.newCommandLine().execute(args);
        }
        finally
        {
            System.setErr(original);
        }
        final String err = captured.toString(StandardCharsets.UTF_8);
        assertEquals(expectedStatus, status, err);
        return err;
    }
}
