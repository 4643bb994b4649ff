package org.nectl.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Locates the shipped robot descriptions, config/robots/ of the repository, and its sibling directories. */
public final class ShippedRobots
{
    private static final String PROPERTY = "nectl.robots.dir";

    private ShippedRobots()
    {
    }

    /**
     * @return the directory named by the system property the build sets, else config/robots found by
     *     walking up from the working directory (for runs outside Maven).
     */
    static Path directory()
    {
        return configDirectory(PROPERTY, "robots");
    }

    /**
     * @param property the system property the build sets to the directory.
     * @param name the directory's name under config/, found by walking up from the working directory
     *     when the property is not set (for runs outside Maven).
     * @return the directory.
     */
    public static Path configDirectory(final String property, final String name)
    {
        final String configured = System.getProperty(property);
        if (configured != null)
        {
            return Paths.get(configured);
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent())
        {
            final Path candidate = p.resolve("config").resolve(name);
            if (Files.isDirectory(candidate))
            {
                return candidate;
            }
        }
        throw new IllegalStateException("config/" + name + " not found: set -D" + property);
    }

    /** @return the shipped description files (YAML and URDF), sorted by name. */
    static List<Path> files() throws IOException
    {
        try (Stream<Path> s = Files.list(directory()))
        {
            return s.filter(p -> Stream.of(".yaml", ".yml", ".urdf").anyMatch(suffix -> p.toString().endsWith(suffix)))
                .sorted().collect(Collectors.toList());
        }
    }
}
