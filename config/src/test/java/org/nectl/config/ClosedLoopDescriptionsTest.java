package org.nectl.config;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.core.closedloop.ClosedLoopModel;

/** Each rule of the closure section, with the file, line and field of its message. */
class ClosedLoopDescriptionsTest
{
    @TempDir
    Path dir;

    private static String valid() throws IOException
    {
        return Files.readString(ShippedRobots.directory().resolve("four-bar.yaml"));
    }

    @Test
    void shippedFourBarLoadsWithOneActiveJointAndItsTreeLoadsAlone() throws IOException
    {
        final ClosedLoopModel model = ClosedLoopDescriptions.load(write(valid()));
        assertEquals(3, model.treeDof());
        assertEquals(1, model.activeCount());
        assertArrayEquals(new int[] {1, 2}, model.passiveCoordinates());
        assertEquals(3, model.selectedRows().length + 1, "a planar loop keeps 2 of its revolute cut's 5 equations");
        assertEquals(3, RobotDescriptions.load(write(valid())).dof());
    }

    @Test
    void loopsThatDoNotCloseAtHomeAreRejectedAtTheHomeLine() throws IOException
    {
        rejects(change("rocker: 1.7957749733962085}", "rocker: 1.79}"), line("home:"), "closure.home",
            "the loops do not close at the home configuration: at cut joint 'B'", "more than the tolerance 1.0E-6");
    }

    @Test
    void aWrongNumberOfActiveJointsIsRejectedAtTheActiveLine() throws IOException
    {
        rejects(change("active: [crank]", "active: [crank, rocker]"), line("active:"), "closure.active",
            "the 3 tree joints and 2 independent closure equations leave 1 degrees of freedom, but 2 joints are active");
    }

    @Test
    void aHomeWhereThePassiveJointsAreUndeterminedIsRejectedAsSingular() throws IOException
    {
        // Crank and coupler in line (a dead point of the rocker-driven linkage).
        final String text = change("active: [crank]", "active: [rocker]")
            .replace("home: {crank: pi/3, coupler: -0.4184824235510569, rocker: 1.7957749733962085}",
                "home: {crank: 0.7121717871261778, coupler: 0, rocker: 1.7700284140400673}");
        rejects(text, line("active:"), "closure.active",
            "the passive joints are not determined by the active ones at the home configuration", "pivot ratio");
    }

    @Test
    void anUnknownActiveJointIsNamedWithASuggestion() throws IOException
    {
        rejects(change("active: [crank]", "active: [crnk]"), line("active:"), "closure.active[0]",
            "no movable joint named 'crnk' in the tree (did you mean 'crank'?)");
    }

    @Test
    void aHomeWithoutEveryTreeJointIsRejected() throws IOException
    {
        rejects(change(", rocker: 1.7957749733962085}", "}"), line("home:"), "closure.home",
            "no home position for joint 'rocker'");
    }

    @Test
    void aCutFrameOnAnUnknownLinkIsRejected() throws IOException
    {
        rejects(change("{antecedent: rocker, d: 0.30}", "{antecedent: roker, d: 0.30}"), line("frame_k_plus_b:"),
            "closure.cut_joints.B.frame_k_plus_b.antecedent", "no link named 'roker' in the tree (did you mean 'rocker'?)");
    }

    @Test
    void anUnknownCutJointTypeIsRejected() throws IOException
    {
        rejects(change("type: R", "type: P"), line("type: R"), "closure.cut_joints.B.type", "'P'");
    }

    @Test
    void aTreeDescriptionIsNotAClosedLoopRobot() throws IOException
    {
        final Path file = write(valid().substring(0, valid().indexOf("closure:")));
        final DescriptionException e = assertThrows(DescriptionException.class, () -> ClosedLoopDescriptions.load(file));
        assertTrue(e.getMessage().contains("no 'closure' section"), e.getMessage());
    }

    private static int line(final String text) throws IOException
    {
        final String[] lines = valid().split("\n", -1);
        for (int i = 0; i < lines.length; i++)
        {
            if (lines[i].contains(text))
            {
                return i + 1;
            }
        }
        throw new AssertionError("no line with " + text);
    }

    private static String change(final String from, final String to) throws IOException
    {
        assertTrue(valid().contains(from), "template lacks: " + from);
        return valid().replace(from, to);
    }

    private Path write(final String text) throws IOException
    {
        final Path file = dir.resolve("loop.yaml");
        Files.writeString(file, text);
        return file;
    }

    private void rejects(final String text, final int line, final String field, final String... phrases) throws IOException
    {
        final Path file = write(text);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> ClosedLoopDescriptions.load(file));
        final String message = e.getMessage();
        assertEquals(line, e.line(), message);
        assertEquals(field, e.field(), message);
        assertTrue(message.startsWith(file + ":" + line + ":"), message);
        for (final String phrase : phrases)
        {
            assertTrue(message.contains(phrase), "'" + phrase + "' not in: " + message);
        }
    }
}
