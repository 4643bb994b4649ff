package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.core.runtime.CollisionSettings;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.StopCategory;

/** The {@code collision} section: defaults, every value in its unit, and each rule with file, line and field. */
final class CollisionSectionTest
{
    @TempDir
    Path dir;

    @Test
    void anAbsentSectionEstimatesButMonitorsNothingAndACollisionStopIsCategoryOne() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n"));
        final CollisionSettings read = config.collisionSettings();
        assertArrayEquals(new double[] {50, 50}, read.observerGain(), 0.0);
        assertTrue(read.modelFriction());
        assertFalse(read.monitored());
        assertEquals(StopCategory.CATEGORY_1, config.safetySettings().category(Faults.COLLISION));
    }

    @Test
    void everyWrittenValueIsReadInItsUnit() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, """
            model: arm.yaml
            collision:
              observer_gain: [40, 80]
              model_friction: false
              threshold: [12.5, 6]
              reaction: retract
              retract_distance: 0.005
            safety:
              stop_category: {collision: 2}
            """));
        final CollisionSettings s = config.collisionSettings();
        assertArrayEquals(new double[] {40, 80}, s.observerGain(), 0.0);
        assertFalse(s.modelFriction());
        assertArrayEquals(new double[] {12.5, 6}, s.thresholdNm(), 0.0);
        assertEquals(CollisionSettings.Reaction.RETRACT, s.reaction());
        assertEquals(0.005, s.retractDistance());
        assertEquals(StopCategory.CATEGORY_2, config.safetySettings().category(Faults.COLLISION));
        final CollisionSettings scalar = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\ncollision: {threshold: 9, reaction: hold}\n")).collisionSettings();
        assertArrayEquals(new double[] {9, 9}, scalar.thresholdNm(), 0.0);
        assertEquals(CollisionSettings.Reaction.HOLD, scalar.reaction());
    }

    @Test
    void eachRuleIsReportedWithLineFieldAndReason() throws IOException
    {
        rejects("collision:\n  treshold: 5\n", 2, "collision.treshold", "did you mean 'threshold'?");
        rejects("collision:\n  threshold: [1, 2, 3]\n", 2, "collision.threshold", "a list of 2");
        rejects("collision:\n  threshold: 0\n", 2, "collision.threshold", "must be > 0");
        rejects("collision:\n  observer_gain: 1000\n", 2, "collision.observer_gain", "below 1000.0 1/s = 1/period");
        rejects("collision:\n  reaction: brake\n", 2, "collision.reaction", "stop, hold, retract");
        rejects("collision:\n  reaction: retract\n  retract_distance: 0.05\n", 3, "collision.retract_distance",
            "outside the allowed range");
        rejects("collision:\n  reaction: hold\n  retract_distance: 0.01\n", 3, "collision.retract_distance",
            "applies to reaction retract only");
    }

    private void rejects(final String section, final int line, final String field, final String... reasonParts)
        throws IOException
    {
        final Path file = TestDeployments.write(dir, "model: arm.yaml\n" + section);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(line + 1, e.line(), e.getMessage());
        assertEquals(field, e.field(), e.getMessage());
        for (final String part : reasonParts)
        {
            assertTrue(e.reason().contains(part), "'" + part + "' missing in: " + e.getMessage());
        }
    }
}
