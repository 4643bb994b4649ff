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
import org.nectl.core.closedloop.ClosedLoopDynamics;
import org.nectl.core.closedloop.ClosedLoopModel;
import org.nectl.core.closedloop.LoopGeometry;
import org.nectl.core.dynamics.CompiledModel;

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
    void aSliderCrankClosedAtItsPrismaticJointFollowsTheClosedFormAndHoldsTheSliderByVirtualWork() throws IOException
    {
        // In-line slider-crank in the base x-y plane: crank r = 0.1 m, rod l = 0.35 m, a 2 kg slider on
        // the base x axis, crank and rod massless, cut at the slider's guide.
        final double r = 0.1;
        final double l = 0.35;
        final double mass = 2.0;
        final ClosedLoopModel model = ClosedLoopDescriptions.load(write("""
            name: slider-crank
            format: modified-dh
            kinematics:
              columns: [link, joint, antecedent, sigma, alpha, d, theta, r]
              rows:
                - [crank,  crank,  base,  R, 0, 0.0,  0, 0]
                - [rod,    rod,    crank, R, 0, 0.1,  0, 0]
                - [slider, pin,    rod,   R, 0, 0.35, 0, 0]
            links:
              crank: {mass: 0, com: [0, 0, 0], inertia: {at: com, xx: 0, yy: 0, zz: 0}}
              rod: {mass: 0, com: [0, 0, 0], inertia: {at: com, xx: 0, yy: 0, zz: 0}}
              slider: {mass: 2.0, com: [0, 0, 0], inertia: {at: com, xx: 0, yy: 0, zz: 0}}
            closure:
              active: [crank]
              home: {crank: pi/3, rod: -1.2972304442954017, pin: 0.25003289309880394}
              cut_joints:
                guide:
                  type: P                                       # slides along z_k, the base x axis
                  frame_k: {antecedent: base, gamma: pi/2, alpha: pi/2}
                  frame_k_plus_b: {antecedent: slider, gamma: pi/2, alpha: pi/2}
            """));
        assertEquals(1, model.activeCount());
        assertEquals(2, model.selectedRows().length, "a planar loop keeps 2 of its prismatic cut's 5 equations");
        final LoopGeometry geometry = new LoopGeometry(model);
        // Gravity along -x pulls the slider towards the crank: the crank holds it with m g dx/dtheta.
        final ClosedLoopDynamics dynamics = new ClosedLoopDynamics(model, CompiledModel.of(model.tree(), -9.81, 0, 0));
        final double[] gamma = new double[1];
        // A full crank turn in 30 degree steps, each solved from the last (the slider stays on the +x branch).
        final double[] q = model.home();
        for (int step = 1; step <= 12; step++)
        {
            final double theta = Math.PI / 3 + step * Math.PI / 6;
            q[0] = theta;
            assertEquals(LoopGeometry.CONVERGED, geometry.solvePassive(q), "crank " + theta);
            final double phi = Math.asin(-r * Math.sin(theta) / l);
            assertEquals(phi, Math.IEEEremainder(q[0] + q[1], 2 * Math.PI), 1e-12, "rod angle at crank " + theta);
            assertEquals(0.0, Math.IEEEremainder(q[0] + q[1] + q[2], 2 * Math.PI), 1e-12, "the slider does not turn, crank " + theta);
            assertTrue(dynamics.inverseDynamics(q, new double[1], new double[1], gamma));
            final double slope = -r * Math.sin(theta) + r * Math.cos(theta) * Math.tan(phi);
            assertEquals(mass * 9.81 * slope, gamma[0], 1e-12, "static crank torque at " + theta);
        }
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
    void anActiveJointNamedTwiceIsRejected() throws IOException
    {
        rejects(change("active: [crank]", "active: [crank, crank]"), line("active:"), "closure.active[1]",
            "joint 'crank' is named twice");
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
        rejects(change("type: R", "type: C"), line("type: R"), "closure.cut_joints.B.type", "'C'", "R, P, S");
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
