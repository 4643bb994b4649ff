package org.nectl.config.deploy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.nectl.config.ShippedRobots;

/** Deployment files for tests: the shipped ones, and temporary ones next to a copy of a shipped robot. */
final class TestDeployments
{
    /** The copied robot's file name, as deployment files in tests name it. */
    static final String ROBOT = "arm.yaml";
    /** The copied robot's number of coordinates. */
    static final int ROBOT_DOF = 2;

    private TestDeployments()
    {
    }

    /** @return the shipped deployment files, config/deploy/*.yaml, sorted by name. */
    static List<Path> shipped() throws IOException
    {
        try (Stream<Path> s = Files.list(ShippedRobots.configDirectory("nectl.deploy.dir", "deploy")))
        {
            return s.filter(p -> p.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
        }
    }

    /**
     * @param dir a temporary directory.
     * @param yaml the deployment file's text.
     * @return {@code dir/deploy.yaml}, next to {@code dir/arm.yaml} (the shipped two-link arm).
     */
    static Path write(final Path dir, final String yaml) throws IOException
    {
        final Path robot = dir.resolve(ROBOT);
        if (!Files.exists(robot))
        {
            Files.copy(ShippedRobots.configDirectory("nectl.robots.dir", "robots").resolve("two-link-rr.yaml"), robot);
        }
        return Files.writeString(dir.resolve("deploy.yaml"), yaml);
    }
}
