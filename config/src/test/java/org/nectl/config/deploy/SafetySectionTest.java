package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.config.ShippedRobots;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.SafetySettings;
import org.nectl.core.runtime.StopCategory;

/** The {@code safety} section: defaults, every value in its unit, and each rule with file, line and field. */
final class SafetySectionTest
{
    @TempDir
    Path dir;

    @Test
    void anAbsentSectionTakesTheDefaults() throws IOException
    {
        final SafetySettings read = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n")).safetySettings();
        final SafetySettings d = SafetySettings.defaults(TestDeployments.ROBOT_DOF);
        assertArrayEquals(d.categories(), read.categories());
        assertEquals(d.stopTimeNs(), read.stopTimeNs());
        assertArrayEquals(d.decelerationMax(), read.decelerationMax(), 0.0);
        assertEquals(d.standstillVelocity(), read.standstillVelocity());
        assertEquals(d.softLimitMargin(), read.softLimitMargin());
        assertEquals(d.stateJumpTolerance(), read.stateJumpTolerance());
    }

    @Test
    void everyWrittenValueIsReadInItsUnit() throws IOException
    {
        final SafetySettings s = DeploymentConfigs.load(TestDeployments.write(dir, """
            model: arm.yaml
            safety:
              stop_time_ms: 350
              deceleration: [4, 6.5]
              standstill_velocity: 0.002
              soft_limit_margin: 0.1
              state_jump: 0.03
              stop_category: {emergency_stop: 1, velocity_limit: 2, position_limit: 1, soft_position_limit: 0}
            """)).safetySettings();
        assertEquals(350_000_000L, s.stopTimeNs());
        assertArrayEquals(new double[] {4, 6.5}, s.decelerationMax(), 0.0);
        assertEquals(0.002, s.standstillVelocity());
        assertEquals(0.1, s.softLimitMargin());
        assertEquals(0.03, s.stateJumpTolerance());
        assertEquals(StopCategory.CATEGORY_1, s.category(Faults.EMERGENCY_STOP));
        assertEquals(StopCategory.CATEGORY_2, s.category(Faults.VELOCITY_LIMIT));
        assertEquals(StopCategory.CATEGORY_1, s.category(Faults.POSITION_LIMIT));
        assertEquals(StopCategory.CATEGORY_0, s.category(Faults.SOFT_POSITION_LIMIT));
        assertEquals(StopCategory.CATEGORY_2, s.category(Faults.REFERENCE_DISCONTINUITY), "not written: default");
        final SafetySettings scalar = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nsafety: {deceleration: 3}\n")).safetySettings();
        assertArrayEquals(new double[] {3, 3}, scalar.decelerationMax(), 0.0);
    }

    @Test
    void eachRuleIsReportedWithLineFieldAndReason() throws IOException
    {
        rejects("safety:\n  stop_category: {emergency_stp: 1}\n", 2, "safety.stop_category.emergency_stp",
            "unknown key 'emergency_stp'", "did you mean 'emergency_stop'?");
        rejects("safety:\n  stop_category:\n    heartbeat_timeout: 1\n", 3, "safety.stop_category.heartbeat_timeout",
            "stop category 1 not allowed", "only category 0 is possible");
        rejects("safety:\n  stop_category:\n    emergency_stop: 2\n", 3, "safety.stop_category.emergency_stop",
            "IEC 60204-1");
        rejects("safety:\n  stop_category:\n    velocity_limit: 3\n", 3, "safety.stop_category.velocity_limit",
            "outside the allowed range 0..2");
        rejects("safety:\n  stop_category:\n    stop_timeout: 0\n", 3, "safety.stop_category.stop_timeout", "unknown key");
        rejects("safety:\n  deceleration: [1, 2, 3]\n", 2, "safety.deceleration", "a list of 2");
        rejects("safety:\n  deceleration: 0\n", 2, "safety.deceleration", "must be > 0");
        rejects("safety:\n  standstill_velocity: 0\n", 2, "safety.standstill_velocity", "outside the allowed range");
        rejects("safety:\n  stop_tme_ms: 10\n", 2, "safety.stop_tme_ms", "did you mean 'stop_time_ms'?");
    }

    @Test
    void theShutdownStopIsCategoryOneByDefaultZeroOrOneIfWrittenAndALoopErrorOnlyZero() throws IOException
    {
        final SafetySettings defaults = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n")).safetySettings();
        assertEquals(StopCategory.CATEGORY_1, defaults.category(Faults.SHUTDOWN));
        assertEquals(StopCategory.CATEGORY_0, defaults.category(Faults.LOOP_ERROR));
        final SafetySettings written = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nsafety:\n  stop_category: {shutdown: 0}\n")).safetySettings();
        assertEquals(StopCategory.CATEGORY_0, written.category(Faults.SHUTDOWN));
        rejects("safety:\n  stop_category:\n    shutdown: 2\n", 3, "safety.stop_category.shutdown",
            "stop category 2 not allowed", "may not end with the drives powered");
        rejects("safety:\n  stop_category:\n    loop_error: 1\n", 3, "safety.stop_category.loop_error",
            "only category 0 is possible");
    }

    /** The Panda's joint 2 needs 15/8 * 2.175 / 7.5 = 544 ms from its velocity limit. */
    @Test
    void aStopTimeTooShortForTheVelocityLimitsNamesTheJoint() throws IOException
    {
        final Path panda = ShippedRobots.configDirectory("nectl.robots.dir", "robots").resolve("panda.yaml").toAbsolutePath();
        final String head = "model: " + panda + "\nsafety:\n  deceleration: [15, 7.5, 10, 12.5, 15, 20, 20]\n";
        final Path file = TestDeployments.write(dir, head + "  stop_time_ms: 540\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(4, e.line(), e.getMessage());
        assertEquals("safety.stop_time_ms", e.field());
        assertTrue(e.reason().contains("joint 1 needs 544 ms to stop from its velocity limit 2.175 at deceleration 7.5"),
            e.getMessage());
        final DeploymentConfig enough = DeploymentConfigs.load(TestDeployments.write(dir, head + "  stop_time_ms: 545\n"));
        assertNull(enough.safetySettings().stopTimeShortfall(enough.model()));
    }

    @Test
    void theShippedPandaFilesStopAnEmergencyStopWithCategoryOneWithinSixHundredMilliseconds() throws IOException
    {
        for (final String name : new String[] {"sim-panda.yaml", "lockstep-panda.yaml"})
        {
            final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.shipped().stream()
                .filter(p -> p.getFileName().toString().equals(name)).findFirst().orElseThrow());
            final SafetySettings s = config.safetySettings();
            assertEquals(StopCategory.CATEGORY_1, s.category(Faults.EMERGENCY_STOP), name);
            assertEquals(600_000_000L, s.stopTimeNs(), name);
            assertNull(s.stopTimeShortfall(config.model()), name);
        }
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
