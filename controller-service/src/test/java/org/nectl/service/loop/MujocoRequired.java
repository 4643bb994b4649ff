package org.nectl.service.loop;

import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Assumptions;
import org.nectl.hw.mujoco.MujocoLibrary;

/**
 * The service's MuJoCo tests need the shim, which the build compiles wherever MuJoCo's headers are
 * installed (.ci/run installs libmujoco-dev, so in CI they always run). Missing, they fail with the
 * reason; only an explicit {@code -Dnectl.mujoco.tests=off} turns them into skips, on a machine
 * without MuJoCo.
 */
public final class MujocoRequired
{
    private MujocoRequired()
    {
    }

    /** Fails (or, with -Dnectl.mujoco.tests=off, skips) unless the MuJoCo shim loads. */
    public static void check()
    {
        Assumptions.assumeFalse("off".equals(System.getProperty("nectl.mujoco.tests")),
            "MuJoCo tests switched off by -Dnectl.mujoco.tests=off");
        try
        {
            MujocoLibrary.load();
        }
        catch (final IllegalStateException e)
        {
            fail("MuJoCo tests cannot run: " + e.getMessage() + " (or pass -Dnectl.mujoco.tests=off on a machine without MuJoCo)");
        }
    }
}
