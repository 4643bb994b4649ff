package org.nectl.hw.mujoco;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Loads the MuJoCo shim ({@code libnectl-mujoco.so}, built next to the classes by the Maven
 * profile {@code mujoco-shim} wherever MuJoCo's headers are installed) once per process: copied
 * from the class path to a private temporary file, since a library inside a jar cannot be mapped,
 * and the file deleted once loaded.
 * Not real-time safe; thread safe.
 */
public final class MujocoLibrary
{
    /** Class-path resource of the shim, next to this class. */
    static final String RESOURCE = "libnectl-mujoco.so";

    private static String failure;
    private static boolean loaded;

    private MujocoLibrary()
    {
    }

    /**
     * Loads the shim and MuJoCo itself, or says why it cannot.
     *
     * @throws IllegalStateException naming what is missing (the shim, not built because MuJoCo's
     *     headers were absent at build time; or MuJoCo's shared library at run time) and the
     *     Debian package that provides it.
     */
    public static synchronized void load()
    {
        if (loaded)
        {
            return;
        }
        if (failure == null)
        {
            failure = tryLoad();
            loaded = failure == null;
        }
        if (!loaded)
        {
            throw new IllegalStateException(failure);
        }
    }

    /** @return true if the shim was built into this class path (MuJoCo's headers were present at build time). */
    public static boolean built()
    {
        return MujocoLibrary.class.getResource(RESOURCE) != null;
    }

    private static String tryLoad()
    {
        try (InputStream in = MujocoLibrary.class.getResourceAsStream(RESOURCE))
        {
            if (in == null)
            {
                return "the MuJoCo engine is not part of this build: MuJoCo's headers (/usr/include/mujoco/mujoco.h, "
                    + "Debian package libmujoco-dev) were missing when nectl was built; install libmujoco-dev and rebuild";
            }
            final Path copy = Files.createTempFile("nectl-mujoco", ".so");
            try
            {
                Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
                System.load(copy.toAbsolutePath().toString());
            }
            finally
            {
                // Once mapped, the library no longer needs its file: nothing is left behind, even after SIGKILL.
                Files.delete(copy);
            }
            return null;
        }
        catch (final IOException e)
        {
            return "cannot unpack the MuJoCo shim to a temporary file: " + e.getMessage();
        }
        catch (final UnsatisfiedLinkError e)
        {
            return "cannot load the MuJoCo shim (is MuJoCo's shared library installed? Debian package libmujoco2.2.2): "
                + e.getMessage();
        }
    }
}
