package org.nectl.config;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** Locates the shipped robot descriptions, config/robots/ of the repository. */
final class ShippedRobots
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
        final String configured = System.getProperty(PROPERTY);
        if (configured != null)
        {
            return Paths.get(configured);
        }
        for (Path p = Paths.get("").toAbsolutePath(); p != null; p = p.getParent())
        {
            final Path candidate = p.resolve("config").resolve("robots");
            if (Files.isDirectory(candidate))
            {
                return candidate;
            }
        }
        throw new IllegalStateException("config/robots not found: set -D" + PROPERTY);
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
