package org.nectl.config.deploy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.OptionalInt;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.nectl.config.DescriptionException;
import org.nectl.config.ShippedRobots;
import org.nectl.core.control.ReferenceBlend;
import org.nectl.core.dynamics.CompiledModel;
import org.nectl.core.runtime.CarriedBaseSettings;
import org.nectl.core.runtime.ControlLaw;
import org.nectl.core.runtime.CycleSettings;
import org.nectl.core.runtime.Faults;
import org.nectl.core.runtime.StopCategory;

/** What a deployment file becomes: defaults for everything left out, every written value read in its unit. */
final class DeploymentConfigsTest
{
    @TempDir
    Path dir;

    @Test
    void aFileWithOnlyTheModelTakesEveryDefault() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n"));
        assertEquals(dir.resolve(TestDeployments.ROBOT).toAbsolutePath(), config.modelFile());
        assertEquals(DeploymentMode.REALTIME, config.mode());
        assertEquals(1_000_000L, config.periodNs());
        assertEquals(OptionalInt.empty(), config.core());
        assertEquals(OptionalInt.empty(), config.realtimePriority());
        assertEquals(ControlLaw.COMPUTED_TORQUE, config.law());
        assertEquals(AeronSettings.defaults(), config.aeron());
        assertEquals(new PlannerEndpoint("127.0.0.1", 47_600), config.planner());
        assertEquals(new TelemetrySettings("aeron:ipc", 1010, 10), config.telemetry());
        assertEquals(new HardwareSettings("aeron:ipc", 1001, 1002, 1003), config.hardware());
        assertSameSettings(CycleSettings.defaults(TestDeployments.ROBOT_DOF, 1_000_000L), config.cycleSettings());
    }

    @Test
    void everyWrittenValueIsReadInItsUnit() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, """
            model: arm.yaml
            mode: lockstep
            period_us: 500
            core: 1
            realtime_priority: 80
            aeron: {embedded_driver: false, dir: /dev/shm/aeron-robot, driver_timeout_ms: 2500}
            planner: {bind: "[::1]:0"}
            telemetry: {channel: "aeron:udp?endpoint=192.168.1.10:40123", stream: 7, decimation: 1}
            hardware: {channel: aeron:ipc, joint_state_stream: 11, motor_command_stream: 12, heartbeat_stream: 13}
            control:
              law: pd_gravity
              kp: 400
              kd: [40, 30]
              pd_kp: [60, 25]
              pd_kd: 5
              friction_feedforward: false
            supervision:
              heartbeat_timeout_ms: 20
              max_missing_states: 4
              command_timeout_ms: 250
              position_margin: 0.1
              max_saturated_ms: 3
            gravity: [0, -9.81, 0]
            """));
        assertEquals(DeploymentMode.LOCKSTEP, config.mode());
        assertEquals(OptionalInt.of(1), config.core());
        assertEquals(OptionalInt.of(80), config.realtimePriority());
        assertEquals(ControlLaw.PD_GRAVITY, config.law());
        assertEquals(new AeronSettings(false, Optional.of("/dev/shm/aeron-robot"), 2500L), config.aeron());
        assertEquals(new PlannerEndpoint("::1", 0), config.planner());
        assertEquals(new TelemetrySettings("aeron:udp?endpoint=192.168.1.10:40123", 7, 1), config.telemetry());
        assertEquals(new HardwareSettings("aeron:ipc", 11, 12, 13), config.hardware());
        // 3 ms at a 0.5 ms period is 6 periods.
        assertSameSettings(new CycleSettings(500_000L, new double[] {400, 400}, new double[] {40, 30},
            new double[] {60, 25}, new double[] {5, 5}, new double[] {0, -9.81, 0}, 20_000_000L, 4, 250_000_000L, 0.1,
            6, false), config.cycleSettings());
    }

    @Test
    void theLockstepLivenessTimeoutIsTwoSecondsByDefaultAndReadInMilliseconds() throws IOException
    {
        assertEquals(2_000_000_000L, DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n")).lockstepLivenessNs());
        assertEquals(750_000_000L, DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nsupervision: {lockstep_liveness_ms: 750}\n")).lockstepLivenessNs());
        final Path tooShort = TestDeployments.write(dir, "model: arm.yaml\nsupervision:\n  lockstep_liveness_ms: 50\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(tooShort));
        assertEquals("supervision.lockstep_liveness_ms", e.field(), e.getMessage());
        assertEquals(3, e.line(), e.getMessage());
    }

    @Test
    void theReferenceBlendTakesTheDefaultsOrTheWrittenPoleAndBounds() throws IOException
    {
        final DeploymentConfig defaults = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n"));
        final ReferenceBlend.Settings expected = ReferenceBlend.Settings.defaults(CompiledModel.of(defaults.model()), defaults.periodNs());
        assertEquals(expected.pole(), defaults.referenceBlend().pole());
        assertArrayEquals(expected.accelerationMax(), defaults.referenceBlend().accelerationMax());
        assertArrayEquals(expected.jerkMax(), defaults.referenceBlend().jerkMax());
        final DeploymentConfig written = DeploymentConfigs.load(TestDeployments.write(dir, """
            model: arm.yaml
            reference_blend:
              pole: 20
              acceleration: [15, 7.5]
              jerk: 300
            """));
        assertEquals(20.0, written.referenceBlend().pole());
        assertArrayEquals(new double[] {15, 7.5}, written.referenceBlend().accelerationMax());
        assertArrayEquals(new double[] {300, 300}, written.referenceBlend().jerkMax());
    }

    @Test
    void aDeploymentStatesWhetherItsArmIsCarriedAndBadValuesNameFileAndLine() throws IOException
    {
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n")).carriedBase());
        assertTrue(DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\n")).carriedBase());
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\nbase: {carried: false}\n")).carriedBase());
        final Path notBoolean = TestDeployments.write(dir, "model: arm.yaml\nbase:\n  carried: ship\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(notBoolean));
        assertEquals("base.carried", e.field(), e.getMessage());
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("'ship' is not a boolean"), e.getMessage());
        final Path unknownKey = TestDeployments.write(dir, "model: arm.yaml\nbase:\n  moving: true\n");
        final DescriptionException u = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(unknownKey));
        assertEquals(3, u.line(), u.getMessage());
        assertTrue(u.getMessage().contains("moving"), u.getMessage());
    }

    @Test
    void aCarriedBaseIsRefusedForClosedLoopRobotsAndAcceptedForElasticOnes() throws IOException
    {
        final Path robots = ShippedRobots.configDirectory("nectl.robots.dir", "robots");
        Files.copy(robots.resolve("palletiser.yaml"), dir.resolve("palletiser.yaml"), StandardCopyOption.REPLACE_EXISTING);
        final Path closed = TestDeployments.write(dir, "model: palletiser.yaml\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(closed));
        assertEquals("base.carried", e.field(), e.getMessage());
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains("is a closed-loop robot: a carried base is compensated for tree robots only"),
            e.getMessage());
        Files.copy(robots.resolve("mixed-elastic-3dof.yaml"), dir.resolve("mixed-elastic-3dof.yaml"),
            StandardCopyOption.REPLACE_EXISTING);
        assertTrue(DeploymentConfigs.load(TestDeployments.write(dir,
            "model: mixed-elastic-3dof.yaml\ncontrol:\n  law: mixed_elastic\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\n")).carriedBase(),
            "the mixed rigid/elastic law takes the base's motion in");
    }

    @Test
    void aCarriedBaseMotionsMaximumAgeDefaultsToFivePeriodsAndBadValuesNameFileLineAndLimit() throws IOException
    {
        final DeploymentConfig defaults = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nperiod_us: 500\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\n"));
        assertEquals(2_500_000L, defaults.base().maxAgeNs(), "5 periods of 0.5 ms");
        final DeploymentConfig written = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nbase:\n  carried: true\n  max_age_ms: 12.5\n  angular_acceleration_filter_ms: 0\n"));
        assertEquals(12_500_000L, written.base().maxAgeNs());
        assertTrue(written.carriedBase());
        assertBaseAgeRefused("max_age_ms: 0.5\n", "value 0.5 ms is shorter than one control period (1.0 ms)");
        assertBaseAgeRefused("max_age_ms: 1500\n", "value 1500 is outside the allowed range 0..1000");
        assertBaseAgeRefused("max_age_ms: -3\n", "value -3 is outside the allowed range 0..1000");
        assertBaseAgeRefused("max_age_ms: soon\n", "soon");
        final Path heldPowered = TestDeployments.write(dir,
            "model: arm.yaml\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\nsafety:\n  stop_category:\n    base_motion_lost: 2\n");
        final DescriptionException c = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(heldPowered));
        assertEquals("safety.stop_category.base_motion_lost", c.field(), c.getMessage());
        assertEquals(7, c.line(), c.getMessage());
        assertTrue(c.getMessage().contains("category 0 or 1"), c.getMessage());
        final DeploymentConfig braked = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nsafety:\n  stop_category:\n    base_motion_lost: 0\n"));
        assertEquals(StopCategory.CATEGORY_0, braked.safetySettings().category(Faults.BASE_MOTION_LOST));
    }

    @Test
    void aCarriedBasesRateTreatmentAndFiltersDefaultAndBadValuesNameFileLineAndLimit() throws IOException
    {
        final DeploymentConfig defaults = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nbase:\n  carried: true\n  angular_acceleration_filter_ms: 0\n"));
        assertEquals(CarriedBaseSettings.Rates.ESTIMATED, defaults.base().rates());
        assertEquals(CarriedBaseSettings.DEFAULT_RATE_FILTER_NS, defaults.base().rateFilterNs());
        assertEquals(CarriedBaseSettings.DEFAULT_ANGULAR_ACCELERATION_FILTER_NS, defaults.base().angularAccelerationFilterNs());
        final DeploymentConfig written = DeploymentConfigs.load(TestDeployments.write(dir,
            "model: arm.yaml\nbase:\n  carried: true\n  rates: constant\n  rate_filter_ms: 12.5\n  angular_acceleration_filter_ms: 0\n"));
        assertEquals(CarriedBaseSettings.Rates.CONSTANT, written.base().rates());
        assertEquals(12_500_000L, written.base().rateFilterNs());
        assertEquals(0L, written.base().angularAccelerationFilterNs());
        assertBaseFieldRefused("rates: measured\n", "base.rates", "unknown rates 'measured'");
        assertBaseFieldRefused("rates: measured\n", "base.rates", "allowed: estimated, constant");
        assertBaseFieldRefused("rate_filter_ms: 250\n", "base.rate_filter_ms", "value 250 is outside the allowed range 0..200");
        assertBaseFieldRefused("rate_filter_ms: -1\n", "base.rate_filter_ms", "value -1 is outside the allowed range 0..200");
        assertBaseFieldRefused("angular_acceleration_filter_ms: .nan\n", "base.angular_acceleration_filter_ms", ".nan");
        assertBaseFieldRefused("angular_acceleration_filter_ms: 201\n", "base.angular_acceleration_filter_ms",
            "value 201 is outside the allowed range 0..200");
    }

    @Test
    void aCarriedBaseWithoutItsAngularAccelerationFilterIsRefusedAtItsCarriedLine() throws IOException
    {
        final Path file = TestDeployments.write(dir, "model: arm.yaml\nbase:\n  carried: true\n  max_age_ms: 5\n");
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(3, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains(file.getFileName() + ":3:"), e.getMessage());
        assertTrue(e.getMessage().contains("a carried base needs base.angular_acceleration_filter_ms"), e.getMessage());
        assertTrue(e.getMessage().contains("about 10 when it differences a gyro"), e.getMessage());
        // a fixed base needs no filter
        assertFalse(DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\nbase:\n  carried: false\n")).carriedBase());
    }

    private void assertBaseAgeRefused(final String line, final String expected) throws IOException
    {
        assertBaseFieldRefused(line, "base.max_age_ms", expected);
    }

    private void assertBaseFieldRefused(final String line, final String field, final String expected) throws IOException
    {
        final Path file = TestDeployments.write(dir, "model: arm.yaml\nbase:\n  carried: true\n  " + line);
        final DescriptionException e = assertThrows(DescriptionException.class, () -> DeploymentConfigs.load(file));
        assertEquals(field, e.field(), e.getMessage());
        assertEquals(4, e.line(), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertTrue(e.getMessage().contains(file.getFileName() + ":4:"), e.getMessage());
    }

    @Test
    void saturationTimeIsRoundedUpToWholePeriods() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, """
            model: arm.yaml
            period_us: 3000
            supervision: {max_saturated_ms: 10}
            """));
        assertEquals(4, config.cycleSettings().maxSaturatedTicks());
    }

    @Test
    void cycleSettingsAreAFreshCopyThatCallersCannotChange() throws IOException
    {
        final DeploymentConfig config = DeploymentConfigs.load(TestDeployments.write(dir, "model: arm.yaml\n"));
        final CycleSettings first = config.cycleSettings();
        first.kp()[0] = -1.0;
        assertNotSame(first.kp(), config.cycleSettings().kp());
        assertEquals(CycleSettings.defaults(TestDeployments.ROBOT_DOF, 1_000_000L).kp()[0],
            config.cycleSettings().kp()[0], 0.0);
    }

    private static void assertSameSettings(final CycleSettings expected, final CycleSettings actual)
    {
        assertEquals(expected.periodNs(), actual.periodNs());
        assertArrayEquals(expected.kp(), actual.kp(), 0.0);
        assertArrayEquals(expected.kd(), actual.kd(), 0.0);
        assertArrayEquals(expected.pdKp(), actual.pdKp(), 0.0);
        assertArrayEquals(expected.pdKd(), actual.pdKd(), 0.0);
        assertArrayEquals(expected.gravity(), actual.gravity(), 0.0);
        assertEquals(expected.heartbeatTimeoutNs(), actual.heartbeatTimeoutNs());
        assertEquals(expected.maxMissingStates(), actual.maxMissingStates());
        assertEquals(expected.commandTimeoutNs(), actual.commandTimeoutNs());
        assertEquals(expected.positionMargin(), actual.positionMargin(), 0.0);
        assertEquals(expected.maxSaturatedTicks(), actual.maxSaturatedTicks());
        assertEquals(expected.frictionFeedforward(), actual.frictionFeedforward());
    }
}
