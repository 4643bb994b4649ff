package org.nectl.bench;

import java.nio.file.Path;

import org.nectl.config.RobotDescriptions;
import org.nectl.core.model.RobotModel;

/** Loads the robot description a benchmark's {@code model} parameter names. Not real-time safe. */
final class BenchmarkModel
{
    private BenchmarkModel()
    {
    }

    /**
     * @param path description path, relative to the working directory (the repository root).
     * @return the model.
     */
    static RobotModel load(final String path)
    {
        return RobotDescriptions.load(Path.of(path));
    }
}
