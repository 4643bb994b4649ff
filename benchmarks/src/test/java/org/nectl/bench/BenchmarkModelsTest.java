package org.nectl.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.nectl.core.model.RobotModel;

/**
 * The synthetic robots of benchmarks/models/ load, and have the joint and pair counts their headers
 * state: docs/PERFORMANCE.md ("Derivatives against depth") reads its P/n column from them.
 */
final class BenchmarkModelsTest
{
    private static final Pattern COUNTS = Pattern.compile("^# (\\d+) joints, (\\d+) \\(joint, ancestor joint\\) pairs", Pattern.MULTILINE);

    @Test
    void everyModelHasTheJointsAndPairsItsHeaderStates() throws IOException
    {
        final List<Path> files;
        try (Stream<Path> s = Files.list(Path.of("models")))
        {
            files = s.filter(p -> p.toString().endsWith(".yaml")).sorted().collect(Collectors.toList());
        }
        assertFalse(files.isEmpty(), "no models under benchmarks/models");
        for (final Path file : files)
        {
            final Matcher header = COUNTS.matcher(Files.readString(file));
            assertTrue(header.find(), file + ": no '# N joints, P (joint, ancestor joint) pairs' line");
            final RobotModel model = BenchmarkModel.load(file.toString());
            assertEquals(Integer.parseInt(header.group(1)), model.dof(), file + ": joints");
            assertEquals(Integer.parseInt(header.group(2)), pairs(model), file + ": pairs");
        }
    }

    /** Pairs of a movable joint and a movable joint on its path to the base. */
    private static int pairs(final RobotModel model)
    {
        int count = 0;
        for (int body = 0; body < model.bodyCount(); body++)
        {
            if (model.coordinateOfBody(body) < 0)
            {
                continue;
            }
            for (int a = model.parent(body); a >= 0; a = model.parent(a))
            {
                if (model.coordinateOfBody(a) >= 0)
                {
                    count++;
                }
            }
        }
        return count;
    }
}
