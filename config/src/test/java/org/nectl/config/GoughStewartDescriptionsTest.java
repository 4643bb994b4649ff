package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.parallel.GoughStewartDynamics;
import org.nectl.core.parallel.GoughStewartModel;

/** The shipped hexapod loads and holds its own weight; each rule of the format is reported at its line. */
class GoughStewartDescriptionsTest
{
    @TempDir
    Path dir;

    private static Path shipped()
    {
        return ShippedRobots.configDirectory("nectl.parallel.dir", "parallel-robots").resolve("hexapod.yaml");
    }

    private static String valid() throws IOException
    {
        return Files.readString(shipped());
    }

    @Test
    void shippedHexapodCarriesItsWeightEquallyOnItsSixLegsAtHome()
    {
        final GoughStewartModel hexapod = GoughStewartDescriptions.load(shipped());
        final GoughStewartDynamics dynamics = new GoughStewartDynamics(hexapod, CompiledModel.of(hexapod.legs()));
        final double[] forces = new double[6];
        assertTrue(dynamics.inverseDynamics(hexapod.homePosition(), hexapod.homeRotation(), new double[6],
            new double[6], forces));
        double sum = 0.0;
        for (final double f : forces)
        {
            assertTrue(f > 0, "every leg pushes at home: " + f);
            sum += f;
        }
        // The vertical components of the leg forces carry the platform and part of the legs' weight.
        assertTrue(sum > 25 * 9.81 / 0.9 && sum < (25 + 6 * 4.5) * 9.81 / 0.8, "sum of leg forces " + sum + " N");
    }

    @Test
    void wrongNumberOfPointsIsRejected() throws IOException
    {
        final String text = valid().replace("    - [0.489073800367, -0.103955845409, 0]\n", "");
        // A block list is reported at its first element, the line after its key.
        rejects(text, line("base_points:") + 1, "base_points", "expected 6 points [x, y, z], one per leg, found 5");
    }

    @Test
    void aHomeLegOutsideTheStrokeIsRejected() throws IOException
    {
        rejects(valid().replace("position: [0, 0, 0.55]", "position: [0, 0, 0.80]"), line("home:"), "home",
            "at home leg 1 is", "outside the stroke [0.45, 0.75] m");
    }

    @Test
    void aSingularHomeIsRejected() throws IOException
    {
        // Turned by a quarter turn about the vertical: the known singularity of the symmetric 6-6 platform.
        final String text = valid().replace("rpy: [0, 0, 0]", "rpy: [0, 0, pi/2]")
            .replace("stroke: [0.45, 0.75]", "stroke: [0.05, 1.5]");
        rejects(text, line("home:"), "home", "the platform is at a singularity at home");
    }

    @Test
    void aStrokeThatDoesNotIncreaseIsRejected() throws IOException
    {
        rejects(valid().replace("stroke: [0.45, 0.75]", "stroke: [0.75, 0.45]"), line("actuator:"), "actuator.stroke",
            "stroke [0.75, 0.45] m must satisfy 0 < min < max");
    }

    @Test
    void aLegKinematicsOtherThanUpsIsRejected() throws IOException
    {
        rejects(valid().replace("legs: U-P-S", "legs: R-P-S"), line("legs:"), "legs", "'R-P-S'");
    }

    private static int line(final String text) throws IOException
    {
        final String[] lines = valid().split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            if (lines[i].startsWith(text))
            {
                return i + 1;
            }
        }
        throw new AssertionError("no line starting with " + text);
    }

    private void rejects(final String text, final int line, final String field, final String... phrases) throws IOException
    {
        final Path file = dir.resolve("hexapod.yaml");
        Files.writeString(file, text);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> GoughStewartDescriptions.load(file));
        final String message = e.getMessage();
        assertEquals(line, e.line(), message);
        assertEquals(field, e.field(), message);
        for (final String phrase : phrases)
        {
            assertTrue(message.contains(phrase), "'" + phrase + "' not in: " + message);
        }
    }
}
